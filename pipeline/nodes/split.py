"""split: cut the documents into chunks, then fan out one map_chunk per chunk with Send."""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.types import Send

from pipeline.config import Settings
from pipeline.engines.base import Engine
from pipeline.nodes import NodeFn
from pipeline.progress import emit
from pipeline.split import split_documents
from pipeline.state import ChunkTask, State


def make_split(engine: Engine, settings: Settings) -> NodeFn:
    # Sync on purpose: splitting and indexing are CPU work with no awaits, and LangGraph
    # runs a sync node on a worker thread, so a 10 MB split does not stall the event loop.
    def split(state: State) -> dict[str, Any]:
        # The extractive engine reads a chunk in microseconds, so it names a larger
        # chunk size than a model's; LLMEngine leaves it to Settings.chunk_size.
        chunks = split_documents(state["documents"], settings, engine.chunk_size)
        task = state.get("task", "ask")
        emit("split", chunks=len(chunks))
        return {
            "chunks": chunks,
            "hints": engine.prepare(state["documents"], chunks, state["question"], task),
            "run": uuid.uuid4().hex,
        }

    return split


def send_chunks(state: State) -> list[Send]:
    """Edge: one Send per chunk, each carrying a small ChunkTask rather than the state."""
    total = len(state["chunks"])
    return [
        Send(
            "map_chunk",
            ChunkTask(
                chunk=chunk,
                question=state["question"],
                task=state.get("task", "ask"),
                instructions=state.get("instructions", ""),
                total=total,
                run=state["run"],
                hints=state["hints"],
            ),
        )
        for chunk in state["chunks"]
    ]
