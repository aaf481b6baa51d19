"""Question names the documents write another way: acronyms spelled out, letters and a version."""

from __future__ import annotations

import pytest

from pipeline.engines.extractive.retrieval import build_query

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
