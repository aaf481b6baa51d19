"""Progress events as LangGraph custom stream chunks: split, chunk_done, reduce, answer."""

from __future__ import annotations

import threading
from typing import Any

from langgraph.config import get_stream_writer


def emit(event: str, **data: Any) -> None:
    """Send `{"event": event, **data}` to the `custom` stream; a no-op when nobody listens."""
    try:
        writer = get_stream_writer()
    except RuntimeError:  # called outside a graph run (e.g. an engine unit test)
        return
    writer({"event": event, **data})


class ChunkCounter:
    """Counts finished chunks per run, so `chunk_done` can say k of N.

    Map tasks run concurrently and cannot see each other's findings until the
    superstep ends, so the count lives here, keyed by a token split puts in each task.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done: dict[str, int] = {}

    def increment(self, run: str) -> int:
        with self._lock:
            self._done[run] = self._done.get(run, 0) + 1
            return self._done[run]

    def forget(self, run: str) -> None:
        with self._lock:
            self._done.pop(run, None)


chunk_counter = ChunkCounter()
