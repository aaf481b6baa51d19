"""Opening the LangGraph store that keeps each thread's recall index, beside the checkpointer.

SQLite (`memory.sqlite` beside `threads.sqlite` in LONGDOC_DATA_DIR) by default; the same
PostgreSQL server as the threads when LONGDOC_CHECKPOINT_URL is a postgres URL, so every
replica reads one index. With DynamoDB threads the index stays in local SQLite: each replica
indexes what it has not seen from the thread's history when it next reads it (ThreadMemory's
reconcile), so recall is complete there too, only not shared. The store's own vector
index is not used: it needs sqlite-vec loaded as an extension or pgvector on the server,
which many Pythons and servers lack, so longdoc keeps vectors in the items and ranks them
itself (pipeline/memory/recall.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiosqlite
from langgraph.store.base import BaseStore
from langgraph.store.sqlite.aio import AsyncSqliteStore

from pipeline.config import Settings
from pipeline.errors import StorageError
from pipeline.storage.checkpoint import POSTGRES_SCHEMES
from pipeline.storage.locks import file_lock

STORE_FILE = "memory.sqlite"
_set_up: set[str] = set()
"""SQLite files whose store tables this process has seen made."""


@asynccontextmanager
async def open_store(settings: Settings) -> AsyncIterator[BaseStore]:
    """A ready store for the configured backend (tables created if missing), closed on exit.

    A bad LONGDOC_CHECKPOINT_URL scheme is refused by open_checkpointer, which every
    caller opens first; here any non-postgres URL (dynamodb://) means SQLite.
    """
    url = settings.checkpoint_url
    if url and url.startswith(POSTGRES_SCHEMES):
        async with _postgres(url) as store:
            yield store
    else:
        async with _sqlite(settings) as store:
            yield store


@asynccontextmanager
async def _batching_stopped(store: BaseStore) -> AsyncIterator[None]:
    """Stop the store's background batching task on exit.

    LangGraph's async stores queue reads into a task they only cancel when garbage
    collected; left to that, every closed store logs "Task was destroyed but it is
    pending" when the loop ends.
    """
    try:
        yield
    finally:
        task = getattr(store, "_task", None)
        if isinstance(task, asyncio.Task) and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@asynccontextmanager
async def _sqlite(settings: Settings) -> AsyncIterator[BaseStore]:
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        conn = aiosqlite.connect(str(settings.data_dir / STORE_FILE), isolation_level=None)
    except OSError as exc:
        raise StorageError(f"cannot create the data directory {settings.data_dir}: {exc}") from exc
    async with conn:
        store = AsyncSqliteStore(conn)
        path = str((settings.data_dir / STORE_FILE).resolve())
        if path in _set_up:
            await store.setup()  # only reads: the tables are there
        else:
            # Its migrations (ALTER TABLE among them) are not safe to race, and two
            # workers may open a new file at once: one at a time, across processes.
            async with file_lock(settings.data_dir / "locks" / "memory-setup.lock"):
                # WAL: readers (a recall) never wait on the writer (another process's turn).
                await conn.execute("PRAGMA journal_mode=WAL")
                await store.setup()
            _set_up.add(path)
        async with _batching_stopped(store):
            yield store


@asynccontextmanager
async def _postgres(url: str) -> AsyncIterator[BaseStore]:
    from langgraph.store.postgres.aio import AsyncPostgresStore
    from psycopg import OperationalError

    try:
        async with (
            AsyncPostgresStore.from_conn_string(url) as store,
            _batching_stopped(store),
        ):
            await store.setup()  # creates or migrates the store tables; idempotent
            yield store
    except OperationalError as exc:
        host = url.split("@")[-1]
        raise StorageError(f"cannot reach PostgreSQL at {host}: {exc}".strip()[:300]) from exc
