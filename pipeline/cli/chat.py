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
from pipeline.errors import InputError, LongdocError, NotFoundError
from pipeline.inputs import IMPORT_HINT
from pipeline.results import ImportResult
from pipeline.threads import chat, create_thread, get_thread, import_messages
from pipeline.types import DocumentText

HELP = "Commands: /summary (running summary), /history (every message), /exit."


def chat_command(
    thread: Annotated[
        str | None,
        typer.Option(
            metavar="ID",
            help="Continue thread ID, or start it if it does not exist yet; without it a "
            "new thread gets a fresh id.",
        ),
    ] = None,
    document: Annotated[
        list[Path] | None,
        typer.Option(metavar="FILE", help="Attach a document to every turn (repeatable)."),
    ] = None,
    history: Annotated[
        Path | None,
        typer.Option(
            "--import",
            metavar="FILE",
            help="First append earlier messages from a JSONL file: one JSON object a line "
            "with role, content and optionally name and created_at; all or none.",
        ),
    ] = None,
) -> None:
    """Chat on a persistent thread; attached documents are read when a question needs them."""
    out, err = Console(), Console(stderr=True)
    try:
        settings = Settings()
        documents = load_documents(document, settings) if document else None
        if history is not None:
            # An import makes its own thread, so a refused one leaves nothing behind.
            thread_id = thread or uuid.uuid4().hex
            done = _import(history, thread_id, settings)
            out.print(f"[dim]imported {done.imported:,} messages ({done.messages:,} in all)[/]")
            banner = f"thread {thread_id} ({done.messages:,} messages)"
        else:
            thread_id, banner = _open(thread, settings)
    except LongdocError as exc:
        print_error(err, exc)
        raise typer.Exit(EXIT_ERROR) from None
    out.print(f"[dim]{escape(banner)} — {HELP}[/]")
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


def _open(thread: str | None, settings: Settings) -> tuple[str, str]:
    """The thread id and the line that opens the chat.

    A named thread that does not exist yet starts on the first message, as `chat()` in
    the library does: naming a thread is how one starts a thread to come back to. The
    line says "new thread" or how many messages it holds, so a mistyped id shows at once.
    """
    if thread is None:
        thread = create_thread(settings=settings).thread_id
        return thread, f"new thread {thread}"
    try:
        messages = len(get_thread(thread, settings=settings).history)
    except NotFoundError:
        return thread, f"new thread {thread}"
    return thread, f"thread {thread} ({messages} message{'' if messages == 1 else 's'})"


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
    except NotFoundError:  # a named thread that starts with this chat has no message yet
        out.print("[dim](no messages yet)[/]")
    except LongdocError as exc:  # a bad turn is reported; the conversation goes on
        print_error(err, exc)
