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
from typing import Any, cast

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointMetadata, CheckpointTuple, empty_checkpoint
from langgraph.store.base import BaseStore

from pipeline.config import Settings
from pipeline.documents import Documents, aload_documents
from pipeline.engines.llm.embeddings import embedder as make_embedder
from pipeline.errors import InputError, NotFoundError
from pipeline.graph.build import Graph, abuild_graph
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
from pipeline.storage.prune import keep_only
from pipeline.text.messages import message_text
from pipeline.types import DocumentText

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
    store: BaseStore | None = None,
    embeddings: Embeddings | None = None,
    create: bool = True,
    owner: str | None = None,
) -> ChatResult:
    """Run one turn; with documents attached the router may read them and cite them.

    The turn recalls earlier messages relevant to this one (`ChatResult.recalled`),
    lexically and, with `embeddings` (or LONGDOC_EMBEDDINGS), by vector too.
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
        async with (
            _turn_lock(thread_id),
            thread_lock(settings, thread_id),
            _memory(settings, store) as memory_store,
        ):
            # The graph (and so the model config) first: a bad setting is reported before
            # any document is read. Off the event loop: a first Databricks model imports
            # for seconds.
            graph = await abuild_graph(
                model, settings, checkpointer=saver, store=memory_store, embeddings=embeddings
            )
            head = await (_find if create else _head)(saver, thread_id, owner)
            loaded = await aload_documents(documents, settings) if documents else []
            owned = head.metadata.get("owner") if head else owner  # the owner stays on
            out = await _turn(graph, saver, thread_id, head, owned, message, loaded)
            # The history is written: the entries this turn indexed ahead of it are confirmed.
            memory = ThreadMemory(memory_store, thread_id, make_embedder(settings, embeddings))
            await memory.reconcile(out["messages"])
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
        await asyncio.shield(keep_only(saver, thread_id, _checkpoint_id(head)))
        raise
    await _keep_latest(saver, thread_id)
    return out


async def _keep_latest(saver: Saver, thread_id: str) -> None:
    """Prune the thread to its latest checkpoint, which holds its whole history."""
    latest = await saver.aget_tuple(_config(thread_id))
    if latest is not None:
        await keep_only(saver, thread_id, _checkpoint_id(latest))


def _checkpoint_id(stored: CheckpointTuple | None) -> str | None:
    return stored.config["configurable"]["checkpoint_id"] if stored else None


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
        values = (await _head(saver, thread_id, owner)).checkpoint["channel_values"]
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
    owner: str | None = None,
) -> ImportResult:
    """Append earlier messages to a thread's history (and its recall index), with no replies.

    Each message is `{"role": "user"|"assistant", "content", "name"?, "created_at"?}`.
    All or nothing: one bad message raises InputError naming its index and writes
    nothing. A fold the new messages make due happens on the next turn, so 10,000
    messages import in seconds. An unknown thread is made, unless `create=False`; a thread
    `owner` does not own is NotFoundError.
    """
    settings = settings or Settings()
    _check_id(thread_id)
    parsed = valid_history(messages, settings)
    async with _store(settings, checkpointer) as saver:
        if not create:  # before the locks: an unknown id leaves no lock file behind
            await _head(saver, thread_id, owner)
        async with (
            _turn_lock(thread_id),
            thread_lock(settings, thread_id),
            _memory(settings, store) as memory_store,
        ):
            graph = await abuild_graph(model, settings, checkpointer=saver, store=memory_store)
            head = await (_find if create else _head)(saver, thread_id, owner)
            config = _config(thread_id)
            config["metadata"] = _owned_by(head.metadata.get("owner") if head else owner)
            state = await graph.aget_state(config)
            history: list[BaseMessage] = state.values.get("messages", [])
            memory = ThreadMemory(memory_store, thread_id, make_embedder(settings, embeddings))
            await memory.reconcile(history)
            # Indexed ahead of the history write, as a turn is (see pipeline/memory/store.py).
            await memory.append(_entries(parsed, len(history)), confirmed=False)
            await graph.aupdate_state(config, {"messages": parsed}, as_node="chat")
            await _keep_latest(saver, thread_id)
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
    owner: str | None = None,
) -> list[RecalledMessage]:
    """The `k` messages (and fold summaries) of the thread most relevant to `query`, best first.

    Only this thread's messages, and only those its history holds: entries a turn in
    progress wrote ahead of its history write are left out until that write is seen.
    A thread `owner` does not own is NotFoundError.
    """
    settings = settings or Settings()
    _check_id(thread_id)
    query = valid_query(query, settings)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_RECALL_K:
        raise InputError(
            f"k must be a whole number from 1 to {MAX_RECALL_K}, not {k!r}",
            hint="Ask for 8 unless you need more.",
        )
    if owner is not None:
        async with _store(settings, checkpointer) as saver:
            await _head(saver, thread_id, owner)
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
    owner: str | None = None,
) -> None:
    """Delete the thread, every checkpoint of it, its recall index and its lock file.

    The index goes first: a crash in between leaves a thread with no index, which is
    indexed again from its history on first use, never an index with no thread.
    """
    settings = settings or Settings()
    _check_id(thread_id)
    async with _store(settings, checkpointer) as saver:
        await _head(saver, thread_id, owner)
        async with (
            _turn_lock(thread_id),
            thread_lock(settings, thread_id, remove=True),
            _memory(settings, store) as memory_store,
        ):
            await ThreadMemory(memory_store, thread_id).delete()
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
    values: dict[str, Any] = (await _head(saver, thread_id, None)).checkpoint["channel_values"]
    return values


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
        id=message.id or "",
        role=_ROLES.get(message.type, "user"),
        content=message_text(message),
        name=message.name,
        created_at=created_at(message),
    )
