"""Running a Job through pipeline.service: whole, or as progress events, under the time limit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.language_models import BaseChatModel

from api.errors import RequestTimeoutError
from api.inputs import Job
from api.models import AskResponse, SummarizeResponse, Timings
from pipeline.config import Settings
from pipeline.schemas import AskResult, SummaryResult
from pipeline.service import (
    aask,
    ask_input,
    asummarize,
    stream_events,
    summarize_input,
    summary_result,
)


async def run_job(job: Job, model: BaseChatModel | None) -> AskResponse | SummarizeResponse:
    """The job's result with timings; RequestTimeoutError past `request_timeout_s`."""
    run_started = time.perf_counter()
    async with request_deadline(job.settings):
        if job.task == "ask":
            result: AskResult | SummaryResult = await aask(
                job.documents,
                job.question,
                model=model,
                settings=job.settings,
                include_documents=job.include_documents,
            )
        else:
            result = await asummarize(
                job.documents,
                model=model,
                settings=job.settings,
                instructions=job.instructions,
                words=job.words,
                include_documents=job.include_documents,
            )
    return respond(job, result, run_started)


async def job_events(job: Job, model: BaseChatModel | None) -> AsyncGenerator[dict[str, Any]]:
    """The job's progress events, then a `result` event carrying the full response JSON."""
    run_started = time.perf_counter()
    if job.task == "ask":
        state = ask_input(job.documents, job.question, job.settings)
    else:
        state = summarize_input(job.documents, job.settings, job.instructions, job.words)
    async with request_deadline(job.settings):
        async for event in stream_events(
            state, model=model, settings=job.settings, include_documents=job.include_documents
        ):
            if event.get("event") != "result":
                yield event
                continue
            output = event["output"]
            result = (
                AskResult.model_validate(output) if job.task == "ask" else summary_result(output)
            )
            yield {"event": "result", **respond(job, result, run_started).model_dump()}


def respond(
    job: Job, result: AskResult | SummaryResult, run_started: float
) -> AskResponse | SummarizeResponse:
    now = time.perf_counter()
    timings = Timings(
        load_ms=round(job.load_ms, 2),
        run_ms=round((now - run_started) * 1000, 2),
        total_ms=round((now - job.started) * 1000, 2),
    )
    if isinstance(result, AskResult):
        return AskResponse(**result.model_dump(), timings=timings)
    return SummarizeResponse(**result.model_dump(), timings=timings)


@asynccontextmanager
async def request_deadline(settings: Settings, what: str = "the request") -> AsyncIterator[None]:
    """Running past `request_timeout_s` ends as RequestTimeoutError (HTTP 504)."""
    try:
        async with asyncio.timeout(settings.request_timeout_s):
            yield
    except TimeoutError:
        raise RequestTimeoutError(
            f"{what} took longer than {settings.request_timeout_s:g} s"
        ) from None
