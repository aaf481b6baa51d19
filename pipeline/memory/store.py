"""A thread's recall index in the LangGraph store: append, repair from history, read, delete.

Layout, in namespace ("longdoc", "memory", <thread id>): one item per message
(`m000000042` for history index 42), one per fold summary (`s...`, by the last index it
folds in), and `head`, the commit point: how many message entries are in, which
summaries, and `unconfirmed`, the first entry written by a turn whose history write was
not yet seen to commit. Entries and head go in one store batch (one transaction).

Durability: a turn writes its messages' entries *before* LangGraph writes them to the
history, so a crash never leaves a stored message unindexed. A crash between the two
leaves entries the history lacks; they stay marked unconfirmed, and whoever next reads
the thread with its history (the next turn, or a recall) drops them. Threads indexed by
nothing yet (made before the index existed, or whose index was lost) are indexed from
their history on first use.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.store.base import BaseStore, GetOp, Item, PutOp

from pipeline.engines.llm.embeddings import Embedder
from pipeline.memory.entries import Entry, key_of, message_entry
from pipeline.memory.index import CACHE, ThreadIndex

HEAD = "head"
READ_BATCH = 1000
"""Entries fetched per store batch when a cache catches up (one query each)."""


@dataclass
class Head:
    """The thread's commit point in the store (see the module docstring)."""

    generation: str = field(default_factory=lambda: uuid.uuid4().hex)
    messages: int = 0
    summaries: list[int] = field(default_factory=list)
    unconfirmed: int | None = None


def namespace(thread_id: str) -> tuple[str, ...]:
    """The thread's namespace; store labels cannot hold '.', which thread ids may."""
    return ("longdoc", "memory", thread_id.replace(".", "%2E"))


class ThreadMemory:
    """The recall index of one thread in one store, with its compiled copy in this process."""

    def __init__(self, store: BaseStore, thread_id: str, embedder: Embedder | None = None) -> None:
        self.store = store
        self.thread_id = thread_id
        self.embedder = embedder
        self.ns = namespace(thread_id)

    async def head(self) -> Head | None:
        item = await self.store.aget(self.ns, HEAD)
        return Head(**item.value) if item is not None else None

    async def load(self, head: Head | None = None) -> ThreadIndex | None:
        """The compiled index, caught up with the store; None if the thread has no index."""
        head = head or await self.head()
        if head is None:
            CACHE.drop(self.thread_id)
            return None
        index = CACHE.get(self.thread_id, head.generation)
        keys = [key_of("message", i) for i in range(index.messages, head.messages)]
        keys += [key_of("summary", i) for i in head.summaries if i not in index.summaries]
        for start in range(0, len(keys), READ_BATCH):
            ops = [GetOp(self.ns, key) for key in keys[start : start + READ_BATCH]]
            items = await self.store.abatch(ops)
            values = [item.value for item in items if isinstance(item, Item)]
            # Compiling thousands of entries is CPU work (~0.1 s per 1,000): off the loop.
            await asyncio.to_thread(_compile, index, values)
        return index

    async def append(self, entries: Sequence[Entry], *, confirmed: bool) -> None:
        """Write entries (embedded first, if an embedder is set) and move the head past them.

        Message entries must continue the history from the head's count; `confirmed=False`
        marks them as written ahead of the history (a turn in progress).
        """
        head = await self.head() or Head()
        first = next((e.index for e in entries if e.kind == "message"), None)
        if first is not None and first != head.messages:
            raise ValueError(f"entry {first} does not follow the {head.messages} indexed")
        entries = await self.embedded(entries)
        messages = sum(e.kind == "message" for e in entries)
        summaries = sorted({*head.summaries, *(e.index for e in entries if e.kind == "summary")})
        unconfirmed = head.unconfirmed
        if not confirmed and unconfirmed is None and first is not None:
            unconfirmed = first
        new_head = Head(head.generation, head.messages + messages, summaries, unconfirmed)
        await self._write(entries, new_head)
        index = CACHE.get(self.thread_id, head.generation)
        if index.messages == head.messages:
            index.add(entries)

    async def reconcile(self, history: Sequence[BaseMessage]) -> ThreadIndex:
        """Bring the index in line with the committed `history`, and return it compiled.

        Drops entries of a turn that never reached the history, indexes any message the
        index lacks (a thread from before the index, or one a crash left behind), and
        confirms the rest. Cheap when nothing is amiss: the tail is compared by id.
        """
        head = await self.head()
        if head is None:
            head = Head()
            await self._write([], head)
        index = await self.load(head)
        assert index is not None
        bad = _first_mismatch(index, head, history)
        if bad is not None:
            # Rare (a crash mid-turn): cut the index back under a new generation, so every
            # process rebuilds its copy rather than keep the dropped entries.
            head = Head(messages=bad, summaries=[s for s in head.summaries if s < bad])
            await self._write([], head)
            index = await self.load(head)
            assert index is not None
        missing = [message_entry(m, i) for i, m in enumerate(history) if i >= head.messages]
        if missing:
            await self.append(missing, confirmed=True)
        await self.confirm()
        index = await self.load()
        assert index is not None
        return index

    async def confirm(self) -> None:
        """Mark every entry as backed by the history (the turn's history write committed)."""
        head = await self.head()
        if head is not None and head.unconfirmed is not None:
            head.unconfirmed = None
            await self._write([], head)

    async def delete(self) -> None:
        """Delete every entry and the head."""
        keys: list[str] = []
        while True:
            page = await self.store.asearch(self.ns, limit=READ_BATCH, offset=len(keys))
            keys += [item.key for item in page]
            if len(page) < READ_BATCH:
                break
        await self.store.abatch([PutOp(self.ns, key, None) for key in keys])
        CACHE.drop(self.thread_id)

    async def embedded(self, entries: Sequence[Entry]) -> list[Entry]:
        """The entries with vectors from the embedder (none without one)."""
        if self.embedder is None or not entries:
            return list(entries)
        vectors = await self.embedder.embed([e.content for e in entries])
        return [e.with_vector(v, self.embedder.id) for e, v in zip(entries, vectors, strict=True)]

    async def _write(self, entries: Sequence[Entry], head: Head) -> None:
        ops = [PutOp(self.ns, e.key, e.to_value(), index=False) for e in entries]
        ops.append(PutOp(self.ns, HEAD, _head_value(head), index=False))
        await self.store.abatch(ops)


def _compile(index: ThreadIndex, values: list[dict[str, Any]]) -> None:
    index.add(Entry.from_value(value) for value in values)


def _head_value(head: Head) -> dict[str, Any]:
    return asdict(head)


def _first_mismatch(index: ThreadIndex, head: Head, history: Sequence[BaseMessage]) -> int | None:
    """The first indexed position whose message the history does not hold there, if any.

    Only the unconfirmed tail (or, when all is confirmed, the last entry) is compared:
    confirmed entries were checked against the history when it was written.
    """
    start = head.unconfirmed if head.unconfirmed is not None else max(0, head.messages - 1)
    for i in range(start, min(head.messages, len(history))):
        entry = index.entries[index.message_positions[i]]
        if entry.message_id != (history[i].id or ""):
            return i
    return len(history) if head.messages > len(history) else None
