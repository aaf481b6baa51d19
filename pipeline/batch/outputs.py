"""A batch's outputs: stamped so a rerun knows them current, written whole, logged in a manifest."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path

from pipeline.batch import storage
from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome, Format
from pipeline.config import Settings
from pipeline.results import SummaryResult

MANIFEST = "manifest.jsonl"
MARKER = "<!-- longdoc "
# A manifest on an object store (which cannot append) is rewritten whole at most this often.
REMOTE_MANIFEST_EVERY_S = 10.0


def fingerprint(raw: bytes, settings: Settings, options: BatchOptions) -> dict[str, str]:
    """Hashes of the source bytes and of everything that shapes its summary.

    The settings part covers only those marked `shapes_output` (pipeline/config.py), so a
    new timeout or memory budget leaves finished outputs current.
    """
    shaping = settings.output_fingerprint()
    shaping.update(fmt=options.fmt, instructions=options.instructions, words=options.words)
    settings_hash = hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()
    return {"sha256": hashlib.sha256(raw).hexdigest(), "settings": settings_hash[:16]}


def earlier_names(items: list[BatchItem], out_dir: str, fmt: Format) -> dict[BatchItem, str]:
    """Summaries a rerun's items already have under another name, to move rather than redo
    or leave behind: `x.md.md` from before outputs were named `x.summary.md`, or the last
    output the manifest recorded for the source. Only files with our stamp qualify, and
    never one that is some item's own output in this run. Paths and URLs alike: on a store
    each item costs a HEAD and, for a candidate, one ranged read.
    """
    recorded = Manifest.recorded_outputs(out_dir)
    taken = {item.output for item in items}
    found: dict[BatchItem, str] = {}
    for item in items:
        if storage.exists(item.output):
            continue
        legacy = storage.join(storage.parent(item.output), f"{storage.name(item.source)}.{fmt}")
        for candidate in [*reversed(recorded.get(item.source, [])), legacy]:
            if candidate.endswith(f".{fmt}") and candidate not in taken and _stamped(candidate):
                found[item] = candidate
                break
    return found


def _stamped(location: str) -> bool:
    try:
        head = storage.read_head(location)
    except OSError:
        return False
    return head is not None and read_stamp(head) is not None


def is_current(output: str, stamp: dict[str, str]) -> bool:
    """Whether `output` exists and was written from these exact bytes and settings."""
    head = storage.read_head(output)
    return head is not None and read_stamp(head) == stamp


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
        payload = {"longdoc": stamp, "source": item.source, **result.model_dump(mode="json")}
        return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
    lines = [
        f"{MARKER}sha256={stamp['sha256']} settings={stamp['settings']} -->",
        f"# Summary of {storage.name(item.source)}",
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


class Manifest:
    """`manifest.jsonl` in the output folder: one JSON line per file per run.

    Local: each line appended and fsynced as its file finishes. On an object store, which
    cannot append, the lines are kept and the whole manifest rewritten at most every
    10 s and on close; a killed run may so lose its last lines, never an output.
    """

    def __init__(self, out_dir: str) -> None:
        self.remote = storage.is_remote(out_dir)
        self.location = storage.join(out_dir, MANIFEST)
        self._lines: list[str] = []
        self._saved_at = time.monotonic()
        if self.remote:
            with contextlib.suppress(FileNotFoundError):  # a first run: no manifest yet
                kept = storage.read_bytes(self.location).decode("utf-8")
                self._lines = [kept if kept.endswith("\n") or not kept else kept + "\n"]
        else:
            Path(storage.local(out_dir)).mkdir(parents=True, exist_ok=True)
            self._end_cut_line()

    def _end_cut_line(self) -> None:
        """A run killed mid-write can leave half a line; end it so new lines stay whole."""
        path = Path(self.location)
        if not path.exists() or path.stat().st_size == 0:
            return
        with path.open("rb+") as handle:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                handle.write(b"\n")

    @staticmethod
    def recorded_outputs(out_dir: str) -> dict[str, list[str]]:
        """Each source's outputs as earlier runs recorded them, oldest first."""
        outputs: dict[str, list[str]] = {}
        try:
            text = storage.read_bytes(storage.join(out_dir, MANIFEST)).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return outputs
        for entry in text.splitlines():
            try:
                record = json.loads(entry)
                source, output = str(record["source"]), str(record["output"])
            except (ValueError, KeyError, TypeError):  # a line cut by a killed run
                continue
            outputs.setdefault(source, []).append(output)
        return outputs

    def record(self, outcome: FileOutcome, stamp: dict[str, str] | None) -> None:
        self.record_many([(outcome, stamp)])

    def record_many(self, records: list[tuple[FileOutcome, dict[str, str] | None]]) -> None:
        """Lines for several finished files, written (and fsynced) together."""
        text = "".join(json.dumps(line(o, s), ensure_ascii=False) + "\n" for o, s in records)
        if self.remote:
            self._lines.append(text)
            if time.monotonic() - self._saved_at >= REMOTE_MANIFEST_EVERY_S:
                self.close()
            return
        with open(self.location, "a", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())

    def close(self) -> None:
        """Save what is not saved yet (a store's manifest); local lines are already on disk."""
        if self.remote and self._lines:
            storage.write_whole(self.location, "".join(self._lines))
            self._saved_at = time.monotonic()


def line(outcome: FileOutcome, stamp: dict[str, str] | None) -> dict[str, object]:
    """One file's manifest record."""
    return {
        "source": outcome.source,
        "output": outcome.output,
        "renamed_from": outcome.renamed_from,
        "status": outcome.status,
        "sha256": stamp["sha256"] if stamp else None,
        "error": outcome.error,
        "usage": outcome.usage.model_dump(exclude={"by_node"}),
        "seconds": round(outcome.seconds, 3),
        "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
