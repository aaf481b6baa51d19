"""What runs on a Ray cluster's workers for a batch: the file worker and its shared call slot.

Imported only with `--executor ray` (it needs the `ray` extra), and by Ray's workers,
which find these by module name: every machine needs longdoc installed.

FileWorker     an actor per CPU: summarizes the files the driver sends it, as the local
               executor does, and keeps their progress events until the driver collects them;
               its model calls hold the cluster's slots through a SlotKeeper (ray_slots.py)
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import ray
from langchain_core.language_models import BaseChatModel

from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome
from pipeline.batch.one_file import Stamp, summarize_file
from pipeline.batch.ray_slots import SlotKeeper
from pipeline.config import Settings
from pipeline.engines.llm import shared_limit

IDLE_EXIT_S = 60.0
"""A worker kept warm for a next batch (pipeline/batch/ray_pool.py) exits after this long
idle, so it holds its CPU no longer than that once batches stop."""


class FileWorker:
    """One worker process of a batch: the settings, model and engine kept warm between files.

    Built once per run with everything every file shares, so a file's call carries only
    its item; the driver keeps `options.concurrency` files in flight here, sending the
    next as each returns, so no worker waits for a slow file before starting others.
    """

    def __init__(
        self,
        options: BatchOptions,
        settings: Settings,
        model: BaseChatModel | None,
        limiter: Any,
    ) -> None:
        if limiter is not None:
            shared_limit.install(SlotKeeper(limiter).slot)
        self.options = options
        self.settings = settings
        self.model = model
        self.events = EventBuffer()
        self.in_flight = 0
        self.used_at = time.monotonic()
        self.expiry: asyncio.Task[None] | None = None

    async def summarize(self, item: BatchItem) -> tuple[FileOutcome, Stamp | None]:
        """One file, skipped when its output is current, else written whole: a retry after
        this worker died redoes it from the start and leaves nothing half-written."""
        self._used()
        self.in_flight += 1
        try:
            return await summarize_file(item, self.options, self.settings, self.model, self.events)
        finally:
            self.in_flight -= 1
            self._used()

    async def ping(self) -> None:
        """Answers once this worker is up (the driver's check after a restart or idle)."""
        self._used()

    def _used(self) -> None:
        self.used_at = time.monotonic()
        if self.expiry is None:
            self.expiry = asyncio.get_running_loop().create_task(self._exit_when_idle())

    async def _exit_when_idle(self) -> None:
        while True:
            await asyncio.sleep(IDLE_EXIT_S / 4)
            if not self.in_flight and time.monotonic() - self.used_at > IDLE_EXIT_S:
                ray.kill(ray.get_runtime_context().current_actor, no_restart=True)

    def drain(self) -> list[dict[str, Any]]:
        """The progress events since the last drain, for the driver's display."""
        return self.events.drain()


class EventBuffer:
    """A file's progress events until drained; only each file's latest chunk count is kept.

    A 300-chunk file sends one chunk_done per drain instead of 300, which the driver
    would only have drawn over each other.
    """

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.chunks: dict[str, dict[str, Any]] = {}

    def __call__(self, event: dict[str, Any]) -> None:
        if event["event"] == "chunk_done":
            self.chunks[event["source"]] = event
        else:
            self.events.append(event)

    def ping(self) -> None:
        """Answers once this worker is up (the driver's check after a restart)."""

    def drain(self) -> list[dict[str, Any]]:
        events = [*self.events, *self.chunks.values()]
        self.events, self.chunks = [], {}
        return events


# Ray restarts a dead worker (its calls in flight fail, and the driver sends those files
# again); the driver, not Ray, decides how often a file is retried.
remote: Any = ray.remote  # Ray's type stubs lack actor options such as max_restarts
FileWorkerActor: Any = remote(num_cpus=1, max_restarts=-1, max_task_retries=0)(FileWorker)
