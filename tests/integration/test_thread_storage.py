"""What a thread keeps in its store, on real SQLite and PostgreSQL: one checkpoint, flat size
per turn, no per-turn working state, and nothing at all from a refused or failed turn."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest

from pipeline import ModelError, Settings, achat, acreate_thread, aget_thread
from tests.support.fakes import FakeChatModel
from tests.support.http import assert_error, client_for

pytestmark = pytest.mark.slow  # dozens of turns on real stores

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    base = Settings(
        data_dir=tmp_path / "data", retry_initial_s=0.0, chunk_size=100, chunk_overlap=0
    )
    if request.param == "sqlite":
        return base
    if not POSTGRES_URL:
        if os.environ.get("CI"):
            pytest.fail("TEST_POSTGRES_URL is unset: .ci/run should have started PostgreSQL")
        pytest.skip("no PostgreSQL here; .ci/run starts one and sets TEST_POSTGRES_URL")
    return base.model_copy(update={"checkpoint_url": POSTGRES_URL})


def footprint(settings: Settings, thread_id: str) -> tuple[int, int]:
    """(checkpoints, bytes) the store holds for the thread: checkpoints, writes and blobs."""
    if settings.checkpoint_url:
        import psycopg

        with psycopg.connect(settings.checkpoint_url) as conn:
            count, size = conn.execute(
                "SELECT count(*), coalesce(sum(octet_length(checkpoint::text) "
                "+ octet_length(metadata::text)), 0) FROM checkpoints WHERE thread_id = %s",
                (thread_id,),
            ).fetchone() or (0, 0)
            for table, column in (("checkpoint_writes", "blob"), ("checkpoint_blobs", "blob")):
                row = conn.execute(
                    f"SELECT coalesce(sum(octet_length({column})), 0) FROM {table} "
                    "WHERE thread_id = %s",
                    (thread_id,),
                ).fetchone()
                size += row[0] if row else 0
        return int(count), int(size)
    path = settings.data_dir / "threads.sqlite"
    with sqlite3.connect(path) as conn:
        count, size = conn.execute(
            "SELECT count(*), coalesce(sum(length(checkpoint) + length(metadata)), 0) "
            "FROM checkpoints WHERE thread_id = ?",
            (thread_id,),
        ).fetchone()
        (writes,) = conn.execute(
            "SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = ?",
            (thread_id,),
        ).fetchone()
    return int(count), int(size + writes)


async def turn(settings: Settings, thread_id: str, message: str, **kwargs: Any) -> Any:
    model = kwargs.pop("model", None) or FakeChatModel()
    return await achat(thread_id, message, model=model, settings=settings, **kwargs)


async def test_a_thread_keeps_one_checkpoint_and_a_flat_size_per_turn(store: Settings) -> None:
    thread_id = uuid.uuid4().hex
    sizes = []
    for n in range(30):
        await turn(store, thread_id, f"Note {n}: the crane on pier {n} was inspected today.")
        count, size = footprint(store, thread_id)
        assert count == 1
        sizes.append(size)
    # Bytes added by turns 11-20 and by turns 21-30: the same, not growing with the thread.
    assert sizes[29] - sizes[19] < 1.3 * (sizes[19] - sizes[9])
    history = (await aget_thread(thread_id, settings=store)).history
    assert len(history) == 60  # every message is still there


async def test_a_turn_with_a_document_leaves_no_copy_of_it_behind(store: Settings) -> None:
    thread_id = uuid.uuid4().hex
    document = "Grey clouds drift over the quiet harbour. " * 12_000  # 500 KB
    document += "Acme Shipping was founded by Ada Lovelace."
    first = await turn(store, thread_id, "Who founded Acme Shipping?", documents=document)
    assert first.mode == "document"
    for _ in range(3):
        await turn(store, thread_id, "thanks")
    count, size = footprint(store, thread_id)
    assert count == 1
    assert size < 50_000  # the document (and its chunks and findings) is not stored


async def test_a_failed_turn_leaves_the_thread_as_it_was(store: Settings) -> None:
    thread_id = uuid.uuid4().hex
    await turn(store, thread_id, "My name is Aiko.")
    before = footprint(store, thread_id)
    failing = FakeChatModel(fail_on="EXPLODE")
    settings = store.model_copy(update={"max_retries": 0})
    with pytest.raises(ModelError):
        await turn(settings, thread_id, "EXPLODE now", model=failing)
    assert footprint(store, thread_id) == before
    history = (await aget_thread(thread_id, settings=store)).history
    assert history[0].content == "My name is Aiko."
    assert len(history) == 2


async def test_a_cancelled_turn_leaves_the_thread_as_it_was(store: Settings) -> None:
    thread_id = uuid.uuid4().hex
    await turn(store, thread_id, "My name is Aiko.")
    before = footprint(store, thread_id)
    slow = FakeChatModel(latency=2.0)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(turn(store, thread_id, "And I work nights.", model=slow), 0.5)
    assert footprint(store, thread_id) == before


# ---- a refused message or document stores nothing (item 3), through the API ----


async def thread_with_one_turn(http: Any) -> str:
    thread_id: str = (await http.post("/v1/threads")).json()["thread_id"]
    said = await http.post(f"/v1/threads/{thread_id}/messages", json={"message": "Hi."})
    assert said.status_code == 200
    return thread_id


async def test_refused_messages_store_nothing(store: Settings) -> None:
    async with await client_for(store) as http:
        thread_id = await thread_with_one_turn(http)
        before = footprint(store, thread_id)
        for _ in range(5):
            response = await http.post(
                f"/v1/threads/{thread_id}/messages", json={"message": "x" * 1_000_000}
            )
            assert_error(response, 413, "too_large")
        assert footprint(store, thread_id) == before


async def test_refused_documents_store_nothing(store: Settings) -> None:
    settings = store.model_copy(update={"max_chunks": 3, "max_document_mb": 0.2})
    async with await client_for(settings) as http:
        thread_id = await thread_with_one_turn(http)
        before = footprint(settings, thread_id)
        too_long = "Grey clouds drift over the quiet harbour. " * 6000  # over 200,000 chars
        many_chunks = "Grey clouds drift over the quiet harbour. " * 400  # over 3 chunks
        for document in (too_long, many_chunks):
            response = await http.post(
                f"/v1/threads/{thread_id}/messages",
                json={"message": "What is in it?", "document": document},
            )
            assert_error(response, 413, "too_large")
        assert footprint(settings, thread_id) == before


async def test_a_new_thread_whose_first_turn_fails_does_not_exist(store: Settings) -> None:
    failing = FakeChatModel(fail_on="EXPLODE")
    settings = store.model_copy(update={"max_retries": 0})
    thread_id = uuid.uuid4().hex
    with pytest.raises(ModelError):
        await turn(settings, thread_id, "EXPLODE now", model=failing)
    assert footprint(store, thread_id) == (0, 0)
    created = await acreate_thread(settings=store)
    assert footprint(store, created.thread_id)[0] == 1
