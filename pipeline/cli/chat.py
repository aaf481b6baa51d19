"""`longdoc chat`: an interactive conversation on a persistent thread with compressed memory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from pipeline.cli.errors import EXIT_ERROR, print_error
from pipeline.config import Settings
from pipeline.documents import load_documents
from pipeline.errors import LongdocError
from pipeline.threads import chat, create_thread, get_thread
from pipeline.types import DocumentText

HELP = "Commands: /summary (running summary), /history (every message), /exit."


def chat_command(
    thread: Annotated[
        str | None, typer.Option(help="Continue this thread; a new one is made without it.")
    ] = None,
    document: Annotated[
        list[Path] | None, typer.Option(help="Attach a document to every turn (repeatable).")
    ] = None,
) -> None:
    """Chat on a persistent thread; attached documents are read when a question needs them."""
    out, err = Console(), Console(stderr=True)
    settings = Settings()
    try:
        documents = load_documents(document, settings) if document else None
        thread_id = thread or create_thread(settings=settings).thread_id
        if thread:
            get_thread(thread_id, settings=settings)  # fail now, not after the first message
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
            if result.compressed:
                out.print("[dim](older messages were folded into the running summary)[/]")
    except LongdocError as exc:  # a bad turn is reported; the conversation goes on
        print_error(err, exc)
