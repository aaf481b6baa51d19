"""Batch benchmark: files per second on the built-in engine, and scheduling against a bound.

    python tests/bench/bench_batch.py [--files 500] [--latency 0.3]

Part 1 summarizes `--files` generated files of 2-50 KB with the built-in engine at 1 and 4
files in flight and prints files/s. Part 2 runs 100 of them with a fake model that takes
`--latency` seconds per call and prints wall time over the critical-path bound

    max( total calls x L / max_concurrency,              the model-call cap
         sum of per-file paths / files in flight,          the file slots
         the longest per-file path )

where a file's path is (ceil(chunks / max_concurrency) + collapse rounds + 1) x L.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import Settings
from pipeline.batch.items import BatchOptions
from pipeline.batch.plan import plan
from pipeline.batch.runner import run_batch
from tests.support.fakes import FakeChatModel

WORDS = (
    "harbour vessel cargo crane tide engine survey sonar hull pilot berth anchor quay "
    "freight ledger audit revenue margin budget forecast contract clause tender council"
).split()


def make_files(root: Path, count: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    for i in range(count):
        size = rng.randint(2_000, 50_000)
        sentences = []
        while sum(len(s) + 1 for s in sentences) < size:
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))
            sentences.append(f"In {rng.randint(1950, 2024)} the {words}.")
        folder = root / f"set{i % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"file{i:04}.txt").write_text(" ".join(sentences), encoding="utf-8")


async def timed_batch(
    docs: Path,
    out: Path,
    concurrency: int,
    settings: Settings,
    model: Any = None,
    executor: str = "local",
) -> tuple[float, list[dict[str, Any]]]:
    items = plan([str(docs)], str(out), "md").items
    files: dict[Path, dict[str, Any]] = {}

    def record(event: dict[str, Any]) -> None:
        info = files.setdefault(event["source"], {"chunks": 0, "rounds": []})
        if event["event"] == "split":
            info["chunks"] = event["chunks"]
        elif event["event"] == "reduce":
            info["rounds"].append(event["merges"])

    started = time.perf_counter()
    outcomes = await run_batch(
        items,
        str(out),
        BatchOptions(concurrency=concurrency, executor=executor),
        settings=settings,
        model=model,
        on_event=record,
    )
    wall = time.perf_counter() - started
    assert all(o.status == "done" for o in outcomes), [o.error for o in outcomes if o.error]
    for outcome in outcomes:
        files[outcome.source]["calls"] = outcome.usage.calls
    return wall, list(files.values())


def bound(files: list[dict[str, Any]], latency: float, cap: int, slots: int) -> float:
    paths = [
        (math.ceil(f["chunks"] / cap) + sum(math.ceil(g / cap) for g in f["rounds"]) + 1) * latency
        for f in files
    ]
    calls = sum(f["calls"] for f in files)
    return max(calls * latency / cap, sum(paths) / slots, max(paths))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--latency", type=float, default=0.3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_files(root / "docs", args.files)
        size = sum(p.stat().st_size for p in (root / "docs").rglob("*.txt"))
        print(f"{args.files} files, {size / 1e6:.1f} MB, built-in engine")
        for concurrency in (1, 4):
            wall, _ = await timed_batch(
                root / "docs", root / f"out{concurrency}", concurrency, Settings()
            )
            print(f"  concurrency {concurrency}: {wall:.1f} s, {args.files / wall:.1f} files/s")

        make_files(root / "few", 100, seed=6)
        settings = Settings(max_concurrency=8)
        model = FakeChatModel(latency=args.latency)
        slots = 16
        wall, files = await timed_batch(root / "few", root / "outfake", slots, settings, model)
        ideal = bound(files, args.latency, settings.max_concurrency, slots)
        print(
            f"100 files, fake model {args.latency} s/call, {slots} files in flight, "
            f"max_concurrency {settings.max_concurrency}: wall {wall:.1f} s, bound {ideal:.1f} s, "
            f"ratio {wall / ideal:.2f}"
        )


if __name__ == "__main__":
    asyncio.run(main())
