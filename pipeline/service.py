"""ask and summarize: one streaming primitive per task, which the library, CLI, batch and API use.

`stream_ask` and `stream_summarize` yield progress events (`{"event": ...}` dicts, see
pipeline/progress.py) as they happen, then the typed result as their last item; `aask`,
`asummarize` and their sync forms return that result. Documents are loaded and validated
once, here, off the event loop (a PDF waits on its parser, HTML parsing is CPU work), and
cancelling the caller stops the parse as well as the run.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar, cast

from langchain_core.language_models import BaseChatModel

from pipeline.config import Settings
from pipeline.documents import Documents, aload_documents
from pipeline.graph.build import abuild_graph
from pipeline.graph.state import OutputState
from pipeline.results import AskResult, SummaryResult

OUTPUT_KEYS = frozenset(OutputState.__annotations__)
ProgressEvent = dict[str, Any]
R = TypeVar("R", AskResult, SummaryResult)


async def stream_ask(
    documents: Documents,
    question: str,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    include_documents: bool = False,
) -> AsyncIterator[ProgressEvent | AskResult]:
    """Progress events, then the AskResult: the answer to `question` from `documents`."""
    async for item in _stream(
        documents,
        {"task": "ask", "question": question},  # a named task is never routed to chat
        AskResult.model_validate,
        model=model,
        settings=settings,
        include_documents=include_documents,
    ):
        yield item


async def stream_summarize(
    documents: Documents,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    instructions: str | None = None,
    words: int | None = None,
    include_documents: bool = False,
) -> AsyncIterator[ProgressEvent | SummaryResult]:
    """Progress events, then the SummaryResult, about `words` words (default summary_words)."""
    state: dict[str, Any] = {
        "task": "summarize",
        "question": "",
        "instructions": instructions or "",
    }
    if words is not None:
        state["summary_words"] = words
    async for item in _stream(
        documents,
        state,
        summary_result,
        model=model,
        settings=settings,
        include_documents=include_documents,
    ):
        yield item


async def aask(
    documents: Documents,
    question: str,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    include_documents: bool = False,
) -> AskResult:
    """Answer `question` from `documents`, with citations that slice back to the source.

    `include_documents=True` adds the loaded texts (`result.documents`), so a caller that
    sent a PDF or HTML file can show each citation in the text its offsets index into.
    """
    stream = stream_ask(
        documents, question, model=model, settings=settings, include_documents=include_documents
    )
    return await final(stream, AskResult)


async def asummarize(
    documents: Documents,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    instructions: str | None = None,
    words: int | None = None,
    include_documents: bool = False,
) -> SummaryResult:
    """Summarize `documents` in about `words` words (default `settings.summary_words`)."""
    stream = stream_summarize(
        documents,
        model=model,
        settings=settings,
        instructions=instructions,
        words=words,
        include_documents=include_documents,
    )
    return await final(stream, SummaryResult)


def ask(
    documents: Documents,
    question: str,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    include_documents: bool = False,
) -> AskResult:
    """Synchronous `aask`."""
    return asyncio.run(
        aask(
            documents, question, model=model, settings=settings, include_documents=include_documents
        )
    )


def summarize(
    documents: Documents,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    instructions: str | None = None,
    words: int | None = None,
    include_documents: bool = False,
) -> SummaryResult:
    """Synchronous `asummarize`."""
    return asyncio.run(
        asummarize(
            documents,
            model=model,
            settings=settings,
            instructions=instructions,
            words=words,
            include_documents=include_documents,
        )
    )


async def final(stream: AsyncIterator[ProgressEvent | R], kind: type[R]) -> R:
    """The result a stream ends with, its progress events dropped."""
    async for item in stream:
        if isinstance(item, kind):
            return item
    raise RuntimeError("the run ended without a result")  # pragma: no cover


def summary_result(output: dict[str, Any]) -> SummaryResult:
    """A summarize run's graph output as a SummaryResult (the answer is the summary)."""
    return SummaryResult.model_validate({**output, "summary": output["answer"]})


async def _stream(
    documents: Documents,
    state: dict[str, Any],
    result: Callable[[dict[str, Any]], R],
    *,
    model: BaseChatModel | None,
    settings: Settings | None,
    include_documents: bool,
) -> AsyncIterator[ProgressEvent | R]:
    settings = settings or Settings()
    # The graph first: a bad model setting is reported before any document is read.
    graph = await abuild_graph(model, settings)
    loaded = await aload_documents(documents, settings)
    output: dict[str, Any] = {}
    async for mode, chunk in graph.astream(
        {**state, "documents": loaded}, stream_mode=["custom", "values"]
    ):
        if mode == "custom":
            yield cast(ProgressEvent, chunk)
        else:
            output = cast(dict[str, Any], chunk)
    # The values stream is the whole state (chunks, findings, input documents): keep only
    # what a run returns, as `ainvoke` would.
    output = {key: value for key, value in output.items() if key in OUTPUT_KEYS}
    if include_documents:
        output["documents"] = loaded
    yield result(output)
