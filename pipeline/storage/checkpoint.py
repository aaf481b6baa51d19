"""Opening the checkpointer that keeps chat threads: SQLite by default, PostgreSQL or DynamoDB
by URL; and creating a store's tables (`longdoc store init`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

import aiosqlite
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from pipeline.config import Settings
from pipeline.errors import ConfigError, StorageError

Saver = BaseCheckpointSaver[Any]
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
DYNAMODB_SCHEME = "dynamodb://"
AWS_HINT = "pip install 'longdoc[aws]'"

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
    elif url and url.startswith(DYNAMODB_SCHEME):
        # Built once per process (boto3 clients are slow to make and thread-safe); no
        # request is sent until the first read or write.
        yield await asyncio.to_thread(dynamodb_saver, url)
    elif url:
        raise ConfigError(
            "LONGDOC_CHECKPOINT_URL must be a postgresql:// or dynamodb:// URL, not "
            f"{url.split(':', 1)[0]}://",
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


@lru_cache(maxsize=8)
def dynamodb_saver(url: str) -> Saver:
    """The checkpointer of a dynamodb:// URL (storage/dynamodb.py), shared by every request."""
    try:
        from pipeline.storage.dynamodb import LongdocDynamoDBSaver, parse_url
    except ImportError as exc:
        raise needs_aws(exc) from None
    saver: Saver = LongdocDynamoDBSaver(parse_url(url), _serde())
    return saver


def needs_aws(exc: ImportError) -> ConfigError:
    return ConfigError(
        f"a dynamodb:// thread store needs the aws extra ({exc.name} is missing)", hint=AWS_HINT
    )


async def init_store(settings: Settings) -> list[str]:
    """Create the configured store's tables (and S3 bucket) if missing; what was done.

    Idempotent. DynamoDB tables are made only here, never as a side effect of a request.
    """
    url = settings.checkpoint_url
    if url and url.startswith(DYNAMODB_SCHEME):
        try:
            from pipeline.storage.dynamodb import create_store
        except ImportError as exc:
            raise needs_aws(exc) from None
        return await asyncio.to_thread(create_store, url)
    async with open_checkpointer(settings) as saver:
        if isinstance(saver, AsyncSqliteSaver):
            await saver.setup()
            return [f"SQLite thread store ready in {settings.data_dir / 'threads.sqlite'}"]
    assert url is not None
    return [f"PostgreSQL thread store ready at {url.split('@')[-1]}"]  # open ran its setup()
