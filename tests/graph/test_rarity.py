"""How rare a question's words are in English (pipeline/engines/extractive/rarity.py)."""

from __future__ import annotations

from pipeline.engines.extractive.rarity import MOST_COMMON, rarity
from pipeline.engines.extractive.terms import tokens


def _of(question: str, word: str) -> float:
    (term,) = tokens(word)
    return rarity(question, [term])[term]


def test_a_word_english_rarely_uses_weighs_more_than_a_common_one() -> None:
    question = "Who recovered the fumble this year?"
    assert _of(question, "fumble") > _of(question, "year") + 2


def test_a_name_english_does_not_use_weighs_the_most() -> None:
    assert _of("Who founded Qwexlorn Robotics?", "Qwexlorn") == MOST_COMMON


def test_a_term_weighs_as_its_commonest_spelling_in_the_question() -> None:
    # 'games' and 'game' are one term; 'game' is the commoner spelling.
    both = _of("Which of the games decided the game?", "games")
    assert both == _of("Which game?", "game") < _of("Which games?", "games")


def test_a_term_the_documents_spell_for_the_question_weighs_its_own_rarity() -> None:
    # 'General' is an alias the documents give 'GPLv3' (see decisive.py): a common word.
    (general,) = tokens("General")
    weights = rarity("Does the GPLv3 require a notice?", [general])
    assert weights[general] < MOST_COMMON - 2
