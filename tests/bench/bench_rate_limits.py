"""Rate-limit benchmark: a server of unknown capacity, read with the ceiling at 64 vs at exactly C.

    python tests/bench/bench_rate_limits.py [--chunks 100] [--latency 2] [--real]

The simulated server (tests/support/rate_limited.py) serves C calls at once, each in L
seconds, and answers the rest 429 with Retry-After: 1 s. `ask` reads a document of N
chunks through the whole graph. For each C it prints, for LONGDOC_MAX_CONCURRENCY=64
and for LONGDOC_MAX_CONCURRENCY=C (a user who guessed right): wall time over the ideal,

    ideal = (route + ceil(N / C) map rounds + the answer) x L,
    N=100, C=16, L=2 s: (1 + 7 + 1) x 2 = 18 s,

the share of requests answered 429, failed chunks, and the limit the run ended at.
Then a server whose capacity halves mid-run (16, then 8; /exact is over the run
with the ceiling at 16, right until the halving), and a server with a
tokens-per-minute limit (with and without x-ratelimit headers, and with
LONGDOC_TOKENS_PER_MINUTE set to it).

Time is virtual by default (tests/support/virtual_time.py): every wait is simulated
exactly and the figures are the same each run; the pipeline's own CPU time (1 ms per
chunk, see bench_fanout.py) is not counted. `--real` runs the concurrency table on the
real clock instead (L defaults to 0.5 s there).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import Settings, aask
from pipeline.engines.llm.limiters import forget_limiters
from tests.bench.bench_fanout import CHUNK_TOKENS, make_document
from tests.support.rate_limited import RateLimitedModel
from tests.support.virtual_time import run_virtual

CEILING = 64
QUESTION = "How much did the harbour cargo rise?"


def settings_for(ceiling: int, tokens_per_minute: int | None = None) -> Settings:
    return Settings(
        chunk_size=CHUNK_TOKENS,
        chunk_overlap=50,
        max_concurrency=ceiling,
        reduce_token_budget=400_000,  # one answer call: the reduce is not what is measured
        retry_initial_s=0.5,
        tokens_per_minute=tokens_per_minute,
    )


async def read(
    text: str, model: RateLimitedModel, settings: Settings, clock: Callable[[], float]
) -> dict[str, Any]:
    forget_limiters()  # each run starts as a fresh process would
    started = clock()
    result = await aask([{"id": "doc", "text": text}], QUESTION, model=model, settings=settings)
    wall = clock() - started
    requests = model.served + model.refused
    usage = next(iter(result.usage.by_model.values()))
    return {
        "wall": wall,
        "tokens": result.usage.input_tokens,
        "chunks": result.coverage.chunks,
        "failed": len(result.coverage.failed),
        "refused": model.refused / requests,
        "limit": usage.limit,
    }


def ideal_s(chunks: int, capacity: Callable[[float], int], latency: float) -> float:
    """Route, then map rounds of capacity(t) calls each, then the answer: all L long."""
    now, left = latency, chunks
    while left > 0:
        left -= capacity(now)
        now += latency
    return now + latency


def row(label: str, run: dict[str, Any], ideal: float, versus: float | None = None) -> str:
    ratio = f"{run['wall'] / versus:>8.2f}" if versus else f"{'':>8}"
    return (
        f"{label:<34}{run['wall']:>8.1f}{run['wall'] / ideal:>8.2f}{ratio}"
        f"{run['refused']:>8.1%}{run['failed']:>7}{run['limit']:>7}"
    )


HEADER = f"{'server / LONGDOC_MAX_CONCURRENCY':<34}{'wall s':>8}{'/ideal':>8}{'/exact':>8}"
HEADER += f"{'429s':>8}{'failed':>7}{'limit':>7}"


async def concurrency_table(
    text: str, latency: float, capacities: list[int], clock: Callable[[], float]
) -> None:
    print(HEADER)
    for capacity in capacities:
        exact = await read(
            text, _server(latency, lambda t, c=capacity: c), settings_for(capacity), clock
        )
        adaptive = await read(
            text, _server(latency, lambda t, c=capacity: c), settings_for(CEILING), clock
        )
        ideal = ideal_s(exact["chunks"], lambda t, c=capacity: c, latency)
        print(row(f"C={capacity}, ceiling {CEILING}", adaptive, ideal, exact["wall"]))
        print(row(f"C={capacity}, ceiling {capacity} (exact)", exact, ideal))


async def halving_table(text: str, latency: float, clock: Callable[[], float]) -> None:
    half_at = 6 * latency

    def halving(start: float) -> Callable[[float], int]:
        """16 at once until `half_at` seconds after `start` (the run's), then 8."""
        return lambda t: 16 if t - start < half_at else 8

    print(f"\ncapacity 16, then 8 from {half_at:g} s into the run")
    print(HEADER)
    runs = {}
    for ceiling in (CEILING, 16, 8):
        runs[ceiling] = await read(
            text, _server(latency, halving(clock())), settings_for(ceiling), clock
        )
    ideal = ideal_s(runs[CEILING]["chunks"], halving(0.0), latency)
    print(row(f"16 -> 8, ceiling {CEILING}", runs[CEILING], ideal, runs[16]["wall"]))
    for ceiling in (16, 8):
        print(row(f"16 -> 8, ceiling {ceiling}", runs[ceiling], ideal))


async def tokens_table(text: str, latency: float, clock: Callable[[], float]) -> None:
    tpm = 50_000
    print(f"\n{tpm:,} tokens per minute, no concurrency limit (ideal: the tokens / the rate)")
    print(HEADER)
    for label, headers, budget in (
        ("no headers, no budget", False, None),
        ("x-ratelimit headers", True, None),
        (f"LONGDOC_TOKENS_PER_MINUTE={tpm}", False, tpm),
    ):
        model = _server(latency, lambda t: 1_000_000, tokens_per_minute=tpm, send_headers=headers)
        run = await read(text, model, settings_for(CEILING, budget), clock)
        # The first minute's tokens go at once, the rest at the rate; then the last map
        # call and the answer. 230,000 tokens at 50,000 a minute: 216 s + 2 L.
        ideal = max(0.0, (run["tokens"] - tpm) / (tpm / 60)) + 2 * latency
        print(row(label, run, ideal))


def _server(latency: float, capacity: Callable[[float], int], **kwargs: Any) -> RateLimitedModel:
    return RateLimitedModel(latency=latency, capacity=capacity, retry_after_s=1.0, **kwargs)


async def main(args: argparse.Namespace, clock: Callable[[], float]) -> None:
    text = make_document(args.chunks)
    print(f"N={args.chunks} chunks of {CHUNK_TOKENS} tokens, L={args.latency} s per call, ", end="")
    print("429s carry Retry-After: 1 s;", "real clock" if args.real else "virtual clock")
    await concurrency_table(text, args.latency, args.capacity, clock)
    if not args.real:
        await halving_table(text, args.latency, clock)
        await tokens_table(text, args.latency, clock)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100)
    parser.add_argument("--latency", type=float, default=None, help="L, seconds per call")
    parser.add_argument("--capacity", type=int, nargs="+", default=[4, 16, 48])
    parser.add_argument("--real", action="store_true", help="the real clock, not a virtual one")
    parsed = parser.parse_args()
    if parsed.latency is None:
        parsed.latency = 0.5 if parsed.real else 2.0
    if parsed.real:
        asyncio.run(main(parsed, time.perf_counter))
    else:
        run_virtual(main(parsed, lambda: asyncio.get_running_loop().time()))
