"""Which files a batch summarizes, and where each summary goes (paths or URLs alike)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import PurePosixPath

from pipeline.batch import storage
from pipeline.batch.items import BatchItem, Format, Plan
from pipeline.errors import InputError


def plan(inputs: list[str], out_dir: str, fmt: Format) -> Plan:
    """Every source with its output under `out_dir`, and the files left out.

    `docs/a/report.pdf` given as `docs` is summarized to `OUT/a/report.summary.md`, so two
    `report.pdf` in different folders never collide. Two sources of one folder that share
    a stem keep their suffixes, `report.pdf.summary.md` and `report.txt.summary.md`, so
    neither overwrites the other. A name without a type suffix stays whole: `LGPL-2.1` is
    summarized to `LGPL-2.1.summary.md`.
    """
    found, ignored = storage.discover(inputs, out_dir)
    relatives = [(source, PurePosixPath(storage.relative(source, root))) for source, root in found]
    by_stem: dict[PurePosixPath, int] = defaultdict(int)
    for _, relative in relatives:
        by_stem[_without_type(relative)] += 1
    items = []
    for source, relative in relatives:
        stem = _without_type(relative)
        name = stem.name if by_stem[stem] == 1 else relative.name
        output = relative.with_name(f"{name}.summary.{fmt}").as_posix()
        items.append(BatchItem(source, storage.join(out_dir, output)))
    _check_distinct(items)
    return Plan(items=items, ignored=ignored)


def _without_type(relative: PurePosixPath) -> PurePosixPath:
    """`a/report.pdf` -> `a/report`; `LGPL-2.1` and `README` stay whole."""
    return relative.with_suffix("") if storage.type_suffix(relative.name) else relative


def _check_distinct(items: list[BatchItem]) -> None:
    """Files of two folders given side by side can still meet at one output path."""
    seen: dict[str, str] = {}
    for item in items:
        other = seen.setdefault(item.output, item.source)
        if other != item.source:
            raise InputError(
                f"{other} and {item.source} would both be summarized to {item.output}",
                hint="Summarize them into different --out folders, or give their common "
                "parent folder.",
            )
