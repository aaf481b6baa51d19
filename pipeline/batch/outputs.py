"""A batch's outputs: stamped so a rerun knows them current, written whole, logged in a manifest."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

from pipeline.batch.items import BatchItem, BatchOptions, FileOutcome, Format
from pipeline.config import Settings
from pipeline.results import SummaryResult

MANIFEST = "manifest.jsonl"
TEMP_MARK = ".longdoc-tmp-"
MARKER = "<!-- longdoc "


def fingerprint(raw: bytes, settings: Settings, options: BatchOptions) -> dict[str, str]:
    """Hashes of the source bytes and of everything that shapes its summary.

    The settings part covers only those marked `shapes_output` (pipeline/config.py), so a
    new timeout or memory budget leaves finished outputs current.
    """
    shaping = settings.output_fingerprint()
    shaping.update(fmt=options.fmt, instructions=options.instructions, words=options.words)
    settings_hash = hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()
    return {"sha256": hashlib.sha256(raw).hexdigest(), "settings": settings_hash[:16]}


def earlier_names(items: list[BatchItem], out_dir: Path, fmt: Format) -> dict[BatchItem, Path]:
    """Summaries a rerun's items already have under another name, to move rather than redo
    or leave behind: `x.md.md` from before outputs were named `x.summary.md`, or the last
    output the manifest recorded for the source. Only files with our stamp qualify, and
    never one that is some item's own output in this run.
    """
    recorded = Manifest.recorded_outputs(out_dir)
    taken = {item.output for item in items}
    found: dict[BatchItem, Path] = {}
    for item in items:
        if item.output.exists():
            continue
        legacy = item.output.parent / f"{item.source.name}.{fmt}"
        for candidate in [*reversed(recorded.get(str(item.source), [])), legacy]:
            if candidate.suffix == f".{fmt}" and candidate not in taken and _stamped(candidate):
                found[item] = candidate
                break
    return found


def _stamped(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as handle:
            return read_stamp(handle.read(4096)) is not None
    except (OSError, UnicodeDecodeError):
        return False


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

    @staticmethod
    def recorded_outputs(out_dir: Path) -> dict[str, list[Path]]:
        """Each source's outputs as earlier runs recorded them, oldest first."""
        outputs: dict[str, list[Path]] = {}
        try:
            lines = (out_dir / MANIFEST).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return outputs
        for line in lines:
            try:
                record = json.loads(line)
                source, output = str(record["source"]), Path(record["output"])
            except (ValueError, KeyError, TypeError):  # a line cut by a killed run
                continue
            outputs.setdefault(source, []).append(output)
        return outputs

    def record(self, outcome: FileOutcome, stamp: dict[str, str] | None) -> None:
        line = {
            "source": str(outcome.source),
            "output": str(outcome.output),
            "renamed_from": str(outcome.renamed_from) if outcome.renamed_from else None,
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
