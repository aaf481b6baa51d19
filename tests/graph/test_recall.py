"""Long-term chat memory: every earlier turn can be recalled, not only the running summary.

All on real SQLite files under tmp_path (the autouse fixture's data directory).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from langgraph.store.base import PutOp

from pipeline import (
    InputError,
    NotFoundError,
    Settings,
    achat,
    acreate_thread,
    adelete_thread,
    aget_thread,
    aimport_messages,
    arecall,
    prompts,
)
from pipeline.memory.index import CACHE
from pipeline.memory.store import ThreadMemory, namespace
from pipeline.storage.memory_store import open_store
from tests.support.fakes import FakeChatModel, FakeEmbeddings

SEAN = "Hello! My name is Sean Park and I am a statistics student from Busan."
# Long turns about other things, written the way people write: full of "I" and "my".
FILLER = [
    "I keep getting confused about how the central limit theorem behaves when my samples "
    "are tiny and skewed, and I wonder whether the textbook glosses over it on purpose.",
    "Could you walk me through planning a weekend hike along the coast? I want the tide "
    "tables and the last bus back to line up, and I always forget one of them.",
    "My flatmate and I argue about whether sourdough needs a warm kitchen; I think it "
    "mostly needs patience, but I have been wrong about bread many times before.",
    "I was reading about the history of chess openings last night and I could not work "
    "out why the Italian game fell out of fashion for so long before coming back.",
]


def filler(turn: int) -> str:
    return f"{FILLER[turn % len(FILLER)]} (Turn {turn}: I add a few more words each time.)"


@pytest.fixture
def memory(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", memory_token_budget=400, retry_initial_s=0)


@pytest.mark.slow
async def test_the_issue_example_answers_sean_park_on_the_built_in_engine(
    tmp_path: Path,
) -> None:
    memory = Settings(data_dir=tmp_path / "data")  # the defaults, as a new user has them
    thread = (await acreate_thread(settings=memory)).thread_id
    await achat(thread, SEAN, settings=memory)
    folds = 0
    for turn in range(38):
        folds += (await achat(thread, filler(turn), settings=memory)).compressed
    assert folds >= 2, "the filler must have been folded, the first turn with it"

    view = await aget_thread(thread, settings=memory)
    assert "Sean Park" in view.summary, "the fold keeps what the user said about themselves"
    assert SEAN not in [m.content for m in view.messages], "the first turn left the window"

    name = await achat(thread, "What is my name?", settings=memory)
    assert "Sean Park" in name.reply
    first = view.history[0].id
    assert first in name.recalled, "the turn was recalled, not only found in the summary"
    home = await achat(thread, "Where am I from?", settings=memory)
    assert "Busan" in home.reply
    study = await achat(thread, "What do I study?", settings=memory)
    assert "statistics" in study.reply


async def test_a_turn_300_messages_back_is_recalled_into_the_prompt(memory: Settings) -> None:
    model = FakeChatModel()
    thread = "far-back"
    history = [
        {"role": "user", "content": "The spare key is taped under the blue flowerpot."},
        {"role": "assistant", "content": "Noted: under the blue flowerpot."},
    ]
    for i in range(149):
        history.append({"role": "user", "content": f"Shopping list item {i}: {i} apples."})
        history.append({"role": "assistant", "content": f"Added {i} apples to the list."})
    await aimport_messages(thread, history, settings=memory)

    result = await achat(thread, "Where is the spare key?", model=model, settings=memory)
    view = await aget_thread(thread, settings=memory)
    assert view.history[0].id in result.recalled
    assert len(view.history) == 302
    prompt = model.prompts[-1]
    fenced = prompt.split(prompts.RECALL_PREFIX, 1)[1]
    assert "taped under the blue flowerpot" in fenced.split("</document>")[0]


async def test_prompt_holds_summary_then_recalled_turns_then_kept_messages(
    memory: Settings,
) -> None:
    model = FakeChatModel()
    thread = "order"
    await aimport_messages(
        thread,
        [
            {
                "role": "user",
                "content": "My boat is named Ran.",
                "name": "Ingrid",
                "created_at": "2024-05-01T09:30:00Z",
            },
            {"role": "assistant", "content": "A fine name for a boat: Ran."},
            *[{"role": "user", "content": filler(i)} for i in range(30)],
        ],
        settings=memory,
    )
    result = await achat(thread, "What is my boat named?", model=model, settings=memory)
    assert result.compressed, "the import's fold was deferred to this turn"
    prompt = model.prompts[-1]
    summary_at = prompt.index(prompts.MEMORY_PREFIX)
    recalled_at = prompt.index(prompts.RECALL_PREFIX)
    view = await aget_thread(thread, settings=memory)
    kept_at = prompt.index(view.messages[1].content[:40])
    assert summary_at < recalled_at < kept_at, "summary, then recalled turns, then kept ones"
    block = prompt[recalled_at:].split("</document>")[0]
    assert "[2024-05-01T09:30:00Z] Ingrid (User): My boat is named Ran." in block
    lines = [line for line in block.splitlines() if line.startswith("[")]
    assert lines.index(next(x for x in lines if "Ingrid" in x)) < lines.index(
        next(x for x in lines if "A fine name" in x)
    ), "recalled turns are in history order"
    kept_ids = {m.id for m in view.messages}
    assert not kept_ids & set(result.recalled), "nothing already kept is recalled again"


async def test_a_paraphrase_is_recalled_through_embeddings(memory: Settings) -> None:
    thread = "paraphrase"
    messages = [{"role": "user", "content": SEAN}] + [
        {"role": "user", "content": filler(i)} for i in range(20)
    ]
    embeddings = FakeEmbeddings()
    await aimport_messages(thread, messages, settings=memory, embeddings=embeddings)
    question = "what do people call me?"

    lexical = await arecall(thread, question, 3, settings=memory)
    assert SEAN not in [r.content for r in lexical], "no word of the question is in it"
    hybrid = await arecall(thread, question, 3, settings=memory, embeddings=embeddings)
    assert hybrid[0].content == SEAN
    assert embeddings.calls >= 2, "messages and the query were embedded"


@pytest.mark.parametrize(
    ("fact", "question", "noise"),
    [
        (
            "私の猫の名前はミケです。毎朝ごはんをあげています。",
            "猫の名前は何でしたか？",
            "今日は駅前のパン屋で新しいパンを買いました。",
        ),
        (
            "제 고양이 이름은 나비예요. 매일 아침 밥을 줘요.",
            "고양이 이름이 뭐였죠?",
            "오늘은 역 앞 빵집에서 새 빵을 샀어요.",
        ),
    ],
    ids=["japanese", "korean"],
)
async def test_japanese_and_korean_threads_recall_by_cjk_bigrams(
    fact: str, question: str, noise: str, memory: Settings
) -> None:
    thread = "cjk"
    messages = [{"role": "user", "content": fact}]
    messages += [{"role": "user", "content": f"{noise} ({i})"} for i in range(40)]
    await aimport_messages(thread, messages, settings=memory)
    hits = await arecall(thread, question, 3, settings=memory)
    assert hits[0].content == fact
    assert hits[0].index == 0


async def test_recall_returns_the_documented_fields_best_first(memory: Settings) -> None:
    await aimport_messages(
        "fields",
        [
            {
                "role": "user",
                "content": "We moved the standup to 9:15 on Tuesdays.",
                "name": "Dana",
                "created_at": "2024-03-04T08:00:00+01:00",
            },
            {"role": "assistant", "content": "Got it, Tuesday standups at 9:15."},
            {"role": "user", "content": "Lunch is at noon."},
        ],
        settings=memory,
    )
    hits = await arecall("fields", "when is the standup?", 8, settings=memory)
    first = next(h for h in hits if h.index == 0).model_dump()
    assert set(first) == {"message_id", "index", "role", "name", "content", "created_at", "score"}
    assert first["name"] == "Dana"
    assert first["created_at"] == "2024-03-04T08:00:00+01:00"
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert "Lunch is at noon." not in [h.content for h in hits], "no shared word, no recall"


async def test_two_threads_sharing_words_never_recall_each_other(memory: Settings) -> None:
    await aimport_messages(
        "north", [{"role": "user", "content": "The lighthouse key is red."}], settings=memory
    )
    await aimport_messages(
        "south", [{"role": "user", "content": "The lighthouse key is blue."}], settings=memory
    )
    north = await arecall("north", "lighthouse key", 8, settings=memory)
    south = await arecall("south", "lighthouse key", 8, settings=memory)
    assert [h.content for h in north] == ["The lighthouse key is red."]
    assert [h.content for h in south] == ["The lighthouse key is blue."]
    # Thread ids that differ only by characters the store cannot hold stay apart too.
    await aimport_messages(
        "a.b", [{"role": "user", "content": "dotted lighthouse"}], settings=memory
    )
    await aimport_messages(
        "a_b", [{"role": "user", "content": "plain lighthouse"}], settings=memory
    )
    assert [h.content for h in await arecall("a.b", "lighthouse", 8, settings=memory)] == [
        "dotted lighthouse"
    ]


async def test_deleting_a_thread_deletes_its_index_entries(memory: Settings) -> None:
    await aimport_messages(
        "gone", [{"role": "user", "content": "The vault code is 4411."}], settings=memory
    )
    await achat("gone", "What is the vault code?", settings=memory)
    await adelete_thread("gone", settings=memory)
    async with open_store(memory) as store:
        assert await store.asearch(namespace("gone"), limit=10) == []
    await aimport_messages("gone", [{"role": "user", "content": "A new start."}], settings=memory)
    assert await arecall("gone", "vault code", 8, settings=memory) == []


async def test_import_is_all_or_nothing_and_names_the_bad_message(memory: Settings) -> None:
    await aimport_messages("atomic", [{"role": "user", "content": "First, kept."}], settings=memory)
    batch = [{"role": "user", "content": f"Batch message {i} about otters."} for i in range(5)]
    batch.insert(3, {"role": "bot", "content": "otters"})
    with pytest.raises(InputError, match=r"message 3: role must be 'user' or 'assistant'"):
        await aimport_messages("atomic", batch, settings=memory)
    view = await aget_thread("atomic", settings=memory)
    assert [m.content for m in view.history] == ["First, kept."]
    assert await arecall("atomic", "otters", 8, settings=memory) == []


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ({"role": "user", "content": ""}, "content must be a non-empty string"),
        ({"role": "user"}, "content must be a non-empty string"),
        ({"role": "user", "content": "hi", "created_at": "yesterday"}, "not an ISO-8601"),
        ({"role": "user", "content": "hi", "name": ""}, "name must be a non-empty string"),
        ({"role": "user", "content": "hi", "mood": "happy"}, "unknown fields \\['mood'\\]"),
        ("hello", "is a str, not an object"),
    ],
)
async def test_a_malformed_message_is_refused_with_its_reason(
    message: object, reason: str, memory: Settings
) -> None:
    ok = {"role": "assistant", "content": "fine"}
    with pytest.raises(InputError, match=f"message 1.*{reason}"):
        await aimport_messages("new-thread", [ok, message], settings=memory)  # type: ignore[list-item]
    with pytest.raises(NotFoundError):
        await aget_thread("new-thread", settings=memory)  # not even the thread was made


async def test_recall_refuses_bad_k_empty_queries_and_unknown_threads(memory: Settings) -> None:
    await aimport_messages("k", [{"role": "user", "content": "hello"}], settings=memory)
    for k in (0, 101, -1):
        with pytest.raises(InputError, match="k must be a whole number from 1 to 100"):
            await arecall("k", "hello", k, settings=memory)
    with pytest.raises(InputError, match="query is empty"):
        await arecall("k", "  ", settings=memory)
    with pytest.raises(NotFoundError):
        await arecall("never-made", "hello", settings=memory)


async def test_a_thread_made_before_the_index_is_indexed_from_its_history(
    memory: Settings,
) -> None:
    model = FakeChatModel()
    await achat("legacy", "The harbour master is Olsen.", model=model, settings=memory)
    async with open_store(memory) as store:  # as if the index had never been written
        await ThreadMemory(store, "legacy").delete()
    hits = await arecall("legacy", "harbour master", 8, settings=memory)
    assert "The harbour master is Olsen." in [h.content for h in hits]


async def test_entries_written_ahead_of_a_history_that_never_came_are_dropped(
    memory: Settings,
) -> None:
    """A crash between the index write and the history write leaves entries the history
    lacks: recall leaves them out, and the next turn removes them."""
    model = FakeChatModel()
    await achat("crash", "The ferry leaves at six.", model=model, settings=memory)
    view = await aget_thread("crash", settings=memory)
    async with open_store(memory) as store:
        from langchain_core.messages import HumanMessage

        from pipeline.memory.entries import message_entry

        ghost = HumanMessage("The ferry leaves at ghost o'clock.", id="ghost")
        await ThreadMemory(store, "crash").append(
            [message_entry(ghost, len(view.history))], confirmed=False
        )
    CACHE.drop("crash")
    hits = await arecall("crash", "ferry leaves", 8, settings=memory)
    assert "ghost" not in [h.message_id for h in hits]
    assert len(hits) == 2

    await achat("crash", "And the bus?", model=model, settings=memory)
    async with open_store(memory) as store:
        keys = {i.key for i in await store.asearch(namespace("crash"), limit=100)}
        item = await store.aget(namespace("crash"), "m000000002")
    assert item is not None
    assert item.value["id"] != "ghost"
    assert keys >= {"head", "m000000000", "m000000003"}


async def test_names_and_dates_of_imported_messages_are_kept(memory: Settings) -> None:
    await aimport_messages(
        "named",
        [{"role": "user", "content": "Hi", "name": "Mina", "created_at": "2023-11-02T10:00:00Z"}],
        settings=memory,
    )
    message = (await aget_thread("named", settings=memory)).history[0]
    assert (message.name, message.created_at) == ("Mina", "2023-11-02T10:00:00Z")


async def test_each_turn_is_indexed_with_its_date(memory: Settings) -> None:
    model = FakeChatModel()
    await achat("dated", "The printer on floor two is broken.", model=model, settings=memory)
    hits = await arecall("dated", "printer", 8, settings=memory)
    assert {h.role for h in hits} == {"user", "assistant"}
    assert all(re.match(r"\d{4}-\d\d-\d\dT", h.created_at or "") for h in hits)


async def test_a_fold_summary_is_searchable(memory: Settings) -> None:
    model = FakeChatModel()
    thread = "folds"
    for i in range(12):
        await achat(
            thread, f"The glacier survey is number {i}. {filler(i)}", model=model, settings=memory
        )
    async with open_store(memory) as store:
        summaries = [
            i for i in await store.asearch(namespace(thread), limit=200) if i.key.startswith("s")
        ]
    assert summaries, "each fold's summary is indexed"
    hits = await arecall(thread, "glacier survey", 100, settings=memory)
    assert "summary" in {h.role for h in hits}


async def test_no_recall_without_a_store_in_a_parent_graph() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from pipeline import build_graph

    graph = build_graph(FakeChatModel(), checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    out = await graph.ainvoke({"question": "hello", "documents": []}, config)
    assert out["recalled"] == []


async def test_a_stale_cache_from_another_writer_catches_up(memory: Settings) -> None:
    """Two processes share one store: each reads what the other added since its last look."""
    await aimport_messages("shared", [{"role": "user", "content": "Alpha note."}], settings=memory)
    assert len(await arecall("shared", "note", 8, settings=memory)) == 1
    async with open_store(memory) as store:  # another process's write, behind this cache
        from langchain_core.messages import HumanMessage

        from pipeline.memory.entries import message_entry

        other = ThreadMemory(store, "shared")
        head = await other.head()
        assert head is not None
        entry = message_entry(HumanMessage("Beta note.", id="b"), head.messages)
        await store.abatch(
            [
                PutOp(other.ns, entry.key, entry.to_value()),
                PutOp(other.ns, "head", {**head.__dict__, "messages": head.messages + 1}),
            ]
        )
    assert {h.content for h in await arecall("shared", "note", 8, settings=memory)} == {
        "Alpha note.",
        "Beta note.",
    }


BUILDING = (
    "Harbour Court residents' guide. Flats are numbered from 1A on the ground floor to 20D "
    "on the top floor, and each flat number is painted beside its door. Bicycles are kept "
    "in the racks by the east gate. The spare keys of every flat are kept in the key safe "
    "at the front desk, which opens with the code the caretaker gives each resident."
)


async def test_with_a_document_attached_the_conversation_answers_what_the_user_told_it(
    memory: Settings,
) -> None:
    thread = (await acreate_thread(settings=memory)).thread_id
    guide = [{"id": "guide", "text": BUILDING}]
    told = await achat(
        thread, "My name is Priya and my flat is 14B.", documents=guide, settings=memory
    )
    assert told.mode == "chat"
    assert not told.citations

    flat = await achat(thread, "What is my flat number?", documents=guide, settings=memory)
    assert flat.mode == "chat"
    assert "14B" in flat.reply
    assert not flat.citations
    # A first-person question the conversation does not answer is the document's.
    keys = await achat(thread, "Where are my spare keys kept?", documents=guide, settings=memory)
    assert keys.mode == "document"
    # A request that also states something is still a request of the documents.
    asked = await achat(
        thread, "I have a question about the key safe.", documents=guide, settings=memory
    )
    assert asked.mode == "document"
    assert "key safe at the front desk" in keys.reply
    assert keys.citations
    # Where the user keeps a thing is theirs to tell, and the conversation's to recall.
    bike = await achat(
        thread, "I keep my bike in the shed behind the house.", documents=guide, settings=memory
    )
    assert bike.mode == "chat"
    kept = await achat(thread, "Where do I keep my bike?", documents=guide, settings=memory)
    assert kept.mode == "chat"
    assert "shed behind the house" in kept.reply


async def test_a_models_router_sees_the_end_of_the_conversation(memory: Settings) -> None:
    model = FakeChatModel()
    thread = (await acreate_thread(settings=memory)).thread_id
    guide = [{"id": "guide", "text": BUILDING}]
    await achat(thread, "Hello, my flat is 14B.", documents=guide, model=model, settings=memory)
    await achat(thread, "What is my flat number?", documents=guide, model=model, settings=memory)
    routes = [p for p in model.prompts if prompts.ROUTE_SYSTEM in p]
    assert len(routes) == 2
    assert prompts.ROUTE_NO_CONVERSATION in routes[0]
    assert "my flat is 14B" in routes[1].split(prompts.MESSAGE_LABEL)[0]
