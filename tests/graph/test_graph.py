"""The map-reduce graph on a chat model: routing, fan-out, failures, retries, citations, usage."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from pipeline import Settings, aask, ask, asummarize, build_graph, summarize
from pipeline.documents import load as loading
from pipeline.graph.chunking import split_documents
from pipeline.text.tokens import count_tokens
from pipeline.types import DocumentText
from tests.support.fakes import FakeChatModel
from tests.support.texts import FILLER, KEEPER_IN_A_FAILING_CHUNK, ROBOTICS_REPORT


async def events_of(graph: Any, state: dict[str, Any]) -> list[dict[str, Any]]:
    return [chunk async for chunk in graph.astream(state, stream_mode="custom")]


def test_question_about_document_is_answered_with_exact_citations(
    model: FakeChatModel, settings: Settings
) -> None:
    result = ask(ROBOTICS_REPORT, "Who is the chief executive?", model=model, settings=settings)
    assert result.mode == "document"
    assert "Ingrid Halvorsen" in result.answer
    assert result.citations
    for citation in result.citations:
        assert ROBOTICS_REPORT[citation.start : citation.end] == citation.quote
    assert result.coverage.chunks == result.coverage.read > 1


async def test_greeting_with_document_in_a_chat_turn_is_routed_to_chat(
    model: FakeChatModel, settings: Settings
) -> None:
    # A run that names no task is a chat turn (threads run so): the router decides.
    graph = build_graph(model, settings)
    documents = [{"id": "report", "text": ROBOTICS_REPORT}]
    output = await graph.ainvoke({"question": "Hello there", "documents": documents})
    assert output["mode"] == "chat"
    assert output["citations"] == []
    assert "map_chunk" not in output["usage"]["by_node"]


def test_ask_reads_the_documents_whatever_the_router_would_say(
    model: FakeChatModel, settings: Settings
) -> None:
    result = ask(ROBOTICS_REPORT, "Hello there", model=model, settings=settings)
    assert result.mode == "document"
    assert "route" not in result.usage.by_node
    assert result.coverage.read == result.coverage.chunks > 1


async def test_no_document_means_chat_without_a_routing_call(
    model: FakeChatModel, settings: Settings
) -> None:
    graph = build_graph(model, settings)
    output = await graph.ainvoke({"question": "What can you do?"})
    assert output["mode"] == "chat"
    assert "route" not in output["usage"]["by_node"]
    assert output["usage"]["calls"] == 1


async def test_unparsable_router_reply_is_retried_once_then_reads_the_document(
    model: FakeChatModel, settings: Settings
) -> None:
    graph = build_graph(model, settings)
    documents = [{"id": "report", "text": ROBOTICS_REPORT}]
    output = await graph.ainvoke(
        {"question": "UNPARSABLE_ROUTE who founded it?", "documents": documents}
    )
    assert output["mode"] == "document"
    assert output["usage"]["by_node"]["route"]["calls"] == 2


async def test_every_chunk_is_read_once_and_progress_counts_them(
    model: FakeChatModel, settings: Settings
) -> None:
    graph = build_graph(model, settings)
    documents = [{"id": "report", "text": ROBOTICS_REPORT}]
    events = await events_of(graph, {"question": "When was it founded?", "documents": documents})
    chunks = len(split_documents([DocumentText(**d) for d in documents], settings))
    split = [e for e in events if e["event"] == "split"]
    done = [e for e in events if e["event"] == "chunk_done"]
    assert split == [{"event": "split", "chunks": chunks}]
    assert len(done) == chunks > 4
    assert sorted(e["done"] for e in done) == list(range(1, chunks + 1))
    assert {e["total"] for e in done} == {chunks}
    assert sum(1 for p in model.prompts if "Excerpt " in p) == chunks
    assert events[-1]["event"] == "answer"


def test_peak_concurrent_model_calls_equal_the_configured_limit() -> None:
    slow = FakeChatModel(latency=0.05)
    settings = Settings(chunk_size=100, chunk_overlap=0, max_concurrency=3)
    ask(ROBOTICS_REPORT, "When was it founded?", model=slow, settings=settings)
    assert slow.peak_in_flight == 3


def test_failed_chunk_is_reported_and_answer_still_returned(model: FakeChatModel) -> None:
    settings = Settings(chunk_size=100, chunk_overlap=0, retry_initial_s=0.0, max_retries=2)
    text = ROBOTICS_REPORT + "FAIL_ALWAYS. " + FILLER
    result = ask(text, "Who is the chief executive?", model=model, settings=settings)
    assert "Ingrid Halvorsen" in result.answer
    assert len(result.coverage.failed) == 1
    failed = result.coverage.failed[0]
    assert "500" in failed.error
    assert result.coverage.read == result.coverage.chunks - 1
    failing_prompts = [p for p in model.prompts if "FAIL_ALWAYS" in p and "Excerpt" in p]
    assert len(failing_prompts) == 3  # the first try and max_retries=2 retries


def test_not_found_when_a_chunk_failed_says_what_could_not_be_read(model: FakeChatModel) -> None:
    settings = Settings(chunk_size=100, chunk_overlap=0, retry_initial_s=0.0, max_retries=0)
    result = ask(
        KEEPER_IN_A_FAILING_CHUNK, "Who is the lighthouse keeper?", model=model, settings=settings
    )
    coverage = result.coverage
    assert len(coverage.failed) == 1
    assert not result.answer.startswith("The documents do not contain")
    assert result.answer == (
        f"The answer could not be found in the chunks that were read "
        f"({coverage.read} of {coverage.chunks}): 1 of {coverage.chunks} chunks could not be "
        "read, and the answer may be in them."
    )
    assert result.incomplete
    assert result.model_dump()["incomplete"] is True
    assert result.citations == []


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("灯台守は誰ですか？", "読み取れた部分（{chunks}個中{read}個のチャンク）では答えが"),
        ("등대지기는 누구입니까?", "읽은 청크({chunks}개 중 {read}개)에서는 답을"),
        ("灯塔看守人是谁？", "在已读取的部分（{chunks}个块中的{read}个）中没有找到答案"),
    ],
)
def test_not_found_with_a_failed_chunk_is_in_the_language_of_the_question(
    model: FakeChatModel, question: str, expected: str
) -> None:
    settings = Settings(chunk_size=100, chunk_overlap=0, retry_initial_s=0.0, max_retries=0)
    result = ask(KEEPER_IN_A_FAILING_CHUNK, question, model=model, settings=settings)
    coverage = result.coverage
    assert result.answer.startswith(expected.format(chunks=coverage.chunks, read=coverage.read))
    assert result.incomplete


def test_answer_from_the_chunks_read_is_still_marked_incomplete(model: FakeChatModel) -> None:
    settings = Settings(chunk_size=100, chunk_overlap=0, retry_initial_s=0.0, max_retries=0)
    text = ROBOTICS_REPORT + "FAIL_ALWAYS. " + FILLER
    result = ask(text, "Who is the chief executive?", model=model, settings=settings)
    assert "Ingrid Halvorsen" in result.answer
    assert result.incomplete
    summary = summarize(text, model=model, settings=settings)
    assert summary.incomplete
    assert summary.model_dump()["incomplete"] is True


def test_clean_run_is_not_incomplete(model: FakeChatModel, settings: Settings) -> None:
    result = ask(ROBOTICS_REPORT, "Which submarine models exist?", model=model, settings=settings)
    assert result.answer.startswith("The documents do not contain")
    assert not result.incomplete
    assert result.model_dump()["incomplete"] is False


def test_rate_limited_chunk_succeeds_on_retry(model: FakeChatModel, settings: Settings) -> None:
    text = ROBOTICS_REPORT.replace("The chief executive", "RATE_LIMITED_ONCE. The chief executive")
    result = ask(text, "Who is the chief executive?", model=model, settings=settings)
    assert result.coverage.failed == []
    assert "Ingrid Halvorsen" in result.answer


def test_unparsable_chunk_reply_is_retried_once_then_reported(
    model: FakeChatModel, settings: Settings
) -> None:
    text = ROBOTICS_REPORT + "BAD_JSON here. " + FILLER
    result = ask(text, "Who is the chief executive?", model=model, settings=settings)
    assert len(result.coverage.failed) == 1
    assert "parsed" in result.coverage.failed[0].error
    assert sum(1 for p in model.prompts if "BAD_JSON" in p and "Excerpt" in p) == 2


def test_every_chunk_failing_is_a_model_error(model: FakeChatModel) -> None:
    from pipeline import ModelError

    settings = Settings(max_retries=0)
    with pytest.raises(ModelError, match="every chunk failed"):
        ask("FAIL_ALWAYS in a tiny document.", "What fails?", model=model, settings=settings)


def test_usage_adds_up_to_every_call_the_model_saw(
    model: FakeChatModel, settings: Settings
) -> None:
    result = ask(ROBOTICS_REPORT, "Who is the chief executive?", model=model, settings=settings)
    assert result.usage.calls == model.calls
    assert result.usage.input_tokens == sum(count_tokens(p) for p in model.prompts)
    by_node = result.usage.by_node
    assert sum(n.calls for n in by_node.values()) == result.usage.calls
    assert set(by_node) == {"map_chunk", "reduce"}  # ask reads without routing


def test_two_documents_are_cited_by_their_own_ids(model: FakeChatModel, settings: Settings) -> None:
    documents = [
        {
            "id": "founding.txt",
            "text": FILLER + "Halvorsen Robotics was founded in 1987. " + FILLER,
        },
        {"id": "people.txt", "text": FILLER + "Its chief engineer is Tomas Berg. " + FILLER},
    ]
    result = ask(
        documents,
        "When was Robotics founded and who is the engineer?",
        model=model,
        settings=settings,
    )
    cited = {c.document for c in result.citations}
    assert cited == {"founding.txt", "people.txt"}
    texts = {d["id"]: d["text"] for d in documents}
    for citation in result.citations:
        assert texts[citation.document][citation.start : citation.end] == citation.quote


def test_repeated_text_is_cited_at_its_own_position(
    model: FakeChatModel, settings: Settings
) -> None:
    repeated = "The chief executive is Ingrid Halvorsen. "
    text = FILLER + repeated + FILLER + repeated + FILLER
    result = ask(text, "Who is the chief executive?", model=model, settings=settings)
    starts = sorted(c.start for c in result.citations)
    assert len(starts) == 2
    assert starts[0] != starts[1]
    for citation in result.citations:
        assert text[citation.start : citation.end] == citation.quote


def test_question_nobody_can_answer_gets_the_fixed_reply_without_a_final_call(
    model: FakeChatModel, settings: Settings
) -> None:
    result = ask(ROBOTICS_REPORT, "Which submarine models exist?", model=model, settings=settings)
    assert result.answer.startswith("The documents do not contain")
    assert result.citations == []
    assert "reduce" not in result.usage.by_node


def test_not_found_answer_is_in_the_language_of_the_question(
    model: FakeChatModel, settings: Settings
) -> None:
    result = ask(ROBOTICS_REPORT, "潜水艦のモデルは何ですか？", model=model, settings=settings)
    assert result.answer == "文書にはこの質問に答える情報が見つかりませんでした。"


async def test_tiny_reduce_budget_collapses_and_fits(model: FakeChatModel) -> None:
    settings = Settings(
        chunk_size=80, chunk_overlap=0, reduce_token_budget=200, collapse_max_rounds=6
    )
    text = " ".join(f"Harbour fact {i} is that the harbour holds {i} boats." for i in range(120))
    graph = build_graph(model, settings)
    events = await events_of(
        graph,
        {
            "question": "How many boats does the harbour hold?",
            "documents": [{"id": "d", "text": text}],
        },
    )
    rounds = [e for e in events if e["event"] == "reduce"]
    assert rounds, "the findings should have needed collapsing"
    assert rounds[-1]["tokens"] <= 200
    assert [e["round"] for e in rounds] == list(range(1, len(rounds) + 1))
    final_prompt = next(p for p in reversed(model.prompts) if "Notes:" in p and "merged" not in p)
    notes = final_prompt.split("Notes:", 1)[1]
    assert count_tokens(notes) <= 200 + 60  # the budget plus the fence and numbering


def test_summary_cites_real_spans(model: FakeChatModel, settings: Settings) -> None:
    result = summarize(ROBOTICS_REPORT, model=model, settings=settings)
    assert result.summary
    assert result.citations
    for citation in result.citations:
        assert ROBOTICS_REPORT[citation.start : citation.end] == citation.quote


async def test_second_run_on_a_thread_does_not_see_the_first_runs_findings(
    model: FakeChatModel, settings: Settings
) -> None:
    graph = build_graph(model, settings, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    documents = [{"id": "report", "text": ROBOTICS_REPORT}]
    first = await graph.ainvoke(
        {"question": "Who is the chief executive?", "documents": documents}, config
    )
    second = await graph.ainvoke(
        {"question": "When was it founded?", "documents": documents}, config
    )
    assert "Ingrid" in first["answer"]
    assert "Ingrid" not in second["answer"]
    assert "1987" in second["answer"]
    assert second["usage"]["calls"] < first["usage"]["calls"] + second["coverage"]["chunks"]
    state = (await graph.aget_state(config)).values
    # The run's last node cleared its working state: the thread keeps no findings.
    assert state["findings"] == []
    assert state["chunks"] == []
    assert state["documents"] == []


@pytest.mark.parametrize("task", ["ask", "summarize"])
async def test_async_calls_keep_the_callers_event_loop_free_while_documents_load(
    task: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow load (a big PDF waits on its parser) must not stall the caller's other tasks."""
    real_load = loading.load_documents

    def slow_load(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(loading, "load_documents", slow_load)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    try:
        if task == "ask":
            answer = (await aask(ROBOTICS_REPORT, "Who is the chief executive?")).answer
        else:
            answer = (await asummarize(ROBOTICS_REPORT, words=40)).summary
    finally:
        ticker.cancel()
    assert answer
    assert ticks >= 10  # a blocked loop ticks once at most in those 0.3 s
