"""Request and response bodies of the HTTP API, as documented in its OpenAPI schema."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator

from pipeline.results import AskResult, SummaryResult
from pipeline.types import DocumentIn


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


# Fields that appear in more than one body, each declared once. A model that uses one
# adds its default, and its own description or limit where its wording differs.
DocumentList = Annotated[list[DocumentIn] | None, Field(min_length=1, max_length=1000)]
OneDocument = Annotated[str | None, Field(description="One document's text; instead of documents.")]
Instructions = Annotated[
    str | None, Field(max_length=4000, description="What the summary should focus on.")
]
Words = Annotated[int | None, Field(ge=20, le=5000, description="Target length in words.")]
Message = Annotated[str, Field(description="The user's message.")]
UploadedFiles = Annotated[
    list[bytes],
    Field(
        json_schema_extra={"items": {"type": "string", "format": "binary"}},
        description=(
            "Document files: text, Markdown, HTML, PDF, Word (.docx), EPUB, man pages in roff "
            "source or Perl POD (type told from content)."
        ),
    ),
]
# Multipart fields are text: options arrive as a JSON string, include_documents as "true".
FormOptions = Annotated[str | None, Field(description="Options as a JSON object (see Options).")]
FormIncludeDocuments = Annotated[bool, Field(description="`true` adds the loaded texts.")]


def _document_dicts(
    documents: list[DocumentIn] | None, document: str | None
) -> list[dict[str, Any]] | None:
    """The documents as pipeline.service takes them; None when neither field was sent."""
    if document is not None:
        return [{"text": document}]
    if documents is None:
        return None
    return [doc.model_dump(exclude_none=True) for doc in documents]


class TaskRequest(BaseModel):
    """The JSON body /v1/ask and /v1/summarize share: documents, options, include_documents."""

    model_config = ConfigDict(extra="forbid")

    documents: DocumentList = Field(None, description="Documents to read.")
    document: OneDocument = None
    options: Options | None = None
    include_documents: StrictBool = Field(
        False,
        description="Add the loaded document texts (`documents`: id, text, page_starts) to "
        "the result, so a client can show each citation in the text its offsets index into.",
    )

    @model_validator(mode="after")
    def _one_source(self) -> TaskRequest:
        if (self.documents is None) == (self.document is None):
            raise ValueError("send exactly one of 'documents' and 'document'")
        return self

    def document_list(self) -> list[dict[str, Any]]:
        return _document_dicts(self.documents, self.document) or []


class AskRequest(TaskRequest):
    """A question over one or more documents sent as JSON."""

    question: str = Field(description="The question to answer from the documents.")


class SummarizeRequest(TaskRequest):
    """Documents to summarize, sent as JSON."""

    instructions: Instructions = None
    words: Words = None


# The multipart bodies are documentation only: api/inputs.py reads the form field by field.
class AskForm(BaseModel):
    """`multipart/form-data` for /v1/ask: one or more `file` parts and a `question`."""

    question: str = Field(description="The question to answer.")
    file: UploadedFiles
    options: FormOptions = None
    include_documents: FormIncludeDocuments = False


class SummarizeForm(BaseModel):
    """`multipart/form-data` for /v1/summarize: one or more `file` parts."""

    file: UploadedFiles
    instructions: Instructions = None
    words: Words = None
    options: FormOptions = None
    include_documents: FormIncludeDocuments = False


class MessageRequest(BaseModel):
    """One chat turn, optionally with documents the router may decide to read."""

    model_config = ConfigDict(extra="forbid")

    message: Message
    documents: DocumentList = Field(None, description="Documents to attach to this turn.")
    document: OneDocument = None

    @model_validator(mode="after")
    def _one_source(self) -> MessageRequest:
        if self.documents is not None and self.document is not None:
            raise ValueError("send at most one of 'documents' and 'document'")
        return self

    def document_list(self) -> list[dict[str, Any]] | None:
        return _document_dicts(self.documents, self.document)


class MessageForm(BaseModel):
    """`multipart/form-data` for a chat turn: a `message` and optional `file` parts."""

    message: Message
    file: UploadedFiles = Field(
        default_factory=list, description="Documents to attach (the types /v1/ask reads)."
    )


class HistoryMessage(BaseModel):
    """One earlier message of a conversation, imported with no reply."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant"]
    content: str = Field(min_length=1, description="The message's text.")
    name: str | None = Field(None, min_length=1, max_length=200, description="Who said it.")
    created_at: str | None = Field(
        None, description="When it was said, ISO-8601 (e.g. 2024-05-01T09:30:00Z)."
    )


class HistoryRequest(BaseModel):
    """Earlier messages to append to a thread, oldest first; all are imported or none."""

    model_config = ConfigDict(extra="forbid")

    messages: list[HistoryMessage] = Field(min_length=1)

    def message_dicts(self) -> list[dict[str, Any]]:
        return [m.model_dump(exclude_none=True) for m in self.messages]


def request_body(json_model: type[BaseModel], form_model: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI for a route that reads its body itself: JSON or multipart, by content type."""
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": _schema_ref(json_model)},
                "multipart/form-data": {"schema": _schema_ref(form_model)},
            },
        }
    }


def _schema_ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


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
