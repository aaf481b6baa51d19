"""A long document's term counts are estimated without laying it all out, close to exact."""

from __future__ import annotations

import math

import pytest

from pipeline.engines.extractive import passages, usage
from pipeline.engines.extractive.retrieval import build_query
from pipeline.text import layout
from tests.support.shaped import LICENCE, MAN_PAGE, REPORT

QUESTIONS = [
    "What does the -e option do?",
    "How many commands does the history remember?",
    "What must you give recipients of the program?",
    "What was the order backlog at year end?",
]


def _long_text() -> str:
    return "\n\n".join([MAN_PAGE, LICENCE, REPORT] * 80)  # 150 KB


def _counted(question: str, text: str) -> dict[str, float]:
    return build_query(question, [text]).idf


def test_a_long_texts_idf_is_estimated_within_a_tenth_of_its_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = _long_text()
    exact = {q: _counted(q, text) for q in QUESTIONS}  # short enough to be counted exactly
    monkeypatch.setattr(usage, "CACHED_CHARS", 10_000)  # now read as a long document
    for question in QUESTIONS:
        estimated = _counted(question, text)
        assert estimated.keys() == exact[question].keys()
        for term, idf in exact[question].items():
            assert math.isclose(estimated[term], idf, rel_tol=0.1), (question, term)


def test_a_long_text_is_laid_out_only_in_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _long_text()
    laid_out: list[int] = []
    analyse = layout.analyse

    def counting(piece: str, *args: object, **kwargs: object) -> object:
        laid_out.append(len(piece))
        return analyse(piece, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(usage, "CACHED_CHARS", 10_000)
    monkeypatch.setattr(usage, "SAMPLE_CHARS", 2_000)
    monkeypatch.setattr(passages, "analyse", counting)
    gathered = usage.units_of(text)
    assert sum(laid_out) <= usage.SAMPLE_WINDOWS * 2_000 < len(text) / 4
    exact = usage.units_of(text[:9_000])
    # The unit count scales with the text: 80 copies hold ~80 times what 9,000 characters do.
    assert gathered.bounds is None  # estimated
    assert exact.bounds is not None  # counted
    assert gathered.count == pytest.approx(exact.count * len(text) / 9_000, rel=0.25)


@pytest.mark.parametrize("cached_chars", [10_000_000, 10_000])  # counted exactly; estimated
def test_terms_gathered_in_a_second_pass_count_as_in_one(
    monkeypatch: pytest.MonkeyPatch, cached_chars: int
) -> None:
    monkeypatch.setattr(usage, "CACHED_CHARS", cached_chars)
    text = "高田義昭晚年隱居。高田義輝之弟高田義昭繼承了家業。" * 1000  # 24,000 characters
    units = [usage.units_of(text)]
    once = usage.gather(["高田", "义昭", "弟"], [text], units)
    twice = usage.gather_more(usage.gather(["高田", "义昭"], [text], units), ["弟"], [text], units)
    assert twice == once
    assert (once.uses[0] is None) == (cached_chars > len(text))  # uses in order when estimated
