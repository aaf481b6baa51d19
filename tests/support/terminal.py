"""Child processes started as a terminal starts them, so a test's Ctrl-C reaches them."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def start_interruptible(args: list[str], **popen: Any) -> subprocess.Popen[str]:
    """`subprocess.Popen(args, **popen)` with SIGINT at its default in the child.

    A shell without job control starts background jobs with SIGINT ignored, and an ignored
    signal stays ignored across exec: a test suite run that way (`.ci/run &`, a CI runner)
    would hand every child a Ctrl-C that does nothing, and the child would finish its work
    and exit 0. A handled signal is reset to its default by exec, so catching SIGINT here
    while the child starts gives it the disposition a user's terminal gives.
    """
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(args, text=True, **popen)
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
