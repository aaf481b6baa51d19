"""The `longdoc` command: a thin Typer + Rich shell over pipeline.service."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from pipeline.config import Settings
from pipeline.errors import LongdocError
from pipeline.schemas import AskResult, Citation, Coverage, SummaryResult
from pipeline.service import ask, summarize

T = TypeVar("T")

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130

app = typer.Typer(
    name="longdoc",
    help="Ask questions of long documents and summarize them, with citations.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def _version(value: bool) -> None:
    if value:
        out.print(f"longdoc {version('longdoc')}")
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Ask questions of long documents and summarize them, with citations."""


@app.command("ask")
def ask_command(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Document files to read.", metavar="PATH...", show_default=False),
    ],
    question: Annotated[
        str, typer.Argument(help="The question to answer.", metavar="QUESTION", show_default=False)
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the AskResult as JSON.")] = False,
) -> None:
    """Answer QUESTION from the documents at PATHS, citing exact passages."""
    result = _run(lambda: ask(paths, question, settings=Settings()))
    if as_json:
        out.print_json(result.model_dump_json())
        return
    _print_answer(result)


@app.command("summarize")
def summarize_command(
    path: Annotated[
        Path, typer.Argument(help="Document file to summarize.", metavar="PATH", show_default=False)
    ],
    words: Annotated[int | None, typer.Option(help="Target length in words.")] = None,
    instructions: Annotated[
        str | None, typer.Option(help="What the summary should focus on.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Summarize the document at PATH, citing the sentences used."""
    result = _run(
        lambda: summarize(path, settings=Settings(), instructions=instructions, words=words)
    )
    if as_json:
        out.print_json(result.model_dump_json())
        return
    _print_summary(result)


def _run(action: Callable[[], T]) -> T:
    """Run a command body, mapping longdoc's error tree to `Error:` lines and exit codes."""
    try:
        return action()
    except LongdocError as exc:
        err.print(f"[bold red]Error:[/] {escape(exc.message)}")
        if exc.hint:
            err.print(f"[dim]Hint: {escape(exc.hint)}[/]")
        if os.environ.get("LONGDOC_DEBUG") == "1":
            err.print_exception()
        raise typer.Exit(EXIT_ERROR) from None
    except KeyboardInterrupt:
        err.print("Interrupted.")
        raise typer.Exit(EXIT_INTERRUPTED) from None


def _print_answer(result: AskResult) -> None:
    out.print(escape(result.answer))
    _print_citations(result.citations)
    _print_coverage(result.coverage)


def _print_summary(result: SummaryResult) -> None:
    out.print(escape(result.summary))
    _print_citations(result.citations)
    _print_coverage(result.coverage)


def _print_citations(citations: list[Citation]) -> None:
    if not citations:
        return
    out.print()
    for number, citation in enumerate(citations, start=1):
        page = f" p.{citation.page}" if citation.page else ""
        where = f"{citation.document}{page} [{citation.start}:{citation.end}]"
        quote = citation.quote if len(citation.quote) <= 200 else citation.quote[:197] + "..."
        out.print(f"[bold][{number}][/] [cyan]{escape(where)}[/] {escape(quote)!r}")


def _print_coverage(coverage: Coverage) -> None:
    line = f"read {coverage.read}/{coverage.chunks} chunks, {coverage.relevant} relevant"
    if coverage.failed:
        line += f", [red]{len(coverage.failed)} failed[/]"
    print_to = err if coverage.failed else out
    print_to.print(f"[dim]{line}[/]")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
