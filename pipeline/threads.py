"""Chat threads: turns with compressed memory, persisted by thread id; nothing is ever lost."""

from __future__ import annotations

import asyncio
import re
import uuid
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointMetadata, CheckpointTuple, empty_checkpoint

from pipeline.config import Settings
from pipeline.documents import Documents, aload_documents
from pipeline.errors import InputError, NotFoundError
from pipeline.graph.build import Graph, abuild_graph
from pipeline.inputs import valid_message
from pipeline.memory.window import summary_message, visible
from pipeline.results import ChatResult, ThreadList, ThreadMessage, ThreadView
from pipeline.storage.checkpoint import Saver, open_checkpointer
from pipeline.storage.listing import thread_ids
from pipeline.storage.locks import thread_lock
from pipeline.storage.prune import keep_only
from pipeline.text.messages import message_text
from pipeline.types import DocumentText

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
    *, settings: Settings | None = None, checkpointer: Saver | None = None, owner: str | None = None
) -> ThreadView:
    """A new, empty thread with a fresh id; `owner` (an API key's id) alone may use it later."""
    settings = settings or Settings()
    thread_id = uuid.uuid4().hex
    async with _store(settings, checkpointer) as saver:
        await saver.aput(
            _config(thread_id),
            empty_checkpoint(),
            cast(
                CheckpointMetadata,
                {"source": "input", "step": -1, "parents": {}, **_owned_by(owner)},
            ),
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
    owner: str | None = None,
) -> ChatResult:
    """Run one turn; with documents attached the router may read them and cite them.

    An unknown `thread_id` starts a new thread, unless `create=False` (the HTTP API,
    where threads are made by POST /v1/threads), which raises NotFoundError instead, as
    it does for a thread `owner` does not own. The message is checked before anything is
    stored, and a turn that fails or is cancelled leaves the thread as it was.
    """
    settings = settings or Settings()
    _check_id(thread_id)
    message = valid_message(message, settings)
    async with _store(settings, checkpointer) as saver:
        if not create:  # before the locks: an unknown id leaves no lock file behind
            await _head(saver, thread_id, owner)
        async with _turn_lock(thread_id), thread_lock(settings, thread_id):
            # The graph (and so the model config) first: a bad setting is reported before
            # any document is read. Off the event loop: a first Databricks model imports
            # for seconds.
            graph = await abuild_graph(model, settings, checkpointer=saver)
            head = await (_find if create else _head)(saver, thread_id, owner)
            loaded = await aload_documents(documents, settings) if documents else []
            owned = head.metadata.get("owner") if head else owner  # the owner stays on
            out = await _turn(graph, saver, thread_id, head, owned, message, loaded)
    return ChatResult.model_validate(
        {**out, "thread_id": thread_id, "reply": out["answer"], "compressed": out["compressed"]}
    )


async def _turn(
    graph: Graph,
    saver: Saver,
    thread_id: str,
    head: CheckpointTuple | None,
    owner: object,
    message: str,
    documents: list[DocumentText],
) -> dict[str, Any]:
    """Run the turn and leave one checkpoint: the turn's, or on failure the one before it.

    Durability "exit" writes a single checkpoint when the run ends instead of one per
    step (each holding every channel: a 5 MB document made a turn write 71 MB); a crash
    mid-turn writes nothing, and the turn was never acknowledged.
    """
    config = _config(thread_id)
    config["metadata"] = _owned_by(owner)
    try:
        # Always send `documents`: an earlier turn's attachment must not be read again.
        out: dict[str, Any] = await graph.ainvoke(
            {"question": message, "documents": documents}, config, durability="exit"
        )
    except BaseException:
        kept = head.config["configurable"]["checkpoint_id"] if head else None
        await asyncio.shield(keep_only(saver, thread_id, kept))
        raise
    latest = await saver.aget_tuple(_config(thread_id))
    if latest is not None:
        await keep_only(saver, thread_id, latest.config["configurable"]["checkpoint_id"])
    return out


async def aget_thread(
    thread_id: str,
    *,
    settings: Settings | None = None,
    checkpointer: Saver | None = None,
    owner: str | None = None,
) -> ThreadView:
    """The thread's summary, the messages the model sees, and its full history."""
    settings = settings or Settings()
    _check_id(thread_id)
    async with _store(settings, checkpointer) as saver:
        head = await _head(saver, thread_id, owner)
    values: dict[str, Any] = head.checkpoint["channel_values"]
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
    thread_id: str,
    *,
    settings: Settings | None = None,
    checkpointer: Saver | None = None,
    owner: str | None = None,
) -> None:
    """Delete the thread, every checkpoint of it and its lock file (after any turn in progress)."""
    settings = settings or Settings()
    _check_id(thread_id)
    async with _store(settings, checkpointer) as saver:
        await _head(saver, thread_id, owner)
        async with _turn_lock(thread_id), thread_lock(settings, thread_id, remove=True):
            await saver.adelete_thread(thread_id)


async def alist_threads(
    *,
    after: str | None = None,
    limit: int = 100,
    settings: Settings | None = None,
    checkpointer: Saver | None = None,
    owner: str | None = None,
) -> ThreadList:
    """Thread ids in order, `limit` at a time, starting after the id `after`; given an
    `owner`, only that owner's threads (the ones the other calls would not answer 404)."""
    settings = settings or Settings()
    if after is not None:
        _check_id(after)
    if not 1 <= limit <= MAX_PAGE:
        raise InputError(f"limit must be 1-{MAX_PAGE}, not {limit}")
    async with _store(settings, checkpointer) as saver:
        if owner is None:
            ids = await thread_ids(saver, after, limit)
        else:
            ids = await _owned_ids(saver, owner, after, limit)
    return ThreadList(threads=ids, next_after=ids[-1] if len(ids) == limit else None)


async def _owned_ids(saver: Saver, owner: str, after: str | None, limit: int) -> list[str]:
    """Up to `limit` ids of `owner`'s threads after `after`: the store's ids are read a page
    at a time and each thread's head is checked for its owner, as `_find` does."""
    mine: list[str] = []
    while True:
        page = await thread_ids(saver, after, MAX_PAGE)
        for thread_id in page:
            head = await saver.aget_tuple(_config(thread_id))
            if head is not None and head.metadata.get("owner") == owner:
                mine.append(thread_id)
                if len(mine) == limit:
                    return mine
        if len(page) < MAX_PAGE:
            return mine
        after = page[-1]


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


async def _find(saver: Saver, thread_id: str, owner: str | None) -> CheckpointTuple | None:
    """The thread's latest checkpoint, None when it has none; NotFoundError when `owner` is
    given and the thread is not theirs (the answer an unknown id gets: no one learns which
    ids other keys' threads have)."""
    stored = await saver.aget_tuple(_config(thread_id))
    if stored is not None and owner is not None and stored.metadata.get("owner") != owner:
        raise NotFoundError(f"thread {thread_id!r} does not exist")
    return stored


async def _head(saver: Saver, thread_id: str, owner: str | None) -> CheckpointTuple:
    """The thread's latest checkpoint; NotFoundError when it does not exist (for `owner`)."""
    stored = await _find(saver, thread_id, owner)
    if stored is None:
        raise NotFoundError(f"thread {thread_id!r} does not exist")
    return stored


def _owned_by(owner: object) -> dict[str, str]:
    """Checkpoint metadata naming the thread's owner, if it has one."""
    return {"owner": owner} if isinstance(owner, str) else {}


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
