"""ask() and summarize(): the one implementation the library, the CLI and the API all call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

from langchain_core.language_models import BaseChatModel

from pipeline.config import Settings
from pipeline.documents import Documents, load_documents
from pipeline.graph import abuild_graph
from pipeline.schemas import AskResult, DocumentText, SummaryResult
from pipeline.state import OutputState, SourceDocument

OUTPUT_KEYS = frozenset(OutputState.__annotations__)


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


def document_texts(documents: list[SourceDocument]) -> list[dict[str, Any]]:
    """Loaded documents as `DocumentText` dicts, for results asked with include_documents."""
    return [
        DocumentText(
            id=doc["id"], text=doc["text"], page_starts=doc.get("page_starts", [])
        ).model_dump()
        for doc in documents
    ]


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
    settings = settings or Settings()
    graph = await abuild_graph(model, settings)
    # Loading waits on a PDF's child process or parses HTML: off the loop too.
    state = await asyncio.to_thread(ask_input, documents, question, settings)
    output = await graph.ainvoke(state)
    if include_documents:
        output = {**output, "documents": document_texts(state["documents"])}
    return AskResult.model_validate(output)


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
    settings = settings or Settings()
    graph = await abuild_graph(model, settings)
    state = await asyncio.to_thread(summarize_input, documents, settings, instructions, words)
    output = await graph.ainvoke(state)
    if include_documents:
        output = {**output, "documents": document_texts(state["documents"])}
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


async def stream_events(
    state: dict[str, Any],
    *,
    model: BaseChatModel | None,
    settings: Settings,
    include_documents: bool = False,
) -> AsyncIterator[dict[str, Any]]:
    """Progress events (`{"event": ...}`) as they happen, then one `{"event": "result", ...}`.

    The result's `output` holds `documents` (see `document_texts`) when include_documents.
    """
    graph = await abuild_graph(model, settings)
    output: dict[str, Any] = {}
    async for mode, chunk in graph.astream(state, stream_mode=["custom", "values"]):
        if mode == "custom":
            yield cast(dict[str, Any], chunk)
        else:
            output = cast(dict[str, Any], chunk)
    # The values stream is the whole state (chunks, findings, input documents): keep only
    # what a run returns, as `ainvoke` would.
    output = {key: value for key, value in output.items() if key in OUTPUT_KEYS}
    if include_documents:
        output["documents"] = document_texts(state["documents"])
    yield {"event": "result", "output": output}
