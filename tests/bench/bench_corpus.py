"""Corpus-scale benchmark: model calls saved by the chunk cache, and batch throughput on Ray.

    python tests/bench/bench_corpus.py [--files 2000] [--rounds 3] [--latency 0.2] [--skip-ray]
                                       [--fake-only]

Part 1 asks about a ~100-chunk document on a fake model (cache in a fresh data directory):
the same question twice, a different question, then the first question after one-paragraph
edits at the start, middle and end (a paragraph inserted; a sentence added to one), printing
model calls for each. It also counts the chunks each edit changes under this splitter and
under the one before it (semantic-text-splitter packing greedily from the start).

Part 2 summarizes `--files` generated files of 10-50 KB with the built-in engine, on the
local executor (one process, 4 files in flight) and on a local Ray instance with 2 CPUs
(started, and its workers started by a first small batch, before the clock starts), in
`--rounds` alternating rounds, and prints files/s and the ratios; then 100 files on a fake
model of fixed latency on Ray, wall time over the critical-path bound of
tests/bench/bench_batch.py (files in flight: 2 workers x --concurrency; the cluster-wide
call limit 8), each round beside the local executor with as many files in flight.

Part 3 turns the measured per-file cost into what 1,000,000 files cost on 10 machines.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from semantic_text_splitter import TextSplitter

from pipeline import Settings, aask, prompts
from pipeline.batch.items import BatchOptions
from pipeline.batch.plan import plan
from pipeline.batch.runner import run_batch
from pipeline.graph.chunking import split_documents
from pipeline.text.tokens import chars_per_token
from pipeline.types import DocumentText
from tests.bench.bench_batch import bound, timed_batch
from tests.support import REPO
from tests.support.fakes import FakeChatModel

CITIES = ["Bergen", "Oslo", "Tromso", "Stavanger", "Bodo", "Alesund", "Narvik", "Molde"]
WORDS = (
    "harbour vessel cargo crane tide engine survey sonar hull pilot berth anchor quay "
    "freight ledger audit revenue margin budget forecast contract clause tender council"
).split()


def paragraph(rng: random.Random, number: int) -> str:
    return " ".join(
        f"Crane {number} lifted {rng.randint(10, 999)} boxes in {rng.choice(CITIES)} "
        f"while the {' '.join(rng.choice(WORDS) for _ in range(rng.randint(6, 14)))}."
        for _ in range(rng.randint(3, 7))
    )


def old_chunks(text: str, settings: Settings) -> list[str]:
    """The splitter before content-defined boundaries: fixed sizes, greedy from the start."""
    ratio = chars_per_token(text)
    splitter = TextSplitter(
        max(1, int(settings.chunk_size * ratio)),
        overlap=int(settings.chunk_overlap * ratio),
        trim=False,
    )
    return [piece for _, piece in splitter.chunk_indices(text) if piece.strip()]


def new_chunks(text: str, settings: Settings) -> list[str]:
    return [c["text"] for c in split_documents([DocumentText(id="doc", text=text)], settings)]


def changed(before: list[str], after: list[str]) -> int:
    """Chunks of `after` whose text no chunk of `before` had: the ones read again."""
    old = set(before)
    return sum(piece not in old for piece in after)


def edited(paras: list[str]) -> dict[str, str]:
    """One-paragraph edits at the start, middle and end: a paragraph inserted, or grown by
    a sentence (the edit that shifts every later cut of a greedy splitter)."""
    extra = paragraph(random.Random(99), 999)
    sentence = " The quay was closed for repairs that week."
    middle = len(paras) // 2
    edits = {}
    for where, at in (("start", 0), ("middle", middle), ("end", len(paras) - 1)):
        inserted = [*paras[:at], extra, *paras[at:]] if where != "end" else [*paras, extra]
        grown = [*paras[:at], paras[at] + sentence, *paras[at + 1 :]]
        edits[f"paragraph inserted at {where}"] = "\n\n".join(inserted)
        edits[f"sentence added at {where}"] = "\n\n".join(grown)
    return edits


async def cache_part(data_dir: Path) -> None:
    rng = random.Random(18)
    paras = [paragraph(rng, n) for n in range(200)]
    settings = Settings(chunk_size=400, chunk_overlap=0, data_dir=data_dir, retry_initial_s=0.0)
    text = "\n\n".join(paras)
    chunks = len(new_chunks(text, settings))
    question, other = "Where did crane 7 lift boxes?", "How many boxes did crane 40 lift?"
    edits = edited(paras)
    print(f"cache: one document of {len(text) / 1000:.0f} KB, {chunks} chunks, fake model")
    runs = [
        ("first ask", text, question),
        ("same question again", text, question),
        ("a different question", text, other),
        *((name, body, question) for name, body in edits.items()),
    ]
    for name, body, q in runs:
        model = FakeChatModel()
        result = await aask(body, q, model=model, settings=settings)
        reads = sum(prompts.EXCERPT_LABEL in p for p in model.prompts)
        print(
            f"  {name:<28} model calls {len(model.prompts):>4} (chunk reads {reads:>3}, "
            f"cached {result.usage.cached_reads:>3} of {result.coverage.chunks})"
        )
    before = len(old_chunks(text, settings))
    print(f"  chunks whose text changed, this splitter ({chunks}) vs the greedy one ({before}):")
    for name, body in edits.items():
        new = changed(new_chunks(text, settings), new_chunks(body, settings))
        old = changed(old_chunks(text, settings), old_chunks(body, settings))
        print(f"    {name:<28} {new:>3} vs {old:>3}")


def make_files(root: Path, count: int, seed: int = 7) -> int:
    rng = random.Random(seed)
    total = 0
    for i in range(count):
        size = rng.randint(10_000, 50_000)
        sentences: list[str] = []
        length = 0
        while length < size:
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))
            sentences.append(f"In {rng.randint(1950, 2024)} the {words}.")
            length += len(sentences[-1]) + 1
        folder = root / f"set{i % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"file{i:05}.txt").write_text(" ".join(sentences), encoding="utf-8")
        total += length
    return total


def start_ray() -> float:
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # loopback only
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Ray starts its workers at niceness 15; on a machine shared with other work at 0 that
    # would measure the OS's priorities, not the executors. The local executor runs at 0.
    os.environ["RAY_worker_niceness"] = "0"  # noqa: SIM112 (Ray spells it so)
    # Workers unpickle the fake model from tests/, so they need the repository on the path.
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    import ray

    started = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    return time.perf_counter() - started


async def batch_seconds(docs: Path, out: Path, options: BatchOptions, settings: Settings) -> float:
    items = plan([str(docs)], str(out), "md").items
    started = time.perf_counter()
    outcomes = await run_batch(items, str(out), options, settings=settings)
    wall = time.perf_counter() - started
    assert all(o.status == "done" for o in outcomes), [o.error for o in outcomes if o.error][:3]
    return wall


def worker_cpu_s() -> float:
    """CPU seconds the warm Ray workers have used so far (each asked for its own)."""
    import ray

    from pipeline.batch import ray_pool

    assert ray_pool._warm is not None
    workers = ray_pool._warm.workers
    return sum(ray.get([w.__ray_call__.remote(lambda _: time.process_time()) for w in workers]))


async def cpu_and_wall(
    docs: Path, out: Path, options: BatchOptions, settings: Settings
) -> tuple[float, float]:
    """Wall seconds, and CPU seconds of the driver and (on Ray) the workers."""
    ray_side = options.executor == "ray"
    before = time.process_time() + (worker_cpu_s() if ray_side else 0.0)
    wall = await batch_seconds(docs, out, options, settings)
    after = time.process_time() + (worker_cpu_s() if ray_side else 0.0)
    return wall, after - before


async def batch_part(
    root: Path, files: int, latency: float, concurrency: int, rounds: int
) -> float:
    size = make_files(root / "docs", files)
    settings = Settings(cache="off", data_dir=root / "data")  # measure reading, not reuse
    print(f"batch: {files} files, {size / 1e6:.1f} MB, built-in engine, load {os.getloadavg()}")
    up = start_ray()
    print(f"  ray.init(num_cpus=2): {up:.1f} s (not counted below)")
    local_options = BatchOptions(concurrency=4)
    ray_options = BatchOptions(executor="ray", concurrency=4)
    make_files(root / "warm", 8, seed=3)
    # The first Ray batch starts the workers (each imports longdoc); later ones reuse them,
    # as the local figure runs in a process that imported longdoc already.
    start = await batch_seconds(root / "warm", root / "out-warm", ray_options, settings)
    print(f"  first ray batch (8 files, starts 2 workers): {start:.1f} s (not counted below)")
    ratios, cpu = [], {"local": 0.0, "ray": 0.0}
    for n in range(rounds):  # alternating, so a load from elsewhere hits both alike
        local, cpu_local = await cpu_and_wall(
            root / "docs", root / f"out-local{n}", local_options, settings
        )
        # Workers left idle through the local round exit (after IDLE_EXIT_S): warm again.
        await batch_seconds(root / "warm", root / f"out-warm{n}", ray_options, settings)
        on_ray, cpu_ray = await cpu_and_wall(
            root / "docs", root / f"out-ray{n}", ray_options, settings
        )
        cpu["local"] += cpu_local
        cpu["ray"] += cpu_ray
        ratios.append(local / on_ray)
        print(
            f"  round {n + 1}: local {files / local:.1f} files/s ({cpu_local / local:.2f} cores "
            f"busy), ray (2 workers) {files / on_ray:.1f} files/s ({cpu_ray / on_ray:.2f} cores "
            f"busy), ratio {local / on_ray:.2f}x (load {os.getloadavg()[0]:.1f})"
        )
    per_file = {name: 1000 * seconds / (files * rounds) for name, seconds in cpu.items()}
    print(
        f"  median ratio over {rounds} rounds: {statistics.median(ratios):.2f}x local; CPU per "
        f"file: local {per_file['local']:.0f} ms, ray {per_file['ray']:.0f} ms (driver + workers)"
    )

    await fake_part(root, latency, concurrency, rounds)
    return per_file["ray"] / 1000


async def fake_part(root: Path, latency: float, concurrency: int, rounds: int) -> None:
    make_files(root / "few", 100, seed=6)
    make_files(root / "warm", 8, seed=3)
    fake = Settings(max_concurrency=8, data_dir=root / "data", cache="off")
    model = FakeChatModel(latency=latency)
    # The local rounds get a model of their own: this one's recorded prompts would grow,
    # and a changed model is a new crew of Ray workers (ray_pool keys them by it).
    models = {"local": FakeChatModel(latency=latency), "ray": model}
    slots = 2 * concurrency
    await timed_batch(root / "warm", root / "out-fake-warm", concurrency, fake, model, "ray")
    for n in range(rounds):  # the local executor beside it: one process, as many files
        for executor, per_worker in (("local", slots), ("ray", concurrency)):
            wall, seen = await timed_batch(
                root / "few",
                root / f"out-fake-{executor}{n}",
                per_worker,
                fake,
                models[executor],
                executor,
            )
            ideal = bound(seen, latency, fake.max_concurrency, slots)
            where = "local, 1 process" if executor == "local" else "ray, 2 workers"
            print(
                f"  {where} x {per_worker} files, 100 files, fake model {latency} s/call, "
                f"max_concurrency {fake.max_concurrency}: wall {wall:.1f} s, bound {ideal:.1f} s, "
                f"ratio {wall / ideal:.2f} (load {os.getloadavg()[0]:.1f})"
            )


def on_paper(per_file_cpu_s: float) -> None:
    """From the CPU a file costs on Ray (driver and workers), not from files/s: that is what
    machines add up, and other work on this machine does not change it much."""
    corpus, machines = 1_000_000, 10
    print(f"on paper: {per_file_cpu_s * 1000:.1f} ms of a core per file, as measured on Ray")
    for cores in (2, 16):
        hours = corpus * per_file_cpu_s / (machines * cores) / 3600
        print(f"  1,000,000 files on {machines} machines of {cores} cores: {hours:.2f} h")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--fake-only", action="store_true", help="only the fake-model rounds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if args.fake_only:
            start_ray()
            await fake_part(root, args.latency, args.concurrency, args.rounds)
            return
        await cache_part(root / "cache")
        if args.skip_ray:
            return
        per_file = await batch_part(root, args.files, args.latency, args.concurrency, args.rounds)
        on_paper(per_file)


if __name__ == "__main__":
    asyncio.run(main())
