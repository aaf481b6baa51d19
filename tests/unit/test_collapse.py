"""The reduce primitive always ends, fits the budget, and flags what it had to cut."""

from __future__ import annotations

from typing import Any

import pytest

from pipeline.engines.meter import Meter
from pipeline.errors import ModelError
from pipeline.graph import collapse as collapse_module
from pipeline.graph.collapse import collapse, pack_groups, total_tokens
from pipeline.types import Finding


class HalvingEngine:
    """combine() keeps half of each note's text: merging always shrinks."""

    def __init__(self) -> None:
        self.calls = 0

    async def combine(self, findings: list[Finding], goal: str, meter: Meter) -> Finding:
        self.calls += 1
        text = " ".join(f.answer[: len(f.answer) // 2] for f in findings)
        return Finding(chunk=findings[0].chunk, answer=text, relevance=8, confidence=3)


class StubbornEngine:
    """combine() returns something bigger than its input: the shrink check must stop it."""

    async def combine(self, findings: list[Finding], goal: str, meter: Meter) -> Finding:
        return Finding(chunk=0, answer=" ".join(f.answer for f in findings) * 2, relevance=8)


class FailingEngine:
    async def combine(self, findings: list[Finding], goal: str, meter: Meter) -> Finding:
        raise ModelError("provider down")


def note(i: int, words: int = 60, relevance: int = 8) -> Finding:
    return Finding(chunk=i, answer=" ".join(["cargo"] * words), relevance=relevance)


async def run(engine: Any, findings: list[Finding], budget: int, rounds: int = 4) -> list[Finding]:
    return await collapse(
        engine, findings, "goal", budget=budget, max_rounds=rounds, meter=Meter("reduce")
    )


def test_groups_are_consecutive_and_within_budget() -> None:
    findings = [note(i, words=50) for i in range(10)]  # 75 tokens each
    groups = pack_groups(findings, budget=200)
    assert [len(g) for g in groups] == [2, 2, 2, 2, 2]
    assert [f.chunk for g in groups for f in g] == list(range(10))


async def test_collapse_fits_the_budget_in_few_rounds() -> None:
    engine = HalvingEngine()
    findings = [note(i) for i in range(40)]  # 40 x 90 = 3,600 tokens
    result = await run(engine, findings, budget=500, rounds=6)
    assert total_tokens(result) <= 500
    assert not any(f.truncated for f in result)


async def test_collapse_that_cannot_shrink_stops_and_flags_the_cut() -> None:
    findings = [note(i) for i in range(20)]
    result = await run(StubbornEngine(), findings, budget=300)
    assert total_tokens(result) <= 300
    assert all(f.truncated for f in result)


async def test_failed_merges_keep_their_notes_and_still_fit() -> None:
    findings = [note(i, relevance=i % 10) for i in range(20)]
    result = await run(FailingEngine(), findings, budget=300)
    assert total_tokens(result) <= 300
    assert min(f.relevance for f in result) >= 5, "the best-ranked notes should be kept"


async def test_single_oversized_finding_is_truncated_not_an_error() -> None:
    huge = note(0, words=5000)
    result = await run(HalvingEngine(), [huge], budget=200)
    assert len(result) == 1
    assert result[0].truncated
    assert total_tokens(result) <= 200


async def test_round_cap_bounds_the_work() -> None:
    engine = HalvingEngine()
    await run(engine, [note(i, words=400) for i in range(64)], budget=700, rounds=2)
    groups_round_1 = len(pack_groups([note(i, words=400) for i in range(64)], 700))
    assert engine.calls <= groups_round_1 * 2


async def test_stalled_merging_cuts_to_the_budget_and_the_last_progress_event_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events: list[dict[str, Any]] = []
    monkeypatch.setattr(collapse_module, "emit", lambda event, **data: events.append(data))
    findings = [note(i) for i in range(10)]  # 900 tokens, and the engine never shrinks them
    result = await run(StubbornEngine(), findings, budget=200)
    assert total_tokens(result) <= 200
    assert all(f.truncated for f in result)
    assert events[-1]["truncated"] is True
    assert events[-1]["tokens"] == total_tokens(result) <= 200
