"""The one mapping from longdoc's error tree (and HTTP-level failures) to JSON error responses.

Every error body is `{"error": {"code", "message", "hint"}}`. Status codes:

    UnsupportedTypeError 415   TooLargeError 413   InputError 422 (and invalid fields)
    NotFoundError 404          BusyError 429 + Retry-After
    ModelTimeoutError 504      ModelError 502      StorageError 503
    ConfigError 500: the server's own settings are wrong; no request can fix it, so it is
    the server's fault, and it is logged. Anything unexpected is a 500 `internal_error`
    whose message leaks nothing.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from pipeline import errors

log = logging.getLogger("longdoc.api")


class BusyError(errors.LongdocError):
    """The server is at its limit of requests in progress; the caller should come back."""

    code = "busy"
    retryable = True
    default_hint = "The server is busy; retry after the number of seconds in Retry-After."
    retry_after_s: ClassVar[int] = 1


class RequestTimeoutError(errors.ModelTimeoutError):
    """The whole request ran past `request_timeout_s` (a 504, like a model timeout)."""

    code = "request_timeout"
    default_hint = "Send a smaller document, or raise LONGDOC_REQUEST_TIMEOUT_S."


class UnauthorizedError(errors.LongdocError):
    """A /v1 route was called without a valid API key."""

    code = "unauthorized"
    default_hint = "Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'."


# Most specific first: the first isinstance match wins.
STATUS: list[tuple[type[errors.LongdocError], int]] = [
    (errors.StorageError, 503),
    (UnauthorizedError, 401),
    (BusyError, 429),
    (errors.UnsupportedTypeError, 415),
    (errors.TooLargeError, 413),
    (errors.InputError, 422),
    (errors.NotFoundError, 404),
    (errors.ModelTimeoutError, 504),
    (errors.ModelError, 502),
    (errors.ConfigError, 500),
]

_HTTP_CODES = {
    404: ("not_found", "Check the URL; the API lives under /v1 (see /docs)."),
    405: ("method_not_allowed", "Check the HTTP method for this URL in /docs."),
    406: ("not_acceptable", "Accept application/json or text/event-stream."),
    413: ("too_large", "Send a smaller request, or raise LONGDOC_MAX_DOCUMENT_MB."),
}


def status_of(exc: errors.LongdocError) -> int:
    return next((status for cls, status in STATUS if isinstance(exc, cls)), 500)


def error_body(code: str, message: str, hint: str = "") -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "hint": hint}}


def error_response(exc: errors.LongdocError) -> JSONResponse:
    status = status_of(exc)
    if status >= 500:
        log.error("%s: %s", type(exc).__name__, exc.message)
    headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, BusyError) else None
    if isinstance(exc, UnauthorizedError):
        headers = {"WWW-Authenticate": "Bearer"}
    return JSONResponse(error_body(**exc.to_dict()), status_code=status, headers=headers)


def install(app: FastAPI) -> None:
    """Register the handlers: longdoc errors, invalid fields, HTTP errors, anything else."""

    async def longdoc_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, errors.LongdocError)
        return error_response(exc)

    async def invalid_fields(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse(
            error_body("invalid_input", describe_validation(exc.errors()), "See /docs."),
            status_code=422,
        )

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code, hint = _HTTP_CODES.get(exc.status_code, ("http_error", ""))
        return JSONResponse(
            error_body(code, str(exc.detail), hint),
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            error_body("internal_error", "the server failed unexpectedly", "Try again later."),
            status_code=500,
        )

    app.add_exception_handler(errors.LongdocError, longdoc_error)
    app.add_exception_handler(RequestValidationError, invalid_fields)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, unexpected)


def describe_validation(problems: Any) -> str:
    """Pydantic's error list as one readable line: `documents.0.text: Field required; ...`."""
    parts = []
    for problem in list(problems)[:5]:
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        parts.append(f"{where or 'body'}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is invalid"
