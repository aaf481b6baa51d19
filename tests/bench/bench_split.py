"""Splitter speed: langchain's RecursiveCharacterTextSplitter vs semantic-text-splitter.

    python tests/bench/bench_split.py [--mib 10]

Two 10 MiB texts: prose with paragraphs, and the same prose flattened to one line (as
PDF extraction often gives). Each splitter cuts ~8,000-character chunks, once with a
character length and once with longdoc's token estimate as the length function
(pipeline.tokens.count_tokens, 2,000-token chunks). Prints MiB/s per combination.
langchain-text-splitters is a test extra: `pip install -e .[test]`.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langchain_text_splitters import RecursiveCharacterTextSplitter
from semantic_text_splitter import TextSplitter

from pipeline.text.tokens import count_tokens

ROOT = Path(__file__).resolve().parents[2]
CHUNK_CHARS = 8000
CHUNK_TOKENS = 2000


def prose(mib: float) -> str:
    """Sentences of sample-report words, 3-8 per paragraph, about `mib` MiB."""
    words = re.findall(r"[A-Za-z]{2,}", (ROOT / "sample_docs/annual_report.md").read_text())
    rng = random.Random(0)
    target = int(mib * 1024 * 1024)
    paragraphs: list[str] = []
    size = 0
    while size < target:
        sentences = [
            " ".join(rng.choices(words, k=rng.randint(8, 24))).capitalize() + "."
            for _ in range(rng.randint(3, 8))
        ]
        paragraphs.append(" ".join(sentences))
        size += len(paragraphs[-1]) + 2
    return "\n\n".join(paragraphs)


def langchain(tokens: bool) -> Callable[[str], int]:
    if tokens:
        splitter = RecursiveCharacterTextSplitter(
            chunk_size=CHUNK_TOKENS, chunk_overlap=0, length_function=count_tokens
        )
    else:
        splitter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_CHARS, chunk_overlap=0)
    return lambda text: len(splitter.split_text(text))


def semantic(tokens: bool) -> Callable[[str], int]:
    if tokens:
        splitter = TextSplitter.from_callback(count_tokens, CHUNK_TOKENS)
    else:
        splitter = TextSplitter(CHUNK_CHARS)
    return lambda text: len(splitter.chunk_indices(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=10.0, help="Size of each text in MiB.")
    args = parser.parse_args()
    paragraphs = prose(args.mib)
    flat = paragraphs.replace("\n", " ")
    print(f"{'splitter':<32} {'text':<11} {'length':<7} {'chunks':>7} {'s':>7} {'MiB/s':>7}")
    for name, make in (
        ("RecursiveCharacterTextSplitter", langchain),
        ("semantic-text-splitter", semantic),
    ):
        for shape, text in (("paragraphs", paragraphs), ("flat", flat)):
            for tokens in (False, True):
                split = make(tokens)
                started = time.perf_counter()
                chunks = split(text)
                seconds = time.perf_counter() - started
                mib = len(text.encode()) / 1024 / 1024
                length = "tokens" if tokens else "chars"
                print(
                    f"{name:<32} {shape:<11} {length:<7} {chunks:>7} "
                    f"{seconds:7.2f} {mib / seconds:7.1f}"
                )


if __name__ == "__main__":
    main()
