"""Worker processes that read chunks for the built-in engine, so a long document uses every core.

Reading a chunk (its layout, sentences and scores) is pure Python, and threads share one
interpreter lock: the map steps of one document would take turns on one core however many
run at once, and each would hold up the event loop it runs on (a server's other requests
wait). So a chunk long enough to pay for the trip is read in a process pool, one per
process and size, started on first use and kept: a server or a batch run pays for its
start once. Short chunks are read in place.

Workers come from a fork server, never a fork of the caller (whose threads may hold locks),
and it imports this package once for all of them. Like any multiprocessing pool, a worker
imports the caller's main module again: the CLI and the server guard theirs, and a script
that sets `reader_processes` must guard its own (`if __name__ == "__main__":`). A pool
whose worker died (killed for memory, say) is dropped and the chunk read in place, so a
lost worker costs time, never an answer.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from pipeline.engines.extractive import passages

T = TypeVar("T")

MIN_CHARS = 4_000
"""The shortest chunk sent to a worker: pickling a chunk there and its finding back costs
~0.1 ms, but a short chunk reads in a millisecond or two and a worker may be busy."""

_PRELOAD = ["pipeline.engines.extractive.engine"]
# A fork server where there is one (POSIX); Windows has only spawn, each worker importing anew.
_START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
_pools: dict[int, ProcessPoolExecutor] = {}
_lock = threading.Lock()


def worker_count(processes: int) -> int:
    """The setting's value as a count: 0 means one per core this process may run on (its
    CPU affinity: a container pinned to 2 of 64 cores gets 2)."""
    if processes:
        return processes
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def pool(processes: int) -> ProcessPoolExecutor | None:
    """The shared pool of `processes` workers (0: one per core); None when that is one."""
    count = worker_count(processes)
    if count <= 1:
        return None
    with _lock:
        if count not in _pools:
            context = multiprocessing.get_context(_START_METHOD)
            if _START_METHOD == "forkserver":
                context.set_forkserver_preload(_PRELOAD)
            _pools[count] = ProcessPoolExecutor(
                count,
                mp_context=context,
                initializer=_keep_readings,
                initargs=(passages.CACHED_CHARS,),
            )
        return _pools[count]


def _keep_readings(chars: int) -> None:
    """A worker keeps readings of chunks up to as long as its parent does (a benchmark turns
    that cache off, so that copies of one text are read, not reused)."""
    passages.CACHED_CHARS = chars


def _discard(broken: ProcessPoolExecutor) -> None:
    with _lock:
        for count, kept in list(_pools.items()):
            if kept is broken:
                del _pools[count]
    broken.shutdown(wait=False, cancel_futures=True)


async def read(processes: int, chars: int, fn: Callable[..., T], *args: object) -> T:
    """fn(*args), in a worker when the chunk (`chars` long) is worth sending; `fn` and its
    arguments must pickle (a module-level function and plain data)."""
    workers = pool(processes) if chars >= MIN_CHARS else None
    if workers is None:
        return fn(*args)
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(workers, functools.partial(fn, *args))
    except BrokenProcessPool:
        _discard(workers)
        return fn(*args)


def stop() -> None:
    """Shut every pool's workers down (a server stopping); a later read starts a new pool."""
    with _lock:
        running = list(_pools.values())
        _pools.clear()
    for workers in running:
        workers.shutdown(wait=True, cancel_futures=True)


def warm(processes: int) -> None:
    """Start the pool's workers now rather than on the first long chunk (a server at start,
    a benchmark before timing)."""
    workers = pool(processes)
    if workers is not None:
        count = worker_count(processes)
        for future in [workers.submit(os.getpid) for _ in range(count)]:
            future.result()


def running() -> list[int]:
    """The sizes of the pools started so far."""
    with _lock:
        return sorted(_pools)


def shutdown() -> None:
    """Stop every pool's workers (a later long chunk starts a pool again)."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
    for workers in pools:
        workers.shutdown(wait=True)
