"""What runs on a Ray cluster for a batch: the file task, the shared call limit, progress.

Imported only with `--executor ray` (it needs the `ray` extra), and by Ray's workers,
which find these functions by module name: every machine needs longdoc installed.

summarize_files  a task: a few files, summarized as the local executor does, one outcome each
Limiter          an actor holding the cluster's model-call slots (max_concurrency in all)
Progress         an actor the workers' progress events pass through to the driver's display
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import ray
from langchain_core.language_models import BaseChatModel

from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome
from pipeline.batch.one_file import Stamp, summarize_file
from pipeline.config import Settings
from pipeline.engines.llm import shared_limit

remote: Any = ray.remote  # Ray's type stubs lack actor options such as max_concurrency

# A worker sends its progress events in batches at most this often: one actor call per
# event would cost ~0.6 ms each, as much as a small file's whole summary.
REPORT_EVERY_S = 0.2
# A lease outlives the longest call (call_timeout_s) by this much, then frees itself, so
# a worker killed while holding a slot cannot keep it from the cluster for good.
LEASE_MARGIN_S = 60.0


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


class Progress:
    """Progress events from every worker, collected until the driver drains them."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def report(self, events: list[dict[str, Any]]) -> None:
        self.events.extend(events)

    def drain(self) -> list[dict[str, Any]]:
        events, self.events = self.events, []
        return events


# The Ray forms: actors that live as long as the driver (a restarted Limiter starts
# empty), and a task Ray retries on a dead worker or node; a file's own errors are outcomes.
LimiterActor: Any = remote(
    num_cpus=0, max_concurrency=10_000, max_restarts=-1, max_task_retries=-1
)(Limiter)
ProgressActor: Any = remote(num_cpus=0)(Progress)


class Reporter:
    """A worker's event sink: buffers events and sends them to Progress every 0.2 s."""

    def __init__(self, progress: Any) -> None:
        self.progress = progress
        self.buffer: list[dict[str, Any]] = []
        self.sent_at = time.monotonic()

    def __call__(self, event: dict[str, Any]) -> None:
        self.buffer.append(event)
        if time.monotonic() - self.sent_at >= REPORT_EVERY_S:
            self.flush()

    def flush(self) -> None:
        if self.buffer:
            self.progress.report.remote(self.buffer)  # fire and forget
            self.buffer = []
        self.sent_at = time.monotonic()


def cluster_slots(limiter: Any) -> shared_limit.SlotProvider:
    """A slot provider taking each slot from the cluster's Limiter."""

    @asynccontextmanager
    async def slot() -> AsyncIterator[None]:
        lease = await limiter.acquire.remote()
        try:
            yield
        finally:
            await limiter.release.remote(lease)

    return slot


def summarize_files(
    items: list[BatchItem],
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    limiter: Any,
    progress: Any,
) -> list[tuple[FileOutcome, Stamp | None]]:
    """Summarize `items` as the local executor would, `options.concurrency` at a time.

    Each file is skipped when its output is current and otherwise written whole, so a
    retried task redoes only the files its dead attempt had not finished.
    """
    shared_limit.install(cluster_slots(limiter))
    report = Reporter(progress)

    async def run() -> list[tuple[FileOutcome, Stamp | None]]:
        slots = asyncio.Semaphore(options.concurrency)

        async def one(item: BatchItem) -> tuple[FileOutcome, Stamp | None]:
            async with slots:
                outcome, stamp = await summarize_file(item, options, settings, model, report)
                report({"event": "file_done", "source": item.source, "outcome": outcome})
                return outcome, stamp

        try:
            return list(await asyncio.gather(*(one(item) for item in items)))
        finally:
            report.flush()

    return asyncio.run(run())


summarize_files_task: Any = remote(max_retries=3)(summarize_files)
