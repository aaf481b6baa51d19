"""Threads written by longdoc 0.1 still load and go on, after the types they store moved.

tests/fixtures/threads-0.1.0.sqlite was written by the 0.1.0 code (the last commit before
the package was laid out in floors): a thread on the fake model with a document turn last
(so its stored state holds Findings, Evidence and CallUsage under `pipeline.schemas`) and
a folded summary, and a thread on the built-in engine. Only the newest checkpoint of each
thread is kept, which is all a thread needs.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from pipeline import Settings, achat, aget_thread
from pipeline.storage.checkpoint import open_checkpointer
from pipeline.types import Finding
from tests.support import REPO
from tests.support.fakes import FakeChatModel

FIXTURE = REPO / "tests" / "fixtures" / "threads-0.1.0.sqlite"


@pytest.fixture
def legacy(tmp_path: Path) -> Settings:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(FIXTURE, data / "threads.sqlite")
    return Settings(data_dir=data, memory_token_budget=300, memory_summary_words=40)


async def test_a_thread_written_by_0_1_reads_back_whole(legacy: Settings) -> None:
    view = await aget_thread("legacy-thread", settings=legacy)
    assert len(view.history) == 20
    assert view.history[-2].content == "Who is the keeper?"
    assert "Marta Lund" in view.history[-1].content
    assert view.summary
    assert set(view.summary_covers) <= {m.id for m in view.history}


async def test_stored_findings_revive_as_findings_without_warnings(
    legacy: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with open_checkpointer(legacy) as saver:
        stored = await saver.aget_tuple({"configurable": {"thread_id": "legacy-thread"}})
    assert stored is not None
    findings = stored.checkpoint["channel_values"]["findings"]
    assert findings
    assert all(isinstance(f, Finding) for f in findings)
    assert any(f.evidence for f in findings)
    assert "Blocked deserialization" not in caplog.text


@pytest.mark.parametrize("thread", ["legacy-thread", "legacy-builtin"])
async def test_a_thread_written_by_0_1_takes_new_turns(thread: str, legacy: Settings) -> None:
    before = await aget_thread(thread, settings=legacy)
    model = FakeChatModel() if thread == "legacy-thread" else None
    reply = await achat(thread, "Thanks, noted.", model=model, settings=legacy)
    assert reply.reply
    after = await aget_thread(thread, settings=legacy)
    assert [m.id for m in after.history[:-2]] == [m.id for m in before.history]
    assert after.history[-2].content == "Thanks, noted."


def test_the_fixture_is_the_0_1_layout() -> None:
    """The fixture must name the old module: a rewritten one would prove nothing."""
    assert b"pipeline.schemas" in FIXTURE.read_bytes()
