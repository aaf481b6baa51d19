"""Chat threads: turns with compressed memory and recall, persisted by thread id; nothing is lost.

Each thread lives in two stores: the checkpointer (its history, summary and state) and a
LangGraph store holding its recall index (pipeline/memory/store.py says how they are
kept in step, crashes included).
"""

from __future__ import annotations

import asyncio
import re
import uuid
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.store.base import BaseStore

from pipeline.config import Settings
from pipeline.documents import Documents, load_documents
from pipeline.engines.llm.embeddings import embedder as make_embedder
from pipeline.errors import InputError, NotFoundError
from pipeline.graph.build import abuild_graph
from pipeline.inputs import valid_history, valid_message, valid_query
from pipeline.memory.entries import Entry, created_at, message_entry
from pipeline.memory.recall import recalled_message, search
from pipeline.memory.store import ThreadMemory
from pipeline.memory.window import summary_message, visible
from pipeline.results import (
    ChatResult,
    ImportResult,
    RecalledMessage,
    ThreadList,
    ThreadMessage,
    ThreadView,
)
from pipeline.storage.checkpoint import Saver, open_checkpointer
from pipeline.storage.listing import thread_ids
from pipeline.storage.locks import thread_lock
from pipeline.storage.memory_store import open_store
from pipeline.text.messages import message_text

_THREAD_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
MAX_RECALL_K = 100
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
    store: BaseStore | None = None,
    embeddings: Embeddings | None = None,
    create: bool = True,
) -> ChatResult:
    """Run one turn; with documents attached the router may read them and cite them.

    The turn recalls earlier messages relevant to this one (`ChatResult.recalled`),
    lexically and, with `embeddings` (or LONGDOC_EMBEDDINGS), by vector too.
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
        _memory(settings, store) as memory_store,
    ):
        # The graph (and so the model config) first: a bad setting is reported before
        # any document is read.
        # Both off the event loop: a first Databricks model imports for seconds, and
        # loading a PDF waits on its child process.
        graph = await abuild_graph(
            model, settings, checkpointer=saver, store=memory_store, embeddings=embeddings
        )
        if not create:
            await _values(saver, thread_id)
        loaded = await asyncio.to_thread(load_documents, documents, settings) if documents else []
        # Always send `documents`: the channel persists, so an earlier turn's
        # attachment would otherwise be read again by this one.
        out = await graph.ainvoke({"question": message, "documents": loaded}, _config(thread_id))
        # The history is written: the entries this turn indexed ahead of it are confirmed.
        memory = ThreadMemory(memory_store, thread_id, make_embedder(settings, embeddings))
        await memory.reconcile(out["messages"])
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


async def aimport_messages(
    thread_id: str,
    messages: list[dict[str, Any]],
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    checkpointer: Saver | None = None,
    store: BaseStore | None = None,
    embeddings: Embeddings | None = None,
    create: bool = True,
) -> ImportResult:
    """Append earlier messages to a thread's history (and its recall index), with no replies.

    Each message is `{"role": "user"|"assistant", "content", "name"?, "created_at"?}`.
    All or nothing: one bad message raises InputError naming its index and writes
    nothing. A fold the new messages make due happens on the next turn, so 10,000
    messages import in seconds. An unknown thread is made, unless `create=False`.
    """
    settings = settings or Settings()
    _check_id(thread_id)
    parsed = valid_history(messages, settings)
    async with (
        _turn_lock(thread_id),
        thread_lock(settings, thread_id),
        _store(settings, checkpointer) as saver,
        _memory(settings, store) as memory_store,
    ):
        graph = await abuild_graph(model, settings, checkpointer=saver, store=memory_store)
        if not create:
            await _values(saver, thread_id)
        config = _config(thread_id)
        history: list[BaseMessage] = (await graph.aget_state(config)).values.get("messages", [])
        memory = ThreadMemory(memory_store, thread_id, make_embedder(settings, embeddings))
        await memory.reconcile(history)
        # Indexed ahead of the history write, as a turn is (see pipeline/memory/store.py).
        await memory.append(_entries(parsed, len(history)), confirmed=False)
        await graph.aupdate_state(config, {"messages": parsed}, as_node="chat")
        await memory.confirm()
    return ImportResult(
        thread_id=thread_id, imported=len(parsed), messages=len(history) + len(parsed)
    )


async def arecall(
    thread_id: str,
    query: str,
    k: int = 8,
    *,
    settings: Settings | None = None,
    checkpointer: Saver | None = None,
    store: BaseStore | None = None,
    embeddings: Embeddings | None = None,
) -> list[RecalledMessage]:
    """The `k` messages (and fold summaries) of the thread most relevant to `query`, best first.

    Only this thread's messages, and only those its history holds: entries a turn in
    progress wrote ahead of its history write are left out until that write is seen.
    """
    settings = settings or Settings()
    _check_id(thread_id)
    query = valid_query(query, settings)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_RECALL_K:
        raise InputError(
            f"k must be a whole number from 1 to {MAX_RECALL_K}, not {k!r}",
            hint="Ask for 8 unless you need more.",
        )
    embedder = make_embedder(settings, embeddings)
    async with _memory(settings, store) as memory_store:
        memory = ThreadMemory(memory_store, thread_id, embedder)
        head = await memory.head()
        unbacked: set[str] = set()
        if head is None or head.unconfirmed is not None:
            unbacked = await _unbacked(memory, settings, checkpointer, head is None)
        index = await memory.load()
        if index is None:  # pragma: no cover - _unbacked made or found the index
            raise NotFoundError(f"thread {thread_id!r} does not exist")
        vector = await embedder.embed_query(query) if embedder is not None else None
        hits = search(
            index,
            query,
            k,
            exclude=unbacked,
            query_vector=vector,
            embedder=embedder.id if embedder is not None else None,
        )
    return [recalled_message(h) for h in hits]


async def adelete_thread(
    thread_id: str,
    *,
    settings: Settings | None = None,
    checkpointer: Saver | None = None,
    store: BaseStore | None = None,
) -> None:
    """Delete the thread, every checkpoint of it and its recall index.

    The index goes first: a crash in between leaves a thread with no index, which is
    indexed again from its history on first use, never an index with no thread.
    """
    settings = settings or Settings()
    _check_id(thread_id)
    async with (
        _turn_lock(thread_id),
        thread_lock(settings, thread_id),
        _store(settings, checkpointer) as saver,
        _memory(settings, store) as memory_store,
    ):
        await _values(saver, thread_id)
        await ThreadMemory(memory_store, thread_id).delete()
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


def import_messages(
    thread_id: str,
    messages: list[dict[str, Any]],
    *,
    settings: Settings | None = None,
    embeddings: Embeddings | None = None,
) -> ImportResult:
    """Synchronous `aimport_messages`."""
    return asyncio.run(
        aimport_messages(thread_id, messages, settings=settings, embeddings=embeddings)
    )


def recall(
    thread_id: str,
    query: str,
    k: int = 8,
    *,
    settings: Settings | None = None,
    embeddings: Embeddings | None = None,
) -> list[RecalledMessage]:
    """Synchronous `arecall`."""
    return asyncio.run(arecall(thread_id, query, k, settings=settings, embeddings=embeddings))


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


@asynccontextmanager
async def _memory(settings: Settings, store: BaseStore | None) -> AsyncIterator[BaseStore]:
    """The caller's long-lived store, or one opened for this call."""
    if store is not None:
        yield store
        return
    async with open_store(settings) as opened:
        yield opened


async def _unbacked(
    memory: ThreadMemory, settings: Settings, checkpointer: Saver | None, missing: bool
) -> set[str]:
    """Ids of indexed messages the thread's history does not hold (a turn in progress, or
    one a crash cut short); a thread with no index yet is indexed from its history first."""
    async with _store(settings, checkpointer) as saver:
        history: list[BaseMessage] = (await _values(saver, memory.thread_id)).get("messages", [])
    if missing:
        # Writes to the index are made under the thread's lock, as turns make them.
        async with _turn_lock(memory.thread_id), thread_lock(settings, memory.thread_id):
            await memory.reconcile(history)
        return set()
    index = await memory.load()
    assert index is not None
    held = {m.id for m in history}
    return {e.message_id for e in index.entries if e.kind == "message" and e.message_id not in held}


def _entries(messages: list[BaseMessage], start: int) -> list[Entry]:
    return [message_entry(m, start + i) for i, m in enumerate(messages)]


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
        id=message.id or "",
        role=_ROLES.get(message.type, "user"),
        content=message_text(message),
        name=message.name,
        created_at=created_at(message),
    )
