"""compress and fold: old chat history folded into the running summary by the same map-reduce.

compress decides whether this turn must fold; if so it splits the transcript of the oldest
messages into chunks that `fold_chunk` (the map_chunk node) reads in parallel, and `fold`
collapses the findings into the new summary. Any failure keeps the old summary and history
as they were, so the fold is simply tried again next turn.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.types import Send

from pipeline import prompts
from pipeline.config import Settings
from pipeline.engines.base import Engine
from pipeline.engines.llm.embeddings import Embedder
from pipeline.engines.meter import Meter
from pipeline.graph.chunking import chunk_tasks, split_documents
from pipeline.graph.collapse import collapse
from pipeline.graph.nodes import NodeFn
from pipeline.graph.nodes.recall import thread_of
from pipeline.graph.state import State
from pipeline.memory.entries import summary_entry
from pipeline.memory.store import ThreadMemory
from pipeline.memory.window import needs_fold, split_for_fold, visible
from pipeline.progress import chunk_counter, emit
from pipeline.text.messages import render
from pipeline.types import DocumentText

log = logging.getLogger(__name__)

NODE = "compress"
"""The name every fold step's model calls are counted under in `usage.by_node`."""


def make_compress(engine: Engine, settings: Settings) -> NodeFn:
    # Sync like split: building and splitting the transcript is CPU work.
    def compress(state: State) -> dict[str, Any]:
        covered = state.get("summary_covers", [])
        summary = state.get("summary", "")
        kept = visible(state.get("messages", []), covered)
        skip: dict[str, Any] = {"compressed": False, "folding": []}
        if not needs_fold(summary, kept, state["question"], settings):
            return skip
        to_fold, _ = split_for_fold(kept, settings.memory_keep_messages)
        folding = [m.id for m in to_fold if m.id]
        if not folding:
            return skip
        previous = f"{prompts.MEMORY_PREFIX}{summary}\n\n" if summary else ""
        transcript = DocumentText(id="conversation", text=previous + render(to_fold))
        chunks = split_documents([transcript], settings)
        return {
            "compressed": False,
            "folding": folding,
            "chunks": chunks,
            "hints": engine.prepare([transcript], "", "remember"),
            "run": uuid.uuid4().hex,
        }

    return compress


def send_fold_chunks(state: State) -> list[Send] | str:
    """Edge: the transcript's chunks to fold_chunk, or on to recall when no fold is due."""
    if not state.get("folding"):
        return "recall"
    tasks = chunk_tasks(
        state["chunks"],
        question="",
        task="remember",
        instructions=prompts.MEMORY_INSTRUCTIONS,
        run=state["run"],
        hints=state["hints"],
    )
    return [Send("fold_chunk", task) for task in tasks]


def make_fold(engine: Engine, settings: Settings, embedder: Embedder | None = None) -> NodeFn:
    async def fold(state: State, config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        chunk_counter.forget(state["run"])
        findings = sorted(state.get("findings", []), key=lambda f: f.chunk)
        meter = Meter(NODE)
        unchanged: dict[str, Any] = {"compressed": False, "folding": []}
        failed = next((f for f in findings if f.failed), None)
        if failed is not None:
            return _failed(unchanged, f"a transcript chunk could not be read: {failed.error}")
        try:
            notes = await collapse(
                engine,
                findings,
                prompts.MEMORY_INSTRUCTIONS,
                budget=settings.reduce_token_budget,
                max_rounds=settings.collapse_max_rounds,
                meter=meter,
            )
            draft = await engine.summarize(
                notes,
                prompts.MEMORY_INSTRUCTIONS,
                settings.memory_summary_words,
                meter,
                task="remember",
            )
        except Exception as exc:  # history and old summary stay as they were; next turn retries
            return _failed({**unchanged, "usage_log": meter.records}, str(exc))
        await _index_summary(runtime, config, embedder, state, draft.text)
        emit("compress", ok=True, folded=len(state["folding"]))
        return {
            "summary": draft.text,
            "summary_covers": [*state.get("summary_covers", []), *state["folding"]],
            "compressed": True,
            "folding": [],
            "usage_log": meter.records,
        }

    return fold


async def _index_summary(
    runtime: Runtime[Any],
    config: RunnableConfig,
    embedder: Embedder | None,
    state: State,
    summary: str,
) -> None:
    """Keep this fold's summary searchable: a later fold may drop what this one kept."""
    thread_id = thread_of(config)
    if runtime.store is None or thread_id is None or not summary:
        return
    last = state["folding"][-1]
    index = next(i for i, m in enumerate(state.get("messages", [])) if m.id == last)
    memory = ThreadMemory(runtime.store, thread_id, embedder)
    await memory.append([summary_entry(summary, index)], confirmed=True)


def _failed(update: dict[str, Any], error: str) -> dict[str, Any]:
    log.warning("chat history fold failed: %s", error)
    emit("compress", ok=False, error=error[:200])
    return update
