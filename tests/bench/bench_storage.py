"""Thread store size per turn, and HTML load time by block count.

    python tests/bench/bench_storage.py [--turns 1000] [--postgres URL] [--document both|yes|no]
                                        [--skip-html]

Store: a thread of short chat turns on the fake model (no latency), with and without a
1 MB document attached to its first turn; prints the store's size at turns 10, 100 and
1,000 and the bytes each turn added since the previous mark (flat means the store grows
only by the turn's own messages). SQLite: the database file (freed pages are reused) and
the live bytes of the thread's rows; PostgreSQL (--postgres, or TEST_POSTGRES_URL): the
live bytes of its rows (checkpoints, blobs, writes).

HTML: pages of 1k, 10k and 100k blocks, nested <div>s and plain <p> paragraphs, read by
pipeline.documents.html (target: linear, 100k blocks in under 2 s), and for 1k and 10k by
the BeautifulSoup loader it replaced (block newlines inserted into the tree), in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import Settings, achat
from pipeline.documents.html import BLOCKS, html_text
from tests.support.fakes import FakeChatModel

MARKS = (10, 100, 1000)
DOCUMENT = "Grey clouds drift over the quiet harbour. " * 24_000 + "Acme was founded by Ada."


def live_bytes(settings: Settings, thread_id: str) -> int:
    """Bytes of the thread's rows: checkpoints and writes (and blobs on PostgreSQL)."""
    if settings.checkpoint_url:
        import psycopg

        with psycopg.connect(settings.checkpoint_url) as conn:
            total = 0
            for sql in (
                "SELECT coalesce(sum(octet_length(checkpoint::text) + "
                "octet_length(metadata::text)), 0) FROM checkpoints WHERE thread_id = %s",
                "SELECT coalesce(sum(octet_length(blob)), 0) FROM checkpoint_blobs "
                "WHERE thread_id = %s",
                "SELECT coalesce(sum(octet_length(blob)), 0) FROM checkpoint_writes "
                "WHERE thread_id = %s",
            ):
                row = conn.execute(sql, (thread_id,)).fetchone()
                total += int(row[0]) if row else 0
            return total
    with sqlite3.connect(settings.data_dir / "threads.sqlite") as conn:
        (rows,) = conn.execute(
            "SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints "
            "WHERE thread_id = ?",
            (thread_id,),
        ).fetchone()
        (writes,) = conn.execute(
            "SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = ?",
            (thread_id,),
        ).fetchone()
    return int(rows) + int(writes)


def file_bytes(settings: Settings) -> int | None:
    path = settings.data_dir / "threads.sqlite"
    return None if settings.checkpoint_url else path.stat().st_size


async def thread_sizes(settings: Settings, turns: int, with_document: bool) -> None:
    model = FakeChatModel()
    thread_id = uuid.uuid4().hex
    marks = [m for m in MARKS if m <= turns]
    previous: tuple[int, int, int | None] = (0, 0, 0)
    started = time.perf_counter()
    for n in range(1, turns + 1):
        document = DOCUMENT if with_document and n == 1 else None
        message = "Who founded Acme?" if document else f"Note {n}: crane {n} passed inspection."
        await achat(thread_id, message, documents=document, model=model, settings=settings)
        if n in marks:
            live, disk = live_bytes(settings, thread_id), file_bytes(settings)
            turns_since = n - previous[0]
            per_turn = (live - previous[1]) / turns_since
            disk_text = ""
            if disk is not None and previous[2] is not None:
                disk_text = (
                    f"  file {disk:>11,} B ({(disk - previous[2]) / turns_since:>8,.0f} B/turn)"
                )
            print(
                f"  turn {n:>5}: live {live:>11,} B ({per_turn:>8,.0f} B/turn){disk_text}"
                f"  [{time.perf_counter() - started:.1f} s]",
                flush=True,
            )
            previous = (n, live, disk)


def old_html_text(page: str) -> str:
    """The loader this replaced: BeautifulSoup, a newline inserted around every block."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page, "html.parser")
    for hidden in soup(["script", "style", "noscript", "template", "head"]):
        hidden.decompose()
    for block in soup.find_all(sorted(BLOCKS)):
        block.insert_before("\n")
        block.insert_after("\n")
    lines = (" ".join(line.split()) for line in soup.get_text().splitlines())
    return "\n".join(line for line in lines if line)


def pages(blocks: int) -> dict[str, str]:
    return {
        "nested <div>": "<html><body>" + "<div>x" * blocks + "</div>" * blocks + "</body></html>",
        "<p> paragraphs": "<html><body>"
        + "".join(f"<p>Paragraph {i} of the report says little.</p>" for i in range(blocks))
        + "</body></html>",
    }


def cpu_seconds(read: object, page: str) -> float:
    started = time.process_time()
    read(page)  # type: ignore[operator]
    return time.process_time() - started


def html_times() -> None:
    print("\nHTML load, CPU seconds (us per block)")
    for blocks in (1_000, 10_000, 100_000):
        for kind, page in pages(blocks).items():
            new = cpu_seconds(html_text, page)
            line = f"  {blocks:>7,} blocks, {kind:<15} {len(page) / 1e6:6.2f} MB: "
            line += f"new {new:7.3f} s ({new / blocks * 1e6:5.1f} us)"
            if blocks <= 10_000:
                old = cpu_seconds(old_html_text, page)
                line += f"   old {old:7.3f} s ({old / blocks * 1e6:7.1f} us, {old / new:,.0f}x)"
            print(line, flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--postgres", default=os.environ.get("TEST_POSTGRES_URL"))
    parser.add_argument("--skip-html", action="store_true")
    parser.add_argument("--document", choices=("both", "yes", "no"), default="both")
    args = parser.parse_args()
    stores: list[tuple[str, str | None]] = [("SQLite", None)]
    if args.postgres:
        stores.append(("PostgreSQL", args.postgres))
    print(f"Thread store, {args.turns} short turns on the fake model (document: 1 MB, turn 1)")
    for name, url in stores:
        for with_document in {"both": (False, True), "yes": (True,), "no": (False,)}[args.document]:
            with tempfile.TemporaryDirectory() as data:
                settings = Settings(data_dir=Path(data), checkpoint_url=url)
                print(f"{name}, {'with' if with_document else 'without'} a document:")
                await thread_sizes(settings, args.turns, with_document)
    if not args.skip_html:
        html_times()


if __name__ == "__main__":
    asyncio.run(main())
