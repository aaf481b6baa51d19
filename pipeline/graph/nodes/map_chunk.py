"""map_chunk: read one chunk; a chunk that fails becomes a Finding with `error`, never a crash.

The same node reads the chunks of a chat transcript that compress folds (as `fold_chunk`).
"""

from __future__ import annotations

from typing import Any

from pipeline.engines.base import Engine
from pipeline.engines.meter import Meter
from pipeline.errors import LongdocError
from pipeline.graph.nodes import NodeFn
from pipeline.progress import chunk_counter, emit
from pipeline.types import ChunkTask, Finding


def make_map_chunk(engine: Engine, node: str = "map_chunk") -> NodeFn:
    async def map_chunk(task: ChunkTask) -> dict[str, Any]:
        meter = Meter(node)
        chunk_id = task["chunk"]["id"]
        try:
            finding = await engine.read_chunk(task, meter)
        except Exception as exc:  # one bad chunk must not fail the whole superstep
            message = (
                exc.message if isinstance(exc, LongdocError) else f"{type(exc).__name__}: {exc}"
            )
            code = exc.code if isinstance(exc, LongdocError) else None
            finding = Finding(chunk=chunk_id, chunks=[chunk_id], error=message, error_code=code)
        done = chunk_counter.increment(task["run"])
        emit(
            "chunk_done",
            chunk=chunk_id,
            done=done,
            total=task["total"],
            ok=not finding.failed,
        )
        return {"findings": [finding], "usage_log": meter.records}

    return map_chunk
