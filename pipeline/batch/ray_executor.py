"""`summarize --executor ray`: the driver that spreads a batch's files over a Ray cluster.

Documents are the unit of work: a task summarizes a few whole files (one document's
chunks never leave its worker), so Ray's per-task cost (~1-3 ms of CPU) is paid once per
batch of files rather than per file. Outputs, stamps and exit codes are the local
executor's: workers run the same `summarize_file`, and the driver writes the manifest
from the tasks' results.

Faults: a worker or node that dies mid-task is retried by Ray elsewhere; the retry skips
the files its first attempt finished (their outputs are current) and nothing is left
half-written. A task that still fails is split into one task per file, so only the file
that kills its worker is reported failed. When the driver dies its tasks stop with it,
and a rerun redoes only unfinished files.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sys
from collections import deque
from typing import Any

from langchain_core.language_models import BaseChatModel

from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome
from pipeline.batch.one_file import EventSink, Stamp
from pipeline.batch.outputs import Manifest
from pipeline.config import Settings
from pipeline.errors import ConfigError

FILES_PER_TASK = 20
"""At most this many files per task: enough that Ray's overhead vanishes, few enough that a
slow worker does not hold a long tail of files at the end."""
POLL_S = 0.1
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def files_per_task(files: int, cpus: int) -> int:
    """About four tasks per CPU, capped: 2,000 files on 2 CPUs -> 20 a task, 30 -> 4."""
    return max(1, min(FILES_PER_TASK, math.ceil(files / (4 * max(1, cpus)))))


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
    """The settings as workers need them: the data directory absolute, not the driver's cwd's."""
    return settings.model_copy(update={"data_dir": settings.data_dir.absolute()})


async def _drive(
    ray: Any,
    items: list[BatchItem],
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    manifest: Manifest,
    emit: EventSink,
) -> list[FileOutcome]:
    from pipeline.batch.ray_actors import LimiterActor, ProgressActor, summarize_files_task

    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = files_per_task(len(items), cpus)
    queue = deque(items[i : i + size] for i in range(0, len(items), size))
    limiter = LimiterActor.remote(settings.max_concurrency, settings.call_timeout_s + 60.0)
    progress = ProgressActor.remote()
    try:
        shared_model = ray.put(model)
    except Exception as exc:
        raise ConfigError(
            f"the model cannot be sent to Ray workers: {exc}"[:300],
            hint="Configure it with LONGDOC_PROVIDER/LONGDOC_MODEL or LONGDOC_MODEL_FACTORY.",
        ) from exc
    view = _View(emit)
    pending: dict[Any, list[BatchItem]] = {}
    outcomes: dict[str, FileOutcome] = {}

    def submit() -> None:
        while queue and len(pending) < 2 * cpus:  # every CPU busy, one task queued behind it
            batch = queue.popleft()
            ref = summarize_files_task.remote(
                batch, options, settings, shared_model, limiter, progress
            )
            pending[ref] = batch

    submit()
    while pending:
        done, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0)
        view.show(ray.get(progress.drain.remote()))
        if not done:
            await asyncio.sleep(POLL_S)
            continue
        for ref in done:
            batch = pending.pop(ref)
            try:
                results: list[tuple[FileOutcome, Stamp | None]] = ray.get(ref)
            except ray.exceptions.RayError as exc:
                if len(batch) > 1:  # find the file at fault: each alone, ahead of the rest
                    queue.extendleft([item] for item in reversed(batch))
                    continue
                results = [(_died(batch[0], exc), None)]
            results = [(view.finished(outcome), stamp) for outcome, stamp in results]
            manifest.record_many(results)
            for outcome, _ in results:
                outcomes[outcome.source] = outcome
        submit()
    view.show(ray.get(progress.drain.remote()))
    return [outcomes[item.source] for item in items]


def _died(item: BatchItem, exc: BaseException) -> FileOutcome:
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return FileOutcome(
        item.source, item.output, "failed", error=f"the worker summarizing it died: {reason}"[:500]
    )


class _View:
    """The workers' events on the driver's display, each file's end shown once.

    A retried task reports the files its dead attempt finished as up to date; they were
    done in this run, so they are shown, and recorded, as done.
    """

    def __init__(self, emit: EventSink) -> None:
        self.emit = emit
        self.shown: dict[str, FileOutcome] = {}

    def show(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event["event"] == "file_done":
                self._done(event["outcome"])
            elif event["source"] not in self.shown:
                self.emit(event)

    def finished(self, outcome: FileOutcome) -> FileOutcome:
        """The outcome to record for a file whose task returned `outcome`."""
        earlier = self.shown.get(outcome.source)
        if earlier is not None and earlier.status == "done" and outcome.status == "skipped":
            return earlier
        self._done(outcome)
        return outcome

    def _done(self, outcome: FileOutcome) -> None:
        if outcome.source not in self.shown:
            self.shown[outcome.source] = outcome
            self.emit({"event": "file_done", "source": outcome.source, "outcome": outcome})
