"""How the documents use the question's terms: the counts build_query's IDF is made of.

Sentences (units) are BM25's documents. A text of at most CACHED_CHARS is counted over its
units exactly as its one map task reads them, since that reading is cached for the task.
A longer text is not laid out for its counts: the layout pass of a whole 10 MB man page took
2 of an `ask`'s 4 seconds, and its chunks are laid out again by the map steps anyway. Its
counts are estimated instead, from the terms' uses and from samples:

- the number of units and their mean length, from the units of SAMPLE_WINDOWS stretches of
  the text laid out exactly (a unit a few hundred characters long in either case);
- a term's document frequency, from its uses in order: two uses are in one unit unless a
  sentence end or a blank line lies between them (or MAX_SENTENCE_CHARS);
- whether a use opens a unit (for how often a word is capitalized mid-sentence, which tells
  a name), from the characters before it.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from pipeline.engines.extractive.decisive import Usage
from pipeline.engines.extractive.passages import CACHED_CHARS, laid_out_bounds, unit_bounds
from pipeline.engines.extractive.sentences import MAX_SENTENCE_CHARS
from pipeline.engines.extractive.terms import TermFinder
from pipeline.text.structure import Structure

SAMPLE_WINDOWS = 16
"""Stretches of a long text laid out to estimate its unit count and mean unit length."""
SAMPLE_CHARS = 20_000
"""Characters of each stretch: 16 x 20,000 of a 10 MB text is 3% of its layout pass."""
# What ends a unit between two uses of a term: a sentence's closing punctuation before
# space, an ideographic one, or a blank line.
_UNIT_END = re.compile(r"[.!?](?=\s)|[。！？]|\n[ \t]*\n")
_CLOSING = frozenset(".!?。！？")
# What a wrapped sentence's line may end with before the word that goes on after the break.
_GOES_ON = frozenset(",;-")


@dataclass(frozen=True)
class Units:
    """A text's units as the IDF pass counts them: their number, total length and bounds,
    or for a long text only its estimated number and length (no bounds). They do not
    depend on the question's terms, so build_query reads them once for both its passes."""

    count: int
    length: int
    bounds: tuple[array[int], array[int]] | None = None


def units_of(text: str, structure: Structure | None = None) -> Units:
    """The units of `text`: counted if it is short or `structure` (its whole structure)
    is given, else estimated from samples."""
    if structure is None and len(text) > CACHED_CHARS:
        return Units(*_sampled_units(text))
    starts, ends = unit_bounds(text, structure)
    return Units(len(starts), sum(ends) - sum(starts), (starts, ends))


def gather(
    terms: list[str], texts: list[str], units: list[Units], alone: AbstractSet[str] = frozenset()
) -> Usage:
    """Per term: the units holding it and its mid-sentence uses, capitalized or not;
    `units` are the texts' (units_of)."""
    finder = TermFinder(terms, alone)
    usage = Usage()
    df: Counter[str] = Counter()
    mid: Counter[str] = Counter()
    capital: Counter[str] = Counter()
    for text, counted in zip(texts, units, strict=True):
        usage.sentences += counted.count
        usage.length += counted.length
        if counted.bounds is not None:
            _count_exactly(finder, text, counted.bounds, df, mid, capital)
            usage.uses.append(None)
        else:
            usage.uses.append(_estimate(finder, text, df, mid, capital))
    usage.df, usage.mid, usage.capital = dict(df), dict(mid), dict(capital)
    return usage


def gather_more(usage: Usage, terms: list[str], texts: list[str], units: list[Units]) -> Usage:
    """`usage` with `terms` gathered too, in a pass over the texts for them alone."""
    more = gather(terms, texts, units)
    uses = [
        None if mine is None or theirs is None else list(heapq.merge(mine, theirs))
        for mine, theirs in zip(usage.uses, more.uses, strict=True)
    ]
    return Usage(
        usage.sentences,
        usage.length,
        usage.df | more.df,
        usage.mid | more.mid,
        usage.capital | more.capital,
        uses,
    )


def _count_exactly(
    finder: TermFinder,
    text: str,
    bounds: tuple[array[int], array[int]],
    df: Counter[str],
    mid: Counter[str],
    capital: Counter[str],
) -> None:
    starts, ends = bounds
    seen: set[tuple[int, str]] = set()
    for position, term in finder.find_unfolded(text):
        seen.add((bisect.bisect_right(ends, position), term))
        first = bisect.bisect_left(starts, position)  # units are in order: starts sorted
        if first == len(starts) or starts[first] != position:
            mid[term] += 1
            capital[term] += text[position].isupper()
    df.update(term for _, term in seen)


def _estimate(
    finder: TermFinder, text: str, df: Counter[str], mid: Counter[str], capital: Counter[str]
) -> list[tuple[int, str]]:
    """Counts estimated from the terms' uses; returns the uses, in order."""
    found = sorted(finder.find_unfolded(text))
    uses: defaultdict[str, list[int]] = defaultdict(list)
    for position, term in found:
        uses[term].append(position)
    for term, positions in uses.items():
        df[term] += 1 + sum(
            1 for before, after in itertools.pairwise(positions) if _apart(text, before, after)
        )
        for position in positions:
            if not _opens_unit(text, position):
                mid[term] += 1
                capital[term] += text[position].isupper()
    return found


def _sampled_units(text: str) -> tuple[int, int]:
    """The estimated number of units of `text` and their total length."""
    units = chars = length = 0
    step = len(text) // SAMPLE_WINDOWS
    for window in range(SAMPLE_WINDOWS):
        start, end = _paragraphs_within(text, window * step, window * step + SAMPLE_CHARS)
        starts, ends = laid_out_bounds(text[start:end])
        units += len(starts)
        length += sum(ends) - sum(starts)
        chars += end - start
    if not units:
        return 1, len(text)
    estimated = max(1, round(units * len(text) / chars))
    return estimated, round(length / units * estimated)


def _paragraphs_within(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] narrowed to whole paragraphs (blank line to blank line), if it holds
    two paragraph breaks; a window that cuts a paragraph would count a fragment unit."""
    first = text.find("\n\n", start, end)
    last = text.rfind("\n\n", start, end)
    if first < 0 or last <= first:
        return start, min(end, len(text))
    return first + 2, last


def _apart(text: str, before: int, after: int) -> bool:
    """Whether uses at `before` and `after` are in different units."""
    return after - before > MAX_SENTENCE_CHARS or _UNIT_END.search(text, before, after) is not None


def _opens_unit(text: str, position: int) -> bool:
    """Whether the use at `position` starts its unit: the text's first word, one after a
    sentence's end, a blank line or a gap of two spaces (a term's description), or a line's
    first word after a line that does not go on into it (a heading, a term line)."""
    j = position - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    if j < 0:
        return True
    if text[j] != "\n":
        if position - j > 2:
            return True
        return text[j] in _CLOSING or (text[j] in "\"')]" and text[j - 1 : j] in _CLOSING)
    k = j - 1
    while k >= 0 and text[k] in " \t":
        k -= 1
    if k < 0 or text[k] == "\n":
        return True
    return not (text[k].islower() or text[k] in _GOES_ON)
