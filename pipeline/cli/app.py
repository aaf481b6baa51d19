"""The `longdoc` command: a thin Typer + Rich shell over pipeline.service and pipeline.batch.

This module maps longdoc's error tree to `Error:` lines and exit codes, once for every command.
"""

from __future__ import annotations

import asyncio
import glob
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from pipeline.batch.items import BatchOptions
from pipeline.batch.plan import plan
from pipeline.batch.runner import preview, run_batch
from pipeline.cli.cache import cache_app
from pipeline.cli.chat import chat_command
from pipeline.cli.display import LiveDisplay, PlainDisplay, summary_table
from pipeline.cli.errors import EXIT_ERROR, EXIT_INTERRUPTED, print_error
from pipeline.cli.store import store_app
from pipeline.config import Settings
from pipeline.documents import Documents
from pipeline.errors import LongdocError
from pipeline.results import AskResult, Citation, Coverage, SummaryResult
from pipeline.service import ask, stream_ask, summarize

T = TypeVar("T")

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
    stream: Annotated[bool, typer.Option(help="Show live progress on stderr.")] = False,
) -> None:
    """Answer QUESTION from the documents at PATHS (- reads stdin), citing exact passages."""
    documents = [_stdin_document() if str(p) == "-" else p for p in paths]
    if stream:
        result = _run(lambda: asyncio.run(_ask_streaming(documents, question, Settings())))
    else:
        result = _run(lambda: ask(documents, question, settings=Settings()))
    if as_json:
        out.print_json(result.model_dump_json())
        return
    _print_answer(result)


@app.command("summarize")
def summarize_command(
    paths: Annotated[
        list[str],
        typer.Argument(help="Files, folders (recursive) or glob patterns.", metavar="PATH..."),
    ],
    out_dir: Annotated[
        str | None,
        typer.Option(
            "--out", help="Write one summary per file here, a folder or URL (needed for several)."
        ),
    ] = None,
    words: Annotated[int | None, typer.Option("--words", "--length", help="Target words.")] = None,
    instructions: Annotated[
        str | None, typer.Option(help="What the summary should focus on.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="Output format: md or json.")] = "md",
    concurrency: Annotated[
        int, typer.Option(min=1, help="Files in flight at once (per worker with ray).")
    ] = 2,
    executor: Annotated[
        str, typer.Option(help="Where files are summarized: local (this process) or ray.")
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="Ray cluster (host:port, auto); default LONGDOC_RAY_ADDRESS, else a "
            "new local Ray instance."
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Redo files whose summary is up to date.")] = False,
    dry_run: Annotated[bool, typer.Option(help="Only show what would be done.")] = False,
    quiet: Annotated[bool, typer.Option(help="Print only the closing table.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Summarize documents, citing the sentences used; with --out, a whole folder of them."""
    if fmt not in ("md", "json"):
        raise typer.BadParameter("must be md or json", param_hint="--format")
    if executor not in ("local", "ray"):
        raise typer.BadParameter("must be local or ray", param_hint="--executor")
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
        fmt="json" if fmt == "json" else "md",
        instructions=instructions,
        words=words,
        force=force,
        concurrency=concurrency,
        executor="ray" if executor == "ray" else "local",
        ray_address=ray_address or "",
    )
    raise typer.Exit(_run(lambda: _summarize_batch(paths, out_dir, options, dry_run, quiet)))


def _summarize_batch(
    paths: list[str], out_dir: str, options: BatchOptions, dry_run: bool, quiet: bool
) -> int:
    """Run (or with dry_run, list) a batch; exit code 1 if any file failed."""
    settings = Settings()
    items = plan(paths, out_dir, options.fmt)
    if dry_run:
        for item, current in preview(items, settings, options):
            state = "up to date" if current else "summarize"
            out.print(f"{state:<11} {item.source} -> {item.output}", markup=False, highlight=False)
        return 0
    live = out.is_terminal and not quiet
    display = LiveDisplay(err, len(items)) if live else PlainDisplay(out, len(items), quiet)
    with display:
        outcomes = asyncio.run(
            run_batch(items, out_dir, options, settings=settings, on_event=display)
        )
    out.print(summary_table(outcomes))
    return EXIT_ERROR if any(o.status == "failed" for o in outcomes) else 0


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
) -> None:
    """Run the HTTP API (see /docs on the server) with uvicorn."""
    import uvicorn  # imported here: ask and summarize start faster without it

    settings = _run(Settings)
    # In-flight requests get shutdown_timeout_s to finish on SIGTERM/SIGINT, then it exits.
    uvicorn.run(
        "api.app:create_app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        timeout_graceful_shutdown=int(settings.shutdown_timeout_s),
        log_level="info",
    )


app.command("chat")(chat_command)
app.add_typer(cache_app)
app.add_typer(store_app, name="store")


def _stdin_document() -> dict[str, str]:
    return {"id": "stdin", "text": sys.stdin.read()}


async def _ask_streaming(documents: Documents, question: str, settings: Settings) -> AskResult:
    """Run `ask` with a progress bar fed by the graph's progress events."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        bar = progress.add_task("routing", total=None)
        async for event in stream_ask(documents, question, settings=settings):
            if isinstance(event, AskResult):
                return event
            kind = event["event"]
            if kind == "split":
                progress.update(bar, description="reading chunks", total=event["chunks"])
            elif kind == "chunk_done":
                progress.update(bar, completed=event["done"])
            elif kind == "reduce":
                progress.update(bar, description=f"combining (round {event['round']})")
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
