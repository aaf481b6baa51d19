"""One turn at a time per thread, across processes and replicas: a lock held for the turn."""

from __future__ import annotations

import asyncio
import fcntl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from pipeline.config import Settings
from pipeline.errors import StorageError
from pipeline.storage.checkpoint import DYNAMODB_SCHEME, POSTGRES_SCHEMES, needs_aws

# How often a turn waiting for another process's turn on the same thread checks again.
LOCK_POLL_S = 0.05


@asynccontextmanager
async def thread_lock(settings: Settings, thread_id: str) -> AsyncIterator[None]:
    """Hold the thread across processes, so turns from several workers or replicas queue.

    PostgreSQL: a session advisory lock, which also spans machines. DynamoDB: a lease
    item taken by a conditional write (storage/lease.py). SQLite (one machine): an
    exclusive lock on a file beside the database. All are polled rather than blocked on,
    so a cancelled request stops waiting at once and never acquires late.
    """
    url = settings.checkpoint_url
    if url and url.startswith(POSTGRES_SCHEMES):
        async with _advisory_lock(url, thread_id):
            yield
    elif url and url.startswith(DYNAMODB_SCHEME):
        async with _dynamodb_lease(url, thread_id):
            yield
    else:
        async with file_lock(settings.data_dir / "locks" / f"{thread_id}.lock"):
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
async def _dynamodb_lease(url: str, thread_id: str) -> AsyncIterator[None]:
    try:
        from botocore.exceptions import BotoCoreError, ClientError

        from pipeline.storage.dynamodb import clients, parse_url, storage_error
        from pipeline.storage.lease import Lease, leased
    except ImportError as exc:
        raise needs_aws(exc) from None
    target = parse_url(url)
    own = await asyncio.to_thread(clients, target)
    try:
        async with leased(Lease(own.dynamodb, target.table, thread_id, target.lease_s)):
            yield
    except (BotoCoreError, ClientError) as exc:
        raise storage_error(exc, target) from exc


@asynccontextmanager
async def file_lock(path: Path) -> AsyncIterator[None]:
    """An exclusive lock on `path` (made if missing), polled so a cancelled wait stops at once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:  # closing the file releases the lock
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                await asyncio.sleep(LOCK_POLL_S)
        yield
