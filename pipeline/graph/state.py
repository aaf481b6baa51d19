"""Graph state: what callers send in, what they get back, and what nodes pass between them."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from pipeline.types import CallUsage, Chunk, DocumentText, Finding, LimitUsage, Mode, Task


class InputState(TypedDict, total=False):
    """What a caller (or a parent graph) passes in; only `question` is required.

    `documents` may be plain `{"id", "text"}` dicts; route validates them into DocumentTexts.
    """

    question: str
    documents: list[DocumentText | dict[str, Any]]
    messages: Annotated[list[AnyMessage], add_messages]
    task: Task
    instructions: str
    summary_words: int


class OutputState(TypedDict, total=False):
    """What a run returns, as plain JSON-ready values (shapes of pipeline.results).

    `messages` is the thread's full history (add_messages appends, never drops);
    `summary` the running summary written by compress; `compressed` whether this
    turn folded history; `recalled` the ids of the earlier messages recalled into it.
    """

    answer: str
    mode: Mode
    citations: list[dict[str, Any]]
    coverage: dict[str, Any]
    usage: dict[str, Any]
    conflicts: list[str]
    missing_terms: list[str]
    messages: Annotated[list[AnyMessage], add_messages]
    summary: str
    compressed: bool
    recalled: list[str]


class State(InputState, OutputState, total=False):
    """Internal state; each field lists who writes it and how it merges.

    A persistent thread keeps channel values across runs, so the accumulating channels
    (`findings`, `usage_log`) are replaced with LangGraph's `Overwrite` by route, the
    first node of every run; within a run they are plain `operator.add`.
    """

    chunks: list[Chunk]
    """Written by split (replaces); read by reduce to count coverage."""

    hints: dict[str, Any]
    """Written by split: the engine's small per-run data, copied into every ChunkTask."""

    run: str
    """Written by split: a fresh token per run, for counting finished chunks."""

    findings: Annotated[list[Finding], operator.add]
    """Appended by every map_chunk; overwritten with [] by route at the start of each run."""

    summary_covers: list[str]
    """Written by fold (replaces): ids of every message the running summary folds in."""

    folding: list[str]
    """Written by compress (replaces): ids of the messages this turn folds; read by fold."""

    recall_hits: list[dict[str, Any]]
    """Written by recall (replaces): the recalled entries (RecalledMessage dicts), for chat."""

    usage_log: Annotated[list[CallUsage | LimitUsage], operator.add]
    """Per model call, its tokens and its rate-limit record, appended by every node;
    overwritten by route each run."""


def documents_of(state: State) -> list[DocumentText]:
    """The run's documents, validated by route (the only node that sees raw ones)."""
    documents: list[Any] = state.get("documents") or []
    return documents
