"""Chat threads: create, run a turn (optionally with documents), read, delete."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from api.inputs import read_message
from api.limits import Admission
from api.models import ErrorResponse, MessageForm, MessageRequest, request_body
from api.runs import request_deadline
from pipeline.config import Settings
from pipeline.schemas import ChatResult, ThreadView
from pipeline.threads import achat, acreate_thread, adelete_thread, aget_thread

router = APIRouter(prefix="/v1/threads", tags=["threads"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorResponse, "description": "No thread has this id."},
    503: {"model": ErrorResponse, "description": "The thread store is unreachable."},
}


@router.post(
    "",
    status_code=201,
    response_model=ThreadView,
    responses={503: _NOT_FOUND[503]},
    summary="Start a chat thread",
)
async def create_thread(request: Request) -> ThreadView:
    return await acreate_thread(settings=request.app.state.settings)


@router.post(
    "/{thread_id}/messages",
    response_model=ChatResult,
    responses={
        **_NOT_FOUND,
        413: {"model": ErrorResponse, "description": "Message or documents over a limit."},
        415: {"model": ErrorResponse, "description": "A document type longdoc cannot read."},
        422: {"model": ErrorResponse, "description": "Empty or invalid message or document."},
        429: {"model": ErrorResponse, "description": "Too many requests in progress."},
        502: {"model": ErrorResponse, "description": "The model provider failed."},
        504: {"model": ErrorResponse, "description": "The turn timed out."},
    },
    openapi_extra=request_body(MessageRequest, MessageForm),
    summary="Run one chat turn; concurrent turns on one thread run one after the other",
)
async def post_message(thread_id: str, request: Request) -> ChatResult:
    settings: Settings = request.app.state.settings
    admission: Admission = request.app.state.admission
    admission.acquire()
    try:
        message, documents = await read_message(request, settings)
        async with request_deadline(settings, "the turn"):
            return await achat(
                thread_id,
                message,
                documents=documents,
                model=request.app.state.model,
                settings=settings,
                create=False,
            )
    finally:
        admission.release()


@router.get(
    "/{thread_id}",
    response_model=ThreadView,
    responses=_NOT_FOUND,
    summary="A thread's summary, model-visible messages and full history",
)
async def get_thread(thread_id: str, request: Request) -> ThreadView:
    return await aget_thread(thread_id, settings=request.app.state.settings)


@router.delete("/{thread_id}", status_code=204, responses=_NOT_FOUND, summary="Delete a thread")
async def delete_thread(thread_id: str, request: Request) -> Response:
    await adelete_thread(thread_id, settings=request.app.state.settings)
    return Response(status_code=204)
