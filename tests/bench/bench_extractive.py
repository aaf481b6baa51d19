"""Extractive engine benchmark: `ask` end-to-end on generated 1, 5 and 10 MB documents.

    python tests/bench/bench_extractive.py [--sizes 1,5,10] [--no-memory]

Each document is deterministic pseudo-English (words drawn from the sample annual report,
in sentences and paragraphs) with one fact sentence planted at 70% depth. For each size
it prints the seconds of one `pipeline.ask` over the whole graph (after one warm-up run
on a small document), MB/s, the chunk count, whether the planted fact was the answer,
and the peak memory of a second run measured with tracemalloc, as a multiple of the
document size. Targets: 10 MB in <= 3 s, peak <= 10x, time linear in size.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import Settings, ask

ROOT = Path(__file__).resolve().parents[2]
FACT = "The harbour pilot Ottilie Varga keeps the spare lighthouse key in a blue tin."
QUESTION = "Where does the harbour pilot Ottilie Varga keep the spare lighthouse key?"


def generate(megabytes: float, seed: int = 0) -> str:
    """About `megabytes` x 1,000,000 characters of sentences, 3-8 per paragraph."""
    vocabulary = re.findall(r"[A-Za-z]{3,}", (ROOT / "sample_docs/annual_report.md").read_text())
    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    paragraphs: list[str] = []
    size = 0
    planted = False
    while size < target:
        sentences = []
        for _ in range(rng.randint(3, 8)):
            words = rng.choices(vocabulary, k=rng.randint(8, 24))
            sentences.append(" ".join(words).capitalize() + ".")
        if not planted and size >= target * 0.7:
            sentences.insert(1, FACT)
            planted = True
        paragraph = " ".join(sentences)
        paragraphs.append(paragraph)
        size += len(paragraph) + 2
    return "\n\n".join(paragraphs)


def run(text: str, settings: Settings) -> tuple[float, int, bool]:
    started = time.perf_counter()
    result = ask(text, QUESTION, settings=settings)
    seconds = time.perf_counter() - started
    return seconds, result.coverage.chunks, FACT in result.answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,5,10", help="Document sizes in MB.")
    parser.add_argument("--no-memory", action="store_true", help="Skip the tracemalloc run.")
    args = parser.parse_args()
    settings = Settings(max_document_mb=50)
    print(
        f"settings: extractive_chunk_size={settings.extractive_chunk_size} tokens, "
        f"chunk_overlap={settings.chunk_overlap}, max_concurrency={settings.max_concurrency}"
    )
    run(generate(0.05), settings)  # warm-up: imports, regex compilation
    print(f"{'MB':>5} {'seconds':>8} {'MB/s':>6} {'chunks':>6} {'found':>5} {'peak/size':>9}")
    for megabytes in (float(s) for s in args.sizes.split(",")):
        text = generate(megabytes)
        seconds, chunks, found = run(text, settings)
        ratio = "-"
        if not args.no_memory:
            tracemalloc.start()
            run(text, settings)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            # The text itself is held by the caller, so peak counts what ask() adds on top.
            ratio = f"{peak / len(text.encode()):.1f}x"
        mb = len(text) / 1_000_000
        print(f"{mb:5.1f} {seconds:8.2f} {mb / seconds:6.1f} {chunks:6d} {found!s:>5} {ratio:>9}")


if __name__ == "__main__":
    main()
