"""Finding a batch's files: files, folders (recursive) and globs, each with its output path."""

from __future__ import annotations

import glob
from pathlib import Path

from pipeline.batch.items import BatchItem, Format
from pipeline.errors import InputError

SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".pdf")


def discover(inputs: list[str]) -> list[tuple[Path, Path]]:
    """(file, root) pairs from files, folders (recursive) and glob patterns, sorted, no repeats.

    `root` is what the output path is made relative to, so `docs/a/x.md` given as
    `docs` lands in `OUT/a/x.md.md` and two `x.md` in different folders never collide.
    """
    found: dict[Path, Path] = {}
    for raw in inputs:
        matches = sorted(glob.glob(raw, recursive=True)) if glob.has_magic(raw) else [raw]
        if not matches:
            raise InputError(f"no files match {raw!r}", hint="Check the pattern or the path.")
        for match in matches:
            path = Path(match)
            if path.is_dir():
                for file in sorted(p for p in path.rglob("*") if p.is_file()):
                    if file.suffix.lower() in SUFFIXES and not file.name.startswith("."):
                        found.setdefault(file.resolve(), path.resolve())
            elif path.exists():
                found.setdefault(path.resolve(), path.resolve().parent)
            else:
                raise InputError(f"file not found: {path}", hint="Check the path.")
    return sorted(found.items())


def plan(inputs: list[str], out_dir: Path, fmt: Format) -> list[BatchItem]:
    """Every source with its output path under `out_dir`."""
    items = []
    for source, root in discover(inputs):
        relative = source.relative_to(root) if source != root else Path(source.name)
        items.append(BatchItem(source, out_dir / relative.with_name(f"{relative.name}.{fmt}")))
    return items
