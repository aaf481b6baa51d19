"""How much of a Chinese or Korean question a passage covers, in characters, not bigrams.

Bigrams of unsegmented text straddle word boundaries: 中国第一个皇帝 gives 国第 and 个皇,
which no document holds, so a share of bigrams found calls half of every Chinese question
unmatched and the not-found threshold refused 14-18% of answerable ones. A share of the
question's characters does not care: 国 is covered by 中国 and 第 by 第一, so the
straddling bigrams cost nothing. Characters that only mark grammar (question words,
one-character stopwords, Korean endings) are not counted; each Latin word or number
counts as LATIN_UNIT characters. Japanese keeps the bigram share: its kana particles
already cut a question into words, and there the bigram share also refuses questions
about things the text never names (京都 and 支店 in a history of a tea maker), which
equal character weights would not (units weighted by idf refused 6-7% of answerable
Chinese dev questions instead of 0-4%).
"""

from __future__ import annotations

import re

from bm25s.stopwords import STOPWORDS_CHINESE

from pipeline.engines.extractive.terms import QUESTION_CHARS, fold, is_cjk_term
from pipeline.text.scripts import CJK, HAN, HANGUL_CHAR, HIRAGANA

Unit = tuple[list[str], float]
"""Terms any of which covers one question character (or word), and its weight."""

LATIN_UNIT = 2.0
"""Weight of a Latin word or number in a CJK question: about one two-character word."""
FUNCTION_CHARS = frozenset(w for w in STOPWORDS_CHINESE if len(w) == 1) | QUESTION_CHARS
# Korean particles and question endings left at the end of a word: 무엇입니까 -> 무엇.
_KOREAN_ENDINGS = frozenset("은는이가을를의에도와과로만서까요니입습나인했었였던된한")
_RUN = re.compile(f"[{CJK}]+")
_NOUN = f"[{HAN}\u30a1-\u30fa\u30fc]"
# The kind of thing a Japanese question asks for, which the answering passage names by its
# name, not by its kind: 'どの球団', '...を獲得した球団は', '天下の台所と呼ばれた都道府県は？'
# (大阪). Matched in the folded question. Chinese '哪一種戰艦' reads the same way, but there
# leaving the kind out answered more questions asked of the wrong article and refused no
# fewer (CMRC2018 and DRCD dev), so Chinese keeps it.
_ASKED_KIND = re.compile(
    f"(?:どの|何の|どんな|どういう)(?P<which>{_NOUN}+)"
    f"|(?P<topic>{_NOUN}+)は(?:何|なに|誰|だれ|どこ|どれ|いつ)?(?:か|ですか|でしょうか)?\\s*[?？。]?\\s*$"
)
_HIRAGANA = re.compile(f"[{HIRAGANA}]")


def asked_kind_terms(question: str) -> set[str]:
    """The bigrams and one-kanji words of the noun naming the kind of thing a Japanese
    question asks for (see _ASKED_KIND): '...獲得した球団は' -> {'球団', '球', '団'}. The
    passage that answers names the team, not 'the team', so these count for nothing in
    the not-found share; they still rank."""
    folded = fold(question)
    asked: set[str] = set()
    for match in _ASKED_KIND.finditer(folded):
        noun = match.group("which") or match.group("topic")
        asked.update(noun[i : i + 2] for i in range(len(noun) - 1))
        asked.update(noun)
    return asked


def coverage_units(question: str, idf: dict[str, float]) -> list[Unit]:
    """The question's content characters, each with the query terms that cover it.

    '中国第一个皇帝是谁' with terms [中国, 国第, 第一, 个皇, 皇帝, 帝是]: 中 -> [中国],
    国 -> [中国, 国第], 第 -> [国第, 第一], ...; 个 and 是 are stopwords, 谁 a question word.
    Empty for a question without CJK: its coverage stays the idf share.
    """
    wanted = set(idf)
    units: list[Unit] = []
    folded = fold(question)
    if _RUN.search(folded) is None or _HIRAGANA.search(folded):
        return []  # kana particles already cut Japanese into words: bigrams rarely straddle
    for match in _RUN.finditer(folded):
        run, start = match.group(), match.start()
        end = _content_end(folded, start, match.end())
        for index in range(len(run)):
            char = run[index]
            if start + index >= end or _HIRAGANA.match(char) or char in FUNCTION_CHARS:
                continue
            covering = [
                g for g in (run[index - 1 : index + 1], run[index : index + 2]) if len(g) == 2
            ]
            found = [g for g in covering if g in wanted] or ([char] if char in wanted else [])
            if found:
                units.append((found, 1.0))
    units += [([t], LATIN_UNIT) for t in idf if not is_cjk_term(t)]
    return units


def _content_end(text: str, start: int, end: int) -> int:
    """Where a run's content ends: before trailing Korean particles and endings."""
    if not HANGUL_CHAR.match(text[start]):
        return end
    while end - start > 1 and text[end - 1] in _KOREAN_ENDINGS:
        end -= 1
    return end


def covered(units: list[Unit], found: dict[str, float]) -> float:
    """Share of the units' weight the found terms cover (each term found 0-1)."""
    total = sum(weight for _, weight in units)
    held = sum(weight * max(found.get(t, 0.0) for t in unit) for unit, weight in units)
    return held / total if total else 0.0
