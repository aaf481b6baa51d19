"""Chat threads: turns with compressed memory, persisted by thread id; nothing is ever lost."""

from __future__ import annotations

import asyncio
import re
import uuid
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import empty_checkpoint

from pipeline.config import Settings
from pipeline.documents import Documents, load_documents
from pipeline.errors import InputError, NotFoundError
from pipeline.graph.build import abuild_graph
from pipeline.inputs import valid_message
from pipeline.memory.window import summary_message, visible
from pipeline.results import ChatResult, ThreadList, ThreadMessage, ThreadView
from pipeline.storage.checkpoint import Saver, open_checkpointer
from pipeline.storage.listing import thread_ids
from pipeline.storage.locks import thread_lock
from pipeline.text.messages import message_text

_THREAD_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}
MAX_PAGE = 1000

# One turn at a time per thread: two interleaved turns would both read the same history
# and the second write would drop the first's messages. Tasks of this process queue on
# an asyncio lock (dropped once nobody holds or awaits it); other processes and
# replicas on storage.locks.thread_lock.
_turn_locks: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, weakref.WeakValueDictionary[str, asyncio.Lock]
] = weakref.WeakKeyDictionary()


async def acreate_thread(
    *, settings: Settings | None = None, checkpointer: Saver | None = None
) -> ThreadView:
    """A new, empty thread with a fresh id."""
    settings = settings or Settings()
    thread_id = uuid.uuid4().hex
    async with _store(settings, checkpointer) as saver:
        await saver.aput(
            _config(thread_id),
            empty_checkpoint(),
            {"source": "input", "step": -1, "parents": {}},
            {},
        )
    return ThreadView(thread_id=thread_id)


async def achat(
    thread_id: str,
    message: str,
    *,
    documents: Documents | None = None,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    checkpointer: Saver | None = None,
    create: bool = True,
) -> ChatResult:
    """Run one turn; with documents attached the router may read them and cite them.

    An unknown `thread_id` starts a new thread, unless `create=False` (the HTTP API,
    where threads are made by POST /v1/threads), which raises NotFoundError instead.
    """
    settings = settings or Settings()
    _check_id(thread_id)
    message = valid_message(message, settings)
    async with (
        _turn_lock(thread_id),
        thread_lock(settings, thread_id),
        _store(settings, checkpointer) as saver,
    ):
        # The graph (and so the model config) first: a bad setting is reported before
        # any document is read.
        # Both off the event loop: a first Databricks model imports for seconds, and
        # loading a PDF waits on its child process.
        graph = await abuild_graph(model, settings, checkpointer=saver)
        if not create:
            await _values(saver, thread_id)
        loaded = await asyncio.to_thread(load_documents, documents, settings) if documents else []
        # Always send `documents`: the channel persists, so an earlier turn's
        # attachment would otherwise be read again by this one.
        out = await graph.ainvoke({"question": message, "documents": loaded}, _config(thread_id))
    return ChatResult.model_validate(
        {**out, "thread_id": thread_id, "reply": out["answer"], "compressed": out["compressed"]}
    )


async def aget_thread(
    thread_id: str, *, settings: Settings | None = None, checkpointer: Saver | None = None
) -> ThreadView:
    """The thread's summary, the messages the model sees, and its full history."""
    settings = settings or Settings()
    _check_id(thread_id)
    async with _store(settings, checkpointer) as saver:
        values = await _values(saver, thread_id)
    history: list[BaseMessage] = values.get("messages", [])
    covers: list[str] = values.get("summary_covers", [])
    summary: str = values.get("summary", "")
    seen = [*summary_message(summary), *visible(history, covers)]
    return ThreadView(
        thread_id=thread_id,
        summary=summary,
        summary_covers=covers,
        messages=[_view(m) for m in seen],
        history=[_view(m) for m in history],
    )


async def adelete_thread(
    thread_id: str, *, settings: Settings | None = None, checkpointer: Saver | None = None
) -> None:
    """Delete the thread and every checkpoint of it."""
    settings = settings or Settings()
    _check_id(thread_id)
    async with _store(settings, checkpointer) as saver:
        await _values(saver, thread_id)
        await saver.adelete_thread(thread_id)


async def alist_threads(
    *,
    after: str | None = None,
    limit: int = 100,
    settings: Settings | None = None,
    checkpointer: Saver | None = None,
) -> ThreadList:
    """Thread ids in order, `limit` at a time, starting after the id `after`."""
    settings = settings or Settings()
    if after is not None:
        _check_id(after)
    if not 1 <= limit <= MAX_PAGE:
        raise InputError(f"limit must be 1-{MAX_PAGE}, not {limit}")
    async with _store(settings, checkpointer) as saver:
        ids = await thread_ids(saver, after, limit)
    return ThreadList(threads=ids, next_after=ids[-1] if len(ids) == limit else None)


async def acheck_checkpointer(settings: Settings, checkpointer: Saver | None = None) -> None:
    """Raise StorageError unless the thread store answers a read."""
    async with _store(settings, checkpointer) as saver:
        await saver.aget_tuple(_config("readiness-probe"))


def create_thread(*, settings: Settings | None = None) -> ThreadView:
    """Synchronous `acreate_thread`."""
    return asyncio.run(acreate_thread(settings=settings))


def chat(
    thread_id: str,
    message: str,
    *,
    documents: Documents | None = None,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
) -> ChatResult:
    """Synchronous `achat`."""
    return asyncio.run(
        achat(thread_id, message, documents=documents, model=model, settings=settings)
    )


def get_thread(thread_id: str, *, settings: Settings | None = None) -> ThreadView:
    """Synchronous `aget_thread`."""
    return asyncio.run(aget_thread(thread_id, settings=settings))


def list_threads(
    *, after: str | None = None, limit: int = 100, settings: Settings | None = None
) -> ThreadList:
    """Synchronous `alist_threads`."""
    return asyncio.run(alist_threads(after=after, limit=limit, settings=settings))


def delete_thread(thread_id: str, *, settings: Settings | None = None) -> None:
    """Synchronous `adelete_thread`."""
    asyncio.run(adelete_thread(thread_id, settings=settings))


@asynccontextmanager
async def _store(settings: Settings, checkpointer: Saver | None) -> AsyncIterator[Saver]:
    """The caller's long-lived checkpointer, or one opened for this call."""
    if checkpointer is not None:
        yield checkpointer
        return
    async with open_checkpointer(settings) as saver:
        yield saver


def _turn_lock(thread_id: str) -> asyncio.Lock:
    locks = _turn_locks.setdefault(asyncio.get_running_loop(), weakref.WeakValueDictionary())
    lock = locks.get(thread_id)
    if lock is None:
        lock = locks[thread_id] = asyncio.Lock()
    return lock


async def _values(saver: Saver, thread_id: str) -> dict[str, Any]:
    stored = await saver.aget_tuple(_config(thread_id))
    if stored is None:
        raise NotFoundError(f"thread {thread_id!r} does not exist")
    values: dict[str, Any] = stored.checkpoint["channel_values"]
    return values


def _check_id(thread_id: str) -> None:
    if not isinstance(thread_id, str) or not _THREAD_ID.match(thread_id):
        raise InputError(
            "the thread id must be 1-128 letters, digits or . _ : -",
            hint="Use the id create_thread returned.",
        )


def _config(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}


def _view(message: BaseMessage) -> ThreadMessage:
    return ThreadMessage(
        id=message.id or "", role=_ROLES.get(message.type, "user"), content=message_text(message)
    )
