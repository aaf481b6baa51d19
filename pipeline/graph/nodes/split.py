"""split: cut the documents into chunks, then fan out one map_chunk per chunk with Send."""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.types import Send

from pipeline.config import Settings
from pipeline.engines.base import Engine
from pipeline.graph.chunking import chunk_tasks, split_documents
from pipeline.graph.nodes import NodeFn
from pipeline.graph.state import State, documents_of
from pipeline.progress import emit


def make_split(engine: Engine, settings: Settings) -> NodeFn:
    # Sync on purpose: splitting and indexing are CPU work with no awaits, and LangGraph
    # runs a sync node on a worker thread, so a 10 MB split does not stall the event loop.
    def split(state: State) -> dict[str, Any]:
        documents = documents_of(state)
        task = state.get("task", "ask")
        # Before splitting: the chunks copy the text (2 bytes a character once it holds
        # one accented letter), so what prepare reads of it whole (the built-in engine's
        # IDF pass) is freed before they exist, and the two peaks never add up.
        hints = engine.prepare(documents, state["question"], task)
        # The extractive engine reads a chunk in microseconds, so it names a larger
        # chunk size than a model's; LLMEngine leaves it to Settings.chunk_size. A model's
        # chunks are structured (whole rows and items, each with its heading path); the
        # built-in engine reads each chunk's structure itself, so its split stays one scan.
        chunks = split_documents(
            documents,
            settings,
            engine.chunk_size,
            structured=engine.chunk_size is None,
            chars_per_token=engine.chars_per_token,
        )
        emit("split", chunks=len(chunks))
        return {
            "chunks": chunks,
            "hints": hints,
            "run": uuid.uuid4().hex,
        }

    return split


def send_chunks(state: State) -> list[Send]:
    """Edge: one Send per chunk, each carrying a small ChunkTask rather than the state."""
    tasks = chunk_tasks(
        state["chunks"],
        question=state["question"],
        task=state.get("task", "ask"),
        instructions=state.get("instructions", ""),
        run=state["run"],
        hints=state["hints"],
        words=state.get("summary_words") or 0,
    )
    return [Send("map_chunk", task) for task in tasks]
