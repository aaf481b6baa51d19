"""One turn at a time per thread in DynamoDB: a lease item taken by a conditional write.

The item `PK=LOCK_<thread>, SK=LOCK` holds `owner` (a random token per holder),
`expires_ms` (the lease's end, epoch ms), `fence` (+1 on every acquisition) and `ttl`.

    acquire   UpdateItem ... IF attribute_not_exists(PK) OR expires_ms < now
    renew     UpdateItem SET expires_ms = now + lease IF owner = me   (every lease / 3)
    release   UpdateItem SET expires_ms = 0 IF owner = me

DynamoDB applies a conditional write atomically per item, so two processes can never both
acquire. A holder that dies (SIGKILL, a lost machine) stops renewing and its lease ends
within `lease_s` (15 s by default), after which the next turn proceeds: unlike a file or
advisory lock, nothing releases it at death. Expiry is decided by `expires_ms`, never by
the item's absence (table TTL deletes lazily, within days), and assumes clocks agree to
well under the lease. The heartbeat runs on its own thread, so an event loop busy with
CPU work cannot let the lease lapse. Released items stay (the fence keeps counting); TTL
sweeps them a day after their last use, and deleting the thread deletes an idle one.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from botocore.exceptions import ClientError

log = logging.getLogger("longdoc.storage")

LOCK_SK = "LOCK"
# A refused conditional write still costs a write unit, so a waiting turn polls at 50 ms
# first, then backs off to one try a second: 12 tries in the first 2 s, then 1 a second.
POLL_S = 0.05
POLL_MAX_S = 1.0
SWEEP_AFTER_S = 86_400  # TTL removes a lock item a day after it was last held


def now_ms() -> int:
    return int(time.time() * 1000)


def _key(thread_id: str) -> dict[str, Any]:
    return {"PK": {"S": f"LOCK_{thread_id}"}, "SK": {"S": LOCK_SK}}


def _refused(exc: ClientError) -> bool:
    return bool(exc.response["Error"]["Code"] == "ConditionalCheckFailedException")


class Lease:
    """One holder's claim on a thread's lock item."""

    def __init__(self, client: Any, table: str, thread_id: str, lease_s: float) -> None:
        self.client, self.table, self.thread_id = client, table, thread_id
        self.lease_ms = int(lease_s * 1000)
        self.owner = uuid.uuid4().hex
        self.fence: int | None = None
        """The acquisition number, increasing across holders; None until acquired."""

    def try_acquire(self) -> bool:
        now = now_ms()
        try:
            reply = self.client.update_item(
                TableName=self.table,
                Key=_key(self.thread_id),
                UpdateExpression="SET #owner = :me, expires_ms = :end, #ttl = :ttl ADD fence :one",
                ConditionExpression="attribute_not_exists(PK) OR expires_ms < :now",
                ExpressionAttributeNames={"#owner": "owner", "#ttl": "ttl"},
                ExpressionAttributeValues={
                    ":me": {"S": self.owner},
                    ":end": {"N": str(now + self.lease_ms)},
                    ":ttl": {"N": str((now + self.lease_ms) // 1000 + SWEEP_AFTER_S)},
                    ":now": {"N": str(now)},
                    ":one": {"N": "1"},
                },
                ReturnValues="UPDATED_NEW",
            )
        except ClientError as exc:
            if _refused(exc):
                return False
            raise
        self.fence = int(reply["Attributes"]["fence"]["N"])
        return True

    def renew(self) -> bool:
        """Extend the lease; False if it was lost (expired and taken by another holder)."""
        return self._if_mine("SET expires_ms = :end, #ttl = :ttl", renew=True)

    def release(self) -> bool:
        """End the lease now; False if it was no longer ours."""
        return self._if_mine("SET expires_ms = :end", renew=False)

    def _if_mine(self, update: str, *, renew: bool) -> bool:
        end = now_ms() + self.lease_ms if renew else 0
        values: dict[str, Any] = {":me": {"S": self.owner}, ":end": {"N": str(end)}}
        names = {"#owner": "owner"}
        if renew:
            values[":ttl"] = {"N": str(end // 1000 + SWEEP_AFTER_S)}
            names["#ttl"] = "ttl"
        try:
            self.client.update_item(
                TableName=self.table,
                Key=_key(self.thread_id),
                UpdateExpression=update,
                ConditionExpression="#owner = :me",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
        except ClientError as exc:
            if _refused(exc):
                return False
            raise
        return True


@asynccontextmanager
async def leased(lease: Lease) -> AsyncIterator[Lease]:
    """Hold `lease` for the block: poll until acquired, renew while held, then release.

    Polled like the file and advisory locks, so a cancelled request stops waiting at once;
    an acquisition that lands after the cancellation is released, never kept.
    """
    delay = POLL_S
    while True:
        if await _attempt(lease):
            break
        await asyncio.sleep(delay)
        delay = min(delay * 1.5, POLL_MAX_S)
    stop = threading.Event()
    beat = threading.Thread(target=_heartbeat, args=(lease, stop), daemon=True)
    beat.start()
    try:
        yield lease
    finally:
        stop.set()
        await asyncio.shield(asyncio.to_thread(_end, lease, beat))


async def _attempt(lease: Lease) -> bool:
    attempt = asyncio.ensure_future(asyncio.to_thread(lease.try_acquire))
    try:
        return await asyncio.shield(attempt)
    except asyncio.CancelledError:
        attempt.add_done_callback(_release_if_acquired(lease))
        raise


def _release_if_acquired(lease: Lease) -> Any:
    def release(attempt: asyncio.Future[bool]) -> None:
        if not attempt.cancelled() and attempt.exception() is None and attempt.result():
            threading.Thread(target=lease.release, daemon=True).start()

    return release


def _heartbeat(lease: Lease, stop: threading.Event) -> None:
    while not stop.wait(lease.lease_ms / 3000):
        try:
            if not lease.renew():
                log.warning("lost the lock of thread %s: another turn may run", lease.thread_id)
                return
        except Exception:  # a failed renewal is retried at the next beat, a third lease later
            log.warning("could not renew the lock of thread %s", lease.thread_id, exc_info=True)


def _end(lease: Lease, beat: threading.Thread) -> None:
    beat.join()
    try:
        lease.release()
    except Exception:  # the lease then simply runs out
        log.warning("could not release the lock of thread %s", lease.thread_id, exc_info=True)


def forget_lock(client: Any, table: str, thread_id: str) -> None:
    """Delete a deleted thread's lock item, unless a turn holds it right now."""
    try:
        client.delete_item(
            TableName=table,
            Key=_key(thread_id),
            ConditionExpression="attribute_not_exists(PK) OR expires_ms < :now",
            ExpressionAttributeValues={":now": {"N": str(now_ms())}},
        )
    except ClientError as exc:
        if not _refused(exc):
            raise
