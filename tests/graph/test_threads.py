"""Chat threads on the fake model: persistence, compression, failure, isolation, errors."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from pipeline import (
    InputError,
    NotFoundError,
    Settings,
    achat,
    acreate_thread,
    adelete_thread,
    aget_thread,
    alist_threads,
    prompts,
)
from pipeline.memory.window import split_for_fold
from pipeline.text.tokens import count_tokens
from tests.support.fakes import FakeChatModel


@pytest.fixture
def memory(tmp_path: Path) -> Settings:
    """A small token budget so a few turns trigger compression."""
    return Settings(
        data_dir=tmp_path / "data",
        memory_token_budget=300,
        memory_keep_messages=4,
        memory_summary_words=40,
        retry_initial_s=0,
    )


async def test_thread_remembers_turns_across_calls(
    model: FakeChatModel, memory: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    thread = await acreate_thread(settings=memory)
    await achat(thread.thread_id, "My name is Aiko.", model=model, settings=memory)
    second = await achat(thread.thread_id, "What is my name?", model=model, settings=memory)
    assert second.mode == "chat"
    prompt = model.prompts[-1]
    assert "My name is Aiko." in prompt
    view = await aget_thread(thread.thread_id, settings=memory)
    assert [m.role for m in view.history] == ["user", "assistant", "user", "assistant"]
    assert view.history[0].content == "My name is Aiko."
    assert "unregistered type" not in caplog.text, "state types must revive without warnings"


async def test_new_thread_reads_back_empty(memory: Settings) -> None:
    thread = await acreate_thread(settings=memory)
    view = await aget_thread(thread.thread_id, settings=memory)
    assert view.history == []
    assert view.summary == ""


@pytest.mark.slow
async def test_long_conversation_is_folded_and_prompt_stays_under_budget(
    model: FakeChatModel, memory: Settings
) -> None:
    thread = (await acreate_thread(settings=memory)).thread_id
    results = []
    for turn in range(40):
        text = f"Turn {turn}: the harbour crane number {turn} lifted {turn * 3} containers today."
        if turn == 0:
            text = "My name is Aiko Tanaka and I manage the harbour."
        results.append(await achat(thread, text, model=model, settings=memory))
    assert sum(r.compressed for r in results) >= 3
    view = await aget_thread(thread, settings=memory)
    assert len(view.history) == 80, "no message is ever dropped from the history"
    assert view.summary
    assert view.messages[0].role == "system"
    assert view.summary in view.messages[0].content
    assert set(view.summary_covers) <= {m.id for m in view.history}
    chat_prompts = [p for p in model.prompts if p.startswith("You are longdoc")]
    last = chat_prompts[-1]
    assert view.summary in last
    assert count_tokens(last) <= memory.memory_token_budget + 100  # + the system prompt


@pytest.mark.parametrize(
    "failing",
    [prompts.MEMORY_INSTRUCTIONS, prompts.SUMMARY_SYSTEM],
    ids=["a transcript chunk fails", "the summary fails"],
)
async def test_failed_summary_keeps_history_and_still_answers(
    failing: str, memory: Settings
) -> None:
    model = FakeChatModel()
    thread = (await acreate_thread(settings=memory)).thread_id
    for turn in range(6):
        await achat(
            thread, f"Fact {turn}: the quay holds {turn} ships." * 3, model=model, settings=memory
        )
    before = await aget_thread(thread, settings=memory)

    broken = FakeChatModel(fail_on=failing)
    result = await achat(thread, "Another fact about the quay. " * 5, model=broken, settings=memory)
    assert result.reply
    assert not result.compressed
    after = await aget_thread(thread, settings=memory)
    assert after.summary == before.summary
    assert after.summary_covers == before.summary_covers
    assert [m.id for m in after.history[: len(before.history)]] == [m.id for m in before.history]
    assert len(after.history) == len(before.history) + 2

    retried = await achat(thread, "And one more about the quay. " * 5, model=model, settings=memory)
    assert retried.compressed, "the fold should be retried on a later turn"


async def test_count_trigger_folds_by_message_count(model: FakeChatModel, tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, memory_trigger="messages", memory_max_messages=6, memory_keep_messages=2
    )
    thread = (await acreate_thread(settings=settings)).thread_id
    compressed = [
        (await achat(thread, f"short {i}", model=model, settings=settings)).compressed
        for i in range(6)
    ]
    assert compressed.index(True) == 3  # 6 messages held + 1 incoming > 6
    view = await aget_thread(thread, settings=settings)
    assert len(view.messages) <= 6


async def test_turn_with_a_document_cites_it_and_joins_the_history(
    model: FakeChatModel, memory: Settings
) -> None:
    thread = (await acreate_thread(settings=memory)).thread_id
    document = {"id": "log.txt", "text": "Calm seas. " * 50 + "The keeper is Marta Lund. " * 1}
    result = await achat(
        thread, "Who is the keeper?", documents=[document], model=model, settings=memory
    )
    assert result.mode == "document"
    assert result.citations[0].quote == "The keeper is Marta Lund."
    follow_up = await achat(thread, "Thanks! Say that again?", model=model, settings=memory)
    assert follow_up.mode == "chat"
    assert "Marta Lund" in model.prompts[-1], "the document answer is part of the history"


async def test_two_threads_used_concurrently_never_mix(memory: Settings) -> None:
    model = FakeChatModel(latency=0.01)
    one = (await acreate_thread(settings=memory)).thread_id
    two = (await acreate_thread(settings=memory)).thread_id

    async def talk(thread: str, word: str) -> None:
        for i in range(5):
            await achat(thread, f"{word} {i}", model=model, settings=memory)

    await asyncio.gather(talk(one, "apple"), talk(two, "pear"))
    first = await aget_thread(one, settings=memory)
    second = await aget_thread(two, settings=memory)
    assert all("pear" not in m.content for m in first.history)
    assert all("apple" not in m.content for m in second.history)
    assert len(first.history) == len(second.history) == 10


async def test_concurrent_turns_on_one_thread_are_serialized(
    model: FakeChatModel, memory: Settings
) -> None:
    thread = (await acreate_thread(settings=memory)).thread_id
    await asyncio.gather(
        *(achat(thread, f"msg {i}", model=model, settings=memory) for i in range(4))
    )
    view = await aget_thread(thread, settings=memory)
    assert len(view.history) == 8
    users = [m.content for m in view.history if m.role == "user"]
    assert sorted(users) == [f"msg {i}" for i in range(4)]


async def test_unknown_thread_is_not_found(memory: Settings) -> None:
    with pytest.raises(NotFoundError):
        await aget_thread("no-such-thread", settings=memory)
    with pytest.raises(NotFoundError):
        await adelete_thread("no-such-thread", settings=memory)


async def test_deleted_thread_is_gone(model: FakeChatModel, memory: Settings) -> None:
    thread = (await acreate_thread(settings=memory)).thread_id
    await achat(thread, "hello", model=model, settings=memory)
    await adelete_thread(thread, settings=memory)
    with pytest.raises(NotFoundError):
        await aget_thread(thread, settings=memory)


@pytest.mark.parametrize("message", ["", "   "])
async def test_empty_message_is_refused(message: str, memory: Settings) -> None:
    thread = (await acreate_thread(settings=memory)).thread_id
    with pytest.raises(InputError, match="message is empty"):
        await achat(thread, message, settings=memory)


async def test_bad_thread_id_is_refused(memory: Settings) -> None:
    with pytest.raises(InputError, match="thread id"):
        await achat("../etc/passwd", "hi", settings=memory)


def test_tool_call_and_its_result_are_never_split() -> None:
    call = AIMessage("", tool_calls=[{"name": "lookup", "args": {}, "id": "c1"}])
    messages = [
        HumanMessage("a"),
        AIMessage("b"),
        HumanMessage("c"),
        call,
        ToolMessage("result", tool_call_id="c1"),
        AIMessage("d"),
    ]
    fold, keep = split_for_fold(messages, keep_last=2)
    assert keep[0] is call
    assert fold == messages[:3]


@pytest.mark.slow
async def test_built_in_engine_recalls_a_fact_from_turn_one_after_many_folds(
    tmp_path: Path,
) -> None:
    settings = Settings(
        data_dir=tmp_path / "data", memory_token_budget=400, memory_summary_words=60
    )
    thread = (await acreate_thread(settings=settings)).thread_id
    first = "My name is Aiko Tanaka and I run the night shift at berth seven."
    topics = ["crane", "tide", "cargo", "pilot", "weather", "invoice", "engine", "customs"]
    folds = 0
    await achat(thread, first, settings=settings)
    for turn in range(1, 39):
        topic = topics[turn % len(topics)]
        line = f"Note {turn}: the {topic} report for shift {turn} lists {turn * 4} items."
        folds += (await achat(thread, line, settings=settings)).compressed
    answer = await achat(thread, "What is my name?", settings=settings)
    assert folds >= 3
    assert "Aiko Tanaka" in answer.reply
    view = await aget_thread(thread, settings=settings)
    assert "Aiko Tanaka" in view.summary


async def test_turn_on_unknown_thread_can_be_refused(memory: Settings) -> None:
    with pytest.raises(NotFoundError):
        await achat("never-made", "hello", settings=memory, create=False)


async def test_threads_are_listed_in_id_order_a_page_at_a_time(
    model: FakeChatModel, memory: Settings
) -> None:
    assert (await alist_threads(settings=memory)).threads == []  # a store nobody wrote yet
    made = [(await acreate_thread(settings=memory)).thread_id for _ in range(3)]
    await achat("by-chat", "hello", model=model, settings=memory)
    everything = sorted([*made, "by-chat"])
    first = await alist_threads(limit=2, settings=memory)
    assert first.threads == everything[:2]
    second = await alist_threads(after=first.next_after, limit=2, settings=memory)
    assert second.threads == everything[2:]
    last = await alist_threads(after=second.next_after, limit=2, settings=memory)
    assert (last.threads, last.next_after) == ([], None)
    await adelete_thread("by-chat", settings=memory)
    assert "by-chat" not in (await alist_threads(settings=memory)).threads


@pytest.mark.parametrize(("after", "limit"), [("../x", 10), (None, 0), (None, 1001)])
async def test_a_bad_page_request_is_an_input_error(
    after: str | None, limit: int, memory: Settings
) -> None:
    with pytest.raises(InputError):
        await alist_threads(after=after, limit=limit, settings=memory)


def test_a_dynamodb_store_without_the_aws_extra_says_how_to_install_it(
    memory: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from pipeline import ConfigError, get_thread
    from pipeline.storage.checkpoint import dynamodb_saver

    monkeypatch.setitem(sys.modules, "langgraph_checkpoint_aws", None)  # import now fails
    monkeypatch.delitem(sys.modules, "pipeline.storage.dynamodb", raising=False)
    dynamodb_saver.cache_clear()
    settings = Settings(checkpoint_url="dynamodb://threads?region=eu-west-1")
    with pytest.raises(ConfigError, match="aws extra") as caught:
        get_thread("t", settings=settings)
    assert "longdoc[aws]" in caught.value.hint
