"""The `longdoc` command as a user runs it: answers, JSON output, summaries, errors, exit codes."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.prompts import NOT_FOUND_IN_READ
from pipeline.threads import get_thread
from tests.support import LONGDOC, REPO
from tests.support.terminal import start_interruptible
from tests.support.texts import KEEPER_IN_A_FAILING_CHUNK, ROBOTICS_REPORT

REPORT = REPO / "sample_docs" / "annual_report.md"
runner = CliRunner()


def test_ask_prints_the_answer_and_numbered_citations() -> None:
    result = runner.invoke(app, ["ask", str(REPORT), "Who founded the company in Bergen?"])
    assert result.exit_code == 0, result.output
    assert "Ingrid Halvorsen" in result.output
    assert "[1] annual_report.md" in result.output


def test_cited_text_with_square_brackets_prints_as_written(tmp_path: Path) -> None:
    page = tmp_path / "tunnel.txt"
    page.write_text(
        "OPTIONS\n"
        "     -L [bind_address:]port:host:hostport\n"
        "             Forwards the given local port to the given remote host and port.\n"
    )
    result = runner.invoke(app, ["ask", str(page), "What does the -L option do?"])
    assert result.exit_code == 0, result.output
    citations = [line for line in result.output.splitlines() if line.startswith("[1]")]
    assert citations, result.output
    assert "[bind_address:]port:host:hostport" in citations[0]
    assert "\\[" not in citations[0], "no escape character shows"


def test_ask_json_is_the_ask_result_with_exact_spans() -> None:
    result = runner.invoke(app, ["ask", str(REPORT), "Who founded the company?", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert set(payload) >= {"answer", "mode", "citations", "coverage", "usage"}
    text = REPORT.read_text(encoding="utf-8")
    assert payload["citations"]
    for citation in payload["citations"]:
        assert text[citation["start"] : citation["end"]] == citation["quote"]


def test_ask_shows_a_caution_when_the_evidence_lacks_the_asked_name(tmp_path: Path) -> None:
    path = tmp_path / "register.md"
    path.write_text("The Ashford warehouse opened in 1998. The Lakeside warehouse opened in 2006.")
    result = runner.invoke(app, ["ask", str(path), "When did the Ashfort warehouse open?"])
    assert result.exit_code == 0, result.output
    assert "1998" in result.output
    assert "Caution: the cited text does not mention 'Ashfort'" in result.output
    plain = runner.invoke(app, ["ask", str(path), "When did the Lakeside warehouse open?"])
    assert "Caution" not in plain.output
    payload = json.loads(
        runner.invoke(
            app, ["ask", str(path), "When did the Ashfort warehouse open?", "--json"]
        ).output
    )
    assert payload["missing_terms"] == ["Ashfort"]


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


def test_a_question_may_start_with_an_option(tmp_path: Path) -> None:
    manual = tmp_path / "tool.1.txt"
    manual.write_text("OPTIONS\n       -k, --keep\n              Keep the input files.\n")
    result = runner.invoke(app, ["ask", str(manual), "-k option?"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("-k, --keep: Keep the input files.")


@pytest.mark.parametrize(
    "arguments",
    [["--jsn", "Who founded the company?"], ["Who founded the company?", "--jsn"]],
)
def test_a_mistyped_option_is_a_usage_error_not_a_missing_file(arguments: list[str]) -> None:
    result = runner.invoke(app, ["ask", str(REPORT), *arguments])
    assert result.exit_code == 2
    assert "no such option: --jsn" in result.stderr


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


def test_chat_with_a_new_thread_id_starts_that_thread(tmp_path: Path) -> None:
    first = runner.invoke(app, ["chat", "--thread", "boat-notes"], input="/history\nHello there\n")
    assert first.exit_code == 0, first.output
    assert "new thread boat-notes" in first.stdout
    assert "(no messages yet)" in first.stdout
    assert len(get_thread("boat-notes").history) == 2
    again = runner.invoke(app, ["chat", "--thread", "boat-notes"], input="/exit\n")
    assert "thread boat-notes (2 messages)" in again.stdout
    assert "new thread" not in again.stdout


def test_chat_with_a_malformed_thread_id_is_an_error() -> None:
    result = runner.invoke(app, ["chat", "--thread", "no spaces/allowed"], input="/exit\n")
    assert result.exit_code == 1
    assert "Error: the thread id must be" in result.stderr


def test_debug_variable_adds_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LONGDOC_DEBUG", "1")
    result = runner.invoke(app, ["ask", str(tmp_path / "nope.txt"), "What?"])
    assert result.exit_code == 1
    assert "Traceback" in result.stderr
    monkeypatch.delenv("LONGDOC_DEBUG")
    plain = runner.invoke(app, ["ask", str(tmp_path / "nope.txt"), "What?"])
    assert "Traceback" not in plain.stderr


def test_chat_import_loads_a_history_the_next_turn_recalls(tmp_path: Path) -> None:
    lines = [{"role": "user", "content": "My locker number is 318.", "name": "Ines"}]
    lines += [
        {"role": "user", "content": f"Note {i}: " + "the canteen opens late. " * 20}
        for i in range(20)
    ]
    history = tmp_path / "history.jsonl"
    history.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    longdoc = Path(sys.executable).parent / "longdoc"
    result = subprocess.run(
        [str(longdoc), "chat", "--import", str(history)],
        input="What is my locker number?\n/exit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "LONGDOC_DATA_DIR": str(tmp_path / "data")},
    )
    assert result.returncode == 0, result.stderr
    assert "imported 21 messages (21 in all)" in result.stdout
    assert "My locker number is 318." in result.stdout.split("longdoc>", 1)[1]
    assert "(recalled" in result.stdout


def test_chat_import_of_a_bad_line_names_it_and_writes_nothing(tmp_path: Path) -> None:
    history = tmp_path / "bad.jsonl"
    history.write_text(
        '{"role": "user", "content": "fine"}\n\n{"role": "narrator", "content": "no"}\n'
    )
    result = runner.invoke(app, ["chat", "--import", str(history)], input="/exit\n")
    assert result.exit_code == 1
    stderr = " ".join(result.stderr.split())  # as read, not as wrapped to the terminal
    assert "message 1: role must be 'user' or 'assistant'" in stderr
    assert "bad.jsonl line 3" in stderr
    assert "nothing was imported" in stderr
    assert not (tmp_path / "data").exists(), "no thread, no store: nothing was written"
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"role": "user", "content": "fine"}\n{not json\n')
    result = runner.invoke(app, ["chat", "--import", str(broken)], input="/exit\n")
    assert result.exit_code == 1
    assert "broken.jsonl line 2 is not JSON" in " ".join(result.stderr.split())


# ---- settings, usage errors, progress, help ----

COMMANDS = {
    "ask": ["ask", str(REPORT), "Who founded it?"],
    "summarize": ["summarize", str(REPORT)],
    "summarize --out": ["summarize", str(REPORT), "--out", "summaries"],
    "chat": ["chat"],
    "serve": ["serve", "--port", "1"],
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_bad_setting_is_an_error_with_a_hint_in_every_command(
    monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setenv("LONGDOC_CHUNK_SIZE", "abc")
    result = runner.invoke(app, command, input="/exit\n")
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: LONGDOC_CHUNK_SIZE='abc' is not valid")
    assert "Hint: Set LONGDOC_CHUNK_SIZE to a whole number from 50 to 200000" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("variable", "value", "error"),
    [
        ("LONGDOC_PROVIDER", "foo", "Error: LONGDOC_PROVIDER='foo' is not valid"),
        ("LONGDOC_MAX_DOCUMENT_MB", "-1", "Error: LONGDOC_MAX_DOCUMENT_MB='-1' is not valid"),
        ("LONGDOC_PROVIDER", "openai", "Error: LONGDOC_MODEL is not set"),
    ],
)
def test_serve_with_a_bad_setting_exits_with_an_error_line(
    tmp_path: Path, variable: str, value: str, error: str
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LONGDOC_")}
    result = subprocess.run(
        [str(LONGDOC), "serve", "--port", "1"],
        env={**env, variable: value},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.startswith(error), result.stderr
    assert "Hint: " in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([str(REPORT)], "the question is missing: put it after the files"),
        (["Who founded it?"], "no document given: put the files before the question"),
        ([], "give the documents and then the question"),
    ],
)
def test_ask_with_a_missing_argument_says_which(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, ["ask", *arguments])
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.replace("│", " ").split())
    assert "Missing argument" not in result.stderr


def test_ask_stream_with_stderr_piped_prints_one_line_per_step() -> None:
    result = runner.invoke(app, ["ask", str(REPORT), "Who founded the company?", "--stream"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == "routed to document mode"
    assert lines[1] == "split into 1 chunk"
    assert lines[2] == "read 1 of 1"
    assert lines[-1] == "writing the answer"
    assert "Ingrid Halvorsen" in result.stdout


def test_help_shows_no_type_tags_and_the_words_default() -> None:
    screens = {
        name: runner.invoke(app, [name, "--help"], env={"COLUMNS": "120"}).stdout
        for name in ("ask", "summarize", "chat", "serve")
    }
    screens["longdoc"] = runner.invoke(app, ["--help"], env={"COLUMNS": "120"}).stdout
    screens["store delete"] = runner.invoke(app, ["store", "delete", "--help"]).stdout
    for name, screen in screens.items():
        assert "<" not in screen, f"{name}:\n{screen}"
        assert "{" not in screen, f"{name}:\n{screen}"
    assert "Usage: longdoc ask [OPTIONS] PATH... QUESTION" in screens["ask"]
    assert "Usage: longdoc store delete [OPTIONS] THREAD" in screens["store delete"]
    assert "LONGDOC_SUMMARY_WORDS, else 250" in screens["summarize"]
    assert re.search(r"--out\s+DIR\s", screens["summarize"])


def test_ask_with_a_failed_chunk_is_shown_as_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {
        "LONGDOC_MODEL_FACTORY": "tests.support.fakes:counting_model",
        "LONGDOC_CHUNK_SIZE": "100",
        "LONGDOC_CHUNK_OVERLAP": "0",
        "LONGDOC_MAX_RETRIES": "0",
    }.items():
        monkeypatch.setenv(name, value)
    log = tmp_path / "log.txt"
    log.write_text(KEEPER_IN_A_FAILING_CHUNK)
    result = runner.invoke(app, ["ask", str(log), "Who is the lighthouse keeper?"])
    assert result.exit_code == 0, result.output
    assert "could not be found in the chunks that were read" in result.stdout
    assert "Incomplete: 1 of " in result.stderr
    as_json = runner.invoke(app, ["ask", str(log), "Who is the lighthouse keeper?", "--json"])
    payload = json.loads(as_json.stdout)
    assert payload["incomplete"] is True
    chunks, read = payload["coverage"]["chunks"], payload["coverage"]["read"]
    assert payload["answer"] == NOT_FOUND_IN_READ["en"].format(chunks=chunks, read=read, failed=1)


@pytest.mark.slow
def test_ctrl_c_on_ask_says_interrupted_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "doc.txt").write_text(ROBOTICS_REPORT * 3)
    log = tmp_path / "calls.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LONGDOC_")}
    env.update(
        PYTHONPATH=str(REPO),
        LONGDOC_MODEL_FACTORY="tests.support.fakes:counting_model",
        FAKE_LATENCY="0.3",
        FAKE_CALL_LOG=str(log),
        LONGDOC_CHUNK_SIZE="100",
        LONGDOC_CHUNK_OVERLAP="0",
        LONGDOC_MAX_CONCURRENCY="2",  # most map tasks wait for a slot when Ctrl-C comes
        LONGDOC_DATA_DIR=str(tmp_path / "data"),
    )
    child = start_interruptible(
        [str(LONGDOC), "ask", "doc.txt", "Who is the chief executive?"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not log.exists() or len(log.read_text().splitlines()) < 3:  # route + two reads
        assert time.monotonic() < deadline, "the fake model was never called"
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 130
    assert stderr == "Interrupted.\n"


def test_store_commands_create_list_and_delete_threads(tmp_path: Path) -> None:
    from pipeline import Settings, create_thread

    env = {**os.environ, "LONGDOC_DATA_DIR": str(tmp_path / "data")}
    made = runner.invoke(app, ["store", "init"], env=env)
    assert made.exit_code == 0, made.output
    assert "SQLite thread store ready" in made.output
    assert "recall index ready: SQLite in" in made.output
    assert (tmp_path / "data" / "memory.sqlite").exists()
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
