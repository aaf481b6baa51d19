"""A process killed with SIGKILL loses no completed turn: restart and every one is there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from pipeline import Settings, get_thread
from tests.support import REPO

pytestmark = pytest.mark.slow  # child processes killed and restarted: seconds each

CHILD = """
import asyncio, sys
from pipeline import Settings, achat
from tests.support.fakes import FakeChatModel

async def main() -> None:
    settings = Settings(data_dir=sys.argv[1], memory_token_budget=300)
    model = FakeChatModel(latency=float(sys.argv[3]))
    for line in sys.stdin:
        reply = await achat(sys.argv[2], line.strip(), model=model, settings=settings)
        print("done", reply.reply, flush=True)

asyncio.run(main())
"""


def start(data: Path, thread: str, latency: float = 0.0) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data), thread, str(latency)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def turn(child: subprocess.Popen[str], text: str) -> None:
    assert child.stdin is not None
    assert child.stdout is not None
    child.stdin.write(text + "\n")
    child.stdin.flush()
    assert child.stdout.readline().startswith("done")


def kill(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    for stream in (child.stdin, child.stdout):
        if stream is not None:
            stream.close()


def test_completed_turns_survive_sigkill(tmp_path: Path) -> None:
    data = tmp_path / "data"
    child = start(data, "t-durable")
    for i in range(3):
        turn(child, f"fact number {i}")
    kill(child)

    child = start(data, "t-durable")
    turn(child, "fact number 3")
    kill(child)

    view = get_thread("t-durable", settings=Settings(data_dir=data))
    users = [m.content for m in view.history if m.role == "user"]
    assert users == [f"fact number {i}" for i in range(4)]
    assert len(view.history) == 8


def test_turn_killed_midway_leaves_earlier_turns_intact(tmp_path: Path) -> None:
    data = tmp_path / "data"
    child = start(data, "t-midway", latency=2.0)
    turn(child, "first fact")
    assert child.stdin is not None
    child.stdin.write("second fact, never answered\n")
    child.stdin.flush()
    kill(child)  # while the model call sleeps

    view = get_thread("t-midway", settings=Settings(data_dir=data))
    assert [m.content for m in view.history if m.role == "user"] == ["first fact"]
    assert len(view.history) == 2


def _stores(tmp_path: Path) -> list[dict[str, str]]:
    stores = [{"LONGDOC_DATA_DIR": str(tmp_path / "data")}]
    if os.environ.get("TEST_POSTGRES_URL"):
        stores.append({**stores[0], "LONGDOC_CHECKPOINT_URL": os.environ["TEST_POSTGRES_URL"]})
    return stores


TALKER = """
import asyncio, sys
from pipeline import Settings, achat
from tests.support.fakes import FakeChatModel

async def main() -> None:
    model = FakeChatModel(latency=0.05)
    for i in range(4):
        await achat(sys.argv[1], f"{sys.argv[2]} {i}", model=model, settings=Settings())

asyncio.run(main())
"""


def test_turns_from_two_processes_on_one_thread_never_interleave(tmp_path: Path) -> None:
    """Two `longdoc serve` workers share a thread: their turns queue, none is lost."""
    for number, store in enumerate(_stores(tmp_path)):
        thread = f"shared-{number}-{uuid.uuid4().hex}"  # the PostgreSQL server outlives a run
        env = {**os.environ, "PYTHONPATH": str(REPO), **store}
        workers = [
            subprocess.Popen([sys.executable, "-c", TALKER, thread, name], cwd=REPO, env=env)
            for name in ("north", "south")
        ]
        assert [w.wait(timeout=60) for w in workers] == [0, 0]
        settings = Settings(
            data_dir=Path(store["LONGDOC_DATA_DIR"]),
            checkpoint_url=store.get("LONGDOC_CHECKPOINT_URL"),
        )
        history = get_thread(thread, settings=settings).history
        assert len(history) == 16, "every turn of both processes is kept"
        for user, reply in zip(history[::2], history[1::2], strict=True):
            assert user.role == "user"
            assert reply.role == "assistant"
            assert reply.content == f"You said: {user.content}", "each reply follows its turn"
