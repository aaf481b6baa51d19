"""Opening the checkpointer that keeps chat threads: SQLite by default, PostgreSQL by URL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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
# A stored object names the module its class lived in when it was written, so the paths
# of longdoc 0.1 stay listed (pipeline/schemas.py still answers them).
STATE_TYPES = [
    ("pipeline.types", "Finding"),
    ("pipeline.types", "Evidence"),
    ("pipeline.types", "CallUsage"),
    ("pipeline.types", "LimitUsage"),
    ("pipeline.types", "DocumentText"),
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
