"""`longdoc cache stats` and `longdoc cache clear`: look at and empty the chunk-result cache."""

from __future__ import annotations

import typer
from rich.console import Console

from pipeline.cache import ChunkCache, open_chunk_cache
from pipeline.cli.errors import EXIT_ERROR, print_error
from pipeline.cli.help import Command
from pipeline.config import Settings
from pipeline.errors import LongdocError

cache_app = typer.Typer(
    name="cache",
    help="Look at or empty the chunk-result cache (LONGDOC_CACHE, LONGDOC_CACHE_MAX_MB).",
    no_args_is_help=True,
)


@cache_app.command("stats", cls=Command)
def stats_command() -> None:
    """Where the cache is, how many readings it holds, their size and how often they were hit."""
    cache = _cache()
    try:
        stats = cache.stats()
    except LongdocError as exc:
        print_error(Console(stderr=True), exc)
        raise typer.Exit(EXIT_ERROR) from None
    out = Console(soft_wrap=True)
    out.print(f"cache    {stats.where}", markup=False, highlight=False)
    out.print(f"readings {stats.entries:,}", highlight=False)
    share = stats.bytes / stats.max_bytes if stats.max_bytes else 0.0
    out.print(
        f"size     {stats.bytes / 1e6:,.1f} MB of {stats.max_bytes / 1e6:,.0f} MB ({share:.0%})",
        highlight=False,
    )
    out.print(f"hits     {stats.hits:,}", highlight=False)


@cache_app.command("clear", cls=Command)
def clear_command() -> None:
    """Drop every cached reading (the next runs read every chunk again)."""
    cache = _cache()
    try:
        dropped = cache.clear()
    except LongdocError as exc:
        print_error(Console(stderr=True), exc)
        raise typer.Exit(EXIT_ERROR) from None
    Console().print(f"dropped {dropped:,} cached readings from {cache.database.where}")


def _cache() -> ChunkCache:
    try:
        cache = open_chunk_cache(Settings())
    except LongdocError as exc:
        print_error(Console(stderr=True), exc)
        raise typer.Exit(EXIT_ERROR) from None
    if cache is None:
        Console(stderr=True).print("The chunk cache is off (LONGDOC_CACHE=off).")
        raise typer.Exit(EXIT_ERROR)
    return cache
