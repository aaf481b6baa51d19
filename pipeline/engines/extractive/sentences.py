"""Sentence segmentation with exact offsets, for English and for CJK text without spaces."""

from __future__ import annotations

import itertools
import re

from pipeline.text.layout import LIST_MARKER
from pipeline.text.scripts import CJK, CJK_PUNCTUATION

# A sentence ends at Latin punctuation followed by whitespace and something that is not a
# lowercase letter ("e.g. this" does not end) or hiragana (a Japanese particle goes on after
# an ellipsis: 'PREFIXaa, PREFIXab, ... という固定サイズ'), an ellipsis, a comma ('"squash! ..." or'
# goes on) or an operator ('the factorial (p − 1)! + 1 is divisible'; a contents page's
# leader dots '. . .' still end), at CJK enders (no space follows them in Japanese or
# Chinese), or at a line break unless the next line goes on in
# lowercase (hard-wrapped prose). Closing quotes and brackets stay with the sentence they close.
# A '!' or '?' after a space or an open bracket is an operand, not an end ('(! -perm /111
# or ! -perm /a+x)'), and so is a lone '.' before an option ('find . -name').
# Each pattern starts with one character class, and each branch checks which character it
# began at: a leading class lets the regex engine skip straight to candidate characters,
# which alternatives starting with different classes do not (4x faster on prose).
_END = re.compile(
    r"""[.!?。！？\n]
      (?: (?<=[.!?]) (?<![\s(\[][!?]) (?!(?<=\s\.)\s+-)
          [.!?]*['"”’)\]]*(?=\s+(?:[^\sa-z.,;:+=×÷−\u3040-\u309f]|\.(?!\.)))
        | (?<=[。！？]) [。！？]*[」』”’）)]*
        | (?<=\n) (?![ \t]*[a-z]) )""",
    re.VERBOSE,
)

# Words whose trailing period is not a sentence end ("Mr. Smith", "No. 5", "Roe v. Wade",
# "Smith et al. found").
# Inside a block the structure says is one paragraph (or item), a line break is a hard wrap,
# never a sentence end by itself (see block_sentences for short lines).
_END_IN_BLOCK = re.compile(
    r"""[.!?。！？]
      (?: (?<=[.!?]) (?<![\s(\[][!?]) (?!(?<=\s\.)\s+-)
          [.!?]*['"”’)\]]*(?=\s+(?:[^\sa-z.,;:+=×÷−\u3040-\u309f]|\.(?!\.)))
        | (?<=[。！？]) [。！？]*[」』”’）)]* )""",
    re.VERBOSE,
)
SHORT_LINE = 0.6
"""A line of a wrapped block shorter than this share of its longest line ends a unit when
the next line starts in capitals: lines of facts without markers ('Weight: 480 g'), or a
PDF heading run into its paragraph."""
_WIDE = re.compile(f"[{CJK}{CJK_PUNCTUATION}]")
"""A character a terminal shows two columns wide: a line of 36 of them is a full line."""
_OPEN_ENDS = frozenset(",;(-\u2010/&")
_MARKUP_OPENERS = "[`*_"
"""What a Markdown link, code span or emphasis opens with, before the words a line goes on in."""

# ... and a date's 'c.', 'b.', 'd.', 'fl.' ("Cellini (c. 1547)", "de la Plancha (d. 1560)").
_ABBREVIATIONS = frozenset(
    str.split(
        "mr mrs ms dr prof st jr sr vs etc fig no nos vol pp ca approx dept est gen gov lt col "
        "sgt capt rev jan feb mar apr jun jul aug sep sept oct nov dec u.s e.g i.e v al cf "
        "c b d fl"
    )
)

_LAST_WORD = re.compile(r"(?:(?<=\s)|^)\S+$")

# Text without punctuation (PDF extraction, tables) must not become one huge "sentence":
# spans longer than this are cut, preferably at whitespace. 600 chars is ~100 English words.
MAX_SENTENCE_CHARS = 600


def sentence_spans(text: str, offset: int = 0) -> list[tuple[int, int]]:
    """(start, end) of every sentence, stripped of surrounding whitespace, plus `offset`.

    Linear in the text: one regex pass; `text[start - offset:end - offset]` is the sentence.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _END.finditer(text):
        end = match.end()
        if text[match.start()] == "." and _is_abbreviation(text, match.start()):
            continue
        _add(text, start, end, offset, spans)
        start = end
    _add(text, start, len(text), offset, spans)
    return spans


def block_sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of the sentences of the block text[start:end], in text offsets.

    Line breaks are wraps, except after a short line (SHORT_LINE) followed by a line that
    does not go on in lowercase.
    """
    spans: list[tuple[int, int]] = []
    begin = start
    for cut in _block_ends(text, start, end):
        _add(text, begin, cut, 0, spans)
        begin = cut
    _add(text, begin, end, 0, spans)
    # An item's marker that _END_IN_BLOCK took for a sentence ('7. Disclaimer', 'a. The
    # modified work') numbers the item; it is no sentence.
    if len(spans) > 1 and LIST_MARKER.fullmatch(text, *spans[0]):
        spans[:2] = [(spans[0][0], spans[1][1])]
    return spans


def _block_ends(text: str, start: int, end: int) -> list[int]:
    """Where sentences of text[start:end] end, in order."""
    ends = []
    for match in _END_IN_BLOCK.finditer(text, start, end):
        if text[match.start()] == "." and _is_abbreviation(text, match.start()):
            continue
        ends.append(match.end())
    if text.find("\n", start, end) < 0:
        return ends
    breaks = _short_line_ends(text, start, end)
    return sorted(set(ends) | set(breaks)) if breaks else ends


def _short_line_ends(text: str, start: int, end: int) -> list[int]:
    lines = text[start:end].split("\n")
    contents = [line.strip() for line in lines]
    short = max(40, SHORT_LINE * max(map(_columns, contents)))
    found = []
    offset = start
    depth = 0  # brackets left open: '(H\n2O\n2)' is a formula's subscripts, one sentence
    for index, (content, after) in enumerate(itertools.pairwise(contents)):
        offset += len(lines[index]) + 1
        depth = max(0, depth + content.count("(") - content.count(")"))
        if (
            content
            and not depth
            and _columns(content) < short
            and content[-1] not in _OPEN_ENDS
            and after
            and not after.lstrip(_MARKUP_OPENERS)[:1].islower()  # '[pydantic docs](...)' goes on
        ):
            found.append(offset - 1)
    return found


def _columns(line: str) -> int:
    """How wide a line shows: CJK characters take two columns, so a hard-wrapped Chinese
    line of 36 characters ('它們總是按照行數、單詞數、字') is as long as an English one of 72."""
    return len(line) if line.isascii() else len(line) + len(_WIDE.findall(line))


def _is_abbreviation(text: str, dot: int) -> bool:
    # The word before the dot: abbreviations are short, so 8 characters back is enough.
    word = _LAST_WORD.search(text, max(0, dot - 8), dot)
    if word is None:
        return False  # the word before the dot is long: not in the list, not an initial
    # Opening brackets and quotes are not part of it: "(e.g. Warsaw)" is one sentence.
    found = word.group().lstrip("([{\"'“‘")
    # A single capital letter is an initial ("J. Smith"), not a sentence.
    return found.lower() in _ABBREVIATIONS or (len(found) == 1 and found.isupper())


def _add(text: str, start: int, end: int, offset: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    while end - start > MAX_SENTENCE_CHARS:
        cut = _long_cut(text, start)
        cut = cut if cut > start else start + MAX_SENTENCE_CHARS
        spans.append((start + offset, cut + offset))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start:
        spans.append((start + offset, end + offset))


def _long_cut(text: str, start: int) -> int:
    """Where a unit too long to be one sentence is cut: at its last line break in reach (a
    list of entries one per line, each ending in a comma: '(Nick Wellnhofer),'), else at
    its last space; -1 if it has neither."""
    low, high = start + MAX_SENTENCE_CHARS // 2, start + MAX_SENTENCE_CHARS
    cut = text.rfind("\n", low, high)
    return cut if cut >= 0 else text.rfind(" ", low, high)


def is_heading(sentence: str) -> bool:
    """A Markdown heading line: a place marker, rarely the answer itself."""
    return sentence.startswith("#")
