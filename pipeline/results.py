"""What leaves the library: answers, summaries and chat turns with citations, coverage, usage.

RecalledMessage (a recall hit) is defined in pipeline/types.py, where engines read it too.

Inputs and what nodes pass each other are in pipeline/types.py.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field

from pipeline.types import CallUsage, DocumentText, LimitUsage, Mode
from pipeline.types import RecalledMessage as RecalledMessage


class Citation(BaseModel):
    """A checkable pointer into a source: `text[start:end] == quote` always holds."""

    document: str
    chunk: int
    start: int
    end: int
    quote: str
    page: int | None = None


class FailedChunk(BaseModel):
    """A chunk that could not be read after retries."""

    chunk: int
    error: str


class Coverage(BaseModel):
    """How much of the input the answer rests on."""

    chunks: int = 0
    read: int = 0
    relevant: int = 0
    skimmed: int = Field(
        0,
        description="Chunks of the read ones skimmed past: a long document is read closely "
        "only where the question's terms gather (the built-in engine's skim_above_mb).",
    )
    failed: list[FailedChunk] = Field(default_factory=list)
    truncated: bool = Field(
        False, description="True when findings were cut to fit the reduce budget."
    )


class NodeUsage(BaseModel):
    """Summed usage of one node's model calls."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_reads: int = Field(0, description="Chunk readings served from the chunk cache.")
    cached_tokens: int = Field(0, description="Tokens those readings cost when first made.")

    def add(self, record: CallUsage) -> None:
        if record.cached:
            self.cached_reads += 1
            self.cached_tokens += record.input_tokens + record.output_tokens
        else:
            self.calls += 1
            self.input_tokens += record.input_tokens
            self.output_tokens += record.output_tokens


class ModelUsage(BaseModel):
    """How one model's calls in a run fared against its endpoint's rate limits."""

    calls: int = 0
    limit: int = Field(0, description="The endpoint's concurrency limit when the last call ended.")
    rate_limited: int = Field(0, description="Attempts the server refused for load (429, 503).")
    waits: int = Field(
        0, description="Times a call waited for a slot, a pause, a budget or a retry."
    )
    waited_s: float = Field(0.0, description="Seconds calls spent waiting, summed.")


class Usage(NodeUsage):
    """Summed usage of every model call in a run, in total, per node and per model.

    Readings served from the chunk cache count in `cached_reads` (and the tokens they
    saved in `cached_tokens`), never in `calls`: no model was asked.
    """

    by_node: dict[str, NodeUsage] = Field(default_factory=dict)
    by_model: dict[str, ModelUsage] = Field(default_factory=dict)

    @classmethod
    def total(cls, records: list[CallUsage | LimitUsage]) -> Usage:
        usage = cls()
        for record in records:
            if isinstance(record, LimitUsage):
                model = usage.by_model.setdefault(record.model, ModelUsage())
                model.calls += 1
                model.limit = record.limit
                model.rate_limited += record.rate_limited
                model.waits += record.waits
                model.waited_s = round(model.waited_s + record.waited_s, 3)
                continue
            usage.add(record)
            usage.by_node.setdefault(record.node, NodeUsage()).add(record)
        return usage


INCOMPLETE = (
    "True when some chunks could not be read (coverage.failed): this rests on the rest of "
    "the documents, and what it lacks may be in the unread part."
)


def _documents_field() -> Any:
    """Absent from the JSON unless asked for (include_documents): texts can be megabytes."""
    return Field(
        None,
        exclude_if=lambda value: value is None,
        description="The loaded documents, only when asked for (include_documents).",
    )


class AskResult(BaseModel):
    """The answer to a question over documents, with citations that slice back exactly."""

    answer: str
    mode: Mode
    citations: list[Citation] = Field(default_factory=list)
    coverage: Coverage = Field(default_factory=Coverage)
    usage: Usage = Field(default_factory=Usage)
    conflicts: list[str] = Field(
        default_factory=list, description="Disagreements between chunks and how they were settled."
    )
    missing_terms: list[str] = Field(
        default_factory=list,
        description="Words of the question that name what it asks about (a name, number, code "
        "or quoted phrase) but that the answer's evidence does not contain, e.g. a name the "
        "documents only spell differently. Non-empty: the answer may be about something "
        "else; show it as a caution.",
    )
    documents: list[DocumentText] | None = _documents_field()

    @computed_field(description=INCOMPLETE)  # type: ignore[prop-decorator]
    @property
    def incomplete(self) -> bool:
        return bool(self.coverage.failed)


class SummaryResult(BaseModel):
    """A summary of documents; each cited span is a real span of the source."""

    summary: str
    citations: list[Citation] = Field(default_factory=list)
    coverage: Coverage = Field(default_factory=Coverage)
    usage: Usage = Field(default_factory=Usage)
    documents: list[DocumentText] | None = _documents_field()

    @computed_field(description=INCOMPLETE)  # type: ignore[prop-decorator]
    @property
    def incomplete(self) -> bool:
        return bool(self.coverage.failed)


class ThreadMessage(BaseModel):
    """One message of a chat thread."""

    id: str
    role: Literal["user", "assistant", "system", "tool"]
    content: str
    name: str | None = Field(None, description="The speaker's name, when one was given.")
    created_at: str | None = Field(None, description="When it was written (ISO-8601), if known.")


class ChatResult(BaseModel):
    """One chat turn's reply; `compressed` says whether this turn folded older history."""

    thread_id: str
    reply: str
    mode: Mode
    citations: list[Citation] = Field(default_factory=list)
    coverage: Coverage = Field(default_factory=Coverage)
    usage: Usage = Field(default_factory=Usage)
    compressed: bool = False
    recalled: list[str] = Field(
        default_factory=list,
        description="Ids of the earlier messages (and summaries) recalled into this turn's prompt.",
    )

    @computed_field(description=INCOMPLETE)  # type: ignore[prop-decorator]
    @property
    def incomplete(self) -> bool:
        return bool(self.coverage.failed)


class ImportResult(BaseModel):
    """A history import: how many messages were added and how many the thread now holds."""

    thread_id: str
    imported: int
    messages: int


class ThreadList(BaseModel):
    """A page of thread ids in order; pass `next_after` as `after` to get the next page."""

    threads: list[str] = Field(default_factory=list)
    next_after: str | None = Field(
        None, description="The last id of a full page; None when there are no more threads."
    )


class ThreadView(BaseModel):
    """A thread as stored: the running summary, what the model sees, and every message."""

    thread_id: str
    summary: str = ""
    summary_covers: list[str] = Field(
        default_factory=list, description="Ids of the messages the summary folds in."
    )
    messages: list[ThreadMessage] = Field(
        default_factory=list, description="What the model sees: the summary, then kept messages."
    )
    history: list[ThreadMessage] = Field(
        default_factory=list, description="Every message of the thread, in order."
    )
