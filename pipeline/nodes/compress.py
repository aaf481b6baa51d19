"""compress: fold old chat history into the running summary with the document map-reduce."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langchain_core.messages import BaseMessage

from pipeline import prompts
from pipeline.collapse import collapse
from pipeline.config import Settings
from pipeline.engines.base import Engine
from pipeline.memory import needs_fold, render, split_for_fold, visible
from pipeline.nodes import NodeFn
from pipeline.progress import emit
from pipeline.split import split_documents
from pipeline.state import ChunkTask, SourceDocument, State
from pipeline.usage import Meter

log = logging.getLogger(__name__)


def make_compress(engine: Engine, settings: Settings) -> NodeFn:
    async def compress(state: State) -> dict[str, Any]:
        covered = state.get("summary_covers", [])
        summary = state.get("summary", "")
        kept = visible(state.get("messages", []), covered)
        if not needs_fold(summary, kept, state["question"], settings):
            return {"compressed": False}
        to_fold, _ = split_for_fold(kept, settings.memory_keep_messages)
        if not to_fold:
            return {"compressed": False}
        meter = Meter("compress")
        try:
            new_summary = await fold(engine, settings, summary, to_fold, meter)
        except Exception as exc:  # history and old summary stay as they were; next turn retries
            log.warning("chat history fold failed: %s", exc)
            emit("compress", ok=False, error=str(exc)[:200])
            return {"compressed": False, "usage_log": meter.records}
        emit("compress", ok=True, folded=len(to_fold))
        return {
            "summary": new_summary,
            "summary_covers": [*covered, *(m.id for m in to_fold if m.id)],
            "compressed": True,
            "usage_log": meter.records,
        }

    return compress


async def fold(
    engine: Engine, settings: Settings, summary: str, messages: list[BaseMessage], meter: Meter
) -> str:
    """The new running summary: the old one plus the transcript, read in parallel and reduced.

    The same split -> read_chunk -> collapse -> summarize steps as a document summary;
    any failure raises, so the caller can keep the old state untouched.
    """
    previous = f"{prompts.MEMORY_PREFIX}{summary}\n\n" if summary else ""
    document = SourceDocument(id="conversation", text=previous + render(messages))
    chunks = split_documents([document], settings)
    hints = engine.prepare([document], chunks, "", "remember")
    tasks = [
        ChunkTask(
            chunk=chunk,
            question="",
            task="remember",
            instructions=prompts.MEMORY_INSTRUCTIONS,
            total=len(chunks),
            run="",
            hints=hints,
        )
        for chunk in chunks
    ]
    findings = await asyncio.gather(*(engine.read_chunk(task, meter) for task in tasks))
    notes = await collapse(
        engine,
        list(findings),
        prompts.MEMORY_INSTRUCTIONS,
        budget=settings.reduce_token_budget,
        max_rounds=settings.collapse_max_rounds,
        meter=meter,
    )
    draft = await engine.summarize(
        notes, prompts.MEMORY_INSTRUCTIONS, settings.memory_summary_words, meter, task="remember"
    )
    return draft.text
