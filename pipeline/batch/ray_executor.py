"""`summarize --executor ray`: the driver that spreads a batch's files over a Ray cluster.

Documents are the unit of work: one actor per CPU (ray_actors.FileWorker) gets the
settings and model once and then one file per call (a document's chunks never leave its
worker); the driver keeps `--concurrency` files in flight on each and sends the next file
as one returns, so a slow file never holds a worker's other slots idle. Outputs, stamps
and exit codes are the local executor's: workers run the same `summarize_file`, and the
driver writes the manifest from the results.

Faults: a worker that dies mid-file is restarted by Ray and its files in flight are sent
again, each alone, so only a file that kills its worker every time is reported failed;
nothing is left half-written. When the driver dies its workers stop with it, and a rerun
redoes only unfinished files.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel

from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome
from pipeline.batch.one_file import EventSink, Stamp
from pipeline.batch.outputs import Manifest
from pipeline.config import Settings
from pipeline.errors import ConfigError

POLL_S = 0.1
"""How often the driver collects progress events from each worker (one small call each)."""
ATTEMPTS = 3
"""Runs of a file whose worker dies before it is reported failed."""
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


async def run_on_ray(
    items: list[BatchItem],
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    manifest: Manifest,
    emit: EventSink,
) -> list[FileOutcome]:
    """Summarize `items` on the cluster; outcomes in item order, as the local executor."""
    address = options.ray_address or settings.ray_address
    ray, started = connect(address)
    try:
        return await _drive(ray, items, options, _portable(settings), model, manifest, emit)
    finally:
        if started:
            from pipeline.batch import ray_pool

            ray_pool.forget(ray)
            ray.shutdown()  # connected here: disconnect (and stop the local instance we made)


def connect(address: str) -> tuple[Any, bool]:
    """`ray`, connected to `address` (empty: a new local instance); and whether we connected.

    An already connected process (a library caller that ran ray.init) is used as it is.
    """
    _prepare_environment(address)
    try:
        import ray
    except ImportError:
        raise ConfigError("--executor ray needs Ray", hint="pip install 'longdoc[ray]'") from None
    if ray.is_initialized():
        return ray, False
    quiet: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
    try:
        if address:
            ray.init(address=address, **quiet)
        else:  # "local" never attaches to a cluster found on this machine by accident
            ray.init(address="local", include_dashboard=False, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a new local instance"
        raise ConfigError(
            f"cannot start or reach Ray at {where}: {exc}"[:400],
            hint="Check --ray-address / LONGDOC_RAY_ADDRESS (host:port of the head node, or "
            "auto); a cluster with token auth also needs RAY_AUTH_MODE=token.",
        ) from exc
    return ray, True


def _prepare_environment(address: str) -> None:
    """Before `import ray`: a local instance, or a cluster on loopback, stays on 127.0.0.1.

    Ray otherwise binds to the machine's network address even for a one-machine instance,
    and a driver of a loopback cluster would look for it there and hang.
    """
    if "ray" in sys.modules:
        return
    host = address.removeprefix("ray://").rsplit(":", 1)[0]
    if not address or host in LOOPBACK:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


def _portable(settings: Settings) -> Settings:
    """The settings as workers need them: the data directory absolute, not the driver's cwd's,
    and each file's chunks read in the worker's own process (the cluster spreads the files)."""
    return settings.model_copy(
        update={"data_dir": settings.data_dir.absolute(), "reader_processes": 1}
    )


async def _drive(
    ray: Any,
    items: list[BatchItem],
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    manifest: Manifest,
    emit: EventSink,
) -> list[FileOutcome]:
    from pipeline.batch import ray_pool

    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    # The built-in engine makes no calls: then there is no limiter process to start.
    limited = reads_with_model(settings, model)
    workers = ray_pool.crew(ray, options, settings, model, min(cpus, len(items)), limited).workers
    view = _View(emit, items)

    def finished(outcome: FileOutcome, stamp: Stamp | None) -> None:
        manifest.record(outcome, stamp)  # as each file ends: a killed driver loses none
        view.done(outcome)

    try:
        outcomes = await _Scheduler(ray, workers, options.concurrency, view).run(items, finished)
    except BaseException:
        ray_pool.forget(ray)  # cancelled: stop the files in flight with their workers
        raise
    return [outcomes[item.source] for item in items]


def reads_with_model(settings: Settings, model: BaseChatModel | None) -> bool:
    """Whether the files are read by a model (so calls need the cluster's limit)."""
    return model is not None or bool(settings.model_factory) or settings.provider != "extractive"


class _Scheduler:
    """Keeps `concurrency` files in flight on each worker until every file has an outcome.

    A worker that dies takes its files in flight with it. It gets nothing new until it
    answers a ping (Ray restarts it), and each of those files is sent again to run alone on
    a worker (nothing else in flight there): a file that kills its worker every time is
    found and reported failed after ATTEMPTS runs alone, while the files that merely
    shared the worker with it are done.
    """

    def __init__(self, ray: Any, workers: list[Any], concurrency: int, view: _View) -> None:
        self.ray = ray
        self.workers = workers
        self.concurrency = concurrency
        self.view = view
        self.load = [0] * len(workers)
        self.exclusive: dict[int, BatchItem] = {}  # workers running a file alone
        self.down: dict[int, float] = {}  # dead or restarting workers: when to ping next
        self.running: dict[asyncio.Future[Any], tuple[BatchItem, int]] = {}
        self.pings: dict[asyncio.Future[Any], int] = {}
        self.drains: dict[asyncio.Future[Any], int] = {}
        self.drained_at = [0.0] * len(workers)
        self.queue: deque[BatchItem] = deque()
        self.alone: deque[BatchItem] = deque()
        self.deaths: dict[str, int] = {}
        self.outcomes: dict[str, FileOutcome] = {}

    async def run(
        self, items: list[BatchItem], finished: Callable[[FileOutcome, Stamp | None], None]
    ) -> dict[str, FileOutcome]:
        self.queue.extend(items)
        while self.queue or self.alone or self.running:
            self._submit()
            self._ping_down_workers()
            self._ask_for_events()
            waiting = [*self.running, *self.pings, *self.drains]
            done, _ = await asyncio.wait(
                waiting, timeout=POLL_S, return_when=asyncio.FIRST_COMPLETED
            )
            for future in done:
                if future in self.running:
                    self._result(future, finished)
                elif future in self.pings:
                    self._pinged(future)
                else:
                    self._events(future)
        for future in [*self.pings, *self.drains]:
            future.cancel()  # events of finished files only: the display has their ends
        return self.outcomes

    def _submit(self) -> None:
        up = [w for w in range(len(self.workers)) if w not in self.down]
        reserved = None
        if self.alone:  # let the least loaded worker empty, then give it the file alone
            free = [w for w in up if w not in self.exclusive]
            reserved = min(free, key=self.load.__getitem__, default=None)
            if reserved is not None and self.load[reserved] == 0:
                self.exclusive[reserved] = self.alone.popleft()
                self._start(reserved, self.exclusive[reserved])
        for index in up:
            if index == reserved or index in self.exclusive:
                continue
            while self.queue and self.load[index] < self.concurrency:
                self._start(index, self.queue.popleft())

    def _start(self, index: int, item: BatchItem) -> None:
        ref = self.workers[index].summarize.remote(item)
        self.running[asyncio.wrap_future(ref.future())] = (item, index)
        self.load[index] += 1

    def _result(
        self,
        future: asyncio.Future[Any],
        finished: Callable[[FileOutcome, Stamp | None], None],
    ) -> None:
        item, index = self.running.pop(future)
        self.load[index] -= 1
        alone = self.exclusive.pop(index, None) is not None
        try:
            outcome, stamp = future.result()
        except self.ray.exceptions.RayError as exc:
            self.down.setdefault(index, time.monotonic())
            if alone:  # nothing else ran there: this file took its worker down
                self.deaths[item.source] = self.deaths.get(item.source, 0) + 1
            if self.deaths.get(item.source, 0) < ATTEMPTS:
                self.alone.append(item)
                return
            outcome, stamp = _died(item, exc), None
        self.outcomes[item.source] = outcome
        finished(outcome, stamp)

    def _ping_down_workers(self) -> None:
        now = time.monotonic()
        busy = set(self.pings.values())
        for index, when in self.down.items():
            if index not in busy and when <= now:
                ref = self.workers[index].ping.remote()
                self.pings[asyncio.wrap_future(ref.future())] = index

    def _pinged(self, future: asyncio.Future[Any]) -> None:
        index = self.pings.pop(future)
        try:
            future.result()
        except self.ray.exceptions.RayError:
            self.down[index] = time.monotonic() + POLL_S * 5  # still restarting: ask again
        else:
            del self.down[index]

    def _ask_for_events(self) -> None:
        """One drain in flight per live worker, at most every POLL_S: the display stays live."""
        now = time.monotonic()
        busy = set(self.drains.values())
        for index, worker in enumerate(self.workers):
            if index in busy or index in self.down or now - self.drained_at[index] < POLL_S:
                continue
            self.drained_at[index] = now
            self.drains[asyncio.wrap_future(worker.drain.remote().future())] = index

    def _events(self, future: asyncio.Future[Any]) -> None:
        del self.drains[future]
        # A dead worker's last events are lost: its files are sent again and report anew.
        with contextlib.suppress(self.ray.exceptions.RayError):
            self.view.show(future.result())


def _died(item: BatchItem, exc: BaseException) -> FileOutcome:
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return FileOutcome(
        item.source, item.output, "failed", error=f"the worker summarizing it died: {reason}"[:500]
    )


class _View:
    """The workers' events on the driver's display, each file's end shown once.

    Dropped: events a worker sends after the driver has the file's outcome, and events of
    an earlier batch that a warm worker still held.
    """

    def __init__(self, emit: EventSink, items: list[BatchItem]) -> None:
        self.emit = emit
        self.waiting = {item.source for item in items}

    def show(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event["source"] in self.waiting:
                self.emit(event)

    def done(self, outcome: FileOutcome) -> None:
        self.waiting.discard(outcome.source)
        self.emit({"event": "file_done", "source": outcome.source, "outcome": outcome})
