"""A real `longdoc serve` under hostile clients: slow bodies and headers, huge headers, broken
framing, hang-ups, oversized bodies, foreign hosts and origins, other keys' threads."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import select
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.server import COUNTING_MODEL, Server, running_server
from tests.support.sockets import closed_within, connect, error_code, read_response
from tests.support.texts import ACME_NOTE, ACME_QUESTION

pytestmark = pytest.mark.slow  # real servers: seconds each


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """On the fake model (0.2 s a call), 4 requests in progress at most, 2 s to read."""
    with running_server(
        tmp_path_factory.mktemp("fake"),
        LONGDOC_MODEL_FACTORY=COUNTING_MODEL,
        LONGDOC_CHUNK_SIZE="60",
        LONGDOC_CHUNK_OVERLAP="0",
        LONGDOC_MAX_CONCURRENCY="2",
        LONGDOC_MAX_QUEUED_REQUESTS="4",
        LONGDOC_READ_TIMEOUT_S="2",
        FAKE_LATENCY="0.2",
    ) as running:
        yield running


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The built-in engine with a document limit of 50,000 characters."""
    with running_server(
        tmp_path_factory.mktemp("small"), LONGDOC_MAX_DOCUMENT_MB="0.05"
    ) as running:
        yield running


def ask_json() -> dict[str, str]:
    return {"question": ACME_QUESTION, "document": ACME_NOTE}


# ---- slow clients (item 4) ----


def test_clients_sending_slowly_do_not_lock_others_out(fake: Server) -> None:
    head = (
        b"POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 10000\r\n\r\n{"
    )
    slow = [connect(fake.url) for _ in range(12)]  # three times the 4 places
    for sock in slow:
        sock.sendall(head)
    stop = threading.Event()

    def drip() -> None:  # one byte each every 0.3 s, as a slowloris client does
        while not stop.wait(0.3):
            for sock in slow:
                with contextlib.suppress(OSError):
                    sock.sendall(b" ")

    dripper = threading.Thread(target=drip)
    dripper.start()
    try:
        statuses = [
            httpx.post(f"{fake.url}/v1/ask", json=ask_json(), timeout=10).status_code
            for _ in range(4)
        ]
        assert statuses == [200] * 4
        # And the slow ones are cut off once they fall below the pace (2 s of grace).
        for sock in slow:
            sock.settimeout(10)
            status, _headers, body = read_response(sock)
            assert status == 408
            assert error_code(body) == "read_timeout"
    finally:
        stop.set()
        dripper.join()
        for sock in slow:
            sock.close()


def test_a_connection_that_sends_nothing_is_closed(fake: Server) -> None:
    with connect(fake.url) as sock:
        assert closed_within(sock, 5)


def test_headers_that_never_finish_get_408(fake: Server) -> None:
    with connect(fake.url) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        sock.settimeout(6)
        status, _headers, body = read_response(sock)
    assert status == 408
    assert error_code(body) == "read_timeout"


# ---- headers (item 5) and framing (item 10) ----


def send_until_answered(url: str, head: bytes, filler: bytes, total: int) -> tuple[int, bytes]:
    """Send `head`, then `filler` up to `total` bytes, stopping as soon as an answer comes."""
    with connect(url) as sock:
        sock.sendall(head)
        sent = 0
        while sent < total:
            if select.select([sock], [], [], 0)[0]:
                break
            try:
                sock.sendall(filler)
            except OSError:
                break
            sent += len(filler)
        sock.settimeout(10)
        status, _, body = read_response(sock)
    return status, body


def test_a_huge_header_is_refused_with_431_and_healthz_stays_quick(fake: Server) -> None:
    status, body = send_until_answered(
        fake.url,
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ",
        b"a" * 65536,
        total=20_000_000,
    )
    assert status == 431
    assert error_code(body) == "headers_too_large"
    started = time.monotonic()
    assert httpx.get(f"{fake.url}/healthz", timeout=5).status_code == 200
    assert time.monotonic() - started < 1


def test_too_many_headers_are_refused_with_431(fake: Server) -> None:
    many = "".join(f"X-H{i}: v\r\n" for i in range(150))
    with connect(fake.url) as sock:
        sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n{many}\r\n".encode())
        status, _, body = read_response(sock)
    assert status == 431
    assert error_code(body) == "headers_too_large"


def test_a_malformed_request_gets_the_json_error_body(fake: Server) -> None:
    with connect(fake.url) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n")
        status, headers, body = read_response(sock)
    assert status == 400
    assert headers["content-type"] == "application/json"
    assert error_code(body) == "bad_request"


# ---- hanging up (issue 19) ----


def many_chunks() -> str:
    return (
        " ".join(f"Boat {i} was painted blue in the harbour." for i in range(120)) + " " + ACME_NOTE
    )


def test_a_json_ask_stops_its_model_calls_when_the_client_hangs_up(fake: Server) -> None:
    before = fake.calls()
    with pytest.raises(httpx.ReadTimeout):  # the client gives up after 1.2 s and hangs up
        httpx.post(
            f"{fake.url}/v1/ask",
            json={"question": ACME_QUESTION, "document": many_chunks()},
            timeout=1.2,
        )
    time.sleep(1.0)  # calls in flight when it hung up may finish
    settled = fake.calls()
    time.sleep(1.5)  # a run still going would make ~15 more calls here
    assert fake.calls() == settled
    assert settled - before < 15  # of the 35 calls the whole ask makes


# ---- trust (item 9, open mode) ----


def test_open_mode_answers_loopback_names_only(fake: Server) -> None:
    assert httpx.get(f"{fake.url}/healthz", timeout=5).status_code == 200
    port = urlsplit(fake.url).port
    localhost = httpx.get(f"http://localhost:{port}/healthz", timeout=5)
    assert localhost.status_code == 200
    rebound = httpx.get(f"{fake.url}/healthz", headers={"Host": "evil.example"}, timeout=5)
    assert rebound.status_code == 403
    assert rebound.json()["error"]["code"] == "forbidden"


def test_a_cross_origin_form_post_is_refused_before_any_work(fake: Server) -> None:
    before = fake.calls()
    response = httpx.post(
        f"{fake.url}/v1/ask",
        data={"question": ACME_QUESTION},
        files={"file": ("note.txt", ACME_NOTE.encode())},
        headers={"Origin": "http://evil.example"},
        timeout=10,
    )
    assert response.status_code == 403
    assert "access-control-allow-origin" not in response.headers
    assert fake.calls() == before
    # The server's own page (same origin) is let through.
    own = httpx.post(
        f"{fake.url}/v1/ask", json=ask_json(), headers={"Origin": fake.url}, timeout=10
    )
    assert own.status_code == 200


# ---- the document limit in characters, and a readable 413 (item 8) ----


def test_a_japanese_document_under_the_limit_fits_when_sent_escaped(small: Server) -> None:
    document = ("港で船が青く塗られた。エイダが会社を創業した。" * 2000)[:45_000]
    body = json.dumps({"question": "誰が会社を創業した？", "document": document})  # \uXXXX
    assert len(body) > 250_000  # 6 bytes a character, far over 50,000
    response = httpx.post(
        f"{small.url}/v1/ask",
        content=body,
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 200, response.text


def oversized() -> bytes:
    """30 MB: more than the socket buffers hold, so the client is still sending when refused."""
    return json.dumps({"question": "q?", "document": "a" * 30_000_000}).encode()


def test_an_oversized_json_body_gets_a_413_that_httpx_can_read(small: Server) -> None:
    response = httpx.post(
        f"{small.url}/v1/ask",
        content=oversized(),
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_an_oversized_json_body_gets_a_413_that_http_client_can_read(small: Server) -> None:
    parts = urlsplit(small.url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    connection.request(
        "POST", "/v1/ask", body=oversized(), headers={"Content-Type": "application/json"}
    )
    response = connection.getresponse()
    assert response.status == 413
    assert json.loads(response.read())["error"]["code"] == "too_large"
    connection.close()


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_an_oversized_json_body_gets_a_413_that_curl_can_read(
    small: Server, tmp_path: Path
) -> None:
    payload = tmp_path / "body.json"
    payload.write_bytes(oversized())
    done = subprocess.run(
        [
            "curl",
            "-sS",
            "-H",
            "Content-Type: application/json",
            "--data-binary",
            f"@{payload}",
            f"{small.url}/v1/ask",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["error"]["code"] == "too_large"


# ---- documents load under the request's limits (item 1) ----


@pytest.fixture(scope="module")
def hurried(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The built-in engine with requests cut off at 1 s."""
    with running_server(
        tmp_path_factory.mktemp("hurried"), LONGDOC_REQUEST_TIMEOUT_S="1"
    ) as running:
        yield running


def slow_page() -> bytes:
    """8 MB of markup that takes seconds to read, with one sentence at the end."""
    return ("<html><body>" + "<i></i>" * 1_200_000 + f"<p>{ACME_NOTE}</p></body></html>").encode()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def assert_idle(server: Server) -> None:
    """The server uses (almost) no CPU now: no load is still running."""
    time.sleep(0.3)
    before = cpu_seconds(server.process.pid)
    time.sleep(1.0)
    assert cpu_seconds(server.process.pid) - before < 0.2


def test_a_slow_upload_to_parse_ends_at_the_request_deadline(hurried: Server) -> None:
    started = time.monotonic()
    response = httpx.post(
        f"{hurried.url}/v1/ask",
        data={"question": ACME_QUESTION},
        files={"file": ("page.html", slow_page())},
        timeout=60,
    )
    assert response.status_code == 504
    assert response.json()["error"]["code"] == "request_timeout"
    assert time.monotonic() - started < 2.5
    assert_idle(hurried)


def test_hanging_up_during_a_parse_stops_it(hurried: Server) -> None:
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(
            f"{hurried.url}/v1/summarize",
            files={"file": ("page.html", slow_page())},
            headers={"Accept": "text/event-stream"},
            timeout=0.4,
        )
    assert_idle(hurried)
    assert httpx.get(f"{hurried.url}/healthz", timeout=5).status_code == 200


# ---- thread owners (item 9, with keys) ----


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("keyed"), LONGDOC_API_KEYS="key-a,key-b") as s:
        yield s


def test_a_key_sees_only_its_own_threads(keyed: Server) -> None:
    with (
        httpx.Client(base_url=keyed.url, headers={"X-API-Key": "key-a"}, timeout=10) as a,
        httpx.Client(
            base_url=keyed.url, headers={"Authorization": "Bearer key-b"}, timeout=10
        ) as b,
    ):
        thread = a.post("/v1/threads").json()["thread_id"]
        said = a.post(f"/v1/threads/{thread}/messages", json={"message": "My secret is swordfish."})
        assert said.status_code == 200
        # Key B can neither read, continue nor delete it: to B it does not exist.
        for response in (
            b.get(f"/v1/threads/{thread}"),
            b.post(f"/v1/threads/{thread}/messages", json={"message": "What is my secret?"}),
            b.delete(f"/v1/threads/{thread}"),
        ):
            assert response.status_code == 404
            assert response.json()["error"]["code"] == "not_found"
        own = a.get(f"/v1/threads/{thread}").json()
        assert own["history"][0]["content"] == "My secret is swordfish."
        assert len(own["history"]) == 2  # B's attempt left nothing
        theirs = b.post("/v1/threads").json()["thread_id"]
        assert a.get(f"/v1/threads/{theirs}").status_code == 404
        assert b.get(f"/v1/threads/{theirs}").status_code == 200
        # Nor does the listing tell either key of the other's thread.
        assert thread in a.get("/v1/threads").json()["threads"]
        assert b.get("/v1/threads").json()["threads"] == [theirs]
        assert a.get("/v1/threads", params={"limit": 1}).json()["threads"] == [thread]
