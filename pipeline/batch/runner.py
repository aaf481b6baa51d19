"""Batch summaries: many files in, one summary file each, resumable and never half-written."""

from __future__ import annotations

import asyncio

from langchain_core.language_models import BaseChatModel

from pipeline.batch import storage
from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome
from pipeline.batch.one_file import EventSink, summarize_file
from pipeline.batch.outputs import Manifest, fingerprint, is_current
from pipeline.config import Settings


def preview(
    items: list[BatchItem], settings: Settings, options: BatchOptions
) -> list[tuple[BatchItem, bool]]:
    """Each item with whether its output is already current (what a dry run shows)."""
    result = []
    for item in items:
        try:
            raw = storage.read_bytes(item.source)
            current = is_current(item.output, fingerprint(raw, settings, options))
        except OSError:
            current = False
        result.append((item, current and not options.force))
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
    Either way each output is written whole with its stamp, current outputs are skipped
    and every file gets a manifest line.
    """
    storage.remove_stale_temps(out_dir)
    manifest = Manifest(out_dir)
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
