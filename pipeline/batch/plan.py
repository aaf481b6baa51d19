"""Which files a batch summarizes, and where each summary goes (paths or URLs alike)."""

from __future__ import annotations

from pipeline.batch import storage
from pipeline.batch.items import BatchItem, Format


def plan(inputs: list[str], out_dir: str, fmt: Format) -> list[BatchItem]:
    """Every source with its output under `out_dir`: `docs/a/x.md` given as `docs` goes to
    `OUT/a/x.md.md`, so two `x.md` in different folders never collide."""
    items = []
    for source, root in storage.discover(inputs):
        relative = storage.relative(source, root)
        items.append(BatchItem(source, storage.join(out_dir, f"{relative}.{fmt}")))
    return items
