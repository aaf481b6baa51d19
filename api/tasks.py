"""What differs between /v1/ask and /v1/summarize, in one table; the rest of the API is shared."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from pydantic import BaseModel

from api.bodies import (
    AskForm,
    AskRequest,
    AskResponse,
    SummarizeForm,
    SummarizeRequest,
    SummarizeResponse,
    TaskRequest,
)
from pipeline.results import AskResult, SummaryResult
from pipeline.service import ProgressEvent, stream_ask, stream_summarize

Result = AskResult | SummaryResult


@dataclass(frozen=True)
class TaskEndpoint:
    """One document task: its own request fields, its bodies, and the service stream it runs.

    `fields` are named as both the request bodies and pipeline.service's arguments name
    them, so a Job passes them on by keyword: `stream(documents, ..., question=...)`.
    """

    fields: tuple[str, ...]
    request: type[TaskRequest]
    form: type[BaseModel]
    response: type[AskResponse] | type[SummarizeResponse]
    stream: Callable[..., AsyncIterator[ProgressEvent | Result]]
    """Progress events, then the result (pipeline.service.stream_ask or stream_summarize)."""


ASK = TaskEndpoint(
    fields=("question",),
    request=AskRequest,
    form=AskForm,
    response=AskResponse,
    stream=stream_ask,
)

SUMMARIZE = TaskEndpoint(
    fields=("instructions", "words"),
    request=SummarizeRequest,
    form=SummarizeForm,
    response=SummarizeResponse,
    stream=stream_summarize,
)
