"""A real watsonx.ai server on a loopback port, speaking the protocol as ibm-watsonx-ai 1.8 uses it.

The SDK refuses any URL that is not https://, so it serves TLS with a self-signed
certificate made at start (`ca_file`; the tests point SSL_CERT_FILE at it). It answers:

    POST /identity/token               IAM: API key (form body) -> a JWT access token
    GET  /v2/projects/{id}, /v2/spaces/{id}   the scope check when the client is built
    GET  /ml/v1/foundation_model_specs the model check (ModelInference(validate=True))
    POST /ml/v1/text/chat?version=...  chat: plain replies, tool calls, JSON-schema content

Chat replies are the same pure functions of the prompt as tests/support/openai_server.py
(the map step reads chunks concurrently), with `usage` counted by longdoc's tokenizer.
The markers FAIL_ALWAYS (HTTP 500 every time) and RATE_LIMITED_ONCE (one 429 with
Retry-After: 1) work as there; `fail_next(status, n)` queues failures for the next requests.
"""

from __future__ import annotations

import base64
import datetime as dt
import ipaddress
import json
import ssl
import tempfile
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pipeline.text.tokens import count_tokens
from tests.support.openai_server import _message, _text

API_KEY = "wx-test-key"
PROJECT_ID = "5b3c1c2e-0000-4000-8000-00000000cafe"
SPACE_ID = "9d7e4f10-0000-4000-8000-00000000beef"
MODELS = ("ibm/granite-3-3-8b-instruct", "meta-llama/llama-3-3-70b-instruct")
RETRY_AFTER_S = 1
CHAT_PATH = "/ml/v1/text/chat"


@dataclass
class Request:
    """One request the server received, as the tests inspect it."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    prompt: str = ""
    at: float = 0.0
    status: int = 200
    usage: dict[str, int] = field(default_factory=dict)


class WatsonxServer:
    """Holds what was asked and answered; `url` is the watsonx URL a client is pointed at."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.token_lifetime_s = 3600
        """Seconds an issued token is valid; under a minute, the SDK refreshes it every call."""
        self.tokens: set[str] = set()
        self._lock = threading.Lock()
        self._seen: set[str] = set()
        self._failures: deque[tuple[str, int]] = deque()
        self._tmp = tempfile.TemporaryDirectory(prefix="watsonx-")
        cert, key = _self_signed(Path(self._tmp.name))
        self.ca_file = str(cert)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self._httpd.socket = context.wrap_socket(self._httpd.socket, server_side=True)
        self.port = self._httpd.server_address[1]
        self.url = f"https://127.0.0.1:{self.port}"
        self.auth_url = f"{self.url}/identity/token"

    def start(self) -> None:
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._tmp.cleanup()

    def fail_next(self, status: int, times: int = 1, path: str = CHAT_PATH) -> None:
        """The next `times` requests to `path` get `status` (429s with Retry-After: 1)."""
        with self._lock:
            self._failures.extend([(path, status)] * times)

    def chats(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path == CHAT_PATH]

    def answered(self) -> list[Request]:
        return [r for r in self.chats() if r.status == 200]

    def respond(self, record: Request) -> tuple[int, dict[str, Any], dict[str, str]]:
        """Status, JSON body and extra headers for one request."""
        with self._lock:
            self.requests.append(record)
            failure = self._failures[0] if self._failures else None
            if failure is not None and failure[0] == record.path:
                self._failures.popleft()
                return self._failure(record, failure[1])
        if record.path == "/identity/token":
            return self._token(record)
        if not self._signed_in(record):
            return _refusal(record, 401, "authentication_token_not_valid", "no valid token")
        if record.method == "GET" and record.path.startswith(("/v2/projects/", "/v2/spaces/")):
            return self._scope(record)
        if record.method == "GET" and record.path == "/ml/v1/foundation_model_specs":
            specs = [{"model_id": m, "functions": [{"id": "text_chat"}]} for m in MODELS]
            return 200, {"total_count": len(specs), "limit": 200, "resources": specs}, {}
        if record.method == "POST" and record.path == CHAT_PATH:
            return self._chat(record)
        return _refusal(record, 404, "not_found", f"no route {record.method} {record.path}")

    def _failure(self, record: Request, status: int) -> tuple[int, dict[str, Any], dict[str, str]]:
        headers = {"Retry-After": str(RETRY_AFTER_S)} if status == 429 else {}
        status, body, _ = _refusal(record, status, "injected", f"injected {status}")
        return status, body, headers

    def _token(self, record: Request) -> tuple[int, dict[str, Any], dict[str, str]]:
        form = parse_qs(record.body if isinstance(record.body, str) else "")
        if form.get("apikey") != [API_KEY]:
            record.status = 400
            return 400, {"errorCode": "BXNIM0415E", "errorMessage": "API key not found"}, {}
        token = _jwt(self.token_lifetime_s)
        with self._lock:
            self.tokens.add(token)
        reply = {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
        return 200, reply, {}

    def _signed_in(self, record: Request) -> bool:
        scheme, _, token = record.headers.get("Authorization", "").partition(" ")
        with self._lock:
            return scheme == "Bearer" and token in self.tokens

    def _scope(self, record: Request) -> tuple[int, dict[str, Any], dict[str, str]]:
        kind, guid = record.path.split("/")[2:4]
        known = PROJECT_ID if kind == "projects" else SPACE_ID
        if guid != known:
            return _refusal(record, 404, "does_not_exist", f"{kind[:-1]} {guid} does not exist")
        compute = [
            {"type": "machine_learning", "guid": "wml-test", "name": "Watson Machine Learning"}
        ]
        entity: dict[str, Any] = {"name": f"test {kind[:-1]}", "compute": compute}
        if kind == "projects":
            entity["storage"] = {"type": "assetfiles"}
        return 200, {"metadata": {"guid": guid, "id": guid}, "entity": entity}, {}

    def _chat(self, record: Request) -> tuple[int, dict[str, Any], dict[str, str]]:
        body: dict[str, Any] = record.body
        record.prompt = prompt = "\n".join(_text(m.get("content")) for m in body["messages"])
        if body.get("model_id") not in MODELS:
            return _refusal(record, 404, "model_not_supported", f"model {body.get('model_id')}")
        with self._lock:
            first_time = prompt not in self._seen
            self._seen.add(prompt)
        if "FAIL_ALWAYS" in prompt and "Excerpt" in prompt:
            return self._failure(record, 500)
        if "RATE_LIMITED_ONCE" in prompt and first_time:
            return self._failure(record, 429)
        message, output = _message(body, prompt)
        prompt_tokens, completion_tokens = count_tokens(prompt), count_tokens(output)
        record.usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        if message.get("content") is None:
            message["content"] = ""  # watsonx sends an empty string beside tool calls
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        reply = {
            "id": f"chatcmpl-{abs(hash(prompt))}",
            "model_id": body["model_id"],
            "model": body["model_id"],
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "created": int(time.time()),
            "model_version": "3.3.0",
            "created_at": dt.datetime.now(dt.UTC).isoformat(),
            "usage": record.usage,
        }
        return 200, reply, {}


@contextmanager
def running_server() -> Iterator[WatsonxServer]:
    server = WatsonxServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _refusal(
    record: Request, status: int, code: str, message: str
) -> tuple[int, dict[str, Any], dict[str, str]]:
    """watsonx.ai's error body: `errors`, a trace id and the status code."""
    record.status = status
    body = {"errors": [{"code": code, "message": message}], "trace": "t0", "status_code": status}
    return status, body, {}


def _jwt(lifetime_s: int) -> str:
    """An unsigned JWT: the SDK only decodes its payload, to know when to refresh it."""

    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    claims = {"iam_id": "IBMid-test", "exp": int(time.time()) + lifetime_s, "nonce": time.time_ns()}
    return f"{part({'alg': 'none'})}.{part(claims)}.c2ln"


def _self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, valid for a day."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


def _handler(server: WatsonxServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as real servers do

        def do_GET(self) -> None:
            self._answer("GET")

        def do_POST(self) -> None:
            self._answer("POST")

        def _answer(self, method: str) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length).decode() if length else ""
            json_body = "json" in self.headers.get("Content-Type", "") and raw
            record = Request(
                method=method,
                path=parts.path,
                query=parse_qs(parts.query),
                headers=dict(self.headers),
                body=json.loads(raw) if json_body else raw,
                at=time.monotonic(),
            )
            status, payload, headers = server.respond(record)
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
