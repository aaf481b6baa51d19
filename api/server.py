"""The HTTP/1.1 protocol `longdoc serve` runs: uvicorn's, with limits on what precedes the app.

uvicorn (with httptools) accepts request headers of any size and count, and waits forever
for headers that trickle in: an 80 MB header was read and parsed before authentication
could refuse it, stalling /healthz for seconds. This protocol refuses headers over
`max_header_kb` or `max_headers` with 431, closes a connection whose headers take longer
than `read_timeout_s` (408 if it sent part of them), and answers unparsable requests with
the API's JSON error body instead of uvicorn's plain-text 400. Bodies are paced by
api/limits.py, once the app reads them.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from api.errors import error_body, status_of
from pipeline.config import Settings
from pipeline.errors import (
    HeadersTooLargeError,
    LongdocError,
    MalformedRequestError,
    ReadTimeoutError,
)


@lru_cache(maxsize=1)
def _settings() -> Settings:
    """The server's settings, read from LONGDOC_* once per process (as the app's are)."""
    return Settings()


class LongdocHttpProtocol(HttpToolsProtocol):
    """HttpToolsProtocol with header size, count and time limits, and JSON framing errors."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = _settings()
        self.max_header_bytes = settings.max_header_kb * 1024
        self.max_headers = settings.max_headers
        self.header_timeout_s = settings.read_timeout_s
        self._reading_headers = True
        self._header_bytes = 0  # raw bytes received while the headers are incomplete
        self._header_size = 0  # bytes of the request line's URL and the parsed headers
        self._header_count = 0
        self._problem: LongdocError | None = None
        self._header_timer: Any = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._start_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._reading_headers:
            self._header_bytes += len(data)
        super().data_received(data)
        # A header still incomplete past the limit: httptools would buffer it whole before
        # calling on_header, so the raw bytes are counted too.
        if self._reading_headers and self._header_bytes > self.max_header_bytes:
            self._refuse(HeadersTooLargeError(self._too_large()))

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._reading_headers = True
        self._header_count = self._header_size = 0
        self._start_header_timer()

    def on_url(self, url: bytes) -> None:
        self._header_size += len(url)
        self._check_headers()
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        self._header_size += len(name) + len(value) + 4  # ": " and CRLF
        self._check_headers()
        super().on_header(name, value)

    def _check_headers(self) -> None:
        if self._header_count > self.max_headers:
            self._problem = HeadersTooLargeError(
                f"the request has over {self.max_headers} headers",
                hint="Send fewer headers, or raise LONGDOC_MAX_HEADERS.",
            )
        elif self._header_size > self.max_header_bytes:
            self._problem = HeadersTooLargeError(self._too_large())
        else:
            return
        raise ValueError(self._problem.message)  # httptools stops parsing, then calls 400

    def on_headers_complete(self) -> None:
        self._reading_headers = False
        self._header_bytes = 0
        self._stop_header_timer()
        super().on_headers_complete()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request httptools could not parse, as a JSON error."""
        self._refuse(
            self._problem or MalformedRequestError(f"the HTTP request is malformed: {msg}")
        )

    def _too_large(self) -> str:
        return f"the request headers are over the limit of {self.max_header_bytes:,} bytes"

    def _refuse(self, error: LongdocError) -> None:
        """Answer `error` as the API would, then close the connection."""
        self._stop_header_timer()
        if self.transport.is_closing():
            return
        body = json.dumps(error_body(**error.to_dict())).encode()
        head = [STATUS_LINE[status_of(error)]]
        for name, value in self.server_state.default_headers:
            head.extend([name, b": ", value, b"\r\n"])
        head.append(
            b"content-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n"
            % len(body)
        )
        self.transport.write(b"".join([*head, body]))
        self.transport.close()

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self._reading_headers or self.transport.is_closing():
            return
        if self._header_bytes == 0:
            self.transport.close()  # an idle connection that never sent a request
            return
        self._refuse(ReadTimeoutError(f"the request headers took over {self.header_timeout_s:g} s"))
