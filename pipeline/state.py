"""Graph state: what callers send in, what they get back, and what nodes pass between them."""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from pipeline.schemas import CallUsage, Finding, Mode, Task

RESET: Any = {"__reset__": True}
"""Put first in an update of an accumulating channel to clear what earlier runs left."""


def add_or_reset(left: list[Any], right: list[Any]) -> list[Any]:
    """`operator.add` for lists, except an update starting with RESET replaces the list.

    A persistent thread keeps channel values across runs, so a plain `operator.add`
    would mix run 1's findings into run 2; the first node of every run sends RESET.
    """
    if right and right[0] is RESET:
        return list(right[1:])
    return left + right


class SourceDocument(TypedDict):
    """One input document; `page_starts[i]` is the offset where page i+1 begins (PDFs)."""

    id: str
    text: str
    page_starts: NotRequired[list[int]]


class Chunk(TypedDict):
    """A slice of one document: `text == document.text[start:end]`."""

    id: int
    document: str
    start: int
    end: int
    text: str


class ChunkTask(TypedDict):
    """The `Send` payload for one map_chunk run: small on purpose, never the whole state.

    `total` is the run's chunk count and `run` a token for progress counting; `hints`
    holds small engine data computed once per run (e.g. corpus term statistics).
    """

    chunk: Chunk
    question: str
    task: Task
    instructions: str
    total: int
    run: str
    hints: dict[str, Any]


class InputState(TypedDict, total=False):
    """What a caller (or a parent graph) passes in; only `question` is required."""

    question: str
    documents: list[SourceDocument]
    messages: Annotated[list[AnyMessage], add_messages]
    task: Task
    instructions: str
    summary_words: int


class OutputState(TypedDict, total=False):
    """What a run returns, as plain JSON-ready values (shapes of pipeline.schemas).

    `messages` is the thread's full history (add_messages appends, never drops);
    `summary` the running summary written by compress; `compressed` whether this
    turn folded history.
    """

    answer: str
    mode: Mode
    citations: list[dict[str, Any]]
    coverage: dict[str, Any]
    usage: dict[str, Any]
    conflicts: list[str]
    messages: Annotated[list[AnyMessage], add_messages]
    summary: str
    compressed: bool


class State(InputState, OutputState, total=False):
    """Internal state; each field lists who writes it and how it merges."""

    chunks: list[Chunk]
    """Written by split (replaces); read by reduce to count coverage."""

    hints: dict[str, Any]
    """Written by split: the engine's small per-run data, copied into every ChunkTask."""

    run: str
    """Written by split: a fresh token per run, for counting finished chunks."""

    findings: Annotated[list[Finding], add_or_reset]
    """Appended by every map_chunk (operator.add); reset by route at the start of each run."""

    summary_covers: list[str]
    """Written by compress (replaces): ids of every message the running summary folds in."""

    usage_log: Annotated[list[CallUsage], add_or_reset]
    """One record per model call, appended by every node; reset by route each run."""
