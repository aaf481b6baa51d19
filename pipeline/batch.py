"""Batch summaries: many files in, one summary file each, resumable and never half-written."""

from __future__ import annotations

import asyncio
import glob
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel

from pipeline.config import Settings
from pipeline.errors import InputError, LongdocError
from pipeline.schemas import SummaryResult, Usage
from pipeline.service import stream_events, summarize_input

Format = Literal["md", "json"]
Status = Literal["done", "skipped", "failed"]
EventSink = Callable[[dict[str, Any]], None]

SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".pdf")
MANIFEST = "manifest.jsonl"
TEMP_MARK = ".longdoc-tmp-"
MARKER = "<!-- longdoc "

# Settings that change how a run goes but not what a summary says; changing them
# must not make a rerun recompute finished files.
OPERATIONAL = {
    "max_concurrency",
    "call_timeout_s",
    "max_retries",
    "retry_initial_s",
    "retry_max_s",
    "data_dir",
    "checkpoint_url",
    "api_key",
    "api_keys",
    "recursion_limit",
}


@dataclass(frozen=True)
class BatchItem:
    """One source file and where its summary goes."""

    source: Path
    output: Path


@dataclass
class FileOutcome:
    """What happened to one file in a batch run."""

    source: Path
    output: Path
    status: Status
    error: str | None = None
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0


@dataclass
class BatchOptions:
    """What every file of a batch is summarized with."""

    fmt: Format = "md"
    instructions: str | None = None
    words: int | None = None
    force: bool = False
    concurrency: int = 2


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


def fingerprint(raw: bytes, settings: Settings, options: BatchOptions) -> dict[str, str]:
    """Hashes of the source bytes and of everything that shapes its summary."""
    shaping = settings.model_dump(mode="json", exclude=OPERATIONAL)
    shaping.update(fmt=options.fmt, instructions=options.instructions, words=options.words)
    settings_hash = hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()
    return {"sha256": hashlib.sha256(raw).hexdigest(), "settings": settings_hash[:16]}


def is_current(output: Path, stamp: dict[str, str]) -> bool:
    """Whether `output` exists and was written from these exact bytes and settings."""
    try:
        with output.open(encoding="utf-8") as handle:
            head = handle.read(4096)
    except (FileNotFoundError, UnicodeDecodeError):
        return False
    return read_stamp(head) == stamp


def read_stamp(head: str) -> dict[str, str] | None:
    """The stamp at the top of an output we wrote (Markdown comment or JSON field)."""
    if head.startswith(MARKER):
        fields = head[len(MARKER) : head.find("-->")].split()
        stamp = dict(item.split("=", 1) for item in fields if "=" in item)
        return {key: stamp[key] for key in ("sha256", "settings") if key in stamp}
    if head.startswith('{\n  "longdoc"'):
        try:
            return dict(json.loads(head[: head.index("},") + 1] + "}")["longdoc"])
        except (ValueError, KeyError):
            return None
    return None


def render(result: SummaryResult, item: BatchItem, stamp: dict[str, str], fmt: Format) -> str:
    """The output file's text: the stamp first, so a rerun can tell it is current."""
    if fmt == "json":
        payload = {"longdoc": stamp, "source": str(item.source), **result.model_dump(mode="json")}
        return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
    lines = [
        f"{MARKER}sha256={stamp['sha256']} settings={stamp['settings']} -->",
        f"# Summary of {item.source.name}",
        "",
        result.summary,
    ]
    if result.citations:
        lines += ["", "## Sources", ""]
        for number, c in enumerate(result.citations, start=1):
            page = f", page {c.page}" if c.page else ""
            quote = " ".join(c.quote.split())
            lines.append(f"{number}. characters {c.start}-{c.end}{page}: “{quote}”")
    return "\n".join(lines) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}{TEMP_MARK}")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o644)  # mkstemp makes 0600; outputs are ordinary files
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def remove_stale_temps(out_dir: Path) -> int:
    """Delete temporary files a killed run left behind; returns how many."""
    stale = list(out_dir.rglob(f"*{TEMP_MARK}*")) if out_dir.exists() else []
    for temp in stale:
        temp.unlink(missing_ok=True)
    return len(stale)


def preview(
    items: list[BatchItem], settings: Settings, options: BatchOptions
) -> list[tuple[BatchItem, bool]]:
    """Each item with whether its output is already current (what a dry run shows)."""
    result = []
    for item in items:
        try:
            current = is_current(
                item.output, fingerprint(item.source.read_bytes(), settings, options)
            )
        except OSError:
            current = False
        result.append((item, current and not options.force))
    return result


class Manifest:
    """`manifest.jsonl` in the output folder: one JSON line per file per run, fsynced."""

    def __init__(self, out_dir: Path) -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        self.path = out_dir / MANIFEST
        self._end_cut_line()

    def _end_cut_line(self) -> None:
        """A run killed mid-write can leave half a line; end it so new lines stay whole."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with self.path.open("rb+") as handle:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                handle.write(b"\n")

    def record(self, outcome: FileOutcome, stamp: dict[str, str] | None) -> None:
        line = {
            "source": str(outcome.source),
            "output": str(outcome.output),
            "status": outcome.status,
            "sha256": stamp["sha256"] if stamp else None,
            "error": outcome.error,
            "usage": outcome.usage.model_dump(exclude={"by_node"}),
            "seconds": round(outcome.seconds, 3),
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            out.flush()
            os.fsync(out.fileno())


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
    slots = asyncio.Semaphore(options.concurrency)
    emit = on_event or (lambda event: None)

    async def one(item: BatchItem) -> FileOutcome:
        async with slots:
            return await _summarize_one(item, options, settings, model, manifest, emit)

    return list(await asyncio.gather(*(one(item) for item in items)))


async def _summarize_one(
    item: BatchItem,
    options: BatchOptions,
    settings: Settings,
    model: BaseChatModel | None,
    manifest: Manifest,
    emit: EventSink,
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
            state = await asyncio.to_thread(
                summarize_input, item.source, settings, options.instructions, options.words
            )
            result: SummaryResult | None = None
            async for event in stream_events(state, model=model, settings=settings):
                if event["event"] == "result":
                    output = event["output"]
                    result = SummaryResult.model_validate({**output, "summary": output["answer"]})
                else:
                    emit({**event, "source": item.source})
            assert result is not None
            write_atomically(item.output, render(result, item, stamp, options.fmt))
            outcome = FileOutcome(item.source, item.output, "done", usage=result.usage)
    except (LongdocError, OSError) as exc:
        message = exc.message if isinstance(exc, LongdocError) else f"{type(exc).__name__}: {exc}"
        outcome = FileOutcome(item.source, item.output, "failed", error=message)
    outcome.seconds = time.monotonic() - started
    manifest.record(outcome, stamp)
    emit({"event": "file_done", "source": item.source, "outcome": outcome})
    return outcome
