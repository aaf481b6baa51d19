"""The limits a document load runs under: cancellation by its caller, and CPU per document."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from pipeline.errors import TooLargeError


class LoadCancelled(Exception):
    """Raised inside a load whose caller was cancelled (deadline passed, client gone)."""


class LoadBudget:
    """Shared by one call's loads: `cancel()` stops them all, `checker` caps one document.

    Loads run on a worker thread, which cannot be interrupted from outside; they call
    the check at short intervals instead (the HTML tokenizer every 2,048 tokens, the PDF
    wait every 50 ms), so a cancelled load stops using the CPU within milliseconds.
    """

    def __init__(self, cpu_s: float) -> None:
        self.cpu_s = cpu_s
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def checker(self, name: str) -> Callable[[], None]:
        """A check for one document: raises once it is cancelled or has used `cpu_s` of CPU.

        CPU time of this thread, not wall time: a load slowed by other requests' work is
        not refused for it.
        """
        started = time.thread_time()

        def check() -> None:
            if self._cancelled.is_set():
                raise LoadCancelled(name)
            if time.thread_time() - started > self.cpu_s:
                raise too_slow(name, self.cpu_s)

        return check


def too_slow(name: str, seconds: float) -> TooLargeError:
    return TooLargeError(
        f"{name}: reading it took more than {seconds:g} s",
        hint="Send its text instead, or raise LONGDOC_LOAD_TIMEOUT_S.",
    )
