"""Long-term chat memory benchmark: evidence recall@k, recall latency, import throughput.

    python tests/bench/bench_memory.py           # eval threads (seeds 100-109), all sizes
    python tests/bench/bench_memory.py --dev     # dev threads (seeds 0-4), for tuning
    python tests/bench/bench_memory.py --sizes 1000,10000

Quality, on generated two-speaker threads (tests/bench/memory_conversations.py: 200 turns,
400 messages each, 8 facts stated early and asked about at the end in other words, with
distractor turns sharing the questions' words). Evidence recall@k is the share of
questions whose evidence message is among the k returned by:

- longdoc: `arecall` on the thread, imported into a real SQLite store (lexical only);
- BM25: bm25s over single messages, English stopwords and the Snowball stemmer;
- summary: the running summary alone, as the built-in fold keeps it when the same
  thread arrives 20 messages at a time with a turn after each (k does not apply: the
  answer is in the summary or not);
- last-K: the last k messages (the verbatim window).

Latency: p50/p99 of `arecall` as the HTTP route calls it (store opened per call; the
thread's compiled index warm in the process) over threads of 1k, 10k and 100k stored
messages, plus the first recall of a process (index read from the store) and the
in-memory search alone; import throughput is messages/s of one 10,000-message import.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bm25s
import Stemmer

from pipeline import Settings, achat, aget_thread, aimport_messages, arecall
from pipeline.memory.index import CACHE
from pipeline.memory.recall import search
from pipeline.memory.store import ThreadMemory
from pipeline.storage.memory_store import open_store
from tests.bench.memory_conversations import Thread, thread

EVAL_SEEDS = range(100, 110)
DEV_SEEDS = range(0, 5)
KS = (1, 5, 10)
SLICE = 20
"""Messages the summary's thread receives between turns (each turn may fold)."""
QUERIES = 200
"""Recalls timed per thread size."""


def bm25_ranks(messages: list[dict[str, str]], questions: list[str], k: int) -> list[list[int]]:
    stemmer = Stemmer.Stemmer("english")
    corpus = bm25s.tokenize(
        [m["content"] for m in messages], stopwords="en", stemmer=stemmer, show_progress=False
    )
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    ranks = []
    for question in questions:
        tokens = bm25s.tokenize([question], stopwords="en", stemmer=stemmer, show_progress=False)
        if not tokens.vocab:
            ranks.append([])
            continue
        docs, scores = retriever.retrieve(tokens, k=k, show_progress=False)
        ranks.append([int(d) for d, s in zip(docs[0], scores[0], strict=True) if s > 0])
    return ranks


async def running_summary(data: Path, item: Thread, name: str) -> str:
    settings = Settings(data_dir=data)
    for start in range(0, len(item.messages), SLICE):
        await aimport_messages(name, item.messages[start : start + SLICE], settings=settings)
        await achat(name, "ok", settings=settings)
    return (await aget_thread(name, settings=settings)).summary


async def quality(seeds: range) -> dict[str, list[float]]:
    hits: dict[str, list[float]] = {"longdoc": [], "BM25": [], "summary": [], "last-K": []}
    found = {key: [0] * len(KS) for key in hits}
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        settings = Settings(data_dir=data)
        for seed in seeds:
            item = thread(seed)
            name = f"quality-{seed}"
            await aimport_messages(name, item.messages, settings=settings)
            summary = await running_summary(data, item, f"summary-{seed}")
            texts = [q.text for q in item.questions]
            baseline = bm25_ranks(item.messages, texts, max(KS))
            for question, ranked in zip(item.questions, baseline, strict=True):
                total += 1
                recalled = await arecall(name, question.text, max(KS), settings=settings)
                ours = [h.index for h in recalled if h.role != "summary"]
                last = len(item.messages)
                for j, k in enumerate(KS):
                    found["longdoc"][j] += question.evidence in ours[:k]
                    found["BM25"][j] += question.evidence in ranked[:k]
                    found["summary"][j] += question.answer in summary
                    found["last-K"][j] += question.evidence >= last - k
    for key in hits:
        hits[key] = [n / total for n in found[key]]
    print(f"{len(seeds)} threads, {total} questions, 400 messages each")
    return hits


def filler_messages(count: int) -> list[dict[str, str]]:
    """`count` messages cut from generated threads, each made distinct by its position."""
    out: list[dict[str, str]] = []
    seed = 1000
    while len(out) < count:
        for message in thread(seed).messages:
            out.append({**message, "content": f"{message['content']} (#{len(out)})"})
        seed += 1
    return out[:count]


async def latency(sizes: list[int]) -> list[tuple[int, float, float, float, float]]:
    rows = []
    queries = [q.text for seed in EVAL_SEEDS for q in thread(seed).questions]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp))
        for size in sizes:
            name = f"size-{size}"
            messages = filler_messages(size)
            for start in range(0, size, 10_000):
                await aimport_messages(name, messages[start : start + 10_000], settings=settings)
            CACHE.drop(name)
            started = time.perf_counter()
            await arecall(name, queries[0], 8, settings=settings)
            cold = (time.perf_counter() - started) * 1000
            timings = []
            for i in range(QUERIES):
                started = time.perf_counter()
                await arecall(name, queries[i % len(queries)], 8, settings=settings)
                timings.append((time.perf_counter() - started) * 1000)
            async with open_store(settings) as store:
                index = await ThreadMemory(store, name).load()
            assert index is not None
            inner = []
            for i in range(QUERIES):
                started = time.perf_counter()
                search(index, queries[i % len(queries)], 8)
                inner.append((time.perf_counter() - started) * 1000)
            p50 = statistics.median(timings)
            p99 = sorted(timings)[int(0.99 * len(timings)) - 1]
            rows.append((size, p50, p99, cold, statistics.median(inner)))
    return rows


async def import_rate() -> float:
    messages = filler_messages(10_000)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp))
        started = time.perf_counter()
        await aimport_messages("import", messages, settings=settings)
        return len(messages) / (time.perf_counter() - started)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dev", action="store_true", help="dev seeds, for tuning")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args()
    hits = await quality(DEV_SEEDS if args.dev else EVAL_SEEDS)
    print("\nevidence recall@k   " + "  ".join(f"@{k:<4}" for k in KS))
    for key, values in hits.items():
        print(f"  {key:<17} " + "  ".join(f"{v:.3f}" for v in values))
    gain = hits["longdoc"][-1] - hits["BM25"][-1]
    print(f"  longdoc - BM25 at @10: {gain:+.3f} (target >= +0.15)")
    if args.skip_latency:
        return
    print(f"\nimport: {await import_rate():,.0f} messages/s (10,000 in one import)")
    print("\nstored   recall p50   p99      first recall   search alone p50")
    for size, p50, p99, cold, inner in await latency([int(s) for s in args.sizes.split(",")]):
        print(f"  {size:>7,}  {p50:6.1f} ms  {p99:6.1f} ms  {cold:8.0f} ms    {inner:6.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
