"""The cluster's model-call limit for a Ray batch: one actor holding `max_concurrency` slots.

Ray ships this module's classes to the actor by value (registered below), so the actor's
process imports only Ray: importing longdoc would cost it ~3 s of CPU at every run's
start, on the cores the workers need. Keep it free of longdoc imports for that reason.
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from typing import Any

import ray
from ray import cloudpickle

LEASE_USES = 4
"""Calls one lease may serve in a row on one worker (ray_slots.py) before it goes back to
the queue: a worker waiting elsewhere gets a slot within 4 calls' time."""
LEASE_MARGIN_S = 60.0
"""A lease outlives its longest use (LEASE_USES calls of call_timeout_s) by this much, then
frees itself, so a worker killed while holding a slot cannot keep it from the cluster for good."""


class Limiter:
    """`limit` model calls in flight across the cluster: an async semaphore with leases."""

    def __init__(self, limit: int, lease_s: float) -> None:
        self.slots = asyncio.Semaphore(limit)
        self.lease_s = lease_s
        self.leases: dict[str, float] = {}
        self.reaper: asyncio.Task[None] | None = None

    async def acquire(self) -> str:
        if self.reaper is None:
            self.reaper = asyncio.get_running_loop().create_task(self._reap())
        await self.slots.acquire()
        lease = uuid.uuid4().hex
        self.leases[lease] = time.monotonic() + self.lease_s
        return lease

    async def release(self, lease: str) -> None:
        if self.leases.pop(lease, None) is not None:  # an expired lease was freed already
            self.slots.release()

    async def _reap(self) -> None:
        while True:
            await asyncio.sleep(min(5.0, self.lease_s / 4))
            now = time.monotonic()
            for lease, until in list(self.leases.items()):
                if until < now:
                    await self.release(lease)


cloudpickle.register_pickle_by_value(sys.modules[__name__])  # type: ignore[no-untyped-call]

remote: Any = ray.remote  # Ray's type stubs lack actor options such as max_concurrency

# Lives as long as the driver; a restarted Limiter starts empty.
LimiterActor: Any = remote(
    num_cpus=0, max_concurrency=10_000, max_restarts=-1, max_task_retries=-1
)(Limiter)


def start_limiter(limit: int, call_timeout_s: float) -> Any:
    """A handle to a new Limiter of `limit` slots, each lease freed after its longest use."""
    return LimiterActor.remote(limit, LEASE_USES * call_timeout_s + LEASE_MARGIN_S)
