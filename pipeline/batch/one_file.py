"""One file of a batch, alike on every executor: skipped if current, else summarized and written."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel

from pipeline.batch import storage
from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome
from pipeline.batch.outputs import fingerprint, is_current, render
from pipeline.config import Settings
from pipeline.documents import DocumentBytes, aload_documents
from pipeline.errors import LongdocError, reraise_if_cancelled
from pipeline.results import SummaryResult
from pipeline.service import stream_summarize

EventSink = Callable[[dict[str, Any]], None]
Stamp = dict[str, str]


async def summarize_file(
    item: BatchItem,
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    emit: EventSink,
) -> tuple[FileOutcome, Stamp | None]:
    """One file: skipped when its output is current, else summarized and written whole.

    Any failure of this one file (unreadable, not a document, every chunk failed, even
    an unexpected error) is its outcome, never an exception that stops the batch.
    """
    started = time.monotonic()
    stamp: Stamp | None = None
    emit({"event": "file_start", "source": item.source})
    try:
        raw = await asyncio.to_thread(storage.read_bytes, item.source)
        stamp = fingerprint(raw, settings, options)
        if not options.force and await asyncio.to_thread(is_current, item.output, stamp):
            outcome = FileOutcome(item.source, item.output, "skipped")
        else:
            # The bytes already read for the stamp, so each file is read once.
            name = storage.name(item.source)
            # Loaded here, not by the stream, so Ctrl-C also stops a parse in progress.
            (document,) = await aload_documents(DocumentBytes(name, raw), settings)
            result: SummaryResult | None = None
            async for event in stream_summarize(
                document,
                model=model,
                settings=settings,
                instructions=options.instructions,
                words=options.words,
            ):
                if isinstance(event, SummaryResult):
                    result = event
                else:
                    emit({**event, "source": item.source})
            assert result is not None
            text = render(result, item, stamp, options.fmt)
            # Not in a thread: with no await between writing the output and returning it
            # to be recorded, a cancelled run (Ctrl-C) never leaves an output unrecorded.
            storage.write_whole(item.output, text)
            outcome = FileOutcome(item.source, item.output, "done", usage=result.usage)
    except Exception as exc:  # one bad file is reported; the rest go on
        reraise_if_cancelled(exc)  # Ctrl-C stops the run; the file is no failure
        outcome = FileOutcome(item.source, item.output, "failed", error=_reason(exc))
    outcome.seconds = time.monotonic() - started
    outcome.renamed_from = item.renamed_from
    return outcome, stamp


def _reason(exc: Exception) -> str:
    if isinstance(exc, LongdocError):
        return exc.message
    return f"{type(exc).__name__}: {exc}"[:500]
