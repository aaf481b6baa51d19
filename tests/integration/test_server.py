"""A real `longdoc serve` process on a loopback port: SSE, client disconnect, graceful shutdown."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.http import sse_events
from tests.support.server import COUNTING_MODEL, Server, running_server
from tests.support.texts import ACME_NOTE, ACME_QUESTION

pytestmark = pytest.mark.slow  # a real `longdoc serve` per test: seconds each


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running_server(
        tmp_path,
        LONGDOC_MODEL_FACTORY=COUNTING_MODEL,
        LONGDOC_CHUNK_SIZE="60",
        LONGDOC_CHUNK_OVERLAP="0",
        LONGDOC_MAX_CONCURRENCY="2",
        LONGDOC_SHUTDOWN_TIMEOUT_S="10",
        FAKE_LATENCY="0.2",
    ) as running:
        yield running


def many_chunks() -> str:
    return (
        " ".join(f"Boat {i} was painted blue in the harbour." for i in range(120)) + " " + ACME_NOTE
    )


@pytest.mark.slow
def test_server_streams_progress_events_as_they_happen(server: Server) -> None:
    arrivals: list[tuple[str, float]] = []
    with httpx.stream(
        "POST",
        f"{server.url}/v1/ask",
        json={"question": ACME_QUESTION, "document": ACME_NOTE * 4},
        headers={"Accept": "text/event-stream"},
        timeout=30,
    ) as response:
        assert response.status_code == 200
        text = ""
        for chunk in response.iter_text():
            text += chunk
            for name, _ in sse_events(chunk):
                arrivals.append((name, time.monotonic()))
    names = [name for name, _ in sse_events(text)]
    assert names[:2] == ["route", "split"]
    assert names[-1] == "result"
    # Events arrive spread over the run (each model call takes 0.2 s), not all at the end.
    assert arrivals[-1][1] - arrivals[0][1] > 0.3


@pytest.mark.slow
def test_client_disconnect_stops_the_model_calls(server: Server) -> None:
    with httpx.stream(
        "POST",
        f"{server.url}/v1/ask",
        json={"question": ACME_QUESTION, "document": many_chunks()},
        headers={"Accept": "text/event-stream"},
        timeout=30,
    ) as response:
        total = 0
        for line in response.iter_lines():
            if line.startswith("data:") and '"chunks"' in line:
                total = int(line.split('"chunks": ')[1].rstrip("}"))
            if line == "event: chunk_done":
                break  # hang up after the first chunk is read
    assert total > 20
    time.sleep(1.0)  # calls already in flight when we hung up may finish
    settled = server.calls()
    time.sleep(1.5)  # at 2 calls per 0.2 s, a run still going would add ~15 calls here
    assert server.calls() == settled
    assert settled < total / 2
    # The server is still healthy and serves the next request.
    assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200


@pytest.mark.slow
def test_shutdown_lets_in_flight_requests_finish_then_exits(server: Server) -> None:
    import threading

    result: dict[str, Any] = {}

    def ask() -> None:
        response = httpx.post(
            f"{server.url}/v1/ask",
            json={"question": ACME_QUESTION, "document": ACME_NOTE},
            timeout=30,
        )
        result["status"], result["body"] = response.status_code, response.json()

    client = threading.Thread(target=ask)
    client.start()
    # SIGTERM only once the request is in flight (its first model call has begun): a fixed
    # sleep raced the request's connect on a busy machine.
    deadline = time.monotonic() + 20
    while server.calls() == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.calls() > 0, "the request never reached the model"
    server.process.send_signal(signal.SIGTERM)
    client.join(timeout=20)
    assert result.get("status") == 200, result
    assert "Ada Lovelace" in result["body"]["answer"]
    # uvicorn re-raises the signal it caught once shutdown is done, so exit is by SIGTERM.
    assert server.process.wait(timeout=15) in (0, -signal.SIGTERM)


def _children(pid: int) -> set[int]:
    """The processes `pid` started, and theirs: a server's reader pool and its fork server."""
    found: set[int] = set()
    for line in subprocess.run(
        ["ps", "-eo", "pid=,ppid="], capture_output=True, text=True
    ).stdout.splitlines():
        child, parent = map(int, line.split())
        if parent == pid:
            found |= {child} | _children(child)
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            os.kill(pid, 0)
            alive.add(pid)
        except ProcessLookupError:
            pass
    return alive


def test_a_stopped_server_leaves_no_reader_process_running(tmp_path: Path) -> None:
    with running_server(tmp_path, LONGDOC_READER_PROCESSES="2") as server:
        workers = _children(server.process.pid)
        assert workers, "the server started no reader workers"
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=15)
    deadline = time.monotonic() + 10
    while _alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(workers), "reader processes outlived the server"
