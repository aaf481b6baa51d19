"""How rare a question's words are in English at large, from wordfreq's frequency lists.

A document's own idf says how rare a word is in that document: in an article about Super
Bowl 50, 'Super' and 'Bowl' are in every other sentence and weigh little, though they are
what the question is about. How often the language at large uses a word tells which of a
question's words name what it is about ('Presburger', 'Bowl') and which could be asked of
any text ('cost', 'during', 'year'). Ranking weighs a term by both (retrieval.RANK_RARITY).
"""

from __future__ import annotations

import functools

from wordfreq import zipf_frequency

from pipeline.engines.extractive.terms import WORD, fold, tokens
from pipeline.text.scripts import CJK_CHAR

MOST_COMMON = 8.0
"""A word's rarity is MOST_COMMON minus its Zipf frequency (log10 of uses per billion
words): 'cost' (5.2) weighs 2.8, 'fumble' (3.4) 4.6, 'Presburger' (unlisted) 8."""
LEAST_RARITY = 0.5
"""The least a word weighs ('the', 7.7, would weigh 0.3), so that none counts for nothing."""
LIST = "large"
"""wordfreq's 321,000-word English list (the small one stops at 29,000 words and calls
'probabilistic' unknown): read once, on the first English question, in 0.2 s, and held in
about 37 MB of memory."""


def weighs(question: str) -> bool:
    """Whether rarity applies: a question written without CJK letters. For Japanese and
    Chinese, frequencies summed from wordfreq's word lists over bigrams ranked worse."""
    return CJK_CHAR.search(fold(question)) is None


def rarity(question: str, terms: list[str]) -> dict[str, float]:
    """Each of `terms` with its rarity: a term of the question's words (see terms.tokens)
    that of its commonest spelling there; any other (a spelling or an alias the documents
    use, see decisive.py) its own. A word English does not use weighs MOST_COMMON."""
    spelled = _spelled(question)
    return {t: spelled[t] if t in spelled else word_rarity(t) for t in terms}


@functools.lru_cache(maxsize=64)
def _spelled(question: str) -> dict[str, float]:
    rare: dict[str, float] = {}
    for word in WORD.findall(question):
        for term in tokens(word):
            rare[term] = min(rare.get(term, MOST_COMMON), word_rarity(word))
    return rare


@functools.lru_cache(maxsize=4096)
def word_rarity(word: str) -> float:
    """A word's rarity in English: 'encrypt' 5.2, 'files' 3.2."""
    return max(LEAST_RARITY, MOST_COMMON - zipf_frequency(word, "en", wordlist=LIST))
