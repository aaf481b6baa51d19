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

    def __init__(self) -> None:
        self.requests: list[Request] = []
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
def running_server() -> Iterator[OpenAIServer]:
    server = OpenAIServer()
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
            self._send(*server.respond(self.path, body))

        def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
            data = json.dumps(payload).encode()
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
