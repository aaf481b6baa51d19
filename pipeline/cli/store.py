"""`longdoc store`: create the thread store's tables, list its threads, delete one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Annotated, TypeVar

import typer
from rich.console import Console

from pipeline.cli.errors import EXIT_ERROR, print_error
from pipeline.cli.help import Command, Group
from pipeline.config import Settings
from pipeline.errors import LongdocError
from pipeline.storage.checkpoint import POSTGRES_SCHEMES, init_store
from pipeline.storage.memory_store import STORE_FILE, open_store
from pipeline.threads import delete_thread, list_threads

T = TypeVar("T")

store_app = typer.Typer(
    cls=Group,
    help="The thread store named by LONGDOC_CHECKPOINT_URL (SQLite when unset).",
    no_args_is_help=True,
)
out = Console(soft_wrap=True, highlight=False)
err = Console(stderr=True, soft_wrap=True)


@store_app.command("init", cls=Command)
def init_command() -> None:
    """Create the store's tables (DynamoDB: the table and S3 bucket); safe to run again."""
    for line in _run(lambda: asyncio.run(_init(Settings()))):
        out.print(line, markup=False)


async def _init(settings: Settings) -> list[str]:
    """The thread store's tables, then the recall index's (SQLite beside them or PostgreSQL)."""
    done = await init_store(settings)
    async with open_store(settings):  # opening runs the store's setup()
        pass
    where = settings.checkpoint_url or ""
    place = (
        f"PostgreSQL at {where.split('@')[-1]}"
        if where.startswith(POSTGRES_SCHEMES)
        else (f"SQLite in {settings.data_dir / STORE_FILE}")
    )
    return [*done, f"recall index ready: {place}"]


@store_app.command("list", cls=Command)
def list_command() -> None:
    """Print every thread id, one a line, in order."""
    settings = _run(Settings)
    after: str | None = None
    while True:
        page = _run(partial(list_threads, after=after, limit=1000, settings=settings))
        for thread_id in page.threads:
            out.print(thread_id, markup=False)
        if page.next_after is None:
            return
        after = page.next_after


@store_app.command("delete", cls=Command)
def delete_command(
    thread: Annotated[
        str, typer.Argument(help="The thread to delete.", metavar="THREAD", show_default=False)
    ],
) -> None:
    """Delete a thread and every checkpoint of it."""
    _run(lambda: delete_thread(thread, settings=Settings()))
    out.print(f"deleted thread {thread}", markup=False)


def _run(action: Callable[[], T]) -> T:
    """The action's result; longdoc's errors as `Error:` lines and exit code 1."""
    try:
        return action()
    except LongdocError as exc:
        print_error(err, exc)
        raise typer.Exit(EXIT_ERROR) from None
