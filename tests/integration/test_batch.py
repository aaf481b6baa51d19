"""Batch summaries from the CLI: folders, resume, safe writes, bad files, interruption."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from tests.support import REPO
from tests.support.terminal import start_interruptible

runner = CliRunner()
TOPICS = ["harbour", "orchard", "railway", "library", "glacier", "market", "bridge", "theatre"]


def make_corpus(root: Path, files: int) -> Path:
    """`files` small documents in nested folders, each with distinct sentences."""
    for i in range(files):
        topic = TOPICS[i % len(TOPICS)]
        folder = root / f"part{i % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        sentences = [
            f"The {topic} number {i} opened in {1900 + i} with {j + 2} staff members."
            for j in range(40)
        ]
        (folder / f"doc{i:03}.txt").write_text(" ".join(sentences), encoding="utf-8")
    return root


def manifest(out: Path) -> list[dict[str, object]]:
    lines = (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    records = []
    for line in lines:
        with contextlib.suppress(json.JSONDecodeError):  # a line cut by SIGKILL
            records.append(json.loads(line))
    return records


def outputs(out: Path) -> dict[str, str]:
    return {
        str(p.relative_to(out)): p.read_text(encoding="utf-8")
        for p in out.rglob("*.md")
        if p.is_file()
    }


def test_folder_is_summarized_one_output_per_file(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 6)
    out = tmp_path / "out"
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out), "--words", "40"])
    assert result.exit_code == 0, result.output
    written = outputs(out)
    assert len(written) == 6
    assert "part0/doc000.summary.md" in written
    assert all(text.startswith("<!-- longdoc sha256=") for text in written.values())
    assert [r["status"] for r in manifest(out)] == ["done"] * 6


def test_rerun_skips_up_to_date_files_and_redoes_changed_ones(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 4)
    out = tmp_path / "out"
    assert runner.invoke(app, ["summarize", str(docs), "--out", str(out)]).exit_code == 0
    changed = docs / "part1" / "doc001.txt"
    changed.write_text(changed.read_text() + " A new closing sentence was added.")
    second = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    assert second.exit_code == 0
    last_run = manifest(out)[4:]
    done = [r["source"] for r in last_run if r["status"] == "done"]
    assert done == [str(changed.resolve())]
    assert sum(r["status"] == "skipped" for r in last_run) == 3


def test_changed_settings_redo_the_files(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 2)
    out = tmp_path / "out"
    runner.invoke(app, ["summarize", str(docs), "--out", str(out), "--words", "40"])
    runner.invoke(app, ["summarize", str(docs), "--out", str(out), "--words", "80"])
    assert [r["status"] for r in manifest(out)] == ["done"] * 4


def test_force_redoes_everything(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 2)
    out = tmp_path / "out"
    runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    runner.invoke(app, ["summarize", str(docs), "--out", str(out), "--force"])
    assert [r["status"] for r in manifest(out)] == ["done"] * 4


def test_dry_run_lists_work_and_writes_nothing(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 3)
    out = tmp_path / "out"
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out), "--dry-run"])
    assert result.exit_code == 0
    assert result.output.count("summarize ") == 3
    assert not out.exists()


def test_bad_files_are_reported_and_the_rest_still_done(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 3)
    (docs / "empty.txt").write_text("   \n")
    (docs / "image.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    (docs / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    out = tmp_path / "out"
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    assert result.exit_code == 1
    records = {Path(str(r["source"])).name: r for r in manifest(out)}
    assert records["empty.txt"]["status"] == "failed"
    assert "empty" in str(records["empty.txt"]["error"])
    assert "PNG" in str(records["image.md"]["error"])
    assert "UTF-8" in str(records["latin1.txt"]["error"])
    assert sum(r["status"] == "done" for r in records.values()) == 3
    assert "failed" in result.output


def test_glob_patterns_and_json_format(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 4)
    out = tmp_path / "out"
    pattern = str(docs / "part0" / "*.txt")
    result = runner.invoke(app, ["summarize", pattern, "--out", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["doc000.summary.json", "doc003.summary.json"]
    payload = json.loads(files[0].read_text())
    assert payload["summary"]
    source = (docs / "part0" / "doc000.txt").read_text()
    for citation in payload["citations"]:
        assert source[citation["start"] : citation["end"]] == citation["quote"]


def test_files_sharing_a_stem_keep_their_suffixes_in_the_output_names(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "report.md").write_text("The harbour opened in 1901. It has four cranes.")
    (docs / "report.txt").write_text("The orchard opened in 1902. It grows pears.")
    (docs / "notes.txt").write_text("The railway opened in 1903. It runs north.")
    out = tmp_path / "out"
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(outputs(out)) == [
        "notes.summary.md",
        "report.md.summary.md",
        "report.txt.summary.md",
    ]
    assert "orchard" in outputs(out)["report.txt.summary.md"]


def test_folder_files_named_without_a_type_are_read_when_they_hold_text(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "LICENSE").write_text("The harbour licence allows copying. It forbids resale.")
    (docs / "LGPL-2.1").write_text("The orchard licence version 2.1 allows linking.")
    (docs / "LGPL-3").write_text("The railway licence version 3 allows linking too.")
    (docs / "blob").write_bytes(bytes(range(256)) * 8)
    out = tmp_path / "out"
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    names = ["LGPL-2.1.summary.md", "LGPL-3.summary.md", "LICENSE.summary.md"]
    assert sorted(outputs(out)) == names
    assert "orchard" in outputs(out)["LGPL-2.1.summary.md"]
    assert f"not read (not a document type): {docs / 'blob'}" in result.stderr


def test_a_symlinked_file_is_summarized_under_its_own_name(tmp_path: Path) -> None:
    elsewhere = tmp_path / "shared" / "harbour-terms.txt"
    elsewhere.parent.mkdir()
    elsewhere.write_text("The harbour terms allow mooring. They forbid fishing.")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "terms.txt").symlink_to(elsewhere)
    out = tmp_path / "out"
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(outputs(out)) == ["terms.summary.md"]
    assert "mooring" in outputs(out)["terms.summary.md"]


def test_two_folders_meeting_at_one_output_name_is_an_error(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.txt").write_text(f"Folder {folder} holds one sentence.")
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["summarize", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(out)]
    )
    assert result.exit_code == 1
    assert "would both be summarized to" in result.stderr
    assert not out.exists()


def rename_to_the_older_names(out: Path) -> None:
    """Make `out` look as the previous release left it: `x.txt.md` names in files and manifest."""
    for path in out.rglob("*.summary.md"):
        older = path.with_name(path.name.removesuffix(".summary.md") + ".txt.md")
        path.rename(older)
    text = (out / "manifest.jsonl").read_text(encoding="utf-8")
    (out / "manifest.jsonl").write_text(text.replace(".summary.md", ".txt.md"), encoding="utf-8")


@pytest.mark.parametrize("keep_manifest", [True, False], ids=["manifest", "no-manifest"])
def test_rerun_moves_summaries_from_their_older_names_instead_of_redoing_them(
    tmp_path: Path, keep_manifest: bool
) -> None:
    docs = make_corpus(tmp_path / "docs", 3)
    out = tmp_path / "out"
    assert runner.invoke(app, ["summarize", str(docs), "--out", str(out)]).exit_code == 0
    before = outputs(out)
    rename_to_the_older_names(out)
    if not keep_manifest:
        (out / "manifest.jsonl").unlink()
    dry = runner.invoke(app, ["summarize", str(docs), "--out", str(out), "--dry-run"])
    assert dry.output.count("up to date") == 3, dry.output
    assert "moved from doc000.txt.md" in dry.output
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert outputs(out) == before, "each summary is at its new name, none left at an old one"
    last_run = manifest(out)[-3:]
    assert [r["status"] for r in last_run] == ["skipped"] * 3
    assert all(str(r["renamed_from"]).endswith(".txt.md") for r in last_run)
    assert "renamed" in result.output


def test_folder_files_longdoc_does_not_read_are_listed(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 2)
    (docs / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (docs / ".hidden.txt").write_text("Editors leave files like this one behind.")
    out = tmp_path / "out"
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"not read (not a document type): {docs / 'photo.png'}" in result.stderr
    table = result.stdout.split("longdoc summarize", 1)[1]
    assert "not read" in table
    assert "photo.png" in table
    assert ".hidden" not in result.output
    assert len(outputs(out)) == 2


def test_plain_lines_and_closing_table_both_say_up_to_date(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 2)
    out = tmp_path / "out"
    runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    again = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    lines = [line for line in again.stdout.splitlines() if line.startswith("[")]
    assert len(lines) == 2
    assert all(" up to date " in line for line in lines), lines
    assert "skipped" not in again.stdout


def test_outputs_inside_the_folder_summarized_are_not_summarized_on_a_rerun(
    tmp_path: Path,
) -> None:
    docs = make_corpus(tmp_path / "docs", 2)
    out = docs / "summaries"
    assert runner.invoke(app, ["summarize", str(docs), "--out", str(out)]).exit_code == 0
    again = runner.invoke(app, ["summarize", str(docs), "--out", str(out)])
    assert again.exit_code == 0
    assert [r["status"] for r in manifest(out)] == ["done", "done", "skipped", "skipped"]


def test_several_files_without_out_is_a_usage_error(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 2)
    assert runner.invoke(app, ["summarize", str(docs)]).exit_code == 2


def test_pattern_matching_nothing_is_an_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["summarize", str(tmp_path / "*.txt"), "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "no files match" in result.stderr


def start_batch(docs: Path, out: Path) -> subprocess.Popen[str]:
    return start_interruptible(
        [
            sys.executable,
            "-m",
            "pipeline.cli",
            "summarize",
            str(docs),
            "--out",
            str(out),
            "--concurrency",
            "2",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def wait_for_outputs(out: Path, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(list(out.rglob("*.md"))) >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"fewer than {count} outputs after {timeout} s")


@pytest.mark.slow
@pytest.mark.parametrize(
    "sig",
    [
        signal.SIGINT,
        signal.SIGKILL,
    ],
    ids=["sigint", "sigkill"],
)
def test_interrupted_batch_resumes_without_redoing_or_corrupting(
    tmp_path: Path, sig: signal.Signals
) -> None:
    docs = make_corpus(tmp_path / "docs", 120)
    out = tmp_path / "out"
    child = start_batch(docs, out)
    wait_for_outputs(out, 5)
    child.send_signal(sig)
    _, stderr = child.communicate(timeout=30)
    if sig == signal.SIGINT:
        assert child.returncode == 130, stderr
    finished_first = {r["source"] for r in manifest(out) if r["status"] == "done"}
    assert 5 <= len(finished_first) < 120
    for text in outputs(out).values():
        assert text.startswith("<!-- longdoc"), "no partial outputs"
        assert text.endswith("\n"), "no partial outputs"

    resumed = start_batch(docs, out)
    resumed.communicate(timeout=120)
    assert resumed.returncode == 0
    assert not list(out.rglob("*.longdoc-tmp-*")), "temporary files are cleaned up"
    records = manifest(out)
    done = [r["source"] for r in records if r["status"] == "done"]
    assert len(done) == len(set(done)) == 120, "each file summarized exactly once"

    fresh = tmp_path / "fresh"
    assert runner.invoke(app, ["summarize", str(docs), "--out", str(fresh)]).exit_code == 0
    assert outputs(out) == outputs(fresh)


def test_quiet_prints_only_the_closing_table(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 3)
    out = tmp_path / "out"
    result = runner.invoke(app, ["summarize", str(docs), "--out", str(out), "--quiet"])
    assert result.exit_code == 0
    assert "[1/3]" not in result.output
    assert "up to date" in result.output


@pytest.mark.slow
def test_non_terminal_output_is_one_plain_line_per_file(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 3)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pipeline.cli",
            "summarize",
            str(docs),
            "--out",
            str(tmp_path / "out"),
            "--concurrency",
            "3",
            "--length",
            "30",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("[")]
    assert sorted(line.split("]")[0] for line in lines) == ["[1/3", "[2/3", "[3/3"]
    assert all(" done " in line for line in lines)
    assert "\x1b[" not in result.stdout, "no terminal control codes when piped"


def test_length_caps_the_summary_and_instructions_are_accepted(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 1)
    out = tmp_path / "out"
    short = runner.invoke(
        app,
        [
            "summarize",
            str(docs),
            "--out",
            str(out),
            "--length",
            "25",
            "--format",
            "json",
            "--instructions",
            "Focus on staffing.",
        ],
    )
    assert short.exit_code == 0, short.output
    payload = json.loads(next(out.rglob("*.json")).read_text())
    assert len(payload["summary"].split()) <= 25


@pytest.mark.slow
def test_resumed_batch_makes_model_calls_only_for_unfinished_files(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 30)
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "LONGDOC_MODEL_FACTORY": "tests.support.fakes:counting_model",
        "FAKE_LATENCY": "0.02",
        "LONGDOC_CHUNK_SIZE": "200",
        "LONGDOC_CHUNK_OVERLAP": "0",
        # What is counted is the resume's own skipping: with the chunk cache on, the
        # fresh run's readings would be reused and the rerun would call even less.
        "LONGDOC_CACHE": "off",
    }

    def run(out: Path, log: Path, kill_after: int | None = None) -> None:
        child = subprocess.Popen(
            [sys.executable, "-m", "pipeline.cli", "summarize", str(docs), "--out", str(out)],
            cwd=REPO,
            env={**env, "FAKE_CALL_LOG": str(log)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if kill_after is not None:
            wait_for_outputs(out, kill_after)
            child.send_signal(signal.SIGKILL)
        child.wait(timeout=120)

    def calls(log: Path) -> int:
        return len(log.read_text().splitlines()) if log.exists() else 0

    fresh = tmp_path / "fresh"
    run(fresh, tmp_path / "fresh.log")
    per_file = {r["source"]: r["usage"]["calls"] for r in manifest(fresh)}  # type: ignore[index]
    assert sum(per_file.values()) == calls(tmp_path / "fresh.log")

    out = tmp_path / "out"
    run(out, tmp_path / "first.log", kill_after=8)
    finished = {r["source"] for r in manifest(out) if r["status"] == "done"}
    run(out, tmp_path / "second.log")
    unfinished = set(per_file) - finished
    assert calls(tmp_path / "second.log") == sum(per_file[s] for s in unfinished)
    assert outputs(out) == outputs(fresh)
