"""An event loop on a fake clock: when nothing is ready, time jumps to the next timer.

`asyncio.sleep(60)` returns at once with `loop.time()` 60 s later, so tests of waits,
pauses and per-minute budgets run in milliseconds and give the same result every run
(one thread, FIFO ready queue, timers by time). Work handed to a thread
(`asyncio.to_thread`) holds the clock still until it is done. Only for code that does no
real network I/O: a socket that answers in real time would see virtual timeouts.

    run_virtual(main())               # returns main's result
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from typing import Any, TypeVar

T = TypeVar("T")


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector loop whose `time()` only moves when every task waits on a timer."""

    def __init__(self) -> None:
        self._now = 0.0
        self._in_threads = 0
        super().__init__(_VirtualSelector(self, selectors.DefaultSelector()))

    def time(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds

    @property
    def threads_busy(self) -> bool:
        return self._in_threads > 0

    def run_in_executor(  # type: ignore[override]
        self, executor: Executor | None, func: Callable[..., T], *args: Any
    ) -> asyncio.Future[T]:
        future = super().run_in_executor(executor, func, *args)
        self._in_threads += 1
        future.add_done_callback(self._thread_done)
        return future

    def _thread_done(self, _: object) -> None:
        self._in_threads -= 1


class _VirtualSelector:
    """The real selector, except that a wait for a timer is skipped and time advanced."""

    def __init__(self, loop: VirtualTimeLoop, real: selectors.BaseSelector) -> None:
        self._loop = loop
        self._real = real

    def select(self, timeout: float | None = None) -> list[Any]:
        if timeout is None or timeout == 0 or self._loop.threads_busy:
            return self._real.select(timeout)
        events = self._real.select(0)
        if not events:
            self._loop.advance(timeout)
        return events

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def run_virtual(main: Coroutine[Any, Any, T]) -> T:
    """Run `main` to completion on a fresh VirtualTimeLoop (as asyncio.run does)."""
    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        return runner.run(main)
