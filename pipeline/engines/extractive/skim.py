"""Skimming a long document: read closely only where the question's terms gather.

Reading a chunk closely (its layout, sentences and scores) costs about 0.25 s a MB of
text. A 10 MB document's every chunk is read that way for one question. But the
sentence that answers it holds the question's terms, so the stretch around it holds
more of them than most stretches do. The IDF pass has to find every use of those terms
anyway. From those uses, `regions` picks the REGIONS stretches of WINDOW_CHARS that hold
the greatest idf weight of distinct question terms. Each is widened by CONTEXT_BEFORE
and CONTEXT_AFTER for what lends it meaning (the heading, term or lead-in above it, the
sentence before it), then snapped to paragraph breaks. The document's lead is always kept.
A map step reads its chunk from the first region in it to the end of the last
(`narrowed`), and skips a chunk holding none.

Asked of all 38 SQuAD articles among 70 essays as one 4.8 MB text, every 8th SQuAD eval
question got the same answer skimmed as read whole in 188 of 190, at 0.4x the time
(`tests/bench/eval_qa.py --only long`).
"""

from __future__ import annotations

import bisect
import heapq
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pipeline.text.boundaries import fenced_code
from pipeline.text.scripts import CJK_CHAR
from pipeline.types import Chunk

REGIONS = 32
"""Stretches of a skimmed document read closely: 32 of ~10,000 characters are ~3% of 10 MB."""
WINDOW_CHARS = 1_500
"""Width of a stretch the question's terms are counted in: a few sentences."""
CONTEXT_BEFORE = 6_000
"""Characters kept before a stretch: a section's heading and lead, a term above its entry."""
CONTEXT_AFTER = 3_000
"""Characters kept after a stretch: the rest of its paragraph, a list under its lead-in."""
LEAD_CHARS = 3_000
"""The document's opening, always read: its title and lead name what the rest is about."""
SNAP_CHARS = 2_000
"""How far a region's bound moves to meet a paragraph break."""
CJK_SCALE = 1 / 3
"""The widths above are for alphabets; a Chinese, Japanese or Korean character says about
as much as three or four letters, so a text in those scripts gets a third of them."""
SAMPLE_CHARS = 20_000
"""Characters of the opening that tell the text's script (see _widths)."""


@dataclass(frozen=True)
class _Widths:
    window: int
    before: int
    after: int
    lead: int
    snap: int


def regions(
    text: str, weights: Mapping[str, float], uses: list[tuple[int, str]]
) -> list[list[int]]:
    """[start, end] of each stretch of `text` to read closely, in order and apart: the
    document's lead and the REGIONS windows whose distinct terms weigh most (`weights` per
    term; `uses` the (position, term) of each use, in order), widened and snapped to
    paragraph breaks."""
    widths = _widths(text)
    spans = [(0, widths.lead)]
    for start in _best_windows(uses, weights, widths.window):
        spans.append((start - widths.before, start + widths.window + widths.after))
    code = fenced_code(text)
    snapped = [_snapped(text, max(0, s), min(len(text), e), widths.snap) for s, e in spans]
    return _merged([(_out_of_code(s, e, code, widths.before), e) for s, e in snapped])


def _widths(text: str) -> _Widths:
    """The widths for `text`: scaled towards CJK_SCALE by the share of its opening's
    characters (spaces aside) that are Chinese, Japanese or Korean."""
    sample = "".join(text[:SAMPLE_CHARS].split())
    share = len(CJK_CHAR.findall(sample)) / max(1, len(sample))
    scale = 1 - (1 - CJK_SCALE) * share
    sizes = (WINDOW_CHARS, CONTEXT_BEFORE, CONTEXT_AFTER, LEAD_CHARS, SNAP_CHARS)
    return _Widths(*(round(scale * n) for n in sizes))


def _best_windows(
    uses: list[tuple[int, str]], weights: Mapping[str, float], window: int
) -> list[int]:
    """Starts of the REGIONS best windows `window` characters wide, no two overlapping:
    most weight of distinct terms first, then most weight of uses (a stretch that keeps
    coming back to the terms discusses them), then the earlier."""
    scored = list(_window_scores(uses, weights, window))
    heapq.heapify(scored)  # best first, popped only as far as needed
    chosen: list[int] = []
    while scored:
        start = heapq.heappop(scored)[2]
        at = bisect.bisect_left(chosen, start)
        near = chosen[max(0, at - 1) : at + 1]
        if all(abs(start - other) >= window for other in near):
            chosen.insert(at, start)
            if len(chosen) == REGIONS:
                break
    return chosen


def _window_scores(
    uses: list[tuple[int, str]], weights: Mapping[str, float], window: int
) -> Iterable[tuple[int, int, int]]:
    """(-distinct, -uses, start) of the window starting at each use: the summed weight of
    the distinct terms used in it and of every use, negated to sort best first, in
    thousandths (whole numbers, so ties are exact)."""
    scale = {term: round(1000 * weight) for term, weight in weights.items()}
    held: Counter[str] = Counter()
    right = distinct = every = 0
    for position, term in uses:
        while right < len(uses) and uses[right][0] < position + window:
            added = uses[right][1]
            held[added] += 1
            distinct += scale.get(added, 0) if held[added] == 1 else 0
            every += scale.get(added, 0)
            right += 1
        yield -distinct, -every, position
        held[term] -= 1
        distinct -= scale.get(term, 0) if held[term] == 0 else 0
        every -= scale.get(term, 0)


def _snapped(text: str, start: int, end: int, reach: int) -> tuple[int, int]:
    """`start` back and `end` on to the nearest paragraph break within `reach`, else a
    line break, so a region opens and closes between sentences where the text allows."""
    low, high = max(0, start - reach), min(len(text), end + reach)
    if start > 0:
        blank, line = text.rfind("\n\n", low, start), text.rfind("\n", low, start)
        start = blank + 2 if blank >= 0 else line + 1 if line >= 0 else start
    if end < len(text):
        blank = text.find("\n\n", end, high)
        line = blank if blank >= 0 else text.find("\n", end, high)
        end = line if line >= 0 else end
    return start, end


def _out_of_code(start: int, end: int, blocks: list[tuple[int, int]], reach: int) -> int:
    """A region's start moved out of the fenced code block it falls in: read from inside,
    the block's closing fence would open one, and the prose after it would read as code.
    It moves to the block's start, or past its end when that is more than `reach` back; a
    region inside a block that long, closing fence and all, is read as it is."""
    at = bisect.bisect_right(blocks, start, key=lambda block: block[0]) - 1
    if at < 0 or not blocks[at][0] < start < blocks[at][1]:
        return start
    block_start, block_end = blocks[at]
    if start - block_start <= reach:
        return block_start
    return block_end if block_end < end else start


def _merged(spans: list[tuple[int, int]]) -> list[list[int]]:
    """The spans in order, those that overlap or touch joined into one."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def narrowed(chunk: Chunk, spans: list[list[int]]) -> Chunk | None:
    """The part of `chunk` from the first region in it to the end of the last (one slice
    of the document still, so citations point into it as before); None when no region
    meets the chunk."""
    inside = [(s, e) for s, e in spans if s < chunk["end"] and e > chunk["start"]]
    if not inside:
        return None
    start, end = max(chunk["start"], inside[0][0]), min(chunk["end"], inside[-1][1])
    text = chunk["text"][start - chunk["start"] : end - chunk["start"]]
    if not text.strip():
        return None
    part = Chunk(id=chunk["id"], document=chunk["document"], start=start, end=end, text=text)
    if chunk.get("page_starts"):  # 0 for the page the part starts in, then those inside it
        local, local_end = start - chunk["start"], end - chunk["start"]
        inner = [page - local for page in chunk["page_starts"] if local < page < local_end]
        part["page_starts"] = [0, *inner]
    return part
