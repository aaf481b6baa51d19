"""Running a Job through its service stream: whole, or as progress events, under the time limit.

The documents are loaded first, inside the same deadline: a page that takes long to parse
ends with 504 like a slow model, and a cancelled load stops parsing (aload_documents).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.language_models import BaseChatModel

from api.bodies import AskResponse, SummarizeResponse, Timings
from api.errors import public_result
from api.inputs import Job
from api.tasks import Result
from pipeline.config import Settings
from pipeline.documents import aload_documents
from pipeline.errors import RequestTimeoutError
from pipeline.service import ProgressEvent
from pipeline.types import DocumentText


async def run_job(job: Job, model: BaseChatModel | None) -> AskResponse | SummarizeResponse:
    """The job's result with timings; RequestTimeoutError past `request_timeout_s`."""
    result: Result | None = None
    async with request_deadline(job.settings):
        documents = await _load(job)
        run_started = time.perf_counter()
        async for item in _stream(job, documents, model):
            if not isinstance(item, dict):
                result = item
    assert result is not None
    return respond(job, result, run_started)


async def job_events(job: Job, model: BaseChatModel | None) -> AsyncGenerator[dict[str, Any]]:
    """The job's progress events, then a `result` event carrying the full response JSON."""
    async with request_deadline(job.settings):
        documents = await _load(job)
        run_started = time.perf_counter()
        async for item in _stream(job, documents, model):
            if isinstance(item, dict):
                yield item
            else:
                yield {"event": "result", **respond(job, item, run_started).model_dump()}


async def _load(job: Job) -> list[DocumentText]:
    """The job's documents, parsed and checked; `job.load_ms` says how long it took."""
    started = time.perf_counter()
    documents = await aload_documents(job.documents, job.settings)
    job.load_ms = (time.perf_counter() - started) * 1000
    return documents


def _stream(
    job: Job, documents: list[DocumentText], model: BaseChatModel | None
) -> AsyncIterator[ProgressEvent | Result]:
    return job.task.stream(
        documents,
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
    return job.task.response(**public_result(result.model_dump()), timings=timings)


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
