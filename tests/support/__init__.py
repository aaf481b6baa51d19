"""Everything tests share (no tests here): paths, sample texts, fakes, HTTP and server helpers.

texts.py          sample documents and their questions, written for the tests
documents.py      PDF and HTML files built from scratch
fakes.py          the fake chat model, a pure function of its prompt
openai_server.py  a real OpenAI-compatible server on a loopback port
watsonx_server.py a real watsonx.ai server (TLS, IAM sign-in) on a loopback port
moto_server.py    moto's DynamoDB and S3, served on a loopback port
http.py           httpx clients of the app, SSE parsing, error-body checks
server.py         a real `longdoc serve` process
terminal.py       child processes that a Ctrl-C reaches, however the tests were started
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_docs"
LONGDOC = Path(sys.executable).parent / "longdoc"
"""The installed console script, as a user runs it."""


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
