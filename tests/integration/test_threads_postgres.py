"""Threads in a real PostgreSQL server (started by .ci/run): shared by separate processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import (
    NotFoundError,
    Settings,
    StorageError,
    achat,
    acreate_thread,
    adelete_thread,
    aget_thread,
    aimport_messages,
    alist_threads,
    arecall,
)
from pipeline.memory.index import CACHE
from pipeline.memory.store import namespace
from pipeline.storage.memory_store import open_store
from tests.support import REPO
from tests.support.fakes import FakeChatModel

pytestmark = pytest.mark.slow  # a real PostgreSQL and child processes: seconds each

URL = os.environ.get("TEST_POSTGRES_URL")


@pytest.fixture
def pg(tmp_path: Path) -> Settings:
    if not URL:
        if os.environ.get("CI"):
            pytest.fail("TEST_POSTGRES_URL is unset: .ci/run should have started PostgreSQL")
        pytest.skip("no PostgreSQL here; .ci/run starts one and sets TEST_POSTGRES_URL")
    return Settings(
        checkpoint_url=URL, data_dir=tmp_path, memory_token_budget=300, memory_summary_words=40
    )


async def test_thread_round_trips_through_postgres(model: FakeChatModel, pg: Settings) -> None:
    thread = (await acreate_thread(settings=pg)).thread_id
    for turn in range(30):
        await achat(
            thread, f"Fact {turn}: crane {turn} lifted {turn * 7} boxes.", model=model, settings=pg
        )
    view = await aget_thread(thread, settings=pg)
    assert len(view.history) == 60
    assert view.summary, "the small budget should have folded history"
    listed = await alist_threads(after=thread[:-1], limit=1000, settings=pg)
    assert thread in listed.threads  # the server outlives runs: other threads may be there
    assert listed.threads == sorted(listed.threads)
    await adelete_thread(thread, settings=pg)
    assert thread not in (await alist_threads(after=thread[:-1], settings=pg)).threads
    with pytest.raises(NotFoundError):
        await aget_thread(thread, settings=pg)


def test_a_thread_written_by_one_process_is_read_by_another(pg: Settings) -> None:
    """Two API replicas share threads through PostgreSQL: here, two separate processes."""
    script = (
        "import asyncio, sys\n"
        "from pipeline import Settings, achat, acreate_thread\n"
        "from tests.support.fakes import FakeChatModel\n"
        "async def main():\n"
        f"    s = Settings(checkpoint_url={URL!r})\n"
        "    t = (await acreate_thread(settings=s)).thread_id\n"
        "    await achat(t, 'My boat is called Ran.', model=FakeChatModel(), settings=s)\n"
        "    print(t)\n"
        "asyncio.run(main())\n"
    )
    made = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    thread = made.stdout.strip()
    reader = (
        "from pipeline import Settings, get_thread\n"
        f"v = get_thread({thread!r}, settings=Settings(checkpoint_url={URL!r}))\n"
        "print(v.history[0].content)\n"
    )
    read = subprocess.run(
        [sys.executable, "-c", reader],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert read.stdout.strip() == "My boat is called Ran."


async def test_unreachable_postgres_is_a_storage_error(tmp_path: Path) -> None:
    settings = Settings(checkpoint_url="postgresql://nobody@127.0.0.1:1/none", data_dir=tmp_path)
    with pytest.raises(StorageError, match=r"127\.0\.0\.1:1"):
        await acreate_thread(settings=settings)


async def test_recall_index_lives_in_postgres_and_goes_with_the_thread(pg: Settings) -> None:
    """Import, a turn, recall from another process's point of view, then delete."""
    thread = (await acreate_thread(settings=pg)).thread_id
    history = [{"role": "user", "content": "The ferry to Hirtshals leaves from pier four."}]
    history += [{"role": "user", "content": f"Crate {i} holds {i} nets."} for i in range(60)]
    await aimport_messages(thread, history, settings=pg)
    turn = await achat(
        thread, "Which pier does the ferry leave from?", model=FakeChatModel(), settings=pg
    )
    view = await aget_thread(thread, settings=pg)
    assert view.history[0].id in turn.recalled

    CACHE.drop(thread)  # as a replica that never saw this thread would
    hits = await arecall(thread, "ferry pier", 3, settings=pg)
    assert view.history[0].id in [h.message_id for h in hits]

    await adelete_thread(thread, settings=pg)
    async with open_store(pg) as store:
        assert await store.asearch(namespace(thread), limit=5) == []
    with pytest.raises(NotFoundError):
        await arecall(thread, "ferry", settings=pg)
