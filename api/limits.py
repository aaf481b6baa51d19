"""Request limits: the body's size and pace, enforced while it is read, and the in-progress cap."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import error_body
from pipeline.config import Settings
from pipeline.errors import BusyError, ReadTimeoutError, TooLargeError

# Room for the question, field names and multipart boundaries on top of the documents:
# a 4,000-character question JSON-escaped as \uXXXX is 24 KB, well inside 64 KiB.
BODY_SLACK_BYTES = 64 * 1024
# The most bytes one document character can take in a body: a JSON \uXXXX escape is 6
# (a stock client escapes every non-ASCII character so), UTF-8 and UTF-16 at most 4.
BYTES_PER_CHAR = 6
DRAIN_S = 30.0
DRAIN_BYTES = 64 * 1024 * 1024
"""Longest, and most bytes, a refused body is read and thrown away so the client can read
the 413; past either the connection is closed on it."""


def max_body_bytes(settings: Settings) -> int:
    """The body limit, derived from the document limit in characters.

    The default 20,000,000 characters allow 120 MB (+ 64 KiB): a Japanese document just
    under the limit, sent as JSON by a client that escapes it, still fits.
    """
    return settings.max_document_chars * BYTES_PER_CHAR + BODY_SLACK_BYTES


@dataclass(frozen=True)
class Pace:
    """How slowly a body may arrive: no gap longer than `idle_s`, and after a grace of
    `idle_s` an average of at least `min_bytes_per_s` since the request began."""

    idle_s: float
    min_bytes_per_s: float

    @classmethod
    def of(cls, settings: Settings) -> Pace:
        return cls(settings.read_timeout_s, settings.body_min_kb_s * 1000)


class BodyLimit:
    """Refuses bodies over `max_bytes` with 413 and bodies that arrive too slowly with 408.

    Bytes are counted as they arrive, so an oversized upload is never held whole. A
    refused body is read and thrown away first (for up to DRAIN_S), then answered: a
    stock client (httpx, requests, curl) sends its whole body before it reads the reply,
    and a server that closes on it mid-send shows it a connection reset, not the 413. A
    client that sent `Expect: 100-continue` has sent nothing yet and is answered at once;
    so is one that declares more than DRAIN_BYTES over the limit.
    (FastAPI's own `max_body_size` answers a declared oversize with a plain-text 413
    before any exception handler runs, which would break the API's JSON error body.)
    """

    def __init__(self, app: ASGIApp, max_bytes: int, pace: Pace) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.pace = pace

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = _Body(receive, self.max_bytes, self.pace)
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            expecting = headers.get(b"expect", b"").lower() == b"100-continue"
            if not expecting and int(declared) <= self.max_bytes + DRAIN_BYTES:
                with contextlib.suppress(ReadTimeoutError):  # answered all the same
                    await body.drain()
            await _send_too_large(send, self.max_bytes)
            return

        async def send_closing_if_cut(message: Message) -> None:
            # A refused body that was not read to its end: nothing more of it is wanted.
            if message["type"] == "http.response.start" and body.cut:
                message = {**message, "headers": [*message["headers"], (b"connection", b"close")]}
            await send(message)

        await self.app(scope, body.receive, send_closing_if_cut)


class _Body:
    """One request's body as the app reads it: counted, timed, and drained when refused."""

    def __init__(self, receive: Receive, max_bytes: int, pace: Pace) -> None:
        self._receive = receive
        self.max_bytes = max_bytes
        self.pace = pace
        self.started = time.monotonic()
        self.received = 0
        self.done = False
        self.cut = False  # refused, and not read to its end

    async def receive(self) -> Message:
        if self.done:  # the body is read: what comes now is the disconnect
            return await self._receive()
        message = await self._next()
        if self.received > self.max_bytes:
            await self.drain()
            # Raised inside the route's body read; the API's handler makes it a 413.
            raise TooLargeError(_too_large_message(self.max_bytes))
        return message

    async def drain(self) -> None:
        """Read the rest of the body and throw it away, for up to DRAIN_S and DRAIN_BYTES."""
        try:
            async with asyncio.timeout(DRAIN_S):
                while not self.done and self.received <= self.max_bytes + DRAIN_BYTES:
                    await self._next()
        except TimeoutError:
            self.cut = True
            raise ReadTimeoutError(f"the request body took over {DRAIN_S:g} s to send") from None
        self.cut = not self.done

    async def _next(self) -> Message:
        """The next message, or ReadTimeoutError when it is later than the pace allows."""
        now = time.monotonic()
        deadline = self.started + self.pace.idle_s + self.received / self.pace.min_bytes_per_s
        try:
            async with asyncio.timeout(min(self.pace.idle_s, max(deadline - now, 0.0))):
                message = await self._receive()
        except TimeoutError:
            raise ReadTimeoutError(
                f"the request body arrived too slowly ({self.received:,} bytes in "
                f"{now - self.started:.0f} s)"
            ) from None
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            self.done = not message.get("more_body", False)
        else:  # the client went away
            self.done = True
        return message


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

    A request is admitted once its body is read, so clients still sending (slowly, or on
    purpose) hold no place. Model calls themselves are capped process-wide
    (pipeline/engines/llm/calls.py); this cap keeps the queue in front of them short, so
    a burst is told to come back instead of piling up until every request times out.
    One event loop serves the app, so no lock is needed.
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
