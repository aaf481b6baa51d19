"""Fan-out benchmark: wall time against the critical-path bound, with a fixed-latency fake model.

    python tests/bench/bench_fanout.py [--latency 0.5]

For each task (ask, summarize), N chunks and concurrency C it prints the wall time
divided by the critical-path lower bound: every model call takes one latency L, so
no schedule can beat

    route (ask only) + ceil(N / C) map rounds + sum over collapse rounds of
    ceil(groups / C) + the final answer,      all times L.

With N=128, C=8, L=0.5 s: 1 + 16 + 0 + 1 = 18 latencies = 9.0 s. Also printed: model
calls, input tokens per document token, and the graph's own overhead per chunk with a
zero-latency model over 1,000 chunks.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import DocumentText, Settings, build_graph
from pipeline.graph.chunking import split_documents
from pipeline.text.tokens import count_tokens
from tests.support.fakes import FakeChatModel

WORDS = (
    "harbour vessel cargo crane tide engine survey sonar hull pilot berth anchor quay "
    "freight ledger audit revenue margin budget forecast contract clause tender"
).split()
CHUNK_TOKENS = 2000
UNBOUNDED = 1024


def make_document(chunks: int, seed: int = 7) -> str:
    """Text that splits into exactly `chunks` chunks at 2,000-token chunks (checked below)."""
    rng = random.Random(seed)
    paragraphs = []
    for index in range(chunks):
        sentences = [
            f"Section {index} notes that the {rng.choice(WORDS)} {rng.choice(WORDS)} "
            f"rose by {rng.randint(1, 99)} percent."
            for _ in range(120)
        ]
        paragraphs.append(" ".join(sentences))
    return "\n\n".join(paragraphs)


def settings_for(concurrency: int, task: str) -> Settings:
    # Summaries get a small budget so the collapse rounds are exercised too.
    budget = 1500 if task == "summarize" else 6000
    return Settings(
        chunk_size=CHUNK_TOKENS,
        chunk_overlap=50,
        max_concurrency=concurrency,
        reduce_token_budget=budget,
        retry_initial_s=0,
    )


async def run_once(task: str, text: str, concurrency: int, latency: float) -> dict[str, Any]:
    model = FakeChatModel(latency=latency)
    settings = settings_for(concurrency, task)
    graph = build_graph(model, settings)
    state: dict[str, Any] = {"question": "How much did the harbour cargo rise?"}
    if task == "summarize":
        state = {"task": "summarize", "question": ""}
    state["documents"] = [{"id": "doc", "text": text}]
    rounds: list[int] = []
    chunks = 0
    started = time.perf_counter()
    async for mode, chunk in graph.astream(state, stream_mode=["custom", "values"]):
        if mode == "custom" and chunk["event"] == "split":
            chunks = chunk["chunks"]
        if mode == "custom" and chunk["event"] == "reduce":
            rounds.append(chunk["merges"])  # one-note groups pass through without a call
        if mode == "values" and "usage" in chunk:
            usage = chunk["usage"]
    wall = time.perf_counter() - started
    width = min(concurrency, chunks)
    path = (1 if task == "ask" else 0) + math.ceil(chunks / width) + 1
    path += sum(math.ceil(groups / concurrency) for groups in rounds)
    return {
        "chunks": chunks,
        "ratio": wall / (path * latency) if latency else float("nan"),
        "wall": wall,
        "calls": usage["calls"],
        "tokens_per_doc_token": usage["input_tokens"] / count_tokens(text),
        "collapse_rounds": len(rounds),
    }


async def overhead_per_chunk(chunks: int = 1000) -> float:
    """Seconds of pipeline overhead per chunk with a model that answers instantly."""
    settings = Settings(chunk_size=60, chunk_overlap=0, max_concurrency=64, max_chunks=10_000)
    text = "\n\n".join(f"Item {i} ships cargo to berth {i % 7} today." * 4 for i in range(chunks))
    assert len(split_documents([DocumentText(id="d", text=text)], settings)) == chunks
    graph = build_graph(FakeChatModel(), settings)
    state = {"question": "Which berth?", "documents": [{"id": "d", "text": text}]}
    await graph.ainvoke(state)  # warm-up
    started = time.perf_counter()
    await graph.ainvoke(state)
    return (time.perf_counter() - started) / chunks


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per model call")
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 32, 128])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32, UNBOUNDED])
    args = parser.parse_args()

    print(f"latency {args.latency} s per call, chunk_size {CHUNK_TOKENS} tokens, overlap 50")
    print(
        f"{'task':<10}{'N':>5}{'C':>7}{'wall s':>9}{'ratio':>8}{'calls':>7}"
        f"{'collapse':>10}{'in/doc tok':>12}"
    )
    for task in ("ask", "summarize"):
        for size in args.sizes:
            text = make_document(size)
            for concurrency in args.concurrency:
                row = await run_once(task, text, concurrency, args.latency)
                label = "inf" if concurrency == UNBOUNDED else str(concurrency)
                print(
                    f"{task:<10}{row['chunks']:>5}{label:>7}{row['wall']:>9.2f}"
                    f"{row['ratio']:>8.3f}{row['calls']:>7}{row['collapse_rounds']:>10}"
                    f"{row['tokens_per_doc_token']:>12.3f}",
                    flush=True,
                )
    per_chunk = await overhead_per_chunk()
    print(f"overhead per chunk (zero-latency model, 1,000 chunks): {per_chunk * 1000:.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
