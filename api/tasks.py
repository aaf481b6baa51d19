"""What differs between /v1/ask and /v1/summarize, in one table; the rest of the API is shared."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from api.models import (
    AskForm,
    AskRequest,
    AskResponse,
    SummarizeForm,
    SummarizeRequest,
    SummarizeResponse,
    TaskRequest,
)
from pipeline.schemas import AskResult, SummaryResult
from pipeline.service import aask, ask_input, asummarize, summarize_input, summary_result

Result = AskResult | SummaryResult


@dataclass(frozen=True)
class Task:
    """One document task: its own request fields, its bodies, and how pipeline.service runs it.

    `fields` are named as both the request bodies and pipeline.service's arguments name
    them, so a Job passes them on by keyword: `run(documents, ..., question=...)`.
    """

    fields: tuple[str, ...]
    request: type[TaskRequest]
    form: type[BaseModel]
    response: type[AskResponse] | type[SummarizeResponse]
    run: Callable[..., Awaitable[Result]]
    """The whole run, for a JSON response."""
    graph_input: Callable[..., dict[str, Any]]
    """The graph's input state, for a run streamed as events."""
    result: Callable[[dict[str, Any]], Result]
    """A streamed run's graph output as the task's result."""


ASK = Task(
    fields=("question",),
    request=AskRequest,
    form=AskForm,
    response=AskResponse,
    run=aask,
    graph_input=ask_input,
    result=AskResult.model_validate,
)

SUMMARIZE = Task(
    fields=("instructions", "words"),
    request=SummarizeRequest,
    form=SummarizeForm,
    response=SummarizeResponse,
    run=asummarize,
    graph_input=summarize_input,
    result=summary_result,
)
