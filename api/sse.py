"""Server-sent events from an async iterator of progress events; a disconnect cancels the work."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from typing import Any

from starlette.types import Receive, Scope, Send

from api.errors import error_response, public_body
from pipeline.errors import InternalError, LongdocError

log = logging.getLogger("longdoc.api")

PING_S = 15.0
"""Seconds of silence before a `: ping` comment, so proxies keep the stream open."""


def format_event(event: dict[str, Any]) -> bytes:
    """`{"event": "split", "chunks": 3}` as `event: split\\ndata: {"chunks": 3}\\n\\n`."""
    name = str(event.get("event", "message"))
    data = {key: value for key, value in event.items() if key != "event"}
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


class EventStream:
    """An ASGI response that runs `events` in its own task and streams each one as SSE.

    The first item decides the response: an error before any event (bad input found
    when the run starts) is a normal JSON error with its status code; after that,
    errors arrive as an `error` event. A watcher task waits for `http.disconnect` and
    cancels the producer, which cancels the graph run and with it any model call
    still waiting or in flight. `on_close` runs however the stream ends.
    """

    def __init__(
        self,
        events: AsyncGenerator[dict[str, Any]],
        on_close: Callable[[], None],
        ping_s: float = PING_S,
    ) -> None:
        self.events = events
        self.on_close = on_close
        self.ping_s = ping_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self._run(receive, send, scope)
        finally:
            self.on_close()

    async def _run(self, receive: Receive, send: Send, scope: Scope) -> None:
        # Unbounded: a run sends a few events per chunk, and the producer must never block.
        inbox: asyncio.Queue[dict[str, Any] | LongdocError | None] = asyncio.Queue()

        async def produce() -> None:
            try:
                async with aclosing(self.events) as events:
                    async for event in events:
                        inbox.put_nowait(event)
            except LongdocError as exc:
                inbox.put_nowait(exc)
            except Exception:
                log.exception("stream failed")
                inbox.put_nowait(InternalError())
            finally:
                inbox.put_nowait(None)  # the end, however it came (cancelled included)

        async def watch_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            producer.cancel()

        # Plain asyncio tasks cancelled with Task.cancel(): a graph run consumed under an
        # anyio cancel scope went on making model calls after the scope was cancelled.
        producer = asyncio.create_task(produce())
        watcher = asyncio.create_task(watch_disconnect())
        try:
            first = await inbox.get()
            if isinstance(first, LongdocError) or first is None:
                error = first or InternalError()
                await error_response(error)(scope, receive, send)
                return
            await send(_START)
            try:
                await self._pump(first, inbox, send)
            except OSError:  # the client went away mid-write
                return
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            for task in (producer, watcher):
                task.cancel()
            await asyncio.gather(producer, watcher, return_exceptions=True)

    async def _pump(
        self,
        first: dict[str, Any] | LongdocError,
        inbox: asyncio.Queue[dict[str, Any] | LongdocError | None],
        send: Send,
    ) -> None:
        item: dict[str, Any] | LongdocError | None = first
        while item is not None:
            data = (
                format_event({"event": "error", **public_body(item)})
                if isinstance(item, LongdocError)
                else format_event(item)
            )
            await send({"type": "http.response.body", "body": data, "more_body": True})
            while True:
                try:
                    item = await asyncio.wait_for(inbox.get(), self.ping_s)
                    break
                except TimeoutError:
                    ping = {"type": "http.response.body", "body": b": ping\n\n", "more_body": True}
                    await send(ping)


_START = {
    "type": "http.response.start",
    "status": 200,
    "headers": [
        (b"content-type", b"text/event-stream; charset=utf-8"),
        (b"cache-control", b"no-cache"),
        (b"x-accel-buffering", b"no"),  # nginx: deliver each event as it comes
    ],
}
