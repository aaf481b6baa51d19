"""The reduce primitive: collapse findings in parallel groups until they fit a token budget.

Used by the reduce node for documents and by compress for chat history. It always
terminates: each round must shrink the notes, rounds are capped, and what still
does not fit is cut (and flagged) rather than raising.
"""

from __future__ import annotations

import asyncio

from pipeline.engines.base import Engine
from pipeline.engines.meter import Meter
from pipeline.errors import LongdocError
from pipeline.progress import emit
from pipeline.text.tokens import count_tokens
from pipeline.types import Finding


def finding_tokens(finding: Finding) -> int:
    """Tokens a finding costs in a reduce prompt: its answer plus its quotes."""
    return count_tokens(finding.answer) + sum(count_tokens(e.quote) for e in finding.evidence)


def total_tokens(findings: list[Finding]) -> int:
    return sum(finding_tokens(f) for f in findings)


def pack_groups(findings: list[Finding], budget: int) -> list[list[Finding]]:
    """Consecutive groups, each within `budget` tokens (so its collapse prompt fits).

    Greedy packing gives the fewest groups for ordered items: 10 findings of 300
    tokens with budget 1,000 -> 4 groups of 3, 3, 3 and 1.
    """
    groups: list[list[Finding]] = []
    size = 0
    for finding in findings:
        cost = finding_tokens(finding)
        if groups and size + cost <= budget:
            groups[-1].append(finding)
            size += cost
        else:
            groups.append([finding])
            size = cost
    return groups


def truncate(finding: Finding, budget: int) -> Finding:
    """A finding cut to at most `budget` tokens: quotes dropped first, then the answer cut."""
    if finding_tokens(finding) <= budget:
        return finding
    evidence = list(finding.evidence)
    while evidence and finding_tokens(finding.model_copy(update={"evidence": evidence})) > budget:
        evidence.pop()
    answer = finding.answer
    while count_tokens(answer) > budget:
        answer = answer[: max(1, len(answer) * budget // max(1, count_tokens(answer)) - 1)]
    return finding.model_copy(update={"evidence": evidence, "answer": answer, "truncated": True})


def fit_by_rank(findings: list[Finding], budget: int) -> list[Finding]:
    """The best-ranked findings that fit the budget, back in chunk order; all flagged."""
    ranked = sorted(findings, key=lambda f: (-f.relevance, -f.confidence, f.chunk))
    kept: list[Finding] = []
    used = 0
    for finding in ranked:
        cost = finding_tokens(finding)
        if used + cost <= budget:
            kept.append(finding)
            used += cost
    if not kept:
        kept = [truncate(ranked[0], budget)]
    return [f.model_copy(update={"truncated": True}) for f in sorted(kept, key=lambda f: f.chunk)]


async def collapse(
    engine: Engine,
    findings: list[Finding],
    goal: str,
    *,
    budget: int,
    max_rounds: int,
    meter: Meter,
) -> list[Finding]:
    """Findings merged until they fit `budget`; every group of a round is merged concurrently.

    The engine's calls share the process-wide model-call cap, so a round of 40
    groups with max_concurrency=8 runs as 5 waves, not 40 calls at once.
    """
    notes = [truncate(f, budget) for f in findings]
    rounds = 0
    for round_number in range(1, max_rounds + 1):
        size = total_tokens(notes)
        if size <= budget:
            return notes
        groups = pack_groups(notes, budget)
        merged = await asyncio.gather(*(_merge(engine, g, goal, meter) for g in groups))
        shrunk = [f for group in merged for f in group]
        if total_tokens(shrunk) >= size:
            break  # no progress: stop rather than loop
        notes, rounds = shrunk, round_number
        _progress(rounds, notes, groups)
    if total_tokens(notes) <= budget:
        return notes
    # Merging stalled or ran out of rounds: keep the best-ranked notes that fit, and say so,
    # so the last progress event always reports what the answer actually reads.
    notes = fit_by_rank(notes, budget)
    _progress(rounds, notes, [], truncated=True)
    return notes


def _progress(
    rounds: int, notes: list[Finding], groups: list[list[Finding]], *, truncated: bool = False
) -> None:
    emit(
        "reduce",
        round=rounds,
        groups=len(groups),
        merges=sum(len(group) > 1 for group in groups),
        notes=len(notes),
        tokens=total_tokens(notes),
        truncated=truncated,
    )


async def _merge(engine: Engine, group: list[Finding], goal: str, meter: Meter) -> list[Finding]:
    if len(group) == 1:
        return group
    try:
        return [await engine.combine(group, goal, meter)]
    except LongdocError:
        return group  # a failed merge keeps its inputs; the shrink check decides what follows
