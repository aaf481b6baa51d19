"""Rate limits and malformed replies from a real OpenAI-protocol server, through ChatOpenAI.

The server (tests/support/openai_server.py) serves a few requests at once and answers
the rest 429 with Retry-After, sends x-ratelimit-* headers, or cuts a reply short:
what a user meets on a real provider, on a loopback port.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline import ask
from pipeline.cli.app import app
from pipeline.errors import ModelError
from tests.integration.test_providers import QUESTION, openai_settings
from tests.support.openai_server import running_server
from tests.support.texts import ROBOTICS_REPORT


@pytest.mark.slow
def test_ceiling_of_64_on_a_server_that_serves_3_at_once_reads_every_chunk() -> None:
    document = "\n\n".join([ROBOTICS_REPORT] * 4)
    with running_server(capacity=3, latency_s=0.05, retry_after_s=0.2) as server:
        result = ask(document, QUESTION, settings=openai_settings(server.url, max_concurrency=64))
    assert "Ingrid Halvorsen" in result.answer
    assert result.coverage.chunks >= 20
    assert result.coverage.failed == []
    refused = server.refused()
    assert refused / len(server.requests) < 0.25
    usage = result.usage.by_model["local-model"]
    assert usage.rate_limited == refused
    assert 1 <= usage.limit <= 4  # 3, or probing one above it
    assert server.peak_busy <= 3


def test_remaining_requests_headers_hold_calls_before_the_429() -> None:
    """60 requests a minute with 2 left: the headers of the first replies say so, and
    longdoc waits for the budget to refill (one a second) instead of meeting 429s."""
    with running_server(ratelimit_headers=True, requests_per_minute=60, requests_left=2) as server:
        started = time.monotonic()
        result = ask(ROBOTICS_REPORT, QUESTION, settings=openai_settings(server.url))
        wall = time.monotonic() - started
    served = len(server.answered())
    assert result.coverage.failed == []
    # `ask` fans out at once (no route call goes first), so the first round's calls leave
    # before any reply's headers: the server takes 2 and refuses the rest of that round;
    # every later call waits for the budget instead.
    assert server.refused() <= max(0, result.coverage.chunks - 2)
    # Paced at the server's refill rate, 1 a second after the first 2. Refused calls are
    # left out: how many of the first round meet a 429 depends on how they race.
    assert wall >= (served - 2) * 0.9


@pytest.mark.parametrize("marker", ["TRUNCATED_JSON_ONCE", "EMPTY_CHOICES_ONCE"])
def test_malformed_200_replies_are_retried_even_on_the_route_call(marker: str) -> None:
    """The marker is in the question, so every prompt (route, chunks, answer) gets one."""
    with running_server() as server:
        result = ask(ROBOTICS_REPORT, f"{QUESTION} {marker}", settings=openai_settings(server.url))
    assert result.mode == "document"
    assert result.coverage.failed == []
    assert "Ingrid Halvorsen" in result.answer
    cut = [r for r in server.requests if r.status == -200]
    assert len(cut) >= result.coverage.chunks + 1  # the route call's was retried too


@pytest.mark.slow
def test_cli_stream_says_when_the_provider_refuses_calls_and_how_longdoc_slows_down(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.md"
    report.write_text("\n\n".join([ROBOTICS_REPORT] * 3), encoding="utf-8")
    with running_server(capacity=2, latency_s=0.05, retry_after_s=0.2) as server:
        env = {
            "LONGDOC_PROVIDER": "openai",
            "LONGDOC_MODEL": "local-model",
            "LONGDOC_BASE_URL": server.url,
            "LONGDOC_API_KEY": "test",
            "LONGDOC_CHUNK_SIZE": "100",
            "LONGDOC_CHUNK_OVERLAP": "0",
            "LONGDOC_MAX_CONCURRENCY": "16",
        }
        result = CliRunner().invoke(app, ["ask", str(report), QUESTION, "--stream"], env=env)
    assert result.exit_code == 0, result.output
    assert "Ingrid Halvorsen" in result.stdout
    assert re.search(r"local-model refused a call \(429\): now \d+ calls at once", result.stderr)
    assert "new calls paused 0.2 s" in result.stderr


@pytest.mark.parametrize(
    ("marker", "said"),
    [
        ("TRUNCATED_JSON_ALWAYS", "a reply that is not valid JSON (truncated?)"),
        ("EMPTY_CHOICES_ALWAYS", "a reply with no completion in it (empty or missing `choices`)"),
    ],
)
def test_a_reply_that_stays_malformed_fails_with_what_the_server_sent(
    marker: str, said: str
) -> None:
    with running_server() as server:
        settings = openai_settings(server.url, max_retries=2)
        with pytest.raises(ModelError) as caught:
            ask(ROBOTICS_REPORT, f"{QUESTION} {marker}", settings=settings)
    assert said in str(caught.value)
    assert "after 3 attempts" in str(caught.value)
    assert "IndexError" not in str(caught.value)
    # Each chunk's call was tried 1 + max_retries times, and no more.
    tries = Counter(json.dumps(r.body["messages"], sort_keys=True) for r in server.requests)
    assert set(tries.values()) == {3}
