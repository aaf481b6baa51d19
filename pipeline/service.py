"""ask() and summarize(): the one implementation the library, the CLI and the API all call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

from langchain_core.language_models import BaseChatModel

from pipeline.config import Settings
from pipeline.documents import Documents, load_documents
from pipeline.graph import build_graph
from pipeline.schemas import AskResult, SummaryResult


def ask_input(documents: Documents, question: str, settings: Settings) -> dict[str, Any]:
    return {"question": question, "documents": load_documents(documents, settings)}


def summarize_input(
    documents: Documents, settings: Settings, instructions: str | None, words: int | None
) -> dict[str, Any]:
    state: dict[str, Any] = {
        "task": "summarize",
        "question": "",
        "documents": load_documents(documents, settings),
        "instructions": instructions or "",
    }
    if words is not None:
        state["summary_words"] = words
    return state


async def aask(
    documents: Documents,
    question: str,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
) -> AskResult:
    """Answer `question` from `documents`, with citations that slice back to the source."""
    settings = settings or Settings()
    graph = build_graph(model, settings)
    output = await graph.ainvoke(ask_input(documents, question, settings))
    return AskResult.model_validate(output)


def ask(
    documents: Documents,
    question: str,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
) -> AskResult:
    """Synchronous `aask`."""
    return asyncio.run(aask(documents, question, model=model, settings=settings))


async def asummarize(
    documents: Documents,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    instructions: str | None = None,
    words: int | None = None,
) -> SummaryResult:
    """Summarize `documents` in about `words` words (default `settings.summary_words`)."""
    settings = settings or Settings()
    graph = build_graph(model, settings)
    output = await graph.ainvoke(summarize_input(documents, settings, instructions, words))
    return summary_result(output)


def summary_result(output: dict[str, Any]) -> SummaryResult:
    """A summarize run's graph output as a SummaryResult (the answer is the summary)."""
    return SummaryResult.model_validate({**output, "summary": output["answer"]})


def summarize(
    documents: Documents,
    *,
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    instructions: str | None = None,
    words: int | None = None,
) -> SummaryResult:
    """Synchronous `asummarize`."""
    return asyncio.run(
        asummarize(
            documents, model=model, settings=settings, instructions=instructions, words=words
        )
    )


async def stream_events(
    state: dict[str, Any], *, model: BaseChatModel | None, settings: Settings
) -> AsyncIterator[dict[str, Any]]:
    """Progress events (`{"event": ...}`) as they happen, then one `{"event": "result", ...}`."""
    graph = build_graph(model, settings)
    output: dict[str, Any] = {}
    async for mode, chunk in graph.astream(state, stream_mode=["custom", "values"]):
        if mode == "custom":
            yield cast(dict[str, Any], chunk)
        else:
            output = cast(dict[str, Any], chunk)
    yield {"event": "result", "output": output}
