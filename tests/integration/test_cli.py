"""The `longdoc` command as a user runs it: answers, JSON output, summaries, errors, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from tests.support import REPO

REPORT = REPO / "sample_docs" / "annual_report.md"
runner = CliRunner()


def test_ask_prints_the_answer_and_numbered_citations() -> None:
    result = runner.invoke(app, ["ask", str(REPORT), "Who founded the company in Bergen?"])
    assert result.exit_code == 0, result.output
    assert "Ingrid Halvorsen" in result.output
    assert "[1] annual_report.md" in result.output


def test_ask_json_is_the_ask_result_with_exact_spans() -> None:
    result = runner.invoke(app, ["ask", str(REPORT), "Who founded the company?", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert set(payload) >= {"answer", "mode", "citations", "coverage", "usage"}
    text = REPORT.read_text(encoding="utf-8")
    assert payload["citations"]
    for citation in payload["citations"]:
        assert text[citation["start"] : citation["end"]] == citation["quote"]


def test_ask_reads_several_files() -> None:
    manual = REPO / "sample_docs" / "user_manual.md"
    result = runner.invoke(app, ["ask", str(REPORT), str(manual), "What is the port?", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["coverage"]["chunks"] >= 2


def test_summarize_respects_the_word_count() -> None:
    result = runner.invoke(app, ["summarize", str(REPORT), "--words", "80", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert 20 <= len(payload["summary"].split()) <= 120
    assert payload["citations"]


def test_missing_file_is_an_error_with_a_hint_and_exit_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["ask", str(tmp_path / "nope.txt"), "What?"])
    assert result.exit_code == 1
    assert "Error: file not found" in result.stderr
    assert "Hint:" in result.stderr


def test_empty_file_is_an_error_and_exit_1(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    result = runner.invoke(app, ["ask", str(empty), "What?"])
    assert result.exit_code == 1
    assert "is empty" in result.stderr


def test_missing_arguments_are_a_usage_error_exit_2() -> None:
    assert runner.invoke(app, ["ask"]).exit_code == 2


def test_version_is_printed() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith("longdoc ")


@pytest.mark.slow
def test_installed_console_script_runs() -> None:
    longdoc = Path(sys.executable).parent / "longdoc"
    result = subprocess.run(
        [str(longdoc), "ask", str(REPORT), "When was the company founded?"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "1987" in result.stdout


def test_ask_reads_the_document_from_stdin() -> None:
    result = runner.invoke(
        app,
        ["ask", "-", "Who keeps the lighthouse?", "--json"],
        input="Gulls cry over the bay. Marta Lund keeps the lighthouse on the point.",
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert "Marta Lund" in payload["answer"]
    assert payload["citations"][0]["document"] == "stdin"


def test_ask_stream_shows_the_same_answer() -> None:
    result = runner.invoke(
        app, ["ask", str(REPORT), "Who founded the company in Bergen?", "--stream", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert "Ingrid Halvorsen" in json.loads(result.stdout)["answer"]


@pytest.mark.slow
def test_chat_repl_remembers_and_shows_history(tmp_path: Path) -> None:
    script = "My name is Aiko Tanaka.\nWhat is my name?\n/history\n/summary\n/exit\n"
    longdoc = Path(sys.executable).parent / "longdoc"
    result = subprocess.run(
        [str(longdoc), "chat"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "LONGDOC_DATA_DIR": str(tmp_path / "data")},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Aiko Tanaka") >= 3  # the reply and twice in /history
    assert "user> What is my name?" in result.stdout
    thread = result.stdout.split("thread ", 1)[1].split()[0]
    again = subprocess.run(
        [str(longdoc), "chat", "--thread", thread],
        input="/history\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "LONGDOC_DATA_DIR": str(tmp_path / "data")},
    )
    assert "user> My name is Aiko Tanaka." in again.stdout


def test_chat_with_unknown_thread_is_an_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["chat", "--thread", "nope"], input="/exit\n")
    assert result.exit_code == 1
    assert "does not exist" in result.stderr


def test_debug_variable_adds_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LONGDOC_DEBUG", "1")
    result = runner.invoke(app, ["ask", str(tmp_path / "nope.txt"), "What?"])
    assert result.exit_code == 1
    assert "Traceback" in result.stderr
    monkeypatch.delenv("LONGDOC_DEBUG")
    plain = runner.invoke(app, ["ask", str(tmp_path / "nope.txt"), "What?"])
    assert "Traceback" not in plain.stderr


def test_store_commands_create_list_and_delete_threads(tmp_path: Path) -> None:
    from pipeline import Settings, create_thread

    env = {**os.environ, "LONGDOC_DATA_DIR": str(tmp_path / "data")}
    made = runner.invoke(app, ["store", "init"], env=env)
    assert made.exit_code == 0, made.output
    assert "SQLite thread store ready" in made.output
    settings = Settings(data_dir=tmp_path / "data")
    threads = sorted(create_thread(settings=settings).thread_id for _ in range(2))
    listed = runner.invoke(app, ["store", "list"], env=env)
    assert listed.output.split() == threads
    deleted = runner.invoke(app, ["store", "delete", threads[0]], env=env)
    assert deleted.exit_code == 0, deleted.output
    assert runner.invoke(app, ["store", "list"], env=env).output.split() == threads[1:]
    again = runner.invoke(app, ["store", "delete", threads[0]], env=env)
    assert again.exit_code == 1
    assert "does not exist" in again.output
