"""A real OpenAI chat-completions server on a loopback port, for contract tests with no network.

It answers `POST .../chat/completions` the way vLLM, Ollama or Databricks serving
endpoints do: plain replies, tool calls (function_calling) and JSON content
(`response_format` json_schema / json_object), with `usage`. Every reply is a pure
function of the request (the same reply functions as tests/support/fakes.py), because the
map step sends chunks concurrently and a queue would hand one chunk's reply to another.
Markers in the prompt make it misbehave on purpose:

    FAIL_ALWAYS         a request reading this chunk gets HTTP 500, every time
    RATE_LIMITED_ONCE   the first request with this prompt gets HTTP 429, Retry-After: 1
    BAD_JSON            the structured reply for this chunk is invalid, every time
    TRUNCATED_JSON_ONCE the first reply to this prompt is a 200 whose body is cut in half
    EMPTY_CHOICES_ONCE  the first reply to this prompt is a 200 with `"choices": []`
    ..._ALWAYS          (TRUNCATED_JSON_ALWAYS, EMPTY_CHOICES_ALWAYS) every reply to it is

Limits, off unless set: `capacity` requests served at once (each held `latency_s`), the
rest answered 429 with Retry-After (`retry_after_s`), and with `ratelimit_headers` every
reply carries x-ratelimit-limit/remaining/reset-requests for a budget of
`requests_per_minute` (`requests_left` of it at the start), refilled continuously as
OpenAI's is, and a request past it is answered 429.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pipeline.text.tokens import count_tokens
from tests.support.fakes import _STRUCTURED, chat_reply, fake_vector

RETRY_AFTER_S = 1
# OpenAI-compatible servers (base URL .../v1) and Databricks ({host}/serving-endpoints).
CHAT_PATHS = {"/v1/chat/completions", "/serving-endpoints/chat/completions"}
EMBEDDINGS_PATHS = {"/v1/embeddings", "/serving-endpoints/embeddings"}


@dataclass
class Request:
    """One request the server received, as the tests inspect it."""

    path: str
    body: dict[str, Any]
    prompt: str
    at: float
    status: int = 200
    usage: dict[str, int] = field(default_factory=dict)


class OpenAIServer:
    """Holds what was asked and answered; `url` is the base URL a client is pointed at."""

    def __init__(
        self,
        *,
        capacity: int | None = None,
        latency_s: float = 0.0,
        retry_after_s: float = RETRY_AFTER_S,
        ratelimit_headers: bool = False,
        requests_per_minute: int = 600,
        requests_left: int | None = None,
    ) -> None:
        self.requests: list[Request] = []
        self.capacity = capacity
        self.latency_s = latency_s
        self.retry_after_s = retry_after_s
        self.ratelimit_headers = ratelimit_headers
        self.requests_per_minute = requests_per_minute
        self.busy = 0
        self.peak_busy = 0
        self._budget = float(requests_per_minute if requests_left is None else requests_left)
        self._budget_at = time.monotonic()
        self._lock = threading.Lock()
        self._seen: set[str] = set()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.root = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.root}/v1"

    def start(self) -> None:
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def admit(self) -> bool:
        """Count a request in, or False when `capacity` requests are being served."""
        with self._lock:
            if self.capacity is not None and self.busy >= self.capacity:
                return False
            self.busy += 1
            self.peak_busy = max(self.peak_busy, self.busy)
            return True

    def leave(self) -> None:
        with self._lock:
            self.busy -= 1

    def spend(self) -> bool:
        """Charge one request to the per-minute budget; False (a 429) when it is empty."""
        if not self.ratelimit_headers:
            return True
        with self._lock:
            now = time.monotonic()
            rate = self.requests_per_minute / 60
            self._budget = min(
                self.requests_per_minute, self._budget + (now - self._budget_at) * rate
            )
            self._budget_at = now
            if self._budget < 1:
                return False
            self._budget -= 1
            return True

    def limit_headers(self) -> dict[str, str]:
        """x-ratelimit-* for the requests-per-minute budget, as it stands."""
        if not self.ratelimit_headers:
            return {}
        with self._lock:
            rate = self.requests_per_minute / 60
            reset = (self.requests_per_minute - self._budget) / rate
            return {
                "x-ratelimit-limit-requests": str(self.requests_per_minute),
                "x-ratelimit-remaining-requests": str(int(self._budget)),
                "x-ratelimit-reset-requests": f"{reset:.3f}s",
            }

    def refused(self) -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.status == 429)

    def answered(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.status == 200]

    def embed(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """An embeddings reply: each input's vector is fake_vector of its text."""
        with self._lock:
            self.requests.append(Request(path=path, body=body, prompt="", at=time.monotonic()))
        return _embeddings_reply(body)

    def respond(
        self, path: str, body: dict[str, Any]
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """Status, JSON body and extra headers for one chat-completions request."""
        prompt = "\n".join(_text(m.get("content")) for m in body.get("messages", []))
        with self._lock:
            first_time = prompt not in self._seen
            self._seen.add(prompt)
            record = Request(path=path, body=body, prompt=prompt, at=time.monotonic())
            self.requests.append(record)
        if "FAIL_ALWAYS" in prompt and "Excerpt" in prompt:
            record.status = 500
            return 500, _error("the server had an error", "server_error"), {}
        if "RATE_LIMITED_ONCE" in prompt and first_time:
            record.status = 429
            return 429, _error("rate limited", "rate_limit"), {"Retry-After": str(RETRY_AFTER_S)}
        if "TRUNCATED_JSON_ALWAYS" in prompt or ("TRUNCATED_JSON_ONCE" in prompt and first_time):
            record.status = -200  # a 200 whose body is cut off
            return 200, {"truncate": True}, {}
        if "EMPTY_CHOICES_ALWAYS" in prompt or ("EMPTY_CHOICES_ONCE" in prompt and first_time):
            record.status = -200
            return 200, {"id": "chatcmpl-empty", "object": "chat.completion", "choices": []}, {}
        message, output = _message(body, prompt)
        record.usage = {
            "prompt_tokens": count_tokens(prompt),
            "completion_tokens": count_tokens(output),
            "total_tokens": count_tokens(prompt) + count_tokens(output),
        }
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        reply = {
            "id": f"chatcmpl-{abs(hash(prompt))}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": record.usage,
        }
        return 200, reply, {}


def _embeddings_reply(body: dict[str, Any]) -> dict[str, Any]:
    inputs = body.get("input", [])
    texts = [inputs] if isinstance(inputs, str) else list(inputs)
    data = [
        {"object": "embedding", "index": i, "embedding": fake_vector(str(text))}
        for i, text in enumerate(texts)
    ]
    tokens = sum(count_tokens(str(t)) for t in texts)
    return {
        "object": "list",
        "data": data,
        "model": body.get("model", ""),
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


@contextmanager
def running_server(**limits: Any) -> Iterator[OpenAIServer]:
    server = OpenAIServer(**limits)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _message(body: dict[str, Any], prompt: str) -> tuple[dict[str, Any], str]:
    """The assistant message: a tool call, JSON content, or plain text, as the request asks."""
    tools = body.get("tools") or []
    response_format = body.get("response_format") or {}
    if tools:
        name = tools[0]["function"]["name"]
        arguments = json.dumps(_STRUCTURED[name](prompt))
        call = {
            "id": "call_0",
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}, arguments
    if response_format.get("type") == "json_schema":
        name = response_format["json_schema"]["name"]
        content = json.dumps(_STRUCTURED[name](prompt))
        return {"role": "assistant", "content": content}, content
    content = chat_reply(prompt)
    return {"role": "assistant", "content": content}, content


def _text(content: Any) -> str:
    if isinstance(content, list):  # content parts: [{"type": "text", "text": ...}]
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "code": None}}


def _handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as real servers do

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            if self.path in EMBEDDINGS_PATHS:
                self._send(200, server.embed(self.path, body), {})
                return
            if self.path not in CHAT_PATHS:
                self._send(404, _error(f"no route {self.path}", "not_found"), {})
                return
            if not server.spend() or not server.admit():
                with server._lock:
                    server.requests.append(Request(self.path, body, "", time.monotonic(), 429))
                retry = {"Retry-After": f"{server.retry_after_s:g}", **server.limit_headers()}
                self._send(429, _error("too many requests in flight", "rate_limit"), retry)
                return
            try:
                time.sleep(server.latency_s)
                status, payload, headers = server.respond(self.path, body)
                self._send(status, payload, {**headers, **server.limit_headers()})
            finally:
                server.leave()

        def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
            data = json.dumps(payload).encode()
            if payload.get("truncate"):
                whole = json.dumps({"id": "chatcmpl-cut", "choices": [{"index": 0}]}).encode()
                data = whole[: len(whole) // 2]
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep pytest output clean

    return Handler
