"""A real `longdoc serve` process on a loopback port: SSE, client disconnect, graceful shutdown."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fakes import FakeChatModel
from tests.test_api_routes import QUESTION, REPORT, sse_events

REPO = Path(__file__).resolve().parent.parent
LONGDOC = Path(sys.executable).parent / "longdoc"


class CountingModel(FakeChatModel):
    """The fake model, slowed down, appending one line per call to a log file."""

    log_path: str = ""

    async def _agenerate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        with open(self.log_path, "a") as log:  # noqa: ASYNC230 - one tiny append per call
            log.write("call\n")
        return await super()._agenerate(messages, *args, **kwargs)


def counting_model() -> CountingModel:
    """The server's model factory (LONGDOC_MODEL_FACTORY=tests.test_api_server:counting_model)."""
    return CountingModel(
        latency=float(os.environ["TEST_MODEL_LATENCY"]), log_path=os.environ["TEST_CALL_LOG"]
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    def __init__(self, process: subprocess.Popen[bytes], url: str, call_log: Path) -> None:
        self.process, self.url, self.call_log = process, url, call_log

    def calls(self) -> int:
        return len(self.call_log.read_text().splitlines()) if self.call_log.exists() else 0


def start_server(tmp_path: Path, latency: float, **env: str) -> Server:
    port = free_port()
    call_log = tmp_path / "calls.log"
    environment = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "LONGDOC_MODEL_FACTORY": "tests.test_api_server:counting_model",
        "LONGDOC_CHUNK_SIZE": "60",
        "LONGDOC_CHUNK_OVERLAP": "0",
        "LONGDOC_MAX_CONCURRENCY": "2",
        "LONGDOC_SHUTDOWN_TIMEOUT_S": "10",
        "TEST_MODEL_LATENCY": str(latency),
        "TEST_CALL_LOG": str(call_log),
        **env,
    }
    output = tmp_path / "server.log"
    with output.open("w") as log:  # a file, not a pipe: a full pipe would stall the server
        process = subprocess.Popen(
            [str(LONGDOC), "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=tmp_path,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"server exited: {process.stdout.read() if process.stdout else ''}"
            )
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return Server(process, url, call_log)
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("server did not start in 30 s")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = start_server(tmp_path, latency=0.2)
    yield running
    running.process.terminate()
    try:
        running.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        running.process.kill()


def many_chunks() -> str:
    return " ".join(f"Boat {i} was painted blue in the harbour." for i in range(120)) + " " + REPORT


@pytest.mark.slow
def test_server_streams_progress_events_as_they_happen(server: Server) -> None:
    arrivals: list[tuple[str, float]] = []
    with httpx.stream(
        "POST",
        f"{server.url}/v1/ask",
        json={"question": QUESTION, "document": REPORT * 4},
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
        json={"question": QUESTION, "document": many_chunks()},
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
            f"{server.url}/v1/ask", json={"question": QUESTION, "document": REPORT}, timeout=30
        )
        result["status"], result["body"] = response.status_code, response.json()

    client = threading.Thread(target=ask)
    client.start()
    time.sleep(0.3)  # the request is in flight: each model call takes 0.2 s
    server.process.send_signal(signal.SIGTERM)
    client.join(timeout=20)
    assert result.get("status") == 200, result
    assert "Ada Lovelace" in result["body"]["answer"]
    # uvicorn re-raises the signal it caught once shutdown is done, so exit is by SIGTERM.
    assert server.process.wait(timeout=15) in (0, -signal.SIGTERM)
