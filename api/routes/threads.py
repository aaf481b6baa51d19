"""Chat threads: create, list, run a turn (with documents or not), import, recall, read, delete."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from api.bodies import HistoryRequest, MessageForm, MessageRequest, request_body
from api.errors import documented
from api.inputs import read_message
from api.limits import Admission
from api.runs import request_deadline
from pipeline import errors
from pipeline.config import Settings
from pipeline.results import ChatResult, ImportResult, RecalledMessage, ThreadList, ThreadView
from pipeline.threads import (
    MAX_PAGE,
    MAX_RECALL_K,
    achat,
    acreate_thread,
    adelete_thread,
    aget_thread,
    aimport_messages,
    alist_threads,
    arecall,
)

router = APIRouter(prefix="/v1/threads", tags=["threads"])

_STORE_DOWN: dict[type[errors.LongdocError], str] = {
    errors.StorageError: "The thread store is unreachable."
}
_NOT_FOUND = documented({errors.NotFoundError: "No thread has this id.", **_STORE_DOWN})


@router.post(
    "",
    status_code=201,
    response_model=ThreadView,
    responses=documented(_STORE_DOWN),
    summary="Start a chat thread",
)
async def create_thread(request: Request) -> ThreadView:
    return await acreate_thread(settings=request.app.state.settings)


@router.get(
    "",
    response_model=ThreadList,
    responses=documented({errors.InputError: "An invalid `after` id.", **_STORE_DOWN}),
    summary="List thread ids in order, a page at a time",
)
async def list_threads(
    request: Request,
    after: str | None = Query(None, description="List the ids after this one."),
    limit: int = Query(100, ge=1, le=MAX_PAGE, description="Most ids in the page."),
) -> ThreadList:
    return await alist_threads(after=after, limit=limit, settings=request.app.state.settings)


@router.post(
    "/{thread_id}/messages",
    response_model=ChatResult,
    responses={
        **_NOT_FOUND,
        **documented(
            {
                errors.TooLargeError: "Message or documents over a limit.",
                errors.UnsupportedTypeError: "A document type longdoc cannot read.",
                errors.InputError: "Empty or invalid message or document.",
                errors.BusyError: "Too many requests in progress.",
                errors.ModelError: "The model provider failed.",
                errors.ModelTimeoutError: "The turn timed out.",
            }
        ),
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
                embeddings=request.app.state.embeddings,
                create=False,
            )
    finally:
        admission.release()


@router.post(
    "/{thread_id}/history",
    response_model=ImportResult,
    responses={
        **_NOT_FOUND,
        **documented(
            {
                errors.InputError: "A malformed message (its index and why); nothing is written.",
                errors.TooLargeError: "Too many messages or characters for one import.",
                errors.BusyError: "Too many requests in progress.",
            }
        ),
    },
    summary="Import earlier messages with no replies; all are written or none",
)
async def import_history(thread_id: str, body: HistoryRequest, request: Request) -> ImportResult:
    admission: Admission = request.app.state.admission
    admission.acquire()
    try:
        return await aimport_messages(
            thread_id,
            body.message_dicts(),
            model=request.app.state.model,
            settings=request.app.state.settings,
            embeddings=request.app.state.embeddings,
            create=False,
        )
    finally:
        admission.release()


@router.get(
    "/{thread_id}/recall",
    response_model=list[RecalledMessage],
    responses={
        **_NOT_FOUND,
        **documented({errors.InputError: "An empty query or k out of range."}),
    },
    summary="The thread's earlier messages most relevant to a query, best first",
)
async def recall(
    thread_id: str,
    request: Request,
    q: Annotated[str, Query(description="What to recall, in words.")],
    k: Annotated[int, Query(ge=1, le=MAX_RECALL_K, description="How many to return.")] = 8,
) -> list[RecalledMessage]:
    return await arecall(
        thread_id,
        q,
        k,
        settings=request.app.state.settings,
        embeddings=request.app.state.embeddings,
    )


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
