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


# ---- synchronous parents: invoke and stream, not ainvoke ----


def test_graph_as_a_node_of_a_sync_parent_answers_with_invoke(
    model: FakeChatModel, settings: Settings
) -> None:
    parent = StateGraph(Parent)
    parent.add_node("longdoc", build_graph(model, settings))
    parent.add_node("report", write_report)
    parent.add_edge(START, "longdoc")
    parent.add_edge("longdoc", "report")
    parent.add_edge("report", END)

    out = parent.compile().invoke(
        {"question": "Who is the lighthouse keeper?", "documents": [{"id": "log", "text": TEXT}]}
    )
    assert "Marta Lund" in out["report"]
    assert out["coverage"]["chunks"] > 1
    assert out["coverage"]["failed"] == []
    assert out["usage"]["calls"] == model.calls
    assert all(TEXT[c["start"] : c["end"]] == c["quote"] for c in out["citations"])


def test_sync_node_calling_invoke_streams_progress_to_the_parent(
    model: FakeChatModel, settings: Settings
) -> None:
    longdoc = build_graph(model, settings)

    def research(state: Parent) -> dict[str, Any]:
        result = longdoc.invoke({"question": state["question"], "documents": state["documents"]})
        return {"answer": result["answer"], "citations": result["citations"]}

    parent = StateGraph(Parent)
    parent.add_node("research", research)
    parent.add_edge(START, "research")
    parent.add_edge("research", END)
    state = {
        "question": "Who is the lighthouse keeper?",
        "documents": [{"id": "log", "text": TEXT}],
    }
    events = list(parent.compile().stream(state, stream_mode="custom", subgraphs=True))
    kinds = [chunk["event"] for _, chunk in events]
    assert kinds[0] == "route"
    assert kinds.count("chunk_done") > 1
    assert kinds[-1] == "answer"


def test_invoke_bounds_parallel_model_calls_by_max_concurrency() -> None:
    slow = FakeChatModel(latency=0.1)
    settings = Settings(chunk_size=100, chunk_overlap=0, max_concurrency=3)
    out = build_graph(slow, settings).invoke(
        {"question": "Who is the lighthouse keeper?", "documents": [{"id": "log", "text": TEXT}]}
    )
    assert "Marta Lund" in out["answer"]
    assert slow.peak_in_flight == 3


def test_invoke_reports_a_failed_chunk_like_ainvoke(model: FakeChatModel) -> None:
    settings = Settings(chunk_size=100, chunk_overlap=0, retry_initial_s=0.0, max_retries=0)
    text = TEXT + "FAIL_ALWAYS. " + ("Gulls cry. " * 60)
    out = build_graph(model, settings).invoke(
        {"question": "Who is the lighthouse keeper?", "documents": [{"id": "log", "text": text}]}
    )
    assert "Marta Lund" in out["answer"]
    assert len(out["coverage"]["failed"]) == 1


async def test_invoke_works_from_a_thread_that_runs_an_event_loop(
    model: FakeChatModel, settings: Settings
) -> None:
    # As in a notebook cell: a sync call made while this thread's loop is running.
    out = build_graph(model, settings).invoke(
        {"question": "Who is the lighthouse keeper?", "documents": [{"id": "log", "text": TEXT}]}
    )
    assert "Marta Lund" in out["answer"]
