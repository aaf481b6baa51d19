"""How a batch run looks in a terminal: a live Rich display, plain lines, or nothing."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from pipeline.batch import storage
from pipeline.batch.items import FileOutcome, Status

# How each status reads, in the plain lines and the closing table alike.
LABELS: dict[Status, str] = {"done": "done", "skipped": "up to date", "failed": "failed"}


class PlainDisplay:
    """One line per finished file: for logs, pipes and CI (`--quiet` prints none)."""

    def __init__(self, console: Console, total: int, quiet: bool) -> None:
        self.console = console
        self.total = total
        self.quiet = quiet
        self.finished = 0

    def __enter__(self) -> PlainDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __call__(self, event: dict[str, Any]) -> None:
        if event["event"] != "file_done" or self.quiet:
            return
        self.finished += 1
        outcome: FileOutcome = event["outcome"]
        reason = f": {outcome.error}" if outcome.error else ""
        if outcome.renamed_from:
            reason += f" (moved from {storage.name(outcome.renamed_from)})"
        self.console.print(
            f"[{self.finished}/{self.total}] {LABELS[outcome.status]} {outcome.source}{reason}",
            markup=False,
            highlight=False,
        )


class LiveDisplay:
    """Overall progress with ETA, each file in flight with its chunks, tokens, failures."""

    def __init__(self, console: Console, total: int) -> None:
        self.overall = Progress(
            TextColumn("[bold]files"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[tokens]:,} tokens, [red]{task.fields[failed]} failed"),
            console=console,
        )
        self.files = Progress(
            TextColumn("  {task.description}"), BarColumn(), MofNCompleteColumn(), console=console
        )
        self.task = self.overall.add_task("files", total=total, tokens=0, failed=0)
        self.in_flight: dict[str, TaskID] = {}
        self.tokens = 0
        self.failed = 0
        self.live = Live(Group(self.overall, self.files), console=console, refresh_per_second=8)

    def __enter__(self) -> LiveDisplay:
        self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.live.__exit__(None, None, None)

    def __call__(self, event: dict[str, Any]) -> None:
        source: str = event["source"]
        kind = event["event"]
        if kind == "file_start" and source not in self.in_flight:
            self.in_flight[source] = self.files.add_task(storage.name(source), total=None)
        elif kind == "split" and source in self.in_flight:
            self.files.update(self.in_flight[source], total=event["chunks"])
        elif kind == "chunk_done" and source in self.in_flight:
            self.files.update(self.in_flight[source], completed=event["done"])
        elif kind == "file_done":
            outcome: FileOutcome = event["outcome"]
            self.tokens += outcome.usage.input_tokens + outcome.usage.output_tokens
            self.failed += outcome.status == "failed"
            if source in self.in_flight:
                self.files.remove_task(self.in_flight.pop(source))
            self.overall.update(self.task, advance=1, tokens=self.tokens, failed=self.failed)


def summary_table(outcomes: list[FileOutcome], ignored: list[str]) -> Table:
    """The closing table: counts of done, up to date and failed, why each failure failed,
    and the files of the folders that were not read."""
    table = Table(title="longdoc summarize", show_lines=False)
    table.add_column("status")
    table.add_column("files", justify="right")
    table.add_column("details")
    for status in ("done", "skipped"):
        table.add_row(LABELS[status], str(sum(o.status == status for o in outcomes)), "")
    failed = [o for o in outcomes if o.status == "failed"]
    table.add_row(f"[red]{LABELS['failed']}", str(len(failed)), "")
    for outcome in failed:
        table.add_row("", "", escape(f"{storage.name(outcome.source)}: {outcome.error}"))
    moved = [o for o in outcomes if o.renamed_from is not None]
    if moved:
        table.add_row("renamed", str(len(moved)), "earlier summaries moved to NAME.summary.EXT")
    if ignored:
        table.add_row("not read", str(len(ignored)), "not text, Markdown, HTML, PDF, Word or EPUB")
        for path in ignored:
            table.add_row("", "", escape(storage.name(path)))
    return table
