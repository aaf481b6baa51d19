"""A Ray worker's share of the cluster's call slots: leases from the Limiter, passed on locally.

Every model call of a Ray batch holds one lease of the cluster's Limiter actor
(ray_limiter.py). Taking each lease from the actor and giving it back there costs two
messages between processes per call, and the slot serves no call while they travel: on
2 busy cores that was ~13 ms of every ~230 ms a lease was held for a 200 ms call, 6% of
the cluster's call capacity. So a call that ends hands its lease straight to a call
waiting on the same worker (no message at all), up to LEASE_USES calls in a row; then,
or when no call here waits, the lease goes back to the actor, whose queue is first come
first served, so a worker waiting elsewhere gets its turn within LEASE_USES calls.
Leases only move: the cluster never has more than the Limiter's slots in use.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from pipeline.batch.ray_limiter import LEASE_USES
from pipeline.engines.llm.shared_limit import Free


@dataclass
class Lease:
    """One of the cluster's slots, held by this worker: the Limiter's id and its calls here."""

    id: str
    uses: int = 0


class SlotKeeper:
    """The leases of one worker process; `slot()` holds one for the length of one call.

    Each waiting call has one acquire in flight at the actor (`asked`); a lease that comes
    free here goes to the longest-waiting call, whose own acquire, when answered, serves
    the next waiting call or goes straight back.
    """

    def __init__(self, limiter: Any, uses: int = LEASE_USES) -> None:
        self.limiter = limiter
        self.uses = uses
        self.waiting: deque[asyncio.Future[Lease]] = deque()
        self.asked = 0
        self.requests: set[asyncio.Future[str]] = set()  # kept referenced until answered

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[Free]:
        """Holds a lease until left, or until what it yields is called (the reply is in)."""
        lease = await self._take()
        held = True

        def free() -> None:
            nonlocal held
            if held:
                held = False
                self._pass_on(lease)

        try:
            yield free
        finally:
            free()

    def _pass_on(self, lease: Lease) -> None:
        lease.uses += 1
        if lease.uses < self.uses:
            self._arrive(lease)
        else:
            self._give_back(lease)

    async def _take(self) -> Lease:
        future: asyncio.Future[Lease] = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        self._ask_for_waiting()
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # handed over as it was cancelled
                self._arrive(future.result())
            elif future in self.waiting:
                self.waiting.remove(future)
            raise

    def _ask_for_waiting(self) -> None:
        """One acquire at the actor for each waiting call that has none."""
        while self.asked < len(self.waiting):
            self.asked += 1
            request = asyncio.ensure_future(self._acquire())
            self.requests.add(request)
            request.add_done_callback(self._granted)

    async def _acquire(self) -> str:
        lease: str = await self.limiter.acquire.remote()
        return lease

    def _granted(self, request: asyncio.Future[str]) -> None:
        self.requests.discard(request)
        self.asked -= 1
        if request.cancelled():
            return
        error = request.exception()
        if error is None:
            self._arrive(Lease(request.result()))
        elif self.waiting:  # the actor could not be asked: the call that waits longest fails
            self.waiting.popleft().set_exception(error)
            self._ask_for_waiting()

    def _arrive(self, lease: Lease) -> None:
        """A lease free here: to the call that has waited longest, else back to the actor."""
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_result(lease)
                return
        self._give_back(lease)

    def _give_back(self, lease: Lease) -> None:
        # Sent, not awaited: the slot is the cluster's again when it arrives, and the
        # caller goes on at once instead of after a second round trip.
        self.limiter.release.remote(lease.id)
        self._ask_for_waiting()
