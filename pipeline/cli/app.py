"""The `longdoc` command: a thin Typer + Rich shell over pipeline.service and pipeline.batch.

This module maps longdoc's error tree to `Error:` lines and exit codes, once for every command.
"""

from __future__ import annotations

import asyncio
import glob
import os
import sys
import warnings
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from pipeline.batch.items import BatchOptions, Executor, Format
from pipeline.batch.plan import plan
from pipeline.batch.runner import preview, run_batch
from pipeline.batch.storage import name
from pipeline.cli.cache import cache_app
from pipeline.cli.chat import chat_command
from pipeline.cli.display import LABELS, LiveDisplay, PlainDisplay, summary_table
from pipeline.cli.errors import EXIT_ERROR, EXIT_INTERRUPTED, print_error
from pipeline.cli.help import Command, Group
from pipeline.cli.progress import AskProgress
from pipeline.cli.store import store_app
from pipeline.config import ENV_PREFIX, Settings
from pipeline.documents import Documents
from pipeline.engines.factory import make_engine
from pipeline.errors import LongdocError
from pipeline.results import AskResult, Citation, Coverage, SummaryResult
from pipeline.service import ask, stream_ask, summarize

T = TypeVar("T")

app = typer.Typer(
    cls=Group,
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
    # Ctrl-C cancels LangGraph tasks still waiting for a concurrency slot; LangGraph made
    # each one's coroutine up front, and Python warns about it as the run is torn down.
    # Nothing is lost (the run is abandoned), so the warning would only confuse.
    warnings.filterwarnings(
        "ignore", "coroutine 'arun_with_retry' was never awaited", RuntimeWarning
    )


EXAMPLE = 'longdoc ask report.pdf "What was revenue in 2024?"'


@app.command("ask", cls=Command, context_settings={"ignore_unknown_options": True})
def ask_command(
    ctx: typer.Context,
    # Both optional here so a forgotten question gets its own message, not click's
    # "Missing argument 'PATH...'" (it hands a lone argument to QUESTION).
    paths: Annotated[
        list[str] | None,
        typer.Argument(help="Document files to read; - reads stdin.", metavar="PATH..."),
    ] = None,
    question: Annotated[
        str | None, typer.Argument(help="The question to answer.", metavar="QUESTION")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the AskResult as JSON.")] = False,
    stream: Annotated[bool, typer.Option("--stream", help="Show progress on stderr.")] = False,
) -> None:
    """Answer QUESTION from the documents at PATH..., citing exact passages."""
    if question is None:
        ctx.fail(f"give the documents and then the question, e.g. {EXAMPLE}")
    if not paths:
        lone = question
        if lone == "-" or Path(lone).exists():
            ctx.fail(f"the question is missing: put it after the files, e.g. {EXAMPLE}")
        ctx.fail(f"no document given: put the files before the question, e.g. {EXAMPLE}")
    # Unknown options come through as arguments, so that a question may start with one
    # ('-k option?'); one among the files, or a lone '--word' last, is a mistyped option.
    mistyped = [p for p in paths if p.startswith("-") and p != "-" and not Path(p).exists()]
    if question.startswith("--") and not question.split()[1:]:
        mistyped.append(question)
    if mistyped:
        ctx.fail(f"no such option: {mistyped[0]} (see longdoc ask --help)")
    documents = [_stdin_document() if p == "-" else Path(p) for p in paths]
    if stream:
        result = _run(lambda: asyncio.run(_ask_streaming(documents, question, Settings())))
    else:
        result = _run(lambda: ask(documents, question, settings=Settings()))
    if as_json:
        out.print_json(result.model_dump_json())
    else:
        _print_answer(result)


WORDS_DEFAULT = f"LONGDOC_SUMMARY_WORDS, else {Settings.model_fields['summary_words'].default}"


@app.command("summarize", cls=Command)
def summarize_command(
    paths: Annotated[
        list[str],
        typer.Argument(help="Files, folders (recursive) or glob patterns.", metavar="PATH..."),
    ],
    out_dir: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Write one summary per file here, a folder or URL (needed for several).",
        ),
    ] = None,
    words: Annotated[
        int | None,
        typer.Option(
            "--words", "--length", metavar="N", help="Target words.", show_default=WORDS_DEFAULT
        ),
    ] = None,
    instructions: Annotated[
        str | None, typer.Option(metavar="TEXT", help="What the summary should focus on.")
    ] = None,
    fmt: Annotated[
        Format, typer.Option("--format", metavar="md|json", help="Output format.")
    ] = "md",
    concurrency: Annotated[
        int, typer.Option(min=1, metavar="N", help="Files in flight at once (per worker with ray).")
    ] = 2,
    executor: Annotated[
        Executor,
        typer.Option(
            metavar="local|ray", help="Where files are summarized: local (this process) or ray."
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            metavar="HOST:PORT",
            help="Ray cluster (host:port, auto); default LONGDOC_RAY_ADDRESS, else a "
            "new local Ray instance.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Redo files whose summary is up to date.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only show what would be done.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="Print only the closing table.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Summarize documents, citing the sentences used; with --out, a whole folder of them."""
    if out_dir is None and (executor != "local" or ray_address is not None):
        raise typer.BadParameter("--executor and --ray-address need --out DIR", param_hint="--out")
    if out_dir is None:
        single = len(paths) == 1 and not glob.has_magic(paths[0]) and not Path(paths[0]).is_dir()
        if not single or dry_run:
            raise typer.BadParameter(
                "give --out DIR to summarize several files", param_hint="--out"
            )
        result = _run(
            lambda: summarize(
                Path(paths[0]), settings=Settings(), instructions=instructions, words=words
            )
        )
        if as_json:
            out.print_json(result.model_dump_json())
        else:
            _print_summary(result)
        return
    options = BatchOptions(
        fmt=fmt,
        instructions=instructions,
        words=words,
        force=force,
        concurrency=concurrency,
        executor=executor,
        ray_address=ray_address or "",
    )
    raise typer.Exit(_run(lambda: _summarize_batch(paths, out_dir, options, dry_run, quiet)))


def _summarize_batch(
    paths: list[str], out_dir: str, options: BatchOptions, dry_run: bool, quiet: bool
) -> int:
    """Run (or with dry_run, list) a batch; exit code 1 if any file failed."""
    settings = Settings()
    batch = plan(paths, out_dir, options.fmt)
    for path in batch.ignored:
        if not quiet:
            err.print(f"not read (not a document type): {path}", markup=False, highlight=False)
    if dry_run:
        for item, current, earlier in preview(batch.items, out_dir, settings, options):
            state = LABELS["skipped"] if current else "summarize"
            moved = f" (moved from {name(earlier)})" if earlier else ""
            line = f"{state:<11} {item.source} -> {item.output}{moved}"
            out.print(line, markup=False, highlight=False)
        return 0
    total = len(batch.items)
    live = out.is_terminal and not quiet
    display = LiveDisplay(err, total) if live else PlainDisplay(out, total, quiet)
    with display:
        outcomes = asyncio.run(
            run_batch(batch.items, out_dir, options, settings=settings, on_event=display)
        )
    out.print(summary_table(outcomes, batch.ignored))
    return EXIT_ERROR if any(o.status == "failed" for o in outcomes) else 0


@app.command("serve", cls=Command)
def serve_command(
    host: Annotated[str, typer.Option(metavar="ADDRESS", help="Address to listen on.")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(metavar="PORT", help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(min=1, metavar="N", help="Worker processes.")] = 1,
) -> None:
    """Run the HTTP API (see /docs on the server) with uvicorn."""
    import uvicorn  # imported here: ask and summarize start faster without it

    if workers == 1:  # one server process reads long documents on every core, unless told
        os.environ.setdefault(f"{ENV_PREFIX}READER_PROCESSES", "0")
    settings = _run(Settings)
    # The model settings too, here, so a bad one is an `Error:` line rather than the
    # traceback uvicorn prints when the app factory raises.
    _run(lambda: make_engine(None, settings))
    # In-flight requests get shutdown_timeout_s to finish on SIGTERM/SIGINT, then it exits.
    uvicorn.run(
        "api.app:create_app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        timeout_graceful_shutdown=int(settings.shutdown_timeout_s),
        log_level="info",
        # uvicorn's httptools protocol with header limits and JSON framing errors; named,
        # not imported: pipeline/ never imports api/.
        http="api.server:LongdocHttpProtocol",
    )


app.command("chat", cls=Command)(chat_command)
app.add_typer(cache_app)
app.add_typer(store_app, name="store")


def _stdin_document() -> dict[str, str]:
    return {"id": "stdin", "text": sys.stdin.read()}


async def _ask_streaming(documents: Documents, question: str, settings: Settings) -> AskResult:
    """Run `ask`, showing its progress events on stderr as they come."""
    with AskProgress(err) as show:
        async for event in stream_ask(documents, question, settings=settings):
            if isinstance(event, AskResult):
                return event
            show(event)
    raise RuntimeError("the graph ended without a result")  # pragma: no cover


def _run(action: Callable[[], T]) -> T:
    """Run a command body, mapping longdoc's error tree to `Error:` lines and exit codes."""
    try:
        return action()
    except LongdocError as exc:
        print_error(err, exc)
        raise typer.Exit(EXIT_ERROR) from None
    except KeyboardInterrupt:
        err.print("Interrupted.")
        raise typer.Exit(EXIT_INTERRUPTED) from None


def _print_answer(result: AskResult) -> None:
    out.print(escape(result.answer))
    if result.missing_terms:
        out.print(f"[yellow]Caution: {escape(caution(result.missing_terms))}[/]")
    _print_citations(result.citations)
    _print_coverage(result.coverage)


def caution(missing: list[str]) -> str:
    """The warning shown with an answer whose evidence lacks some of the question's names."""
    names = ", ".join(f"'{term}'" for term in missing)
    return f"the cited text does not mention {names}; the answer may be about something else."


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
        out.print(f"[bold][{number}][/] [cyan]{escape(where)}[/] {escape(repr(quote))}")


def _print_coverage(coverage: Coverage) -> None:
    line = f"read {coverage.read}/{coverage.chunks} chunks, {coverage.relevant} relevant"
    if coverage.skimmed:  # a skimmed chunk was looked at for the question's terms, not read
        closely = coverage.read - coverage.skimmed
        line = (
            f"read {closely}/{coverage.chunks} chunks closely, skimmed past {coverage.skimmed} "
            f"(the question's terms gather elsewhere), {coverage.relevant} relevant"
        )
    if not coverage.failed:
        out.print(f"[dim]{line}[/]")
        return
    # On stderr, so a script reading stdout still gets the answer alone.
    failed = len(coverage.failed)
    err.print(
        f"[bold yellow]Incomplete:[/] {failed} of {coverage.chunks} chunks could not be read, "
        f"so this rests on the rest ({line})."
    )
    for chunk in coverage.failed[:3]:
        err.print(f"[dim]  chunk {chunk.chunk}: {escape(chunk.error)}[/]")
    if failed > 3:
        err.print(f"[dim]  ... and {failed - 3} more[/]")
