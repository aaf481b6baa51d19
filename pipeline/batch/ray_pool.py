"""The worker actors of a Ray batch, kept warm between the batches of one driver process.

Starting a worker costs a few seconds of CPU (it imports longdoc), as much as summarizing
~50 small files. A process that runs several batches with the same settings (a library
caller, a benchmark) reuses the workers of the last one; a worker left idle for
IDLE_EXIT_S exits on its own, giving its CPU back to the cluster. A CLI run is one batch.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from ray import cloudpickle

from pipeline.batch.items import BatchOptions
from pipeline.config import Settings
from pipeline.errors import ConfigError

PING_TIMEOUT_S = 10.0


@dataclass
class Crew:
    """A batch's workers (one per CPU) and the limiter their model calls share (or None)."""

    key: str
    workers: list[Any]
    limiter: Any


_warm: Crew | None = None


def crew(
    ray: Any,
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    size: int,
    limited: bool,
) -> Crew:
    """`size` workers summarizing with these settings: the last batch's if they are alive."""
    global _warm
    try:
        shared = cloudpickle.dumps((options, settings, model, limited))  # type: ignore[no-untyped-call]
    except Exception as exc:
        raise ConfigError(
            f"the model cannot be sent to Ray workers: {exc}"[:300],
            hint="Configure it with LONGDOC_PROVIDER/LONGDOC_MODEL or LONGDOC_MODEL_FACTORY.",
        ) from exc
    key = f"{ray.get_runtime_context().get_job_id()}:{hashlib.sha256(shared).hexdigest()}"
    if _warm is not None and _warm.key == key and len(_warm.workers) >= size and _alive(ray):
        return Crew(key, _warm.workers[:size], _warm.limiter)
    forget(ray)
    _warm = _start(options, settings, model, size, limited, key)
    return _warm


def forget(ray: Any) -> None:
    """Stop the warm workers (other settings are coming, or Ray is shutting down)."""
    global _warm
    if _warm is not None and ray.is_initialized():
        for actor in [*_warm.workers, *([_warm.limiter] if _warm.limiter is not None else [])]:
            ray.kill(actor)
    _warm = None


def _alive(ray: Any) -> bool:
    assert _warm is not None
    try:
        ray.get([worker.ping.remote() for worker in _warm.workers], timeout=PING_TIMEOUT_S)
    except ray.exceptions.RayError:
        return False  # one exited when idle, or died: start afresh
    return True


def _start(
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    size: int,
    limited: bool,
    key: str,
) -> Crew:
    from pipeline.batch.ray_actors import FileWorkerActor
    from pipeline.batch.ray_limiter import start_limiter

    limiter = start_limiter(settings.max_concurrency, settings.call_timeout_s) if limited else None
    # Everything the files share goes to each worker once, not with every file. The model
    # travels inside the worker's creation (not as an object-store reference), so a
    # restarted worker can always be rebuilt.
    workers = [
        FileWorkerActor.options(max_concurrency=options.concurrency + 2).remote(
            options, settings, model, limiter
        )
        for _ in range(size)
    ]
    return Crew(key, workers, limiter)
