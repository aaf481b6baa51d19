"""What nodes and engines pass each other: documents, chunks, the Send payload, findings, drafts.

What leaves the library (answers, summaries, threads) is in pipeline/results.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field, model_validator

from pipeline import prompts
from pipeline.errors import InputError
from pipeline.text.clean import clean_text
from pipeline.text.messages import message_text

Mode = Literal["chat", "document"]
Task = Literal["ask", "summarize", "remember"]
"""ask a question, summarize documents, or remember a chat transcript (memory folding)."""


class DocumentIn(BaseModel):
    """One document sent as text."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(
        None, max_length=200, description="Name used in citations; default doc1, doc2, ..."
    )
    text: str = Field(description="The document's text (plain text or Markdown).")


class DocumentText(BaseModel):
    """A document as the pipeline read it: every citation's offsets index into `text`."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str = Field(description="The loaded text (a PDF's pages joined, an HTML page's text).")
    page_starts: list[int] = Field(
        default_factory=list, description="Offset where each page begins (PDFs); else empty."
    )

    @model_validator(mode="before")
    @classmethod
    def _clean(cls, data: Any) -> Any:
        """Every DocumentText is fit to read: this runs on construction, so no path skips it.

        Lone surrogates are refused and control characters removed, once per document; an
        empty text is refused. Raised as InputError, which pydantic passes through unwrapped.
        """
        if isinstance(data, dict) and isinstance(data.get("text"), str):
            where = f"document {data.get('id')!r}"
            text = clean_text(data["text"], where)
            if not text.strip():
                raise InputError(f"{where} is empty", hint="Send a document with text in it.")
            data = {**data, "text": text}
        return data


class Chunk(TypedDict):
    """A slice of one document: `text == document.text[start:end]`."""

    id: int
    document: str
    start: int
    end: int
    text: str
    page_starts: NotRequired[list[int]]
    """Where pages begin in `text` (PDFs), 0 first for the page the chunk starts in: lets
    the structure pass tell running headers and page numbers from the text."""
    section: NotRequired[list[str]]
    """The headings above the chunk's start, outermost first (for the model's prompt)."""


class ChunkTask(TypedDict):
    """The `Send` payload for one map_chunk run: small on purpose, never the whole state.

    `total` is the run's chunk count and `run` a token for progress counting; `hints`
    holds small engine data computed once per run (e.g. corpus term statistics).
    """

    chunk: Chunk
    question: str
    task: Task
    instructions: str
    words: int
    """The summary length asked for in this request; 0 when the settings' default applies."""
    total: int
    run: str
    hints: dict[str, Any]


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
    display: str = Field(
        "",
        description="How the span reads: reflowed, with what makes it whole (a row's headers, "
        "a description's term, an item's lead-in); empty means the quote itself.",
    )

    @property
    def reads(self) -> str:
        """The text to show for this span."""
        return self.display or self.quote


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
    error_code: str | None = Field(None, description="The error's code, e.g. model_timeout.")
    truncated: bool = Field(False, description="True when cut to fit the reduce budget.")
    missing_terms: list[str] = Field(
        default_factory=list,
        description="Words naming what the question asks about that the evidence lacks.",
    )
    skimmed: bool = Field(
        False,
        description="True when the chunk was skimmed past: the document is long and the "
        "question's terms gather elsewhere in it (the built-in engine's skim_above_mb).",
    )

    @property
    def failed(self) -> bool:
        return self.error is not None


class Draft(BaseModel):
    """An engine's final text and the evidence it rests on, before code builds citations."""

    text: str
    evidence: list[Evidence] = Field(default_factory=list)
    conflicts: list[str] = Field(default_factory=list)
    missing_terms: list[str] = Field(default_factory=list)
    """Decisive question words the evidence lacks (see AskResult.missing_terms)."""


class CallUsage(BaseModel):
    """Tokens of one model call, tagged with the node that made it.

    `cached` marks a chunk reading served from the chunk cache instead: no call was made,
    and the tokens are what the reading cost when it was first made.
    """

    node: str
    input_tokens: int = 0
    output_tokens: int = 0
    cached: bool = False


class LimitUsage(BaseModel):
    """How one model call (all its attempts) fared against its endpoint's rate limits."""

    model: str
    rate_limited: int = 0
    """Attempts the server refused for load (429, 503)."""
    waits: int = 0
    """Times the call waited: for a slot, a pause, a budget, or before a retry."""
    waited_s: float = 0.0
    limit: int = 0
    """The endpoint's concurrency limit when the call ended."""


class RecalledMessage(BaseModel):
    """An earlier message (or fold summary, role `summary`) recalled by relevance."""

    message_id: str
    index: int = Field(
        description="Position in the thread's history (a summary: the last message it folds in)."
    )
    role: Literal["user", "assistant", "system", "tool", "summary"]
    name: str | None = None
    content: str
    created_at: str | None = None
    score: float = Field(description="Reciprocal-rank fusion of the lexical and vector rankings.")


@dataclass(frozen=True)
class ChatPrompt:
    """A chat turn as an engine reads it, in prompt order: the running summary, earlier
    turns recalled by relevance (in history order), the kept recent messages, the message."""

    message: HumanMessage
    summary: str = ""
    recalled: Sequence[RecalledMessage] = ()
    kept: Sequence[BaseMessage] = ()

    def messages(self) -> list[BaseMessage]:
        """The prompt as chat messages; the summary and recalled turns are fenced data."""
        out: list[BaseMessage] = []
        if self.summary:
            out.append(SystemMessage(prompts.MEMORY_PREFIX + self.summary))
        if self.recalled:
            lines = [
                prompts.RECALLED_TURN.format(
                    when=turn.created_at or "undated", speaker=_speaker(turn), text=turn.content
                )
                for turn in self.recalled
            ]
            block = prompts.fence("\n".join(lines), "earlier-turns")
            out.append(SystemMessage(prompts.RECALL_PREFIX + block))
        out += [_shown(m) for m in self.kept]
        out.append(self.message)
        return out


def _speaker(turn: RecalledMessage) -> str:
    labels = {"user": prompts.USER_LABEL, "assistant": prompts.ASSISTANT_LABEL}
    if turn.role == "summary":
        return prompts.SUMMARY_LABEL
    label = labels.get(turn.role, turn.role.title())
    return f"{turn.name} ({label})" if turn.name else label


def _shown(message: BaseMessage) -> BaseMessage:
    """A kept message as the model sees it: a named speaker's gets who and when up front."""
    if not message.name:
        return message
    when = message.additional_kwargs.get("created_at") or "undated"
    text = prompts.NAMED_MESSAGE.format(speaker=message.name, when=when, text=message_text(message))
    return message.model_copy(update={"content": text, "name": None, "additional_kwargs": {}})
