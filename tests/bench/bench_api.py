"""HTTP API benchmark: a real `longdoc serve` with the built-in engine, a 50 KB document.

    python tests/bench/bench_api.py [--requests 64] [--concurrency 1 8 32] [--workers 1]

Starts the server on a free loopback port, sends the same ask request (a ~50 KB
document from sample_docs, repeated or cut to size) from C concurrent clients until
`--requests` have finished per level, and prints requests/s with p50 and p99 latency.
Each request does the whole job: JSON parsing, validation, splitting, reading every
chunk, reducing, citations. The server stops when the benchmark ends.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
LONGDOC = Path(sys.executable).parent / "longdoc"
DOC_BYTES = 50_000


def document() -> str:
    source = (REPO / "sample_docs" / "annual_report.md").read_text(encoding="utf-8")
    text = source
    while len(text.encode()) < DOC_BYTES:
        text += "\n\n" + source
    return text.encode()[:DOC_BYTES].decode("utf-8", "ignore")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start(workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LONGDOC_")}
    process = subprocess.Popen(
        [str(LONGDOC), "serve", "--port", str(port), "--workers", str(workers)],
        env={**env, "LONGDOC_DATA_DIR": "/tmp/longdoc-bench"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("server did not start")


async def level(url: str, body: dict[str, str], concurrency: int, total: int) -> list[float]:
    latencies: list[float] = []
    remaining = total
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:

        async def client() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                started = time.perf_counter()
                response = await http.post("/v1/ask", json=body)
                latencies.append(time.perf_counter() - started)
                if response.status_code != 200:
                    raise SystemExit(f"HTTP {response.status_code}: {response.text[:300]}")

        await asyncio.gather(*(client() for _ in range(concurrency)))
    return latencies


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=64, help="requests per level")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    body = {"question": "Who founded the company in Bergen?", "document": document()}
    process, url = start(args.workers)
    try:
        await level(url, body, 1, 3)  # warm up: imports, caches
        print(f"document {len(body['document'].encode()):,} bytes, {args.workers} worker(s)")
        print(f"{'clients':>7} {'requests':>8} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8}")
        for concurrency in args.concurrency:
            started = time.perf_counter()
            latencies = await level(url, body, concurrency, args.requests)
            wall = time.perf_counter() - started
            print(
                f"{concurrency:>7} {len(latencies):>8} {len(latencies) / wall:>7.1f} "
                f"{percentile(latencies, 0.5) * 1000:>8.1f} "
                f"{percentile(latencies, 0.99) * 1000:>8.1f}",
                flush=True,
            )
    finally:
        process.terminate()
        process.wait(timeout=30)


if __name__ == "__main__":
    asyncio.run(main())
