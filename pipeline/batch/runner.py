"""Batch summaries: many files in, one summary file each, resumable and never half-written."""

from __future__ import annotations

import asyncio
import dataclasses

from langchain_core.language_models import BaseChatModel

from pipeline.batch import storage
from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome
from pipeline.batch.one_file import EventSink, summarize_file
from pipeline.batch.outputs import Manifest, earlier_names, fingerprint, is_current
from pipeline.config import Settings


def preview(
    items: list[BatchItem], out_dir: str, settings: Settings, options: BatchOptions
) -> list[tuple[BatchItem, bool, str | None]]:
    """Each item, whether its output is already current, and the earlier name a run would
    move it from (what a dry run shows)."""
    earlier = earlier_names(items, out_dir, options.fmt)
    result = []
    for item in items:
        existing = earlier.get(item, item.output)
        try:
            raw = storage.read_bytes(item.source)
            current = is_current(existing, fingerprint(raw, settings, options))
        except OSError:
            current = False
        result.append((item, current and not options.force, earlier.get(item)))
    return result


async def run_batch(
    items: list[BatchItem],
    out_dir: str,
    options: BatchOptions,
    *,
    settings: Settings,
    model: BaseChatModel | None = None,
    on_event: EventSink | None = None,
) -> list[FileOutcome]:
    """Summarize every item; failures don't stop it. Outcomes come back in item order.

    `options.executor` says where: "local" runs `options.concurrency` files at a time in
    this process, "ray" spreads them over a Ray cluster (pipeline/batch/ray_executor.py).
    Either way summaries found under an earlier name are moved first, each output is
    written whole with its stamp, current outputs are skipped and every file gets a
    manifest line.
    """
    storage.remove_stale_temps(out_dir)
    manifest = Manifest(out_dir)
    items = _move_earlier_outputs(items, out_dir, options)
    emit = on_event or (lambda event: None)
    try:
        if options.executor == "ray":
            from pipeline.batch.ray_executor import run_on_ray

            return await run_on_ray(items, options, settings, model, manifest, emit)
        slots = asyncio.Semaphore(options.concurrency)

        async def one(item: BatchItem) -> FileOutcome:
            async with slots:
                outcome, stamp = await summarize_file(item, options, settings, model, emit)
                manifest.record(outcome, stamp)
                emit({"event": "file_done", "source": item.source, "outcome": outcome})
                return outcome

        return list(await asyncio.gather(*(one(item) for item in items)))
    finally:
        manifest.close()


def _move_earlier_outputs(
    items: list[BatchItem], out_dir: str, options: BatchOptions
) -> list[BatchItem]:
    """Move each summary found under an earlier name to its item's output; the items, each
    knowing what it was moved from (for its outcome and manifest line, on any executor).

    Moved one by one in the driver before any file runs, so no move races a summary being
    written.
    """
    renamed = earlier_names(items, out_dir, options.fmt)
    for item, earlier in renamed.items():
        storage.move(earlier, item.output)
    return [
        dataclasses.replace(item, renamed_from=renamed[item]) if item in renamed else item
        for item in items
    ]
