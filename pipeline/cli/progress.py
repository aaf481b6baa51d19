"""How `ask --stream` shows a run's progress on stderr: a live bar, or plain lines when piped."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn


class AskProgress:
    """Feeds the graph's progress events to a Rich bar on a terminal, else to plain lines.

    A live bar redraws in place, which a pipe or a log file cannot show: it would keep
    only the blank lines the bar leaves behind. Piped, each step is one line instead.
    """

    def __init__(self, console: Console) -> None:
        self.console = console
        self.live = console.is_terminal
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
        self.bar = Progress(*columns, console=console, transient=True)
        self.task: TaskID | None = None

    def __enter__(self) -> AskProgress:
        if self.live:
            self.bar.__enter__()
            self.task = self.bar.add_task("routing", total=None)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live:
            self.bar.__exit__(None, None, None)

    def __call__(self, event: dict[str, Any]) -> None:
        if self.live and self.task is not None and event["event"] == "rate_limited":
            self.bar.console.print(_line(event), markup=False, highlight=False)  # above the bar
        elif self.live and self.task is not None:
            self._update_bar(self.task, event)
        elif line := _line(event):
            self.console.print(line, markup=False, highlight=False)

    def _update_bar(self, task: TaskID, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "split":
            self.bar.update(task, description="reading chunks", total=event["chunks"])
        elif kind == "chunk_done":
            self.bar.update(task, completed=event["done"])
        elif kind == "reduce":
            self.bar.update(task, description=f"combining (round {event['round']})")


def _line(event: dict[str, Any]) -> str | None:
    """One plain line per step, e.g. "read 3 of 12" or "read 4 of 12 (chunk 7 failed)"."""
    kind = event["event"]
    if kind == "route":
        return f"routed to {event['mode']} mode"
    if kind == "split":
        chunks = event["chunks"]
        return f"split into {chunks} chunk{'' if chunks == 1 else 's'}"
    if kind == "chunk_done":
        failed = "" if event["ok"] else f" (chunk {event['chunk']} failed)"
        return f"read {event['done']} of {event['total']}{failed}"
    if kind == "reduce":
        return f"combining findings (round {event['round']})"
    if kind == "answer":
        return "writing the answer"
    if kind == "rate_limited":  # e.g. "local-model refused a call (429): now 3 calls at once"
        pause = f", new calls paused {event['pause_s']:g} s" if event["pause_s"] else ""
        return (
            f"{event['model']} refused a call ({event['status']}): "
            f"now {event['limit']} calls at once{pause}"
        )
    return None
