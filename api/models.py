"""Request and response bodies of the HTTP API, as documented in its OpenAPI schema."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pipeline.schemas import AskResult, SummaryResult


class DocumentIn(BaseModel):
    """One document sent as text."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(
        None, max_length=200, description="Name used in citations; default doc1, doc2, ..."
    )
    text: str = Field(description="The document's text (plain text or Markdown).")


class Options(BaseModel):
    """Per-request overrides of the server's settings (see the configuration table)."""

    model_config = ConfigDict(extra="forbid")

    chunk_size: int | None = Field(None, ge=50, le=200_000, description="Chunk size in tokens.")
    chunk_overlap: int | None = Field(
        None, ge=0, le=10_000, description="Tokens shared by neighbouring chunks."
    )
    min_relevance: int | None = Field(
        None, ge=0, le=10, description="Findings rated below this are dropped."
    )
    answer_sentences: int | None = Field(
        None, ge=1, le=10, description="Sentences the built-in engine puts in an answer."
    )


class _DocumentsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    documents: list[DocumentIn] | None = Field(
        None, min_length=1, max_length=1000, description="Documents to read."
    )
    document: str | None = Field(None, description="One document's text; instead of documents.")
    options: Options | None = None
    include_documents: bool = Field(
        False,
        description="Add the loaded document texts (`documents`: id, text, page_starts) to "
        "the result, so a client can show each citation in the text its offsets index into.",
    )

    @model_validator(mode="after")
    def _one_source(self) -> _DocumentsIn:
        if (self.documents is None) == (self.document is None):
            raise ValueError("send exactly one of 'documents' and 'document'")
        return self

    def document_list(self) -> list[dict[str, Any]]:
        if self.document is not None:
            return [{"text": self.document}]
        return [doc.model_dump(exclude_none=True) for doc in self.documents or []]


class AskRequest(_DocumentsIn):
    """A question over one or more documents sent as JSON."""

    question: str = Field(description="The question to answer from the documents.")


class SummarizeRequest(_DocumentsIn):
    """Documents to summarize, sent as JSON."""

    instructions: str | None = Field(
        None, max_length=4000, description="What the summary should focus on."
    )
    words: int | None = Field(None, ge=20, le=5000, description="Target length in words.")


class AskForm(BaseModel):
    """`multipart/form-data` for /v1/ask: one or more `file` parts and a `question`."""

    question: str = Field(description="The question to answer.")
    file: list[bytes] = Field(
        json_schema_extra={"items": {"type": "string", "format": "binary"}},
        description="Document files: text, Markdown, HTML or PDF (type told from content).",
    )
    options: str | None = Field(None, description="Options as a JSON object (see Options).")
    include_documents: bool = Field(False, description="`true` adds the loaded texts.")


class SummarizeForm(BaseModel):
    """`multipart/form-data` for /v1/summarize: one or more `file` parts."""

    file: list[bytes] = Field(
        json_schema_extra={"items": {"type": "string", "format": "binary"}},
        description="Document files: text, Markdown, HTML or PDF (type told from content).",
    )
    instructions: str | None = Field(None, description="What the summary should focus on.")
    words: int | None = Field(None, ge=20, le=5000, description="Target length in words.")
    options: str | None = Field(None, description="Options as a JSON object (see Options).")
    include_documents: bool = Field(False, description="`true` adds the loaded texts.")


class MessageRequest(BaseModel):
    """One chat turn, optionally with documents the router may decide to read."""

    model_config = ConfigDict(extra="forbid")

    message: str = Field(description="The user's message.")
    documents: list[DocumentIn] | None = Field(
        None, min_length=1, max_length=1000, description="Documents to attach to this turn."
    )
    document: str | None = Field(None, description="One document's text; instead of documents.")

    @model_validator(mode="after")
    def _one_source(self) -> MessageRequest:
        if self.documents is not None and self.document is not None:
            raise ValueError("send at most one of 'documents' and 'document'")
        return self

    def document_list(self) -> list[dict[str, Any]] | None:
        if self.document is not None:
            return [{"text": self.document}]
        if self.documents is None:
            return None
        return [doc.model_dump(exclude_none=True) for doc in self.documents]


class MessageForm(BaseModel):
    """`multipart/form-data` for a chat turn: a `message` and optional `file` parts."""

    message: str = Field(description="The user's message.")
    file: list[bytes] = Field(
        default_factory=list,
        json_schema_extra={"items": {"type": "string", "format": "binary"}},
        description="Documents to attach: text, Markdown, HTML or PDF.",
    )


class Timings(BaseModel):
    """Where the request's time went, in milliseconds."""

    load_ms: float = Field(description="Reading and checking the documents (PDF/HTML parsing).")
    run_ms: float = Field(description="Running the graph: split, map, reduce.")
    total_ms: float = Field(description="The whole request as the server saw it.")


class AskResponse(AskResult):
    """The answer, its citations, coverage and token usage, plus timings."""

    timings: Timings


class SummarizeResponse(SummaryResult):
    """The summary, its citations, coverage and token usage, plus timings."""

    timings: Timings


class ErrorDetail(BaseModel):
    """What went wrong and what to do about it."""

    code: str = Field(description="Stable machine-readable code, e.g. `too_large`.")
    message: str = Field(description="What went wrong, for a person.")
    hint: str = Field(description="What to do about it.")


class ErrorResponse(BaseModel):
    """Every error response has this body."""

    error: ErrorDetail


class Health(BaseModel):
    """The service's state."""

    status: str = Field(description="`ok` when up (healthz) or ready (readyz).")
