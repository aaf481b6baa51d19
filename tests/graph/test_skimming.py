"""A long document skimmed for a question (Settings.skim_above_mb): read closely only where
the question's terms gather, it gets the answers a whole reading gets, from a small part."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pipeline import Settings, ask
from pipeline.engines.extractive import skim
from pipeline.engines.extractive.retrieval import build_query
from pipeline.types import Chunk
from tests.support import SAMPLES

_HARBOUR = (
    "Grey clouds drift over the quiet harbour. The ferry leaves at dawn and returns at dusk. "
    "Gulls circle the fish market while the nets dry on the quay. A cold wind comes off the "
    "water in the evening. The old lighthouse stands at the end of the breakwater. Fishermen "
    "mend their nets in the long winter afternoons. Rain falls on the slate roofs of the town."
).split(". ")


def _harbour(chars: int, seed: int) -> str:
    """`chars` characters of paragraphs about a harbour, which answer none of the questions."""
    rng = random.Random(seed)
    paragraphs: list[str] = []
    size = 0
    while size < chars:
        paragraph = ". ".join(rng.sample(_HARBOUR, 5)).rstrip(".") + "."
        paragraphs.append(paragraph)
        size += len(paragraph) + 2
    return "\n\n".join(paragraphs)


# The three sample documents at 20%, 50% and 80% of 1.5 million characters of other text.
PARTS = ("annual_report.md", "user_manual.md", "ja_product_history.txt")
LONG = (
    "\n\n".join(
        piece
        for index, name in enumerate(PARTS)
        for piece in (_harbour(400_000 if index else 300_000, index), (SAMPLES / name).read_text())
    )
    + "\n\n"
    + _harbour(300_000, 3)
)
QUESTIONS = [json.loads(line) for line in (SAMPLES / "questions.jsonl").read_text().splitlines()]
SKIMMED = Settings(cache="off")
WHOLE = Settings(cache="off", skim_above_mb=0)
RIGHT = (
    "What was the Group's total revenue in 2024?",
    "Which port does the console's web interface listen on by default?",
    "アメリカの現地法人はどの都市に設立されましたか？",
)
"""Questions of each sample document, answered right in the long document too."""


@pytest.mark.parametrize("question", QUESTIONS[::3], ids=lambda q: q["question"][:40])
def test_a_skimmed_document_answers_as_a_whole_reading_does(question: dict[str, str]) -> None:
    skimmed = ask(LONG, question["question"], settings=SKIMMED)
    whole = ask(LONG, question["question"], settings=WHOLE)
    assert skimmed.answer == whole.answer
    assert skimmed.citations == whole.citations
    for citation in skimmed.citations:
        assert LONG[citation.start : citation.end] == citation.quote
    # Most chunks hold nothing the question asks about, and are not read closely.
    assert whole.coverage.skimmed == 0
    assert skimmed.coverage.skimmed > 0.7 * skimmed.coverage.chunks
    assert skimmed.coverage.read == skimmed.coverage.chunks


@pytest.mark.parametrize("question", [q for q in QUESTIONS if q["question"] in RIGHT])
def test_a_skimmed_document_answers_right(question: dict[str, str]) -> None:
    result = ask(LONG, question["question"], settings=SKIMMED)
    assert any(answer in result.answer for answer in question["answers"])


def test_a_skimmed_document_asked_again_is_skimmed_again(tmp_path: Path) -> None:
    settings = Settings(cache="on", data_dir=tmp_path)
    question = "Which port does the console's web interface listen on by default?"
    first = ask(LONG, question, settings=settings)
    again = ask(LONG, question, settings=settings)
    assert again.usage.cached_reads == first.coverage.chunks - first.coverage.skimmed > 0
    assert again.coverage == first.coverage
    assert again.answer == first.answer


def test_an_absent_entity_is_not_found_in_a_skimmed_document() -> None:
    question = "Who is the harbour master of Ashford?"
    skimmed = ask(LONG, question, settings=SKIMMED)
    assert skimmed.coverage.skimmed > 0  # 'harbour' is everywhere: regions spread wide
    assert skimmed.citations == []
    assert skimmed.answer == ask(LONG, question, settings=WHOLE).answer


def test_chunks_read_in_worker_processes_are_skimmed_alike() -> None:
    question = "Which port does the console's web interface listen on by default?"
    in_place = ask(LONG, question, settings=SKIMMED)
    in_workers = ask(LONG, question, settings=SKIMMED.model_copy(update={"reader_processes": 2}))
    assert in_workers.coverage == in_place.coverage
    assert in_workers.answer == in_place.answer
    assert in_workers.citations == in_place.citations


def test_a_document_under_the_size_is_read_whole() -> None:
    question = "Which port does the console's web interface listen on by default?"
    result = ask(LONG, question, settings=Settings(cache="off", skim_above_mb=2))
    assert result.coverage.skimmed == 0
    assert result.answer == ask(LONG, question, settings=WHOLE).answer


# -- the regions ---------------------------------------------------------------------------

FACT = "The harbour pilot Ottilie Varga keeps the spare lighthouse key in a blue tin."


def test_regions_hold_the_lead_and_where_the_terms_gather_and_little_else() -> None:
    text = (
        "Harbour notes\n\n" + _harbour(600_000, 5) + "\n\n" + FACT + "\n\n" + _harbour(600_000, 6)
    )
    query = build_query("Where does Ottilie Varga keep the spare key?", [text], ["d"], 1_000_000)
    regions = query.regions["d"]
    assert regions[0][0] == 0  # the lead
    fact = text.index(FACT)
    assert any(start <= fact and fact + len(FACT) <= end for start, end in regions)
    assert sum(end - start for start, end in regions) < 0.1 * len(text)
    for start, end in regions:  # whole paragraphs
        assert start == 0 or text[start - 2 : start] == "\n\n"
        assert end == len(text) or text[end : end + 2] == "\n\n"


@pytest.mark.parametrize(
    ("sentence", "question", "share"),
    [
        ("港口引航员把备用钥匙放在蓝色铁盒里。", "港口引航员把备用钥匙放在哪里？", (0.2, 0.5)),
        ("Лоцман хранит запасной ключ в синей банке. ", "Где лоцман хранит ключ?", (0.8, 1.2)),
    ],
)
def test_regions_of_chinese_text_are_a_third_as_wide_and_of_other_alphabets_as_wide(
    sentence: str, question: str, share: tuple[float, float]
) -> None:
    # A character of Chinese says about what three or four letters do; Cyrillic's do not.
    english = "The harbour pilot keeps the spare key in a blue tin. "

    def width(text: str, asked: str) -> int:
        spans = build_query(asked, [text], ["d"], 1_000_000).regions["d"]
        return sum(end - start for start, end in spans)

    english_width = width(english * (1_300_000 // len(english)), "Where is the spare key?")
    other = width(sentence * (1_300_000 // len(sentence)), question)
    low, high = share
    assert low * english_width < other < high * english_width


def test_a_short_document_or_a_zero_size_has_no_regions() -> None:
    text = _harbour(50_000, 7) + "\n\n" + FACT
    question = "Where does Ottilie Varga keep the spare key?"
    assert build_query(question, [text], ["d"], 1_000_000).regions == {}
    assert build_query(question, [text * 30], ["d"], 0).regions == {}


def _chunk(start: int, end: int, text: str, **extra: list[int]) -> Chunk:
    chunk = Chunk(id=4, document="d", start=start, end=end, text=text[start:end])
    chunk.update(extra)  # type: ignore[typeddict-item]
    return chunk


def test_a_chunk_is_narrowed_to_its_regions_and_one_without_any_is_skipped() -> None:
    text = "".join(f"{n:05d} " for n in range(10_000))  # 60,000 characters
    chunk = _chunk(12_000, 36_000, text)
    part = skim.narrowed(chunk, [[0, 1_000], [15_000, 16_000], [30_000, 40_000]])
    assert part is not None
    assert (part["start"], part["end"]) == (15_000, 36_000)
    assert part["text"] == text[15_000:36_000]
    assert skim.narrowed(chunk, [[0, 1_000], [40_000, 41_000]]) is None


def test_a_narrowed_pdf_chunk_keeps_its_page_starts() -> None:
    text = "x " * 10_000
    chunk = _chunk(2_000, 12_000, text, page_starts=[0, 1_000, 4_000, 8_000])
    part = skim.narrowed(chunk, [[5_000, 9_000]])
    assert part is not None
    # The part is the chunk's 3,000-7,000: of its pages, only the one starting at the chunk's
    # 4,000 starts inside it, 1,000 into the part.
    assert part["page_starts"] == [0, 1_000]


def test_a_region_does_not_open_inside_a_fenced_code_block() -> None:
    # The answer follows a long code block with blank lines in it: the region around the
    # answer reaches back into the block, where a paragraph break falls between two lines
    # of code. Read from there, the closing fence would open a block and the answer after
    # it would read as code.
    code = "\n\n".join(
        f'let value_{n} = compute({n});\nprintln!("{{}}", value_{n});' for n in range(150)
    )
    section = (
        "## Errors\n\n```rust\n" + code + "\n```\n\n"
        "The question mark operator hands the error to the calling function.\n\n"
    )
    text = _harbour(150_000, 8) + "\n\n" + section + _harbour(150_000, 9)
    settings = Settings(cache="off", skim_above_mb=0.1)
    question = "What does the question mark operator hand to the calling function?"
    skimmed = ask(text, question, settings=settings)
    whole = ask(text, question, settings=settings.model_copy(update={"skim_above_mb": 0}))
    assert skimmed.answer.startswith("The question mark operator hands the error")
    assert skimmed.answer == whole.answer
