"""Opening the checkpointer that keeps chat threads: SQLite by default, PostgreSQL by URL."""

from __future__ import annotations

import asyncio
import fcntl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from pipeline.config import Settings
from pipeline.errors import ConfigError, StorageError

Saver = BaseCheckpointSaver[Any]
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

# Our own types stored in graph state. Naming them switches the serializer to strict
# mode: it revives only LangChain's safe types and these, never arbitrary classes.
STATE_TYPES = [
    ("pipeline.schemas", "Finding"),
    ("pipeline.schemas", "Evidence"),
    ("pipeline.schemas", "CallUsage"),
]


def _serde() -> JsonPlusSerializer:
    return JsonPlusSerializer(allowed_msgpack_modules=STATE_TYPES)


@asynccontextmanager
async def open_checkpointer(settings: Settings) -> AsyncIterator[Saver]:
    """A ready checkpointer for the configured store, closed on exit."""
    url = settings.checkpoint_url
    if url and url.startswith(POSTGRES_SCHEMES):
        async with _postgres(url) as saver:
            yield saver
    elif url:
        raise ConfigError(
            f"LONGDOC_CHECKPOINT_URL must be a postgresql:// URL, not {url.split(':', 1)[0]}://",
            hint="Unset it to keep threads in SQLite under LONGDOC_DATA_DIR.",
        )
    else:
        async with _sqlite(settings) as saver:
            yield saver


@asynccontextmanager
async def _sqlite(settings: Settings) -> AsyncIterator[Saver]:
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create the data directory {settings.data_dir}: {exc}") from exc
    async with aiosqlite.connect(str(settings.data_dir / "threads.sqlite")) as conn:
        yield AsyncSqliteSaver(conn, serde=_serde())


@asynccontextmanager
async def _postgres(url: str) -> AsyncIterator[Saver]:
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from psycopg import OperationalError

    try:
        async with AsyncPostgresSaver.from_conn_string(url, serde=_serde()) as saver:
            await saver.setup()  # creates or migrates the tables; idempotent
            yield saver
    except OperationalError as exc:
        host = url.split("@")[-1]
        raise StorageError(f"cannot reach PostgreSQL at {host}: {exc}".strip()[:300]) from exc


# How often a turn waiting for another process's turn on the same thread checks again.
LOCK_POLL_S = 0.05


@asynccontextmanager
async def thread_lock(settings: Settings, thread_id: str) -> AsyncIterator[None]:
    """Hold the thread across processes, so turns from several workers or replicas queue.

    PostgreSQL: a session advisory lock, which also spans machines. SQLite (one machine):
    an exclusive lock on a file beside the database. Both are polled rather than
    blocked on, so a cancelled request stops waiting at once and never acquires late.
    """
    url = settings.checkpoint_url
    if url and url.startswith(POSTGRES_SCHEMES):
        async with _advisory_lock(url, thread_id):
            yield
    else:
        async with _file_lock(settings.data_dir / "locks" / f"{thread_id}.lock"):
            yield


@asynccontextmanager
async def _advisory_lock(url: str, thread_id: str) -> AsyncIterator[None]:
    from psycopg import AsyncConnection, OperationalError

    try:
        conn = await AsyncConnection.connect(url, autocommit=True)
    except OperationalError as exc:
        raise StorageError(f"cannot reach PostgreSQL at {url.split('@')[-1]}: {exc}") from exc
    async with conn:  # closing the session releases the lock, whatever happens
        while True:
            cursor = await conn.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (thread_id,)
            )
            row = await cursor.fetchone()
            if row is not None and row[0]:
                break
            await asyncio.sleep(LOCK_POLL_S)
        yield


@asynccontextmanager
async def _file_lock(path: Path) -> AsyncIterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:  # closing the file releases the lock
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                await asyncio.sleep(LOCK_POLL_S)
        yield
