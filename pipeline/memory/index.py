"""A thread's recall index in memory: postings for lexical search, vectors, and the process cache.

The store (pipeline/memory/store.py) is the durable, shared copy; each process keeps the
threads it recently searched compiled here and brings one up to date before a search by
reading only the entries added since (one read of the thread's head tells how many).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pipeline.engines.extractive.memory_notes import FIRST_PERSON
from pipeline.memory.entries import Entry

MAX_CACHED_THREADS = 64
"""Threads kept compiled per process; a 10,000-message thread takes about 20 MB."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Columns:
    """Per entry: term count and whether the user speaks of themselves; per message, in
    history order: its entry's position and whether the user or the assistant said it."""

    lengths: FloatArray
    about_self: BoolArray
    message_positions: IntArray
    user: BoolArray
    assistant: BoolArray


class ThreadIndex:
    """Every entry of one thread (in store order), with postings and vectors to rank them.

    `generation` names the store's copy this was read from: a thread deleted and made
    again, or repaired after a crash, gets a new one, and caches of the old are dropped.
    """

    def __init__(self, generation: str) -> None:
        self.generation = generation
        self.entries: list[Entry] = []
        self.messages = 0
        """Message entries held: those at history indices 0 .. messages-1, in order."""
        self.message_positions: list[int] = []
        """History index -> position in `entries`."""
        self.summaries: set[int] = set()
        self.lengths: list[int] = []
        self.about_self: list[bool] = []
        """Per entry: the user speaking of themselves ('I', 'my', '私')."""
        self._postings: dict[str, tuple[list[int], list[int]]] = {}
        self._arrays: dict[str, tuple[int, IntArray, FloatArray]] = {}
        self._vectors: dict[str, tuple[int, IntArray, FloatArray]] = {}
        self._columns: Columns | None = None
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, entries: Iterable[Entry]) -> None:
        """Append entries; a message must come at the next history index, else it is skipped.

        Skipping makes add idempotent: two searches that both read the same new entries
        from the store add them once.
        """
        with self.lock:
            for entry in entries:
                if entry.kind == "message":
                    if entry.index != self.messages:
                        continue
                    self.messages += 1
                    self.message_positions.append(len(self.entries))
                elif entry.index in self.summaries:
                    continue
                else:
                    self.summaries.add(entry.index)
                self._append(entry)

    def _append(self, entry: Entry) -> None:
        position = len(self.entries)
        self.entries.append(entry)
        self.lengths.append(len(entry.terms))
        self.about_self.append(entry.role == "user" and bool(FIRST_PERSON.search(entry.content)))
        counts: dict[str, int] = {}
        for term in entry.terms:
            counts[term] = counts.get(term, 0) + 1
        for term, count in counts.items():
            positions, tfs = self._postings.setdefault(term, ([], []))
            positions.append(position)
            tfs.append(count)

    def postings(self, term: str) -> tuple[IntArray, FloatArray]:
        """(positions, term frequencies) of `term`, as arrays rebuilt only when it grew."""
        positions, tfs = self._postings.get(term, ([], []))
        cached = self._arrays.get(term)
        if cached is None or cached[0] != len(positions):
            cached = (
                len(positions),
                np.asarray(positions, dtype=np.int64),
                np.asarray(tfs, dtype=np.float64),
            )
            self._arrays[term] = cached
        return cached[1], cached[2]

    def columns(self) -> Columns:
        """The entries' numbers as arrays, rebuilt only when entries were added."""
        if self._columns is None or len(self._columns.lengths) != len(self.entries):
            positions = np.asarray(self.message_positions, dtype=np.int64)
            roles = np.asarray([self.entries[p].role for p in self.message_positions])
            self._columns = Columns(
                lengths=np.asarray(self.lengths, dtype=np.float64),
                about_self=np.asarray(self.about_self, dtype=np.bool_),
                message_positions=positions,
                user=roles == "user",
                assistant=roles == "assistant",
            )
        return self._columns

    def vectors(self, embedder: str) -> tuple[IntArray, FloatArray]:
        """(positions, unit vectors) of the entries embedded by `embedder`."""
        cached = self._vectors.get(embedder)
        if cached is None or cached[0] != len(self.entries):
            rows = [
                (p, e.vector)
                for p, e in enumerate(self.entries)
                if e.vector is not None and e.embedder == embedder
            ]
            positions = np.asarray([p for p, _ in rows], dtype=np.int64)
            matrix = np.asarray([v for _, v in rows], dtype=np.float64).reshape(len(rows), -1)
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            cached = (len(self.entries), positions, matrix / np.where(norms == 0, 1, norms))
            self._vectors[embedder] = cached
        return cached[1], cached[2]


class IndexCache:
    """The compiled indexes of recently searched threads, least recently used dropped first."""

    def __init__(self, size: int = MAX_CACHED_THREADS) -> None:
        self.size = size
        self._indexes: OrderedDict[str, ThreadIndex] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, thread_id: str, generation: str) -> ThreadIndex:
        """The thread's compiled index of this generation, a new empty one if none is held.

        Generations are random per store and thread, so the same thread id in two stores
        (two data directories) never shares a compiled index.
        """
        key = thread_id
        with self._lock:
            index = self._indexes.get(key)
            if index is None or index.generation != generation:
                index = self._indexes[key] = ThreadIndex(generation)
            self._indexes.move_to_end(key)
            while len(self._indexes) > self.size:
                self._indexes.popitem(last=False)
            return index

    def drop(self, thread_id: str) -> None:
        with self._lock:
            self._indexes.pop(thread_id, None)


CACHE = IndexCache()
