"""reduce: keep relevant findings, collapse them to the budget, write the cited final answer."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from pipeline import prompts
from pipeline.config import Settings
from pipeline.engines.base import Engine
from pipeline.engines.llm.embeddings import Embedder
from pipeline.engines.meter import Meter
from pipeline.errors import ModelError, ModelTimeoutError
from pipeline.graph.collapse import collapse
from pipeline.graph.nodes import NodeFn
from pipeline.graph.nodes.recall import remember, stamped
from pipeline.graph.state import State, documents_of, turn_reset
from pipeline.progress import chunk_counter, emit
from pipeline.results import Coverage, FailedChunk, Usage
from pipeline.text.language import detect_language
from pipeline.text.spans import to_citations
from pipeline.types import Draft, Finding


def make_reduce(engine: Engine, settings: Settings, embedder: Embedder | None = None) -> NodeFn:
    async def reduce(state: State, config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        chunk_counter.forget(state["run"])
        findings = sorted(state.get("findings", []), key=lambda f: f.chunk)
        failed = [f for f in findings if f.failed]
        if findings and len(failed) == len(findings):
            # A model that timed out on every chunk is a timeout (504), as for one call.
            timed_out = all(f.error_code == ModelTimeoutError.code for f in failed)
            kind = ModelTimeoutError if timed_out else ModelError
            raise kind(f"every chunk failed to be read; first error: {failed[0].error}")
        relevant = [f for f in findings if not f.failed and f.relevance >= settings.min_relevance]
        coverage = Coverage(
            chunks=len(state["chunks"]),
            read=len(findings) - len(failed),
            relevant=len(relevant),
            skimmed=sum(f.skimmed for f in findings),
            failed=[FailedChunk(chunk=f.chunk, error=f.error or "") for f in failed],
        )
        meter = Meter("reduce")
        if relevant:
            draft, coverage.truncated = await _write(engine, state, relevant, meter, settings)
        else:
            # No evidence at all: a fixed answer, no model call that could invent one.
            draft = Draft(text=_nothing_found(state, coverage))
        emit("answer")
        question = state["question"] or "Summarize the documents."
        turn = [stamped(HumanMessage(question)), stamped(AIMessage(draft.text))]
        await remember(runtime, config, embedder, state.get("messages", []), turn)
        return {
            "answer": draft.text,
            "mode": "document",
            "citations": [
                c.model_dump() for c in to_citations(draft.evidence, documents_of(state))
            ],
            "coverage": coverage.model_dump(),
            "conflicts": draft.conflicts,
            "missing_terms": draft.missing_terms,
            "usage": Usage.total([*state.get("usage_log", []), *meter.records]).model_dump(),
            "messages": turn,
            **turn_reset(),
        }

    return reduce


async def _write(
    engine: Engine, state: State, relevant: list[Finding], meter: Meter, settings: Settings
) -> tuple[Draft, bool]:
    """The final draft and whether findings had to be cut to fit the budget."""
    summarizing = state.get("task") == "summarize"
    goal = state.get("instructions") or prompts.SUMMARY_DEFAULT_INSTRUCTIONS
    if not summarizing:
        goal = f"Answer the question: {state['question']}"
    notes = await collapse(
        engine,
        relevant,
        goal,
        budget=settings.reduce_token_budget,
        max_rounds=settings.collapse_max_rounds,
        meter=meter,
    )
    truncated = any(f.truncated for f in notes)
    if summarizing:
        words = state.get("summary_words") or settings.summary_words
        return await engine.summarize(notes, state.get("instructions", ""), words, meter), truncated
    return await engine.answer(notes, state["question"], meter), truncated


def _nothing_found(state: State, coverage: Coverage) -> str:
    """The fixed reply when no finding is relevant, in the question's language.

    With failed chunks it says only what the read ones lack: "not found" would be a
    claim about text nobody read (e.g. 33 chunks, 2 failed: "... (31 of 33) ...").
    """
    summarizing = state.get("task") == "summarize"
    language = detect_language(state["question"])
    if not coverage.failed:
        return prompts.EMPTY_SUMMARY if summarizing else prompts.NOT_FOUND[language]
    template = prompts.EMPTY_SUMMARY_IN_READ if summarizing else prompts.NOT_FOUND_IN_READ[language]
    return template.format(read=coverage.read, chunks=coverage.chunks, failed=len(coverage.failed))
