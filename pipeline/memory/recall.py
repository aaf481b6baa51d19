"""Hybrid recall over a thread's index: BM25 on the built-in engine's terms, vectors, RRF.

Lexical ranking is always on and uses the built-in engine's tokenizer (stems that join
British and American spellings and ignore accents, CJK bigrams), so "colour" recalls
"color" and 東京 recalls 東京都. A user message and the reply after it borrow part of each
other's scores: a question is often answered by the reply to it, which may share none of
its words.
With an embedder, the query's nearest vectors are a second ranking, and the two are
fused by reciprocal rank (each entry scores the sum of 1 / (RRF_K + rank) over the
rankings it is in), which needs no calibration between BM25 and cosine scales.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from pipeline.engines.extractive.memory_notes import FIRST_PERSON
from pipeline.engines.extractive.terms import query_terms
from pipeline.memory.entries import Entry
from pipeline.memory.index import BoolArray, FloatArray, ThreadIndex
from pipeline.prompts import RECALL_PREFIX
from pipeline.text.tokens import count_tokens
from pipeline.types import RecalledMessage

K1 = 1.2
B = 0.75
"""Standard BM25 parameters: turns vary from 'ok' to pages, so length normalization is full."""
REPLY_CONTEXT = 0.5
"""Share of its user message's score a reply borrows: the answer to a matching question."""
QUESTION_CONTEXT = 0.3
"""Share of its reply's score a user message borrows: the question a matching reply answers."""
SELF_BOOST = 0.5
"""Score bonus (x1.5) for the user's own first-person statements when the query is about
the user ("what is my name?"): what they said about themselves answers it, not a mention."""
TURN_OVERHEAD = 12
"""Tokens of a recalled turn's date and speaker: '[2024-05-01T09:30:00+00:00] User: '."""
BLOCK_OVERHEAD = count_tokens(RECALL_PREFIX) + 10
"""Tokens of the recalled block's heading and its <document> fence."""
MIN_TURN_TOKENS = 30
"""Least of a cut best hit worth showing: a sentence or two."""
RRF_K = 60
"""Reciprocal-rank constant from Cormack et al. (2009); ranks 1 and 10 weigh 1/61 and 1/70."""
CANDIDATES = 100
"""Entries of each ranking that enter the fusion (2k when k is larger); ranks past 100
add under 1/160 each, too little to lift an entry into the top k."""


@dataclass(frozen=True)
class Hit:
    """A recalled entry and its fused score (higher is better)."""

    entry: Entry
    score: float


def search(
    index: ThreadIndex,
    query: str,
    k: int,
    *,
    exclude: Collection[str] = (),
    query_vector: list[float] | None = None,
    embedder: str | None = None,
) -> list[Hit]:
    """The `k` entries that best match `query`, best first, none whose id is in `exclude`."""
    if k <= 0 or not index.entries:
        return []
    allowed = np.ones(len(index.entries), dtype=np.bool_)
    if exclude:
        excluded = set(exclude)
        allowed[[p for p, e in enumerate(index.entries) if e.message_id in excluded]] = False
    candidates = max(CANDIDATES, 2 * k)
    rankings = [_lexical_ranking(index, query, allowed, candidates)]
    if query_vector is not None and embedder is not None:
        rankings.append(_vector_ranking(index, query_vector, embedder, allowed, candidates))
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, position in enumerate(ranking, start=1):
            fused[position] = fused.get(position, 0.0) + 1.0 / (RRF_K + rank)
    order = sorted(fused, key=lambda p: (-fused[p], p))[:k]
    return [Hit(index.entries[p], fused[p]) for p in order]


def lexical_scores(index: ThreadIndex, query: str) -> FloatArray:
    """BM25 of every entry for the query's terms, plus what messages borrow from neighbours."""
    scores = np.zeros(len(index.entries))
    terms = query_terms(query)
    if not terms:
        return scores
    columns = index.columns()
    lengths = columns.lengths
    average = max(1.0, float(lengths.mean()))
    n = len(index.entries)
    for term in terms:
        positions, tfs = index.postings(term)
        if not len(positions):
            continue
        idf = np.log(1 + (n - len(positions) + 0.5) / (len(positions) + 0.5))
        norm = K1 * (1 - B + B * lengths[positions] / average)
        scores[positions] += idf * tfs * (K1 + 1) / (tfs + norm)
    if FIRST_PERSON.search(query):
        scores[columns.about_self] *= 1 + SELF_BOOST
    return _with_neighbours(index, scores)


def _with_neighbours(index: ThreadIndex, scores: FloatArray) -> FloatArray:
    """Each user message plus a share of the reply after it, each reply plus a share of the
    user message before it: a question and its answer lend each other their words."""
    columns = index.columns()
    positions = columns.message_positions
    if len(positions) < 2:
        return scores
    own = scores[positions]
    pair = columns.user[:-1] & columns.assistant[1:]  # message i asks, i + 1 replies
    borrowed = np.zeros_like(own)
    borrowed[1:] += np.where(pair, REPLY_CONTEXT * own[:-1], 0.0)
    borrowed[:-1] += np.where(pair, QUESTION_CONTEXT * own[1:], 0.0)
    out = scores.copy()
    out[positions] += borrowed
    return out


def _lexical_ranking(
    index: ThreadIndex, query: str, allowed: BoolArray, candidates: int
) -> list[int]:
    scores = np.where(allowed, lexical_scores(index, query), 0.0)
    return _best(scores, candidates)


def _vector_ranking(
    index: ThreadIndex,
    query_vector: list[float],
    embedder: str,
    allowed: BoolArray,
    candidates: int,
) -> list[int]:
    positions, matrix = index.vectors(embedder)
    query = np.asarray(query_vector, dtype=np.float64)
    norm = float(np.linalg.norm(query))
    if not len(positions) or norm == 0 or matrix.shape[1] != len(query):
        return []
    similarity = np.full(len(index.entries), -np.inf)
    similarity[positions] = matrix @ (query / norm)
    similarity[~allowed] = -np.inf
    return _best(similarity, candidates, floor=-np.inf)


def _best(scores: FloatArray, count: int, floor: float = 0.0) -> list[int]:
    """Positions of the `count` highest scores above `floor`, best first (ties: earlier)."""
    eligible = np.flatnonzero(scores > floor)
    if len(eligible) > count:
        top = np.argpartition(-scores[eligible], count - 1)[:count]
        eligible = eligible[top]
    order = np.lexsort((eligible, -scores[eligible]))
    return [int(p) for p in eligible[order]]


def recalled_message(hit: Hit) -> RecalledMessage:
    """A hit in the shape callers get: `pipeline.recall`, the HTTP API, ChatResult."""
    entry = hit.entry
    return RecalledMessage.model_validate(
        {
            "message_id": entry.message_id,
            "index": entry.index,
            "role": entry.role,
            "name": entry.name,
            "content": entry.content,
            "created_at": entry.created_at,
            "score": round(hit.score, 6),
        }
    )


def prompt_turns(hits: Sequence[Hit], budget: int) -> list[RecalledMessage]:
    """The best hits that fit in `budget` tokens, back in history order for the prompt.

    Taken best first; one that does not fit is skipped for smaller ones, except the best,
    which is cut to the room left (a 3,000-token turn under a 1,000-token budget keeps its
    first third) so the strongest match reaches the prompt, unless under MIN_TURN_TOKENS
    would be left of it. Each turn costs its text plus TURN_OVERHEAD (date and speaker),
    and the block BLOCK_OVERHEAD (its heading and fence).
    """
    chosen: list[RecalledMessage] = []
    left = budget - BLOCK_OVERHEAD
    for hit in hits:
        turn = recalled_message(hit)
        tokens = count_tokens(turn.content) + TURN_OVERHEAD
        if tokens > left and not chosen and left - TURN_OVERHEAD >= MIN_TURN_TOKENS:
            keep = len(turn.content) * (left - TURN_OVERHEAD) // tokens
            turn = turn.model_copy(update={"content": turn.content[:keep]})
            tokens = left
        if tokens <= left:
            chosen.append(turn)
            left -= tokens
    return sorted(chosen, key=lambda t: (t.index, t.role == "summary"))
