"""Cancelling a request's work when its client hangs up, for every route (JSON and SSE alike)."""

from __future__ import annotations

import asyncio
import contextlib

from starlette.types import ASGIApp, Message, Receive, Scope, Send

_DISCONNECT: Message = {"type": "http.disconnect"}
_EMPTY_BODY: Message = {"type": "http.request", "body": b"", "more_body": False}


class CancelOnDisconnect:
    """Runs each HTTP request in its own task and cancels it when the client disconnects.

    An ASGI server reports a disconnect only to a `receive()` call, and a route that
    answers with JSON never calls it once it has read its body: a client that hung up
    after 1.2 s still had all 35 of its model calls made. So once the body has been read
    this middleware keeps a `receive()` waiting; when it returns `http.disconnect` before
    the response is complete, the request's task is cancelled, and with it the graph run,
    its model calls and any document load (aload_documents stops the parse). The app's
    own later `receive()` calls (the SSE stream's watcher) get the disconnect as well.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = _Client(receive, has_body=_has_body(scope))

        async def tracked_send(message: Message) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                client.answered = True
            await send(message)

        async def run() -> None:
            await self.app(scope, client.receive, tracked_send)

        work = asyncio.create_task(run())
        watcher = asyncio.create_task(client.watch())
        try:
            await asyncio.wait([work, watcher], return_when=asyncio.FIRST_COMPLETED)
            if not work.done() and client.gone.is_set() and not client.answered:
                work.cancel()  # the client left: nobody will read what the work makes
            await asyncio.wait([work])
        finally:
            watcher.cancel()
            work.cancel()  # a no-op unless this request itself was cancelled (shutdown)
            await asyncio.gather(watcher, work, return_exceptions=True)
        if not work.cancelled():
            work.result()  # the app's own exception, for the server to log


class _Client:
    """The connection's receive, shared by the app and the disconnect watcher."""

    def __init__(self, receive: Receive, *, has_body: bool) -> None:
        self._receive = receive
        self.body_read = asyncio.Event()
        self.gone = asyncio.Event()
        self.answered = False
        self._ends_given = 0 if has_body else -1  # -1: the app's first read gets b""
        if not has_body:
            self.body_read.set()

    async def receive(self) -> Message:
        """What the app calls: its body as sent, then (after the body) the disconnect."""
        if not self.body_read.is_set():
            message = await self._receive()
            if message["type"] == "http.disconnect":
                self.gone.set()
            elif not message.get("more_body", False):
                self.body_read.set()
            return message
        if self._ends_given < 0:
            self._ends_given = 0
            return _EMPTY_BODY
        await self.gone.wait()
        return _DISCONNECT

    async def watch(self) -> None:
        """Once the body is read, wait for the disconnect (a request without a body at once)."""
        await self.body_read.wait()
        with contextlib.suppress(OSError):
            while (await self._receive())["type"] != "http.disconnect":
                pass  # a bodyless request's empty body message
        self.gone.set()


def _has_body(scope: Scope) -> bool:
    headers = dict(scope["headers"])
    length = headers.get(b"content-length")
    return b"transfer-encoding" in headers or (length is not None and length != b"0")
