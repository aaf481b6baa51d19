"""Keeping a thread's store small: after each turn only one checkpoint of the thread is left.

A turn runs with durability "exit" (one checkpoint written when the run ends, see
pipeline/threads.py), and its last node clears the per-turn channels, so that checkpoint
holds the messages, the running summary and the last answer. `keep_only` then deletes
every other checkpoint of the thread: after a finished turn the older ones, after a failed
or cancelled turn the one it wrote (the thread is left exactly as it was before the turn).
Nothing else reads old checkpoints: a turn starts from the latest, and so does get_thread.
"""

from __future__ import annotations

import asyncio

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from pipeline.storage.checkpoint import Saver

_SQLITE = (
    "DELETE FROM writes WHERE thread_id = ? AND checkpoint_id != ?",
    "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id != ?",
)
_POSTGRES = (
    "DELETE FROM checkpoint_writes WHERE thread_id = %(thread)s AND checkpoint_id <> %(keep)s",
    "DELETE FROM checkpoints WHERE thread_id = %(thread)s AND checkpoint_id <> %(keep)s",
    "UPDATE checkpoints SET parent_checkpoint_id = NULL WHERE thread_id = %(thread)s",
    # PostgreSQL keeps each channel's value once per version, apart from the checkpoints
    # that name them: drop the versions no remaining checkpoint names.
    """DELETE FROM checkpoint_blobs AS b WHERE b.thread_id = %(thread)s AND NOT EXISTS (
        SELECT 1 FROM checkpoints AS c
        WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
          AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)""",
)


async def keep_only(saver: Saver, thread_id: str, checkpoint_id: str | None) -> None:
    """Delete every checkpoint of the thread but `checkpoint_id` (None: the whole thread)."""
    if checkpoint_id is None:
        await saver.adelete_thread(thread_id)
    elif isinstance(saver, AsyncSqliteSaver):
        async with saver.lock:
            for statement in _SQLITE:
                await saver.conn.execute(statement, (thread_id, checkpoint_id))
            await saver.conn.execute(
                "UPDATE checkpoints SET parent_checkpoint_id = NULL WHERE thread_id = ?",
                (thread_id,),
            )
            await saver.conn.commit()
    elif callable(getattr(saver, "keep_only", None)):  # DynamoDB (storage/dynamodb.py)
        # The saver's client is synchronous (boto3): off the event loop, as its reads are.
        await asyncio.to_thread(saver.keep_only, thread_id, checkpoint_id)  # type: ignore[attr-defined]
    else:
        await _keep_only_postgres(saver, thread_id, checkpoint_id)


async def _keep_only_postgres(saver: Saver, thread_id: str, checkpoint_id: str) -> None:
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    if not isinstance(saver, AsyncPostgresSaver):
        return  # a caller's own kind of store: left as it keeps itself
    params = {"thread": thread_id, "keep": checkpoint_id}
    async with saver._cursor() as cursor, cursor.connection.transaction():
        for statement in _POSTGRES:
            await cursor.execute(statement, params)
