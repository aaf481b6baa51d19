"""Batch summaries: many files in, one summary file each, resumable and never half-written."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome
from pipeline.batch.outputs import (
    Manifest,
    earlier_names,
    fingerprint,
    is_current,
    remove_stale_temps,
    render,
    write_atomically,
)
from pipeline.config import Settings
from pipeline.documents import DocumentBytes, aload_documents
from pipeline.errors import LongdocError
from pipeline.results import SummaryResult
from pipeline.service import stream_summarize

EventSink = Callable[[dict[str, Any]], None]


def preview(
    items: list[BatchItem], out_dir: Path, settings: Settings, options: BatchOptions
) -> list[tuple[BatchItem, bool, Path | None]]:
    """Each item, whether its output is already current, and the earlier name a run would
    move it from (what a dry run shows)."""
    earlier = earlier_names(items, out_dir, options.fmt)
    result = []
    for item in items:
        existing = earlier.get(item, item.output)
        try:
            current = is_current(existing, fingerprint(item.source.read_bytes(), settings, options))
        except OSError:
            current = False
        result.append((item, current and not options.force, earlier.get(item)))
    return result


async def run_batch(
    items: list[BatchItem],
    out_dir: Path,
    options: BatchOptions,
    *,
    settings: Settings,
    model: BaseChatModel | None = None,
    on_event: EventSink | None = None,
) -> list[FileOutcome]:
    """Summarize every item, `options.concurrency` files at a time; failures don't stop it."""
    remove_stale_temps(out_dir)
    manifest = Manifest(out_dir)
    # Moved one by one before any file runs, so no move races a summary being written.
    renamed = earlier_names(items, out_dir, options.fmt)
    for item, earlier in renamed.items():
        item.output.parent.mkdir(parents=True, exist_ok=True)
        os.replace(earlier, item.output)
    slots = asyncio.Semaphore(options.concurrency)
    emit = on_event or (lambda event: None)

    async def one(item: BatchItem) -> FileOutcome:
        async with slots:
            return await _summarize_one(
                item, options, settings, model, manifest, emit, renamed.get(item)
            )

    return list(await asyncio.gather(*(one(item) for item in items)))


async def _summarize_one(
    item: BatchItem,
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    manifest: Manifest,
    emit: EventSink,
    renamed_from: Path | None,
) -> FileOutcome:
    started = time.monotonic()
    stamp: dict[str, str] | None = None
    emit({"event": "file_start", "source": item.source})
    try:
        raw = item.source.read_bytes()
        stamp = fingerprint(raw, settings, options)
        if not options.force and is_current(item.output, stamp):
            outcome = FileOutcome(item.source, item.output, "skipped")
        else:
            # The bytes already read for the stamp, so each file is read once.
            # Loaded here, not by the stream, so Ctrl-C also stops a parse in progress.
            (document,) = await aload_documents(DocumentBytes(item.source.name, raw), settings)
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
            write_atomically(item.output, render(result, item, stamp, options.fmt))
            outcome = FileOutcome(item.source, item.output, "done", usage=result.usage)
    except (LongdocError, OSError) as exc:
        message = exc.message if isinstance(exc, LongdocError) else f"{type(exc).__name__}: {exc}"
        outcome = FileOutcome(item.source, item.output, "failed", error=message)
    outcome.seconds = time.monotonic() - started
    outcome.renamed_from = renamed_from
    manifest.record(outcome, stamp)
    emit({"event": "file_done", "source": item.source, "outcome": outcome})
    return outcome
