"""LexRank centrality, focus terms, word counts, and the length-bounded pick for chat memory."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pipeline.engines.extractive.terms import query_terms, tokens
from pipeline.text.scripts import CJK

DAMPING = 0.85
"""PageRank damping for LexRank: 15% of each sentence's score is spread evenly."""
NEAR_DUPLICATE = 0.5
"""Cosine similarity above which a sentence repeats one already picked and is skipped."""
MIN_TERMS = 4
"""Fragments with fewer content terms (labels, table cells) make poor summary sentences."""
LOCAL_SHARE = 0.5
"""Final score = LOCAL_SHARE x centrality in its chunk + the rest x centrality among all
candidates, so a sentence central to its part and to the whole document wins."""
FOCUS_WEIGHT = 2.0
"""With instructions, a sentence holding any of their topic words has its score multiplied
by up to 1 + this: "Focus on greenhouse gas emissions" triples a sentence with all three
words and multiplies one with only "emissions" by 1 + 2 x (1 + 1/3) / 2 = 2.33, since one
word of a topic usually means the sentence is on it."""

# Words that say how to summarize, not what about: "Focus on", "key points", "briefly".
_INSTRUCTION_WORDS = frozenset(
    tokens(
        "summarize summary summarise focus focusing main key points point mention mentions "
        "include including highlight emphasize emphasise briefly brief short detail details "
        "cover covering describe explain list bullet bullets important especially please "
        "document report text write keep concise",
        keep_stopwords=True,
    )
)

_CJK_CHAR = re.compile(f"[{CJK}]")
_WORD = re.compile(f"[^\\W{CJK}]+")


def count_words(text: str) -> int:
    """Words for the length option; CJK has no spaces, so two characters count as a word.

    'The year 2024 was strong.' -> 5; '澄川製茶は創業した。' (9 CJK chars) -> 4.
    """
    return len(_WORD.findall(text)) + len(_CJK_CHAR.findall(text)) // 2


@dataclass(frozen=True)
class Candidate:
    """A sentence offered for the summary: local offsets and its centrality (mean 1.0)."""

    start: int
    end: int
    score: float


def focus_terms(instructions: str) -> frozenset[str]:
    """The topic words of summary instructions: 'Focus on emissions.' -> {'emiss'}."""
    return frozenset(query_terms(instructions)) - _INSTRUCTION_WORDS


def focus_boost(terms: list[str], focus: frozenset[str]) -> float:
    """Score multiplier for a sentence with these terms (see FOCUS_WEIGHT); 1.0 without focus."""
    held = len(focus.intersection(terms))
    return 1 + FOCUS_WEIGHT * (1 + held / len(focus)) / 2 if held else 1.0


def lexrank(matrix: NDArray[np.float64]) -> NDArray[np.float64]:
    """Continuous LexRank over TF-IDF rows (see tfidf_matrix): stationary scores, mean 1.0."""
    n = matrix.shape[0]
    if n <= 2:
        return np.ones(n)
    similarity = matrix @ matrix.T
    np.fill_diagonal(similarity, 0.0)
    rows = similarity.sum(axis=1, keepdims=True)
    rows[rows == 0] = 1.0
    transition = similarity / rows
    scores = np.full(n, 1.0 / n)
    for _ in range(50):  # converges to 1e-6 in ~20 steps on chunk-sized graphs
        updated = (1 - DAMPING) / n + DAMPING * (scores @ transition)
        if np.abs(updated - scores).sum() < 1e-6:
            scores = updated
            break
        scores = updated
    return np.asarray(scores * n, dtype=np.float64)


def tfidf_matrix(sentences: list[list[str]]) -> NDArray[np.float64]:
    """Row-normalized TF-IDF vectors (sentences x vocabulary); empty sentences are zero rows."""
    vocabulary: dict[str, int] = {}
    for terms in sentences:
        for term in terms:
            vocabulary.setdefault(term, len(vocabulary))
    matrix = np.zeros((len(sentences), max(1, len(vocabulary))))
    df: Counter[str] = Counter(t for terms in sentences for t in set(terms))
    n = len(sentences)
    for row, terms in enumerate(sentences):
        for term, count in Counter(terms).items():
            matrix[row, vocabulary[term]] = count * math.log(1 + n / df[term])
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalized: NDArray[np.float64] = matrix / norms
    return normalized


def select(
    texts: list[str],
    local: list[float],
    words: int,
    local_share: float = LOCAL_SHARE,
    focus: frozenset[str] = frozenset(),
) -> list[int]:
    """Indices of the sentences to keep: best first, no near-duplicates, within `words`.

    Sentences that would overflow the budget are skipped in favour of shorter ones,
    so a 250-word budget fills to ~240 rather than stopping at the first long sentence.
    `local` scores come from the map step, focus already applied; the global centrality
    gets the same focus_boost here.
    """
    terms = [tokens(t) for t in texts]  # stemmed once: ranking, focus and dedup
    vectors = tfidf_matrix(terms)
    global_scores = lexrank(vectors) * np.array([focus_boost(t, focus) for t in terms])
    local_array = np.asarray(local, dtype=float)
    if local_array.mean() > 0:
        local_array = local_array / local_array.mean()
    final = local_share * local_array + (1 - local_share) * global_scores
    return fill_budget(texts, vectors, final, words)


def fill_budget(texts: list[str], vectors: Any, scores: Any, words: int) -> list[int]:
    """Indices of texts taken best score first while they fit `words`, skipping one that
    nearly repeats a text already taken (cosine over NEAR_DUPLICATE of its tf-idf row)."""
    picked: list[int] = []
    used = 0
    for index in sorted(range(len(texts)), key=lambda i: -scores[i]):
        cost = count_words(texts[index])
        if used + cost > words:
            continue
        if picked and float(np.max(vectors[picked] @ vectors[index])) > NEAR_DUPLICATE:
            continue
        picked.append(index)
        used += cost
    return picked
