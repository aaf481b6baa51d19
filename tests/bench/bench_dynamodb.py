"""AWS requests per chat turn on the DynamoDB thread store (what a turn costs), on moto.

    python tests/bench/bench_dynamodb.py [--turns 20]

Counts every boto3 call by operation: the number is set by the store's layout, not by
moto, so it carries over to AWS (on-demand DynamoDB bills each write and read, S3 each
PUT and GET). Plain turns on the fake model, then one turn with a 1 MB document attached
(offloaded to S3). Wall times are moto's and say nothing about AWS.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import botocore.client

from pipeline import Settings, achat
from pipeline.storage.checkpoint import init_store
from tests.support.fakes import FakeChatModel
from tests.support.moto_server import REGION, aws_environment, running_moto
from tests.support.texts import ROBOTICS_REPORT

calls: Counter[str] = Counter()
_original = botocore.client.BaseClient._make_api_call


def _counted(self: Any, operation: str, params: Any) -> Any:
    calls[f"{self.meta.service_model.service_name}:{operation}"] += 1
    return _original(self, operation, params)


async def run(turns: int, endpoint: str) -> None:
    url = (
        f"dynamodb://bench-{uuid.uuid4().hex[:8]}?region={REGION}&endpoint_url={endpoint}"
        "&s3_bucket=bench-bucket"
    )
    settings = Settings(checkpoint_url=url, chunk_size=20_000)
    await init_store(settings)
    model = FakeChatModel()
    botocore.client.BaseClient._make_api_call = _counted  # type: ignore[method-assign]
    started = time.perf_counter()
    for turn in range(turns):
        await achat(
            "bench", f"Turn {turn}: the crane lifted {turn} boxes.", model=model, settings=settings
        )
    plain = dict(calls)
    elapsed = time.perf_counter() - started
    calls.clear()
    words = " ".join(f"Ledger line {uuid.uuid4().hex} balanced." for _ in range(18_000))
    document = {"id": "ledger.md", "text": ROBOTICS_REPORT + words}
    await achat(
        "bench", "Who is the chief executive?", documents=[document], model=model, settings=settings
    )
    print(f"turns={turns} (default settings), moto {elapsed / turns:.2f} s a turn")
    print(f"per plain turn: {sum(plain.values()) / turns:.1f} requests")
    for name, count in sorted(plain.items()):
        print(f"  {name:<28} {count / turns:6.1f}")
    size = len(document["text"]) / 1e6
    print(f"one turn with a {size:.1f} MB document: {sum(calls.values())} requests")
    for name, count in sorted(calls.items()):
        print(f"  {name:<28} {count:6d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(aws_environment(tmp))
        with running_moto() as moto:
            asyncio.run(run(args.turns, moto.endpoint))


if __name__ == "__main__":
    main()
