"""The compiled graph embedded in a bigger LangGraph app, called with plain dicts."""

from __future__ import annotations

from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from pipeline import Settings, build_graph
from tests.support.fakes import FakeChatModel

TEXT = (
    ("Quiet waves roll in. " * 60) + "The lighthouse keeper is Marta Lund. " + ("Gulls cry. " * 60)
)


class Parent(TypedDict, total=False):
    question: str
    documents: list[dict[str, str]]
    answer: str
    citations: list[dict[str, Any]]
    coverage: dict[str, Any]
    usage: dict[str, Any]
    mode: str
    report: str


def write_report(state: Parent) -> dict[str, str]:
    quotes = "; ".join(c["quote"] for c in state["citations"])
    return {"report": f"{state['answer']} [sources: {quotes}]"}


async def test_graph_as_a_node_answers_with_its_citations(
    model: FakeChatModel, settings: Settings
) -> None:
    parent = StateGraph(Parent)
    parent.add_node("longdoc", build_graph(model, settings))
    parent.add_node("report", write_report)
    parent.add_edge(START, "longdoc")
    parent.add_edge("longdoc", "report")
    parent.add_edge("report", END)
    app = parent.compile()

    out = await app.ainvoke(
        {"question": "Who is the lighthouse keeper?", "documents": [{"id": "log", "text": TEXT}]}
    )
    assert "Marta Lund" in out["report"]
    assert out["coverage"]["chunks"] > 1
    assert out["usage"]["calls"] == model.calls
    assert all(TEXT[c["start"] : c["end"]] == c["quote"] for c in out["citations"])


async def test_graph_called_inside_a_node_streams_progress_to_the_parent(
    model: FakeChatModel, settings: Settings
) -> None:
    longdoc = build_graph(model, settings)

    async def research(state: Parent) -> dict[str, Any]:
        result = await longdoc.ainvoke(
            {"question": state["question"], "documents": state["documents"]}
        )
        return {"answer": result["answer"], "citations": result["citations"]}

    parent = StateGraph(Parent)
    parent.add_node("research", research)
    parent.add_edge(START, "research")
    parent.add_edge("research", END)
    app = parent.compile()

    events = [
        (namespace, chunk)
        async for namespace, chunk in app.astream(
            {
                "question": "Who is the lighthouse keeper?",
                "documents": [{"id": "log", "text": TEXT}],
            },
            stream_mode="custom",
            subgraphs=True,
        )
    ]
    kinds = [chunk["event"] for _, chunk in events]
    assert kinds[0] == "route"
    assert "split" in kinds
    assert kinds.count("chunk_done") > 1
    assert kinds[-1] == "answer"
    assert all(namespace for namespace, _ in events), "events should come from the subgraph"


async def test_parent_sees_subgraph_node_events_with_subgraphs_true(
    model: FakeChatModel, settings: Settings
) -> None:
    parent = StateGraph(Parent)
    parent.add_node("longdoc", build_graph(model, settings))
    parent.add_edge(START, "longdoc")
    parent.add_edge("longdoc", END)
    app = parent.compile()
    namespaces = {
        namespace
        async for namespace, _ in app.astream(
            {
                "question": "Who is the lighthouse keeper?",
                "documents": [{"id": "log", "text": TEXT}],
            },
            stream_mode="custom",
            subgraphs=True,
        )
    }
    assert namespaces
    assert all(ns[0].startswith("longdoc") for ns in namespaces)
