"""Typed data that crosses node boundaries and leaves the pipeline: findings, answers, results."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Mode = Literal["chat", "document"]
Task = Literal["ask", "summarize", "remember"]
"""ask a question, summarize documents, or remember a chat transcript (memory folding)."""


class Route(BaseModel):
    """The router's decision: answer directly or read the attached documents."""

    mode: Mode = Field(description="'document' to read the attached documents, else 'chat'.")
    reason: str = Field("", description="One short sentence on why.")


class Evidence(BaseModel):
    """A verbatim span of a source document; offsets are computed by code, never by a model."""

    document: str = Field(description="Id of the document the span comes from.")
    chunk: int = Field(0, description="Id of the chunk the span was found in.")
    start: int = Field(ge=0, description="Start character offset in the document text.")
    end: int = Field(ge=0, description="End character offset (exclusive).")
    quote: str = Field(description="Exactly document_text[start:end].")
    score: float = Field(0.0, description="How strongly the engine ranked this span.")


class Finding(BaseModel):
    """What one chunk (or one collapsed group of chunks) says about the question."""

    model_config = ConfigDict(frozen=True)

    chunk: int = Field(description="Id of the chunk read (the first chunk for a collapsed group).")
    chunks: list[int] = Field(default_factory=list, description="All chunk ids this covers.")
    relevance: int = Field(0, ge=0, le=10, description="0 = unrelated, 10 = answers it fully.")
    answer: str = Field("", description="What the chunk says, or 'no information'.")
    evidence: list[Evidence] = Field(default_factory=list, description="Supporting quotes.")
    rationale: str = Field("", description="Why this is (or is not) relevant.")
    confidence: int = Field(0, ge=0, le=5, description="How sure the reader is, 0-5.")
    error: str | None = Field(None, description="Set when the chunk could not be read.")
    truncated: bool = Field(False, description="True when cut to fit the reduce budget.")

    @property
    def failed(self) -> bool:
        return self.error is not None


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
    failed: list[FailedChunk] = Field(default_factory=list)
    truncated: bool = Field(
        False, description="True when findings were cut to fit the reduce budget."
    )


class CallUsage(BaseModel):
    """Tokens of one model call, tagged with the node that made it."""

    node: str
    input_tokens: int = 0
    output_tokens: int = 0


class NodeUsage(BaseModel):
    """Summed usage of one node's model calls."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class Usage(BaseModel):
    """Summed usage of every model call in a run, in total and per node."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    by_node: dict[str, NodeUsage] = Field(default_factory=dict)

    @classmethod
    def total(cls, records: list[CallUsage]) -> Usage:
        usage = cls()
        for record in records:
            node = usage.by_node.setdefault(record.node, NodeUsage())
            for bucket in (usage, node):
                bucket.calls += 1
                bucket.input_tokens += record.input_tokens
                bucket.output_tokens += record.output_tokens
        return usage


class DocumentText(BaseModel):
    """A document as the pipeline read it: every citation's offsets index into `text`."""

    id: str
    text: str = Field(description="The loaded text (a PDF's pages joined, an HTML page's text).")
    page_starts: list[int] = Field(
        default_factory=list, description="Offset where each page begins (PDFs); else empty."
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
    documents: list[DocumentText] | None = _documents_field()


class SummaryResult(BaseModel):
    """A summary of documents; each cited span is a real span of the source."""

    summary: str
    citations: list[Citation] = Field(default_factory=list)
    coverage: Coverage = Field(default_factory=Coverage)
    usage: Usage = Field(default_factory=Usage)
    documents: list[DocumentText] | None = _documents_field()


class Draft(BaseModel):
    """An engine's final text and the evidence it rests on, before code builds citations."""

    text: str
    evidence: list[Evidence] = Field(default_factory=list)
    conflicts: list[str] = Field(default_factory=list)


# ---- What a chat model is asked to return (structured output) ----


class ChunkReading(BaseModel):
    """A model's reading of one chunk; code turns `quotes` into located Evidence."""

    relevance: int = Field(
        ge=0, le=10, description="0 = unrelated to the question, 10 = answers it."
    )
    answer: str = Field(
        description="What this excerpt says about the question, or 'no information'."
    )
    quotes: list[str] = Field(
        default_factory=list, description="Short verbatim quotes copied exactly from the excerpt."
    )
    rationale: str = Field("", description="One sentence on why.")
    confidence: int = Field(0, ge=0, le=5, description="How sure you are, 0-5.")


class DraftAnswer(BaseModel):
    """A model's final answer; it cites finding numbers, code resolves them to spans."""

    answer: str = Field(description="The answer, in the language of the question.")
    cited: list[int] = Field(default_factory=list, description="Numbers of the notes relied on.")
    conflicts: list[str] = Field(
        default_factory=list, description="Disagreements between notes and how they were settled."
    )


# ---- Chat threads ----


class ThreadMessage(BaseModel):
    """One message of a chat thread."""

    id: str
    role: Literal["user", "assistant", "system", "tool"]
    content: str


class ChatResult(BaseModel):
    """One chat turn's reply; `compressed` says whether this turn folded older history."""

    thread_id: str
    reply: str
    mode: Mode
    citations: list[Citation] = Field(default_factory=list)
    coverage: Coverage = Field(default_factory=Coverage)
    usage: Usage = Field(default_factory=Usage)
    compressed: bool = False


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
