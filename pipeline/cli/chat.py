"""`longdoc chat`: an interactive conversation on a persistent thread with compressed memory."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from pipeline.cli.errors import EXIT_ERROR, print_error
from pipeline.config import Settings
from pipeline.documents import load_documents
from pipeline.errors import InputError, LongdocError
from pipeline.inputs import IMPORT_HINT
from pipeline.results import ImportResult
from pipeline.threads import chat, create_thread, get_thread, import_messages
from pipeline.types import DocumentText

HELP = "Commands: /summary (running summary), /history (every message), /exit."


def chat_command(
    thread: Annotated[
        str | None, typer.Option(help="Continue this thread; a new one is made without it.")
    ] = None,
    document: Annotated[
        list[Path] | None, typer.Option(help="Attach a document to every turn (repeatable).")
    ] = None,
    history: Annotated[
        Path | None,
        typer.Option(
            "--import",
            help="First append earlier messages from a JSONL file, one "
            '{"role", "content", "name"?, "created_at"?} per line; all or none.',
        ),
    ] = None,
) -> None:
    """Chat on a persistent thread; attached documents are read when a question needs them."""
    out, err = Console(), Console(stderr=True)
    settings = Settings()
    try:
        documents = load_documents(document, settings) if document else None
        # An import makes its own thread, so a refused one leaves nothing behind.
        fresh = uuid.uuid4().hex if history is not None else None
        thread_id = thread or fresh or create_thread(settings=settings).thread_id
        if thread:
            get_thread(thread_id, settings=settings)  # fail now, not after the first message
        if history is not None:
            done = _import(history, thread_id, settings)
            out.print(f"[dim]imported {done.imported:,} messages ({done.messages:,} in all)[/]")
    except LongdocError as exc:
        print_error(err, exc)
        raise typer.Exit(EXIT_ERROR) from None
    out.print(f"[dim]thread {thread_id} — {HELP}[/]")
    while True:
        try:
            line = out.input("[bold]you>[/] ").strip()
        except (EOFError, KeyboardInterrupt):
            out.print()
            return
        if not line:
            continue
        if line in ("/exit", "/quit"):
            return
        _turn(out, err, thread_id, line, documents, settings)


def _import(path: Path, thread_id: str, settings: Settings) -> ImportResult:
    """Import the file's messages; a bad line is reported by its line number."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}", hint="Pass a UTF-8 JSONL file.") from None
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    messages = []
    for number, line in numbered:
        try:
            messages.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path} line {number} is not JSON: {exc.msg}", hint=IMPORT_HINT
            ) from None
    try:
        return import_messages(thread_id, messages, settings=settings)
    except InputError as exc:
        found = re.match(r"message (\d+)", exc.message)
        if found and int(found.group(1)) < len(numbered):
            exc.message += f" ({path} line {numbered[int(found.group(1))][0]})"
        raise


def _turn(
    out: Console,
    err: Console,
    thread_id: str,
    line: str,
    documents: list[DocumentText] | None,
    settings: Settings,
) -> None:
    try:
        if line == "/summary":
            summary = get_thread(thread_id, settings=settings).summary
            out.print(escape(summary) or "[dim](no summary yet: nothing has been folded)[/]")
        elif line == "/history":
            for message in get_thread(thread_id, settings=settings).history:
                out.print(f"[bold]{message.role}>[/] {escape(message.content)}")
        elif line.startswith("/"):
            out.print(f"[dim]{HELP}[/]")
        else:
            result = chat(thread_id, line, documents=documents, settings=settings)
            out.print(f"[bold cyan]longdoc>[/] {escape(result.reply)}")
            for number, c in enumerate(result.citations, start=1):
                out.print(f"  [dim][{number}] {escape(c.document)} [{c.start}:{c.end}][/]")
            if result.recalled:
                out.print(f"[dim](recalled {len(result.recalled)} earlier messages)[/]")
            if result.compressed:
                out.print("[dim](older messages were folded into the running summary)[/]")
    except LongdocError as exc:  # a bad turn is reported; the conversation goes on
        print_error(err, exc)
