"""map_chunk: read one chunk; a chunk that fails becomes a Finding with `error`, never a crash.

The same node reads the chunks of a chat transcript that compress folds (as `fold_chunk`).
With a chunk cache, a chunk whose reading is cached is not read again: it still counts
in coverage and emits `chunk_done` (with `cached=True`), and its usage record is marked
cached. Only successful readings are stored, and not a chunk skimmed past (see skim.py).
"""

from __future__ import annotations

from typing import Any

from pipeline.cache import CachedReading, CacheScope, ChunkCache
from pipeline.engines.base import Engine
from pipeline.engines.meter import Meter
from pipeline.errors import LongdocError, reraise_if_cancelled
from pipeline.graph.nodes import NodeFn
from pipeline.progress import chunk_counter, emit
from pipeline.types import CallUsage, ChunkTask, Finding, LimitUsage


def make_map_chunk(
    engine: Engine,
    node: str = "map_chunk",
    cache: ChunkCache | None = None,
    scope: CacheScope | None = None,
) -> NodeFn:
    """The node; `cache` and `scope` together turn the chunk cache on."""

    async def map_chunk(task: ChunkTask) -> dict[str, Any]:
        chunk = task["chunk"]
        key = scope.key(task) if cache is not None and scope is not None else None
        cached = await cache.get(key, chunk) if cache is not None and key else None
        if cached is not None:
            finding = cached.finding(chunk)
            records: list[CallUsage | LimitUsage] = [
                CallUsage(node=node, input_tokens=cached.tokens, cached=True)
            ]
        else:
            finding, records = await _read(engine, task, node)
            # A chunk skimmed past costs nothing to skim again; cached, it would come back as
            # a reading (a cached reading keeps what a chunk says, not how it was read).
            if cache is not None and key and not finding.failed and not finding.skimmed:
                # Only the calls count: rate-limit records say how a call waited, not a call.
                calls = [r for r in records if isinstance(r, CallUsage)]
                await cache.put(key, CachedReading.of(finding, chunk, calls))
        done = chunk_counter.increment(task["run"])
        emit(
            "chunk_done",
            chunk=chunk["id"],
            done=done,
            total=task["total"],
            ok=not finding.failed,
            cached=cached is not None,
        )
        return {"findings": [finding], "usage_log": records}

    return map_chunk


async def _read(
    engine: Engine, task: ChunkTask, node: str
) -> tuple[Finding, list[CallUsage | LimitUsage]]:
    meter = Meter(node)
    chunk_id = task["chunk"]["id"]
    try:
        finding = await engine.read_chunk(task, meter)
    except Exception as exc:  # one bad chunk must not fail the whole superstep
        reraise_if_cancelled(exc)  # but a cancelled run stops
        message = exc.message if isinstance(exc, LongdocError) else f"{type(exc).__name__}: {exc}"
        code = exc.code if isinstance(exc, LongdocError) else None
        finding = Finding(chunk=chunk_id, chunks=[chunk_id], error=message, error_code=code)
    return finding, meter.records
