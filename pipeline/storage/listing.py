"""Listing the threads of a store, in id order, a page at a time."""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from pipeline.storage.checkpoint import Saver

# The checkpoint tables' primary key starts (thread_id, checkpoint_ns): an index walk.
_SQL = (
    "SELECT DISTINCT thread_id FROM checkpoints WHERE checkpoint_ns = '' AND thread_id > {p} "
    "ORDER BY thread_id LIMIT {p}"
)


async def thread_ids(saver: Saver, after: str | None, limit: int) -> list[str]:
    """Up to `limit` thread ids greater than `after` (all when None), in order."""
    if isinstance(saver, AsyncSqliteSaver):
        await saver.setup()  # a store no turn has written yet has no tables
        async with saver.lock, saver.conn.execute(_SQL.format(p="?"), (after or "", limit)) as cur:
            return [str(row[0]) async for row in cur]
    dynamodb = getattr(saver, "thread_ids", None)
    if dynamodb is not None:  # storage/dynamodb.py: a Query on its thread index
        found: list[str] = await asyncio.to_thread(dynamodb, after, limit)
        return found
    if type(saver).__name__ == "AsyncPostgresSaver":
        return await _postgres(saver, after, limit)
    return await _any(saver, after, limit)


async def _postgres(saver: Any, after: str | None, limit: int) -> list[str]:
    async with saver._cursor() as cur:
        await cur.execute(_SQL.format(p="%s"), (after or "", limit))
        return [str(row["thread_id"]) for row in await cur.fetchall()]


async def _any(saver: Saver, after: str | None, limit: int) -> list[str]:
    """A caller's own checkpointer: every checkpoint read, so only for small stores."""
    seen = {
        str(item.config["configurable"]["thread_id"])
        async for item in saver.alist(None)
        if not item.config["configurable"].get("checkpoint_ns")
    }
    return sorted(t for t in seen if after is None or t > after)[:limit]
