"""best_hits, which scores in full only the units that can still rank, gives what scoring
every unit and sorting gives: the same best hits in the same order, count and coverage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline import Settings
from pipeline.documents.load import load_documents
from pipeline.engines.extractive.passages import Passages
from pipeline.engines.extractive.retrieval import best_hits, build_query, score_sentences

ROOT = Path(__file__).resolve().parents[2]
REALDOCS = ROOT / "tests/bench/realdocs"
# More kinds of question than the real documents' set asks: negated, what-is, steps, CJK.
EXTRA = [
    ("sample_docs/annual_report.md", "What was not included in the revenue for 2024?"),
    ("sample_docs/annual_report.md", "What is the order backlog?"),
    ("sample_docs/user_manual.md", "How do I restore factory settings?"),
    ("sample_docs/ja_product_history.txt", "創業者は誰ですか？"),
    ("tests/bench/realdocs/bash.1.txt", "What does the -z option of read do?"),
    ("chinese", "现在的越南语叫做国语字，是由谁整理发展的？"),
    ("chinese", "越南的官方语言是什么？"),
]
# A Chinese text: a sentence opening with a pronoun borrows from the one before it, and one
# the question restates lends to its neighbours (see retrieval._lent_to_subject).
CHINESE = (
    "越南语是越南的官方语言。现在的越南语使用拉丁字母书写，叫做国语字。"
    "它是由葡萄牙传教士整理发展而成的。国语字在二十世纪成为越南的正式文字。\n\n"
) * 3


def _cases() -> list[tuple[str, str]]:
    lines = (REALDOCS / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    asked = [json.loads(line) for line in lines if line.strip()]
    cases = [
        (f"tests/bench/realdocs/{q['doc']}", q["question"])
        for q in asked
        if not q["doc"].endswith(".pdf")  # the PDFs' parse is slow; their text is prose
    ]
    return cases + EXTRA


def _texts(path: str) -> list[str]:
    """The document cut in pieces of the size a map task reads, as the graph cuts it."""
    text = CHINESE if path == "chinese" else load_documents(ROOT / path, Settings())[0].text
    size = 20_000
    return [text[i : i + size] for i in range(0, len(text), size)]


@pytest.mark.slow
def test_best_hits_are_the_best_of_all_hits() -> None:
    texts: dict[str, list[str]] = {}
    compared = 0
    for path, question in _cases():
        pieces = texts.setdefault(path, _texts(path))
        query = build_query(question, pieces)
        for number, piece in enumerate(pieces):
            passages = Passages.read(piece)
            every = score_sentences(piece, query, passages, "doc", opens=number == 0)
            for k in (1, 6):
                ranked = best_hits(piece, query, passages, k, "doc", opens=number == 0)
                assert ranked.best == sorted(every, key=lambda h: -h.score)[:k], question
                assert ranked.count == len(every)
                assert ranked.coverage == max((h.coverage for h in every), default=0.0)
                compared += bool(every)
    assert compared > 500  # most pieces match something: the comparison is not vacuous
