"""Question names the documents write another way: acronyms spelled out, letters and a version."""

from __future__ import annotations

import pytest

from pipeline import ask
from pipeline.engines.extractive.retrieval import build_query
from pipeline.prompts import NOT_FOUND

LICENCE = """GNU LESSER GENERAL PUBLIC LICENSE
Version 2.1, February 1999

This is the first released version of the Lesser GPL. It also counts as the successor of
the GNU Library Public License, version 2, hence the version number 2.1.
"""


@pytest.mark.parametrize(
    ("question", "term", "aliases"),
    [
        # The rarest word of 'LESSER GENERAL PUBLIC LICENSE': 'General' is there once.
        ("Which license is the LGPL 2.1 the successor of?", "lgpl", ["general"]),
        ("Which license is the LGPL-2.1 the successor of?", "lgpl", ["general"]),
        # The letters as the text writes them ('GPL'), and what they abbreviate.
        ("Which license is the GPLv2 the successor of?", "gplv2", ["gpl", "general"]),
    ],
)
def test_name_written_another_way_is_present_under_the_documents_spelling(
    question: str, term: str, aliases: list[str]
) -> None:
    decisive = build_query(question, [LICENCE]).decisive
    assert decisive.absent == []
    assert decisive.aliases[term] == aliases
    assert not any(t in decisive.aliases for t in ("2", "1"))  # numbers are names of their own


@pytest.mark.parametrize(
    ("question", "absent"),
    [
        ("Which license is the MPL the successor of?", "MPL"),  # no phrase has these initials
        ("Which license is the GPLv7 the successor of?", "GPLv7"),  # no version 7 anywhere
        ("Which license is the Riverside License the successor of?", "Riverside"),
    ],
)
def test_name_with_no_spelling_in_the_documents_stays_absent(question: str, absent: str) -> None:
    assert build_query(question, [LICENCE]).decisive.absent == [absent]


ARTICLE = """The Rhine Delta

Left untreated, eight in ten of those who catch it die within eight days. The Jews of the
city gathered in the streets. Several series debuted on the network in the 1980s. The
monument honours the largest uprising of World War II. Near the coast the Nederrijn changes
its name to the Lek. The river itself is wide and slow.
"""


@pytest.mark.parametrize(
    ("question", "term", "aliases"),
    [
        ("How many die within 8 days?", "8", ["eight"]),  # a number the text writes in words
        ("Which series debuted in the 80s?", "80s", ["1980s"]),  # a decade written in full
        ("Which series debuted in the 80's?", "80", ["1980s"]),  # ... written with an apostrophe
        ("What did the Jewish people do?", "jewish", ["jew"]),  # one name family
        ("What honours the largest uprising of WWII?", "wwii", ["world"]),  # 'World War II'
    ],
)
def test_name_the_documents_write_in_other_words_is_present(
    question: str, term: str, aliases: list[str]
) -> None:
    decisive = build_query(question, [ARTICLE]).decisive
    assert decisive.absent == []
    assert decisive.aliases[term] == aliases


def test_possessive_is_no_part_of_a_misspelt_name() -> None:
    decisive = build_query("What does the Nederrikn's name change into?", [ARTICLE]).decisive
    assert decisive.absent == []
    assert decisive.variants == {"nederrikn": ["nederrijn"]}


@pytest.mark.parametrize(
    ("question", "absent"),
    [
        ("How wide is the Riverside?", "Riverside"),  # 'river' + 'side' is another name
        ("How many die within 9 days?", "9"),  # nine is written nowhere
        ("Which series debuted in the 70s?", "70s"),
        ("What honours the largest uprising of WWI?", "WWI"),  # only 'World War II' is there
    ],
)
def test_other_names_stay_absent(question: str, absent: str) -> None:
    assert build_query(question, [ARTICLE]).decisive.absent == [absent]


# A range of years written short: its last year is not written out.
TOWN_HISTORY = (
    "The castle keep was built between 1172 and 1177. "
    "The king was imprisoned in the keep by the rebels in 1646–7, and released in 1648."
)


@pytest.mark.parametrize("year", ["1647", "1646"])
def test_year_inside_a_range_written_short_is_held_by_the_range(year: str) -> None:
    question = f"Who was imprisoned in the keep by the rebels in {year}?"
    assert build_query(question, [TOWN_HISTORY]).decisive.absent == []
    result = ask(TOWN_HISTORY, question)
    assert result.citations[0].quote.startswith("The king was imprisoned")


@pytest.mark.parametrize("year", ["1645", "1649", "1657"])
def test_year_outside_every_range_stays_absent(year: str) -> None:
    question = f"Who was imprisoned in the keep by the rebels in {year}?"
    assert build_query(question, [TOWN_HISTORY]).decisive.absent == [year]
    assert ask(TOWN_HISTORY, question).answer == NOT_FOUND["en"]


# Decades the text never names, only their years.
CAREER = (
    "In 1884, Tesla worked for Thomas Edison in New York. "
    "In 1891 Tesla worked for George Westinghouse in Pittsburgh. "
    "The lamp failed at 0.1875 volts."
)


@pytest.mark.parametrize(
    ("decade", "years", "employer"),
    [("1880s", ["1884"], "Thomas Edison"), ("1890s", ["1891"], "George Westinghouse")],
)
def test_decade_is_held_by_a_year_of_it(decade: str, years: list[str], employer: str) -> None:
    question = f"Who did Tesla work for in the {decade}?"
    decisive = build_query(question, [CAREER]).decisive
    assert decisive.absent == []
    assert decisive.aliases[decade] == years
    assert employer in ask(CAREER, question).answer


# Every year of the decade written, each in a paragraph about Tesla: the decade is one
# word of the question, not nine.
DECADE = "\n\n".join(
    f"In {year}, {event} Tesla wrote letters home. Tesla read at night. Tesla kept notes."
    for year, event in [
        (1880, "Tesla studied in Prague."),
        (1881, "he moved to Budapest."),
        (1882, "he built a motor in Strasbourg."),
        (1884, "Tesla was hired by Thomas Edison to work in New York."),
        (1885, "he left."),
        (1886, "he founded a firm."),
        (1887, "he dug ditches."),
        (1888, "he licensed his patents to George Westinghouse."),
        (1889, "he visited Paris."),
    ]
)


def test_a_decade_written_as_many_years_is_answered() -> None:
    result = ask(DECADE, "Who did Tesla work for in the 1880s?")
    assert "Thomas Edison" in result.answer


def test_a_century_written_as_its_hundreds_is_held_by_its_years() -> None:
    assert build_query("Who did Tesla work for in the 1800s?", [CAREER]).decisive.aliases[
        "1800s"
    ] == ["1884", "1891"]


def test_decade_none_of_whose_years_is_written_stays_absent() -> None:
    question = "Who did Tesla work for in the 1870s?"  # not the '1875' of '0.1875'
    assert build_query(question, [CAREER]).decisive.absent == ["1870s"]
    assert ask(CAREER, question).answer == NOT_FOUND["en"]


MARCH = "Mahatma Gandhi led the Salt March in 1930. The march covered 390 kilometres."


def test_a_short_name_with_a_letter_moved_is_searched_as_the_text_spells_it() -> None:
    # 'Ghandi' is two edits from 'Gandhi' (one allowed at six letters), the same letters
    decisive = build_query("When did Ghandi lead the Salt March?", [MARCH]).decisive
    assert decisive.absent == []
    assert decisive.variants == {"ghandi": ["gandhi"]}


@pytest.mark.parametrize(
    ("question", "absent"),
    [
        ("When did Gandra lead the Salt March?", "Gandra"),  # two edits, other letters
        ("When did Mary lead the Salt March?", "Mary"),  # 'army' moves its first letter
    ],
)
def test_a_short_name_that_is_another_word_stays_absent(question: str, absent: str) -> None:
    text = MARCH + " The army followed him to the sea."
    assert build_query(question, [text]).decisive.absent == [absent]


SEASON = """The Harbor Cup

The Harbor Cup is the final of the coastal league. In the regular season, the league named
Dana Ruiz its Most Valuable Player (MVP) for the second year running, an MVP award voted
by the coaches. At the Harbor Cup final in May, Omar Hale was named MVP after scoring
three goals.
"""


def test_a_name_written_both_ways_in_one_sentence_counts_once() -> None:
    # 'Most Valuable Player (MVP)' holds the asked name twice; it must not outrank the
    # sentence that names the final's MVP once, the way the question writes it.
    result = ask({"id": "cup", "text": SEASON}, "Who was the Harbor Cup MVP?")
    assert result.answer.startswith("At the Harbor Cup final in May, Omar Hale")
