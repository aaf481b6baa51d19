"""Finding a batch's files: files, folders (recursive) and globs, each with its output path."""

from __future__ import annotations

import glob
from collections import defaultdict
from pathlib import Path

from pipeline.batch.items import BatchItem, Format, Plan
from pipeline.errors import InputError

SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".pdf")


def discover(
    inputs: list[str], out_dir: Path | None = None
) -> tuple[list[tuple[Path, Path]], list[Path]]:
    """(file, root) pairs from files, folders (recursive) and globs, sorted, no repeats; and
    the files of those folders that are not a type longdoc reads (e.g. a PNG), sorted.

    `root` is what the output path is made relative to, so `docs/a/x.md` given as
    `docs` lands in `OUT/a/x.summary.md`. Files under `out_dir` are earlier outputs,
    never sources, so a rerun with `--out docs/summaries` does not summarize summaries.
    """
    found: dict[Path, Path] = {}
    ignored: set[Path] = set()
    outputs = out_dir.resolve() if out_dir is not None else None
    for raw in inputs:
        matches = sorted(glob.glob(raw, recursive=True)) if glob.has_magic(raw) else [raw]
        if not matches:
            raise InputError(f"no files match {raw!r}", hint="Check the pattern or the path.")
        for match in matches:
            path = Path(match)
            if path.is_dir():
                for file in sorted(p for p in path.rglob("*") if p.is_file()):
                    if file.name.startswith(".") or _inside(file.resolve(), outputs):
                        continue
                    if file.suffix.lower() in SUFFIXES:
                        found.setdefault(file.resolve(), path.resolve())
                    else:
                        ignored.add(file)
            elif path.exists():
                if not _inside(path.resolve(), outputs):
                    found.setdefault(path.resolve(), path.resolve().parent)
            else:
                raise InputError(f"file not found: {path}", hint="Check the path.")
    return sorted(found.items()), sorted(ignored)


def plan(inputs: list[str], out_dir: Path, fmt: Format) -> Plan:
    """Every source with its output path under `out_dir`, and the files left out.

    `report.pdf` is summarized to `report.summary.md`. Two sources of one folder that
    share a stem keep their suffixes, `report.pdf.summary.md` and `report.txt.summary.md`,
    so neither overwrites the other.
    """
    found, ignored = discover(inputs, out_dir)
    relatives = [
        (source, source.relative_to(root) if source != root else Path(source.name))
        for source, root in found
    ]
    by_stem: dict[Path, int] = defaultdict(int)
    for _, relative in relatives:
        by_stem[relative.with_suffix("")] += 1
    items = []
    for source, relative in relatives:
        name = relative.stem if by_stem[relative.with_suffix("")] == 1 else relative.name
        items.append(BatchItem(source, out_dir / relative.with_name(f"{name}.summary.{fmt}")))
    _check_distinct(items)
    return Plan(items=items, ignored=ignored)


def _check_distinct(items: list[BatchItem]) -> None:
    """Files of two folders given side by side can still meet at one output path."""
    seen: dict[Path, Path] = {}
    for item in items:
        other = seen.setdefault(item.output, item.source)
        if other != item.source:
            raise InputError(
                f"{other} and {item.source} would both be summarized to {item.output}",
                hint="Summarize them into different --out folders, or give their common "
                "parent folder.",
            )


def _inside(path: Path, folder: Path | None) -> bool:
    return folder is not None and path.is_relative_to(folder)
