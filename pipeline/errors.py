"""The longdoc error tree: every error a user can see, with a retryable flag and a hint.

    LongdocError                 base; `code`, `retryable` and `hint` on every class
    ├── InputError               bad documents, question, message or options
    │   ├── UnsupportedTypeError a file type longdoc cannot read
    │   ├── MalformedRequestError an HTTP request that cannot be parsed
    │   └── TooLargeError        over a size or chunk-count limit
    │       └── HeadersTooLargeError  HTTP request headers over their size or count limit
    ├── ReadTimeoutError         an HTTP request whose headers or body arrive too slowly
    ├── NotFoundError            a thread or resource that does not exist
    ├── UnauthorizedError        an HTTP request without a valid API key
    ├── ForbiddenError           an HTTP request for another host, or from a foreign web page
    ├── BusyError                the server is at its limit of requests in progress
    ├── ConfigError              settings that cannot work, e.g. a missing model name
    ├── StorageError             the thread store (SQLite/PostgreSQL) cannot be reached
    ├── InternalError            an unexpected failure; its message leaks nothing
    └── ModelError               the model provider failed after retries
        ├── ModelRateLimitError  the provider refused calls for load until their deadline
        └── ModelTimeoutError    a model call ran past its timeout
            └── RequestTimeoutError  a whole request ran past its deadline

Each surface maps this tree once and nowhere else: HTTP statuses in api/errors.py, exit
codes and `Error:` lines in pipeline/cli/app.py.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar


class LongdocError(Exception):
    """Base of every error longdoc raises on purpose."""

    code: ClassVar[str] = "error"
    retryable: ClassVar[bool] = False
    default_hint: ClassVar[str] = ""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint if hint is not None else self.default_hint

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "hint": self.hint}


class InputError(LongdocError):
    """The caller sent something longdoc cannot work with."""

    code = "invalid_input"
    default_hint = "Check the documents and the question you sent."


class UnsupportedTypeError(InputError):
    """A document whose type longdoc cannot read."""

    code = "unsupported_type"
    default_hint = "Send plain text, Markdown, HTML, PDF, Word (.docx) or EPUB."


class TooLargeError(InputError):
    """A document, question or chunk count over its configured limit."""

    code = "too_large"
    default_hint = "Send a smaller document or raise the limit in the settings."


class MalformedRequestError(InputError):
    """An HTTP request the server cannot parse (broken framing, invalid characters)."""

    code = "bad_request"
    default_hint = "Send a well-formed HTTP/1.1 request."


class HeadersTooLargeError(TooLargeError):
    """HTTP request headers over their size or count limit."""

    code = "headers_too_large"
    default_hint = "Send fewer or smaller headers, or raise LONGDOC_MAX_HEADER_KB."


class ReadTimeoutError(LongdocError):
    """A request's headers or body arrived more slowly than the server allows."""

    code = "read_timeout"
    default_hint = "Send the request faster (see LONGDOC_READ_TIMEOUT_S, LONGDOC_BODY_MIN_KB_S)."


class NotFoundError(LongdocError):
    """A thread or other named resource that does not exist."""

    code = "not_found"
    default_hint = "Check the id; it may have been deleted."


class UnauthorizedError(LongdocError):
    """A /v1 route was called without a valid API key."""

    code = "unauthorized"
    default_hint = "Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'."


class ForbiddenError(LongdocError):
    """A request for a host name, or from a web page origin, the server does not trust."""

    code = "forbidden"
    default_hint = "Set LONGDOC_ALLOWED_HOSTS or LONGDOC_ALLOWED_ORIGINS to allow it."


class BusyError(LongdocError):
    """The server is at its limit of requests in progress; the caller should come back."""

    code = "busy"
    retryable = True
    default_hint = "The server is busy; retry after the number of seconds in Retry-After."
    retry_after_s: ClassVar[int] = 1


class ConfigError(LongdocError):
    """Settings that cannot work; raised before any document is read."""

    code = "config_error"
    default_hint = "Check the LONGDOC_* settings (see .env.example)."


class StorageError(LongdocError):
    """The checkpointer that keeps chat threads cannot be opened or reached."""

    code = "storage_unavailable"
    retryable = True
    default_hint = "Check LONGDOC_CHECKPOINT_URL or LONGDOC_DATA_DIR and that the store is up."


class InternalError(LongdocError):
    """Something failed that longdoc did not expect; the details go to the log, not the caller."""

    code = "internal_error"
    default_hint = "Try again later."

    def __init__(self, message: str = "the server failed unexpectedly", **kwargs: str) -> None:
        super().__init__(message, **kwargs)


class ModelError(LongdocError):
    """The model provider failed, after the retries it was allowed."""

    code = "model_error"
    retryable = True
    default_hint = "The model provider failed; try again later or check its status."


class ModelRateLimitError(ModelError):
    """The provider kept answering 429/503 until the call's deadline (call_deadline_s)."""

    code = "model_rate_limited"
    default_hint = (
        "The provider's rate limit held the call past LONGDOC_CALL_DEADLINE_S; raise it, "
        "set LONGDOC_TOKENS_PER_MINUTE to your quota, or try again later."
    )


class ModelTimeoutError(ModelError):
    """A model call ran past `call_timeout_s` on every attempt."""

    code = "model_timeout"
    default_hint = "The model did not answer in time; raise LONGDOC_CALL_TIMEOUT_S or retry."


class RequestTimeoutError(ModelTimeoutError):
    """The whole request ran past `request_timeout_s`."""

    code = "request_timeout"
    default_hint = "Send a smaller document, or raise LONGDOC_REQUEST_TIMEOUT_S."


def reraise_if_cancelled(exc: Exception) -> None:
    """Raise CancelledError if the running task is being cancelled (Ctrl-C, a client gone).

    Code that turns one failure into a reported error and goes on (a chunk, a file) must
    not do so with a cancellation that the graph surfaced as an error of the node that was
    running (langgraph's NodeCancelledError): the run would go on to a normal end."""
    task = asyncio.current_task()
    if task is not None and task.cancelling() > 0:
        raise asyncio.CancelledError from exc
