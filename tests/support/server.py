"""A real `longdoc serve` process on a loopback port, for tests that need the whole server."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.support import LONGDOC, REPO, free_port

COUNTING_MODEL = "tests.support.fakes:counting_model"
"""LONGDOC_MODEL_FACTORY for a server on the fake model that logs each call to $FAKE_CALL_LOG."""


class Server:
    """A running server: its URL, its process, and the calls its fake model made (if any)."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, workdir: Path) -> None:
        self.process, self.url, self.workdir = process, url, workdir
        self.call_log = workdir / "calls.log"
        self.log = workdir / "server.log"

    def calls(self) -> int:
        """Model calls so far, when the server runs on COUNTING_MODEL."""
        return len(self.call_log.read_text().splitlines()) if self.call_log.exists() else 0


@contextmanager
def running_server(workdir: Path, **env: str) -> Iterator[Server]:
    """`longdoc serve` in `workdir`, with only the LONGDOC_* settings given here; stopped after.

    Threads are kept in `workdir/data`. Give LONGDOC_MODEL_FACTORY=COUNTING_MODEL (and
    FAKE_LATENCY) to run it on the fake model; otherwise it reads with the built-in engine.
    """
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LONGDOC_")}
    environment.update(
        PYTHONPATH=str(REPO),
        LONGDOC_DATA_DIR=str(workdir / "data"),
        FAKE_CALL_LOG=str(workdir / "calls.log"),
        **env,
    )
    log_path = workdir / "server.log"
    with log_path.open("w") as log:  # a file, not a pipe: a full pipe would stall the server
        process = subprocess.Popen(
            [str(LONGDOC), "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=workdir,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = Server(process, f"http://127.0.0.1:{port}", workdir)
    try:
        deadline = time.monotonic() + 30
        while not _healthy(server.url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"server did not start: {log_path.read_text()}")
            time.sleep(0.1)
        yield server
    finally:
        stop(server)


def stop(server: Server) -> None:
    """SIGTERM, then SIGKILL if it has not exited within 15 s."""
    if server.process.poll() is not None:
        return
    server.process.terminate()
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
    except httpx.TransportError:
        return False
