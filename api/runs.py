"""Running a Job through its service stream: whole, or as progress events, under the time limit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.language_models import BaseChatModel

from api.bodies import AskResponse, SummarizeResponse, Timings
from api.inputs import Job
from api.tasks import Result
from pipeline.config import Settings
from pipeline.errors import RequestTimeoutError
from pipeline.service import ProgressEvent


async def run_job(job: Job, model: BaseChatModel | None) -> AskResponse | SummarizeResponse:
    """The job's result with timings; RequestTimeoutError past `request_timeout_s`."""
    run_started = time.perf_counter()
    result: Result | None = None
    async with request_deadline(job.settings):
        async for item in _stream(job, model):
            if not isinstance(item, dict):
                result = item
    assert result is not None
    return respond(job, result, run_started)


async def job_events(job: Job, model: BaseChatModel | None) -> AsyncGenerator[dict[str, Any]]:
    """The job's progress events, then a `result` event carrying the full response JSON."""
    run_started = time.perf_counter()
    async with request_deadline(job.settings):
        async for item in _stream(job, model):
            if isinstance(item, dict):
                yield item
            else:
                yield {"event": "result", **respond(job, item, run_started).model_dump()}


def _stream(job: Job, model: BaseChatModel | None) -> AsyncIterator[ProgressEvent | Result]:
    return job.task.stream(
        job.documents,
        model=model,
        settings=job.settings,
        include_documents=job.include_documents,
        **job.params,
    )


def respond(job: Job, result: Result, run_started: float) -> AskResponse | SummarizeResponse:
    now = time.perf_counter()
    timings = Timings(
        load_ms=round(job.load_ms, 2),
        run_ms=round((now - run_started) * 1000, 2),
        total_ms=round((now - job.started) * 1000, 2),
    )
    return job.task.response(**result.model_dump(), timings=timings)


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
