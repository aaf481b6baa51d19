"""Content-defined chunk boundaries: cuts chosen by the text around them, so edits stay local.

A greedy splitter packs each chunk as full as it can, so one sentence inserted near the
start moves every later boundary. Here a candidate break (paragraph, sentence or line end,
from `candidate_breaks`) becomes a cut when a hash of the 64 characters before it falls
under a threshold, at least `min` characters past the chunk's start; if none does by
`max`, the last break of the highest level there is taken. A cut so depends only on the
text just before it and on where its chunk began: after an edit the cuts fall back in step
at the first hash-chosen break past it, and every later chunk is the same text as before
(and its reading a chunk-cache hit).

Candidates come from one function, so structure-aware breaks can be fed in with levels
of their own: a higher level is likelier to be chosen and wins the fallback.
`structured_breaks` is that for a text's structure (pipeline/text/structure.py): no break
inside a list item, a table row or a term, and a heading's start a level above a paragraph.
"""

from __future__ import annotations

import bisect
import math
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum

from pipeline.text.structure import Kind, Structure

WINDOW = 64
"""Characters before a break that decide whether it is chosen."""

BOOST = 4
"""How many times likelier a break one level up is to be chosen (paragraph vs sentence)."""

# A fence line of Markdown code, as the layout pass reads one (pipeline/text/layout.py).
_FENCE_LINE = re.compile(r"^ *(`{3,}|~{3,})(.*)$", re.MULTILINE)


class Level(IntEnum):
    """How strong a break is; a line break is only ever a fallback."""

    LINE = 0
    SENTENCE = 1
    PARAGRAPH = 2
    HEADING = 3
    """Before a heading (structured_breaks only): a section starts there."""


Break = tuple[int, int]
"""(offset, level): a place a chunk may end, `text[:offset]` ending a line, sentence or
paragraph. A plain tuple: a 10 MB text offers ~70,000 of them, and a named tuple's
constructor took a fifth of the time of cutting it."""


@dataclass(frozen=True)
class Sizes:
    """Chunk sizes in characters: no cut before `min`, none after `max`, ~`target` on average."""

    min: int
    target: int
    max: int

    @classmethod
    def up_to(cls, most: int) -> Sizes:
        """Sizes for chunks of at most `most` characters: min = most/2, target = 3/4 most.

        A cut lands between min and max, so each chunk keeps some room for the chosen
        break: at most=8,000 chunks run 4,000-8,000 characters, ~6,000 on average.
        """
        most = max(2, most)
        return cls(min=most // 2, target=(3 * most) // 4, max=most)


# One character class opens every candidate, so the scan jumps from one to the next (a
# pattern of named alternatives scans 7x slower); candidate_breaks sorts them into levels.
_BREAK = re.compile(r"[\n.!?…。！？][\"'”’)\]»」』）]*\s*")
_CJK_ENDS = frozenset("。！？")
_SENTENCE_ENDS = (". ", ".\n", "? ", "! ")
_CJK_SENTENCE_ENDS = ("。", "！", "？")
_PARAGRAPH_END = "\n\n"
# Past this size break spacing is estimated from 64 evenly spread slices of 16 KB.
_SAMPLE_SLICES = 64
_SAMPLE_CHARS = 16_384
_SLICES_AT = 4 * _SAMPLE_SLICES * _SAMPLE_CHARS

Breaks = Callable[[str, int, int], Iterator[Break]]
"""Candidate breaks of a text from an offset on, in order, up to a stop (see candidate_breaks)."""


def candidate_breaks(text: str, start: int, stop: int) -> Iterator[Break]:
    """Every paragraph, sentence and line end at or after `start`, lazily, in order.

    A break sits after the whitespace that follows the end, so the next chunk starts on
    the next sentence's first character. A sentence end followed by a blank line is a
    paragraph break; a period with no space after it (3.5, example.com) is none.

    The search ends at `stop`: the breaks ending before it are exactly those of the whole
    text, and the first past it may come cut short (callers read none past the first
    there). Without it, a text with no break at all (one line, no punctuation) would be
    searched to its end for every chunk: 10 MB, 150 times.
    """
    size = len(text)
    paragraph, line, sentence = Level.PARAGRAPH, Level.LINE, Level.SENTENCE
    for match in _BREAK.finditer(text, start, stop):
        offset = match.end()
        if offset >= size:
            return
        found = match.group()
        # Most breaks hold no line break (a sentence's end and its space): one test for them.
        if "\n" in found:
            if found.count("\n") >= 2:
                yield offset, paragraph
                continue
            if found[0] == "\n":
                yield offset, line
                continue
        if found[0] in _CJK_ENDS or found[-1].isspace():
            yield offset, sentence


_WHOLE = frozenset((Kind.ITEM, Kind.ROW, Kind.TERM))
"""Blocks a chunk never cuts inside (a row or an item read in halves loses its meaning)."""


def structured_breaks(structure: Structure) -> Breaks:
    """`candidate_breaks` of the text `structure` was read from, less those inside a list
    item, table row or term, with the break before a heading raised to Level.HEADING.

    Each break still depends only on the text around it (a block's bounds come from its
    own lines and their neighbours), so an edit still moves only the cuts near it.
    """
    starts, ends = structure.starts(), structure.ends()

    def breaks(text: str, start: int, stop: int) -> Iterator[Break]:
        for offset, level in candidate_breaks(text, start, stop):
            block = bisect.bisect_right(starts, offset) - 1
            if block < 0:
                yield offset, level
            elif starts[block] == offset:
                heading = structure.kind(block) == Kind.HEADING
                yield offset, Level.HEADING if heading else level
            elif offset >= ends[block] or structure.kind(block) not in _WHOLE:
                yield offset, level

    return breaks


def choice_thresholds(text: str, sizes: Sizes) -> dict[int, float]:
    """The chance, per level, that a break of that level is chosen.

    Set so that chosen breaks come every ~(target - min) characters: with one sentence
    end every 100 characters and no paragraphs, min=4,000 and target=6,000 a sentence end
    is chosen with chance 100/2,000 = 0.05. The spacing of breaks is a whole-text figure,
    so it is rounded to quarter octaves: an edit must not move the thresholds, or it could
    move every cut.
    """
    sample = _sample(text)
    ends = _SENTENCE_ENDS if sample.isascii() else _SENTENCE_ENDS + _CJK_SENTENCE_ENDS
    sentences = sum(sample.count(end) for end in ends)
    paragraphs = sample.count(_PARAGRAPH_END)
    weight = max(1.0, sentences + BOOST * paragraphs)
    spacing = 2 ** (round(4 * math.log2(max(1.0, len(sample) / weight))) / 4)
    chance = min(1.0, spacing / max(1, sizes.target - sizes.min))
    return {
        Level.LINE: 0.0,
        Level.SENTENCE: chance,
        Level.PARAGRAPH: min(1.0, BOOST * chance),
    }


def _sample(text: str) -> str:
    """The text, or for a long one evenly spread slices of it (counting all of 10 MB would
    cost more than cutting it)."""
    if len(text) <= _SLICES_AT:
        return text
    step = len(text) // _SAMPLE_SLICES
    return "".join(text[i * step : i * step + _SAMPLE_CHARS] for i in range(_SAMPLE_SLICES))


def content_defined_cuts(text: str, sizes: Sizes, breaks: Breaks = candidate_breaks) -> list[int]:
    """Offsets where `text` is cut into chunks of `sizes` (none when it fits in one)."""
    if len(text) <= sizes.max:
        return []
    thresholds = choice_thresholds(text, sizes)
    cuts: list[int] = []
    start = 0
    while len(text) - start > sizes.max:
        start = _next_cut(text, start, sizes, thresholds, breaks)
        cuts.append(start)
    return cuts


def _next_cut(
    text: str, start: int, sizes: Sizes, thresholds: dict[int, float], breaks: Breaks
) -> int:
    """The first chosen break in [start + min, start + max], else the best break there."""
    best, best_level = -1, -1
    limits: dict[int, float] = {}  # per level, the hash below which a break is chosen
    most = start + sizes.max
    # Every break read is within max, or the first past it (one more character).
    for offset, level in breaks(text, start + sizes.min, most + 1):
        if offset > most:
            break
        limit = limits.get(level)
        if limit is None:
            limit = limits[level] = _limit(thresholds, level)
        if limit > 0.0:
            window = text[max(0, offset - WINDOW) : offset]
            if zlib.crc32(window.encode("utf-8", "surrogatepass")) < limit:
                return offset
        if level >= best_level:
            best, best_level = offset, level
    if best >= 0:
        return best
    # No break left to take (a code block or a list item longer than a chunk, whose own
    # breaks are not offered): a line end, else (one endless line) a word boundary, else
    # a hard cut at max.
    for boundary in ("\n", " "):
        found = text.rfind(boundary, start + sizes.min, start + sizes.max)
        if found >= 0:
            return found + 1
    return start + sizes.max


def _limit(thresholds: dict[int, float], level: int) -> float:
    """The hash (of 2**32) below which a break of `level` is chosen; 0 for never."""
    chance = thresholds.get(level)
    if chance is None:  # a structural level above paragraphs: likelier still
        chance = min(1.0, thresholds[Level.PARAGRAPH] * BOOST ** (level - 2))
    return chance * 2**32 if chance > 0.0 else 0.0


def overlap_start(text: str, cut: int, overlap: int, breaks: Breaks = candidate_breaks) -> int:
    """Where the chunk that begins at `cut` starts once it repeats up to `overlap` characters
    of the text before it: the first break (else word start) in [cut - overlap, cut).

    It depends only on the text before the cut, so it moves no cut.
    """
    if overlap <= 0 or cut <= 0:
        return cut
    earliest = max(0, cut - overlap)
    for offset, _ in breaks(text, earliest, cut):
        if offset >= cut:
            break
        if offset >= earliest:
            return offset
    space = text.find(" ", earliest, cut)
    return space + 1 if 0 <= space < cut - 1 else cut


def fenced_code(text: str) -> list[tuple[int, int]]:
    """(start, end) of each fenced code block of `text`, fences included, paired as the
    layout pass pairs them: a closing fence of the same character, at least as long, with
    nothing after it; a fence left open runs to the end of the text."""
    if "```" not in text and "~~~" not in text:
        return []  # most texts: one fast scan says so
    blocks: list[tuple[int, int]] = []
    opening: re.Match[str] | None = None
    for fence in _FENCE_LINE.finditer(text):
        if opening is None:
            opening = fence
        elif fence.group(1).startswith(opening.group(1)) and not fence.group(2).strip():
            blocks.append((opening.start(), fence.end()))
            opening = None
    if opening is not None:
        blocks.append((opening.start(), len(text)))
    return blocks
