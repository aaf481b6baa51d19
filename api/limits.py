"""Request limits: the body-size cap enforced while reading, and the in-progress request cap."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import error_body
from pipeline.errors import BusyError, TooLargeError

# Room for the question, field names and multipart boundaries on top of the documents:
# a 4,000-character question JSON-escaped as \uXXXX is 24 KB, well inside 64 KiB.
BODY_SLACK_BYTES = 64 * 1024


class BodyLimit:
    """Refuses bodies over `max_bytes` with 413, counting bytes as they arrive.

    A declared Content-Length over the limit is refused before reading anything; a
    chunked body (no Content-Length) is cut off the moment it passes the limit, so an
    oversized upload is never held whole in memory. (FastAPI's own `max_body_size`
    does the counting too, but answers a declared oversize with a plain-text 413 before
    any exception handler runs, which would break the API's JSON error body.)
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await _send_too_large(send, self.max_bytes)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # Raised inside the route's body read; the API's handler makes it a 413.
                    raise TooLargeError(_too_large_message(self.max_bytes))
            return message

        await self.app(scope, limited_receive, send)


def _too_large_message(max_bytes: int) -> str:
    return f"the request body is over the limit of {max_bytes:,} bytes"


async def _send_too_large(send: Send, max_bytes: int) -> None:
    body = json.dumps(
        error_body(
            TooLargeError.code,
            _too_large_message(max_bytes),
            "Send less, or raise LONGDOC_MAX_DOCUMENT_MB.",
        )
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Admission:
    """At most `limit` requests in progress in this process; the next one gets 429.

    Model calls themselves are capped process-wide (pipeline/engines/llm/calls.py); this cap
    keeps the queue in front of them short, so a burst is told to come back instead of piling up
    until every request times out. One event loop serves the app, so no lock is needed.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.active = 0

    def acquire(self) -> None:
        if self.active >= self.limit:
            raise BusyError(f"the server already has {self.limit} requests in progress")
        self.active += 1

    def release(self) -> None:
        self.active -= 1
