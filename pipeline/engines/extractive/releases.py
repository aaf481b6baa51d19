"""A changelog's releases: which headings name one, which is newest, and questions about it.

A changelog is a text where at least three headings carry a version or a date ('## 3.8
(2nd September, 2022)', '### v1.1.35: Feb 16 2022'). Its summary leads with the latest
releases (outline.py); a question about 'the latest release' is answered from the newest
one's entries, not from a sentence that happens to say 'latest' ('requiring the latest
version of libxml2', three releases down).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable

from pipeline.engines.extractive.passages import strip_heading
from pipeline.text.structure import Kind, Structure

# A release heading: a version number, an ISO or written date, or "Unreleased".
_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+)(?![\w.]*\.\w)")
_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+"
    r"(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?\d{4}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|"
    r"may|jun|jul|aug|sep|oct|nov|dec)[a-z]*,?\s+\d{4}\b|\bunreleased\b",
    re.IGNORECASE,
)
# An Emacs mode line on a NEWS file's first heading: '-*- outline -*-'.
_OUTLINE_MODE = re.compile(r"\s*-\*-.*?-\*-\s*")

# 'What changed in the latest release?', 'What is new in the most recent version?',
# "What's new?"; not 'the latest version of libxml2' (another program's) nor a question
# naming its version ('What is new in 2.5?': the version finds its heading, see decisive.py).
_LATEST = re.compile(
    r"\b(?:latest|newest|most recent|last|current|recent)\s+(?:release|version|changes)s?\b"
    r"(?!\s+of\b)|^\W*what(?:'s| is| are)\s+(?:new|changed)\W*$",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"\d\.\d")
RELEASE_WORDS = "latest newest most recent last current release version change changed new"
"""Words of a question about the latest release that say which release, not what in it:
'changed' ranks no entry of it above another."""

LATEST_ORDER = 1.0
"""Score a unit of the newest release gets for coming first in it, falling to 0 at its end:
with no word of the question to rank them, its entries read in the changelog's order."""


def is_release(heading: str) -> bool:
    """A heading that names a release: dated, or a version that is no section number
    ('0.27.2', 'release 3.8', 'v2.1', '2.1' alone; not '10.3 Resetting the sensor')."""
    if _DATE.search(heading):
        return True
    match = _VERSION.search(heading)
    if match is None:
        return False
    named = re.search(r"(?:\bv|version|release)\s*$", heading[: match.start()], re.IGNORECASE)
    alone = not _titled(heading, match)
    return match.group(1).count(".") >= 2 or named is not None or alone


def _titled(heading: str, number: re.Match[str]) -> bool:
    """Words follow the heading's version: '10.3 Resetting the sensor', not '2.1.3'."""
    return re.search(r"[^\W\d]", heading[number.end() :]) is not None


def version(heading: str) -> tuple[int, ...]:
    match = _VERSION.search(heading)
    return tuple(int(p) for p in match.group(1).split(".")) if match else ()


def heading_line(heading: str) -> str:
    """A heading's words (see passages.strip_heading) without a mode line."""
    return _OUTLINE_MODE.sub(" ", heading).strip()


def release_headings(structure: Structure, heading_line: Callable[[int], str]) -> list[int]:
    """A changelog's release headings, newest first; empty if this is no changelog.

    At the level most release headings share, most headings name a release, or the first
    one does (a NEWS file whose older entries are outline items that read as headings).
    `heading_line` reads a heading block's text.
    """
    headings = [b for b in range(len(structure)) if structure.kind(b) == Kind.HEADING]
    dated = [
        h
        for at, h in enumerate(headings)
        if is_release(heading_line(h))
        and not _numbers_section(structure, headings, at, heading_line)
    ]
    if len(dated) < 3:
        return []
    level = Counter(structure[h].level for h in dated).most_common(1)[0][0]
    dated = [h for h in dated if structure[h].level == level]
    peers = [h for h in headings if structure[h].level == level]
    if 2 * len(dated) <= len(peers) and peers[0] != dated[0]:
        return []
    if _oldest_first([version(heading_line(h)) for h in dated]):
        dated.reverse()  # the latest is at the end
    return dated


def _numbers_section(
    structure: Structure, headings: list[int], at: int, heading_line: Callable[[int], str]
) -> bool:
    """Whether the heading `headings[at]` is numbered as a section, not a release: its
    number closes with a dot before the title ('1.6.6. Scripts for piping commands'), or
    extends the number of the heading it sits under ('1.6.6 Scripts' under '1.6 Text
    processing'). A manual's sections are no changelog. A number alone ('2.1.3' under
    '2.1 series') or dated stays a release."""
    block = headings[at]
    line = heading_line(block)
    match = _VERSION.search(line)
    if match is None or _DATE.search(line) or not _titled(line, match):
        return False
    if re.match(r"\.\s+\w", line[match.end() :]):
        return True
    level = structure[block].level
    above = next(
        (headings[i] for i in range(at - 1, -1, -1) if structure[headings[i]].level < level),
        None,
    )
    return above is not None and version(heading_line(above)) == version(line)[:-1]


def _oldest_first(versions: list[tuple[int, ...]]) -> bool:
    """Whether versions mostly rise from one release heading to the next. Most steps,
    not the first and last heading: an old NEWS entry read as a heading may carry another
    number ('stty's rprnt attribute now works on HPUX 10.20', below release 9.1)."""
    known = [v for v in versions if v]
    rising = sum(1 for a, b in itertools.pairwise(known) if b > a)
    falling = sum(1 for a, b in itertools.pairwise(known) if b < a)
    return rising > falling


def asks_for_latest(question: str) -> bool:
    """'What changed in the latest release?': the answer is the newest release's entries."""
    return _LATEST.search(question) is not None and _NUMBERED.search(question) is None


def newest_release(text: str, structure: Structure) -> tuple[int, int] | None:
    """Where the newest release of a changelog runs in `text` (its heading to the next
    heading as high), or None if `text` is no changelog."""

    def line(block: int) -> str:
        item = structure[block]
        return heading_line(strip_heading(text[item.start : item.end]))

    releases = release_headings(structure, line)
    if not releases:
        return None
    newest = releases[0]
    level = structure[newest].level
    end = next(
        (
            structure[b].start
            for b in range(newest + 1, len(structure))
            if structure.kind(b) == Kind.HEADING and structure[b].level <= level
        ),
        len(text),
    )
    return structure[newest].start, end
