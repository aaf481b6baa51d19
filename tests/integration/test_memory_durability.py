"""A process killed with SIGKILL during a turn never leaves a stored message unrecallable.

The child runs real turns on real SQLite files (and the real PostgreSQL when one is up)
and kills itself with SIGKILL at each point of a turn where the index and the history
could part: while the model is answering, right after the index write (before the
history write), and right after the history write (before the index is told so).
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from pipeline import Settings, get_thread, recall
from tests.support import REPO

pytestmark = pytest.mark.slow  # child processes killed and restarted: seconds each

CHILD = """
import asyncio, os, signal, sys
from langgraph.store.base import PutOp
from pipeline import Settings, achat
from pipeline.storage.memory_store import open_store
from tests.support.fakes import FakeChatModel

thread, crash_at, lines = sys.argv[1], sys.argv[2], sys.argv[3:]

async def main() -> None:
    settings = Settings(memory_token_budget=300)
    async with open_store(settings) as store:
        real = store.abatch
        armed = {"on": False, "wrote_ahead": False}

        async def abatch(ops):
            heads = [op.value for op in ops if isinstance(op, PutOp) and op.key == "head"]
            ahead = any(h and h["unconfirmed"] is not None for h in heads)
            if armed["on"] and crash_at == "before-confirm" and armed["wrote_ahead"] and heads:
                if not ahead:  # the history is written; the index is about to hear of it
                    os.kill(os.getpid(), signal.SIGKILL)
            result = await real(ops)
            if armed["on"] and ahead:
                armed["wrote_ahead"] = True
                if crash_at == "after-index":  # entries in, history not yet written
                    os.kill(os.getpid(), signal.SIGKILL)
            return result

        store.abatch = abatch
        for number, line in enumerate(lines):
            last = number == len(lines) - 1
            armed["on"] = last
            slow = last and crash_at == "model-call"
            model = FakeChatModel(latency=30.0 if slow else 0.0)
            if slow:
                print("asking", flush=True)
            await achat(thread, line, model=model, settings=settings, store=store)
            print("done", flush=True)

asyncio.run(main())
"""


def stores(tmp_path: Path) -> list[dict[str, str]]:
    found = [{"LONGDOC_DATA_DIR": str(tmp_path / "data")}]
    if os.environ.get("TEST_POSTGRES_URL"):
        found.append({**found[0], "LONGDOC_CHECKPOINT_URL": os.environ["TEST_POSTGRES_URL"]})
    return found


def run_child(env: dict[str, str], thread: str, crash_at: str, lines: list[str]) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, thread, crash_at, *lines],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **env},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    if crash_at == "model-call":
        for _ in lines[:-1]:
            assert child.stdout.readline().startswith("done")
        assert child.stdout.readline().startswith("asking")
        child.kill()  # SIGKILL while the model answers
    child.wait(timeout=60)
    child.stdout.close()
    if crash_at == "none":
        assert child.returncode == 0
    else:
        assert child.returncode == -9, "the child should have been killed mid-turn"


def settings_of(env: dict[str, str]) -> Settings:
    return Settings(
        data_dir=Path(env["LONGDOC_DATA_DIR"]), checkpoint_url=env.get("LONGDOC_CHECKPOINT_URL")
    )


@pytest.mark.parametrize("crash_at", ["model-call", "after-index", "before-confirm"])
def test_every_stored_message_is_recalled_after_a_sigkill_mid_turn(
    crash_at: str, tmp_path: Path
) -> None:
    for env in stores(tmp_path):
        thread = f"kill-{crash_at}-{uuid.uuid4().hex[:8]}"
        lines = [f"Fact {i}: the codeword{i}x is filed under shelf {i}." for i in range(3)]
        run_child(env, thread, crash_at, lines)
        settings = settings_of(env)
        history = get_thread(thread, settings=settings).history
        stored = {m.id for m in history}
        assert len(history) in (4, 6), "two turns done; the third kept whole or not at all"

        for message in history:
            word = next(w for w in message.content.split() if w.startswith("codeword"))
            hits = recall(thread, word, 100, settings=settings)
            assert message.id in [h.message_id for h in hits], f"{message.content!r} is lost"
            assert {h.message_id for h in hits} <= stored, "recall holds only stored messages"

        everything = recall(thread, "filed shelf", 100, settings=settings)
        assert {h.message_id for h in everything} == stored, "every stored message, no other"

        # The next turn, in a fresh process, leaves index and history in step again.
        run_child(env, thread, "none", ["Fact 9: the codeword9x is filed under shelf 9."])
        history = get_thread(thread, settings=settings).history
        everything = recall(thread, "filed shelf", 100, settings=settings)
        assert sorted(h.message_id for h in everything) == sorted(m.id for m in history)
