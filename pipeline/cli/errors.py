"""How the command line shows longdoc's errors: `Error:` and a hint on stderr, fixed exit codes."""

from __future__ import annotations

import os

from rich.console import Console
from rich.markup import escape

from pipeline.errors import LongdocError

EXIT_ERROR = 1
EXIT_USAGE = 2  # Typer's own code for a bad command line
EXIT_INTERRUPTED = 130


def print_error(console: Console, exc: LongdocError) -> None:
    """`Error: message`, then `Hint: ...`; the traceback too with LONGDOC_DEBUG=1."""
    console.print(f"[bold red]Error:[/] {escape(exc.message)}")
    if exc.hint:
        console.print(f"[dim]Hint: {escape(exc.hint)}[/]")
    if os.environ.get("LONGDOC_DEBUG") == "1":
        console.print_exception()
