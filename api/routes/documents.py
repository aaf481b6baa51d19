"""POST /v1/ask and /v1/summarize: JSON or multipart in; JSON or server-sent events out."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from api.bodies import request_body
from api.errors import documented
from api.inputs import read_job
from api.limits import Admission
from api.runs import job_events, run_job
from api.sse import EventStream
from api.tasks import ASK, SUMMARIZE, TaskEndpoint
from pipeline import errors

router = APIRouter(prefix="/v1", tags=["documents"])

_ERRORS = documented(
    {
        errors.UnauthorizedError: "Missing or invalid API key.",
        errors.TooLargeError: "Body, document, question or chunk count over its limit.",
        errors.UnsupportedTypeError: "A document type longdoc cannot read, or a body that is "
        "not JSON or multipart.",
        errors.InputError: "Empty, undecodable, encrypted or malformed document; invalid fields.",
        errors.BusyError: "Too many requests in progress; see Retry-After.",
        errors.ModelError: "The model provider failed after retries.",
        errors.ModelTimeoutError: "The request or a model call timed out.",
    }
)

_SSE_DOC = (
    "With `Accept: text/event-stream` the response is a stream of server-sent events: "
    "`route`, `split` (chunks), `chunk_done` (done of total, ok), `reduce` (round), "
    "`rate_limited` (model, status, limit, pause_s: the provider refused a call for load "
    "and longdoc backed off), `answer`, then `result` with the full response JSON, or "
    "`error` with the error body. "
    "Disconnecting cancels the work."
)


def _documented(task: TaskEndpoint) -> dict[str, Any]:
    """A task route's OpenAPI: JSON or multipart body in; result, events or error out."""
    ok = {
        "model": task.response,
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
        "description": "The result as JSON, or progress events. " + _SSE_DOC,
    }
    return {
        "response_model": task.response,
        "responses": {200: ok, **_ERRORS},
        "openapi_extra": request_body(task.request, task.form),
    }


@router.post("/ask", **_documented(ASK), summary="Answer a question from documents, with citations")
async def ask(request: Request) -> Any:
    return await _run(request, ASK)


@router.post("/summarize", **_documented(SUMMARIZE), summary="Summarize documents, with citations")
async def summarize(request: Request) -> Any:
    return await _run(request, SUMMARIZE)


async def _run(request: Request, task: TaskEndpoint) -> Any:
    admission: Admission = request.app.state.admission
    admission.acquire()
    streaming = False
    try:
        job = await read_job(request, task, request.app.state.settings)
        model = request.app.state.model
        if "text/event-stream" in request.headers.get("accept", ""):
            streaming = True  # from here the stream holds the slot and releases it at its end
            return _AsgiResponse(EventStream(job_events(job, model), on_close=admission.release))
        return await run_job(job, model)
    finally:
        if not streaming:
            admission.release()


class _AsgiResponse(Response):
    """Lets a route return a plain ASGI app (the event stream) as its response."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__()
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._app(scope, receive, send)
