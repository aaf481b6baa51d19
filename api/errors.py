"""The one mapping from longdoc's error tree (and HTTP-level failures) to JSON error responses.

Every error body is `{"error": {"code", "message", "hint"}}`, and STATUS below is the only
place a status code is chosen; routes document their errors through `documented`, which
reads it. A ConfigError is a 500: the server's own settings are wrong, no request can fix
it, and it is logged. Anything unexpected is a 500 `internal_error` whose message leaks
nothing.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from api.bodies import ErrorResponse
from pipeline import errors

log = logging.getLogger("longdoc.api")

# Most specific first: the first isinstance match wins.
STATUS: list[tuple[type[errors.LongdocError], int]] = [
    (errors.StorageError, 503),
    (errors.UnauthorizedError, 401),
    (errors.ForbiddenError, 403),
    (errors.ReadTimeoutError, 408),
    (errors.MalformedRequestError, 400),
    (errors.HeadersTooLargeError, 431),
    (errors.BusyError, 429),
    (errors.UnsupportedTypeError, 415),
    (errors.TooLargeError, 413),
    (errors.InputError, 422),
    (errors.NotFoundError, 404),
    (errors.ModelTimeoutError, 504),
    (errors.ModelError, 502),
    (errors.ConfigError, 500),
    (errors.InternalError, 500),
]

# Failures Starlette raises before a route runs, with their code and hint.
_HTTP_CODES = {
    404: ("not_found", "Check the URL; the API lives under /v1 (see /docs)."),
    405: ("method_not_allowed", "Check the HTTP method for this URL in /docs."),
    406: ("not_acceptable", "Accept application/json or text/event-stream."),
    413: ("too_large", "Send a smaller request, or raise LONGDOC_MAX_DOCUMENT_MB."),
}


def status_of(exc: errors.LongdocError | type[errors.LongdocError]) -> int:
    cls = exc if isinstance(exc, type) else type(exc)
    return next((status for kind, status in STATUS if issubclass(cls, kind)), 500)


def documented(
    meanings: dict[type[errors.LongdocError], str],
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for the errors a route can answer with, each in its own words."""
    return {
        status_of(kind): {"model": ErrorResponse, "description": meaning}
        for kind, meaning in meanings.items()
    }


def error_body(code: str, message: str, hint: str = "") -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "hint": hint}}


# A model error names the URL its call went to (the CLI shows it: "Connection error."
# alone hides a wrong base URL); API clients get it without, the server log keeps it.
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s'\"<>]+", re.IGNORECASE)


def redact(text: str) -> str:
    """`text` with any URL in it replaced, for what API clients see of internal failures."""
    return _URL.sub("the model server", text)


def public_result(result: dict[str, Any]) -> dict[str, Any]:
    """A result's JSON with the URLs redacted from its failed chunks' errors."""
    for failed in result.get("coverage", {}).get("failed", []):
        failed["error"] = redact(failed["error"])
    return result


def public_body(exc: errors.LongdocError) -> dict[str, Any]:
    """The error body an API client gets for `exc`: its code, message (redacted) and hint."""
    return error_body(exc.code, redact(exc.message), exc.hint)


def error_response(exc: errors.LongdocError) -> JSONResponse:
    status = status_of(exc)
    if status >= 500:
        log.error("%s: %s", type(exc).__name__, exc.message)
    headers = None
    if isinstance(exc, errors.BusyError):
        headers = {"Retry-After": str(exc.retry_after_s)}
    elif isinstance(exc, errors.UnauthorizedError):
        headers = {"WWW-Authenticate": "Bearer"}
    elif isinstance(exc, errors.ReadTimeoutError):
        headers = {"Connection": "close"}  # the rest of the body is not coming in time
    return JSONResponse(public_body(exc), status_code=status, headers=headers)


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

    async def client_gone(request: Request, exc: Exception) -> Response:
        return Response(status_code=400)  # no one is left to read it

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(errors.InternalError())

    app.add_exception_handler(errors.LongdocError, longdoc_error)
    app.add_exception_handler(RequestValidationError, invalid_fields)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(ClientDisconnect, client_gone)
    app.add_exception_handler(Exception, unexpected)


def describe_validation(problems: Any) -> str:
    """Pydantic's error list as one readable line: `documents.0.text: Field required; ...`."""
    parts = []
    for problem in list(problems)[:5]:
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        parts.append(f"{where or 'body'}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is invalid"
