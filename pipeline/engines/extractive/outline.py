"""Summaries by structure: the title and lead, the main sections in order, a changelog's news.

A summary a reader wants first says what the document is, then goes through its main
sections in document order; a changelog says what its latest releases changed. So each
chunk offers candidates ranked in tiers (a score's integer part), the reduce keeps the
best that fit the length budget and puts them back in document order:

- LEAD (only in the chunk that starts the document): its title (first headings, or a
  man page's NAME line) and the sentence among its first ones that best says what it is
  ("This manual explains...", "ssh (SSH client) is a program for...").
- FOCUS: with instructions naming a topic, sentences on it.
- RELEASE: in a changelog (most headings carry a version or a date), the latest releases'
  entries, newest first.
- SECTION: per section heading, its first sentence that reads alone; top-level sections
  rank above subsections.
- DETAIL: the chunk's other central sentences (LexRank), to fill a budget the above leave.

Only sentences that read alone are offered: whole prose sentences (not headings, code,
signatures or table cells), no opener that points back ("It receives...", "However,..."),
no boilerplate (copyright lines, "See also" sections) and no entry repeated in the text
("* tests/foo.c: Likewise.").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.engines.extractive.lexrank import (
    FOCUS_WEIGHT,
    MIN_TERMS,
    fill_budget,
    focus_boost,
    lexrank,
    tfidf_matrix,
)
from pipeline.engines.extractive.openers import DANGLING, SELF_REFERENCE, points_elsewhere
from pipeline.engines.extractive.passages import Passages
from pipeline.engines.extractive.releases import heading_line, release_headings
from pipeline.engines.extractive.terms import fold, tokens
from pipeline.text.layout import goes_on, without_marker
from pipeline.text.reflow import known_in, reflow
from pipeline.text.scripts import CJK, HAN, KANA
from pipeline.text.structure import Kind

LEAD = 5.0
FOCUS = 4.0
RELEASE = 3.0
SECTION = 2.0
DETAIL = 1.0
"""Tiers: a candidate scores its tier plus a share below 1 that orders it within the tier."""
TITLE = LEAD + 0.9
"""The title's score: first of the lead."""
LEAD_WINDOW = 20
PREAMBLE = 1.5
"""Bonus for a lead candidate in the text between the title and the first heading after it:
a README's 'A utility library for mocking out the requests Python library.' says what the
document is, however few of the title's words it repeats."""
"""Sentences from the document's start among which the lead sentence is chosen."""
MAX_WORDS = 60
"""Longest sentence a section or lead may be represented by: a summary of 250 words then
still covers four or more sections."""
LATEST_RELEASES = 3
"""Releases of a changelog whose entries are offered, newest first."""
OLDER_RELEASES = 12
"""Releases, counting the latest, whose first entry is offered to fill the budget."""
SHORT_REPEAT_WORDS = 8
"""A repeated sentence this short is a formula ('Likewise.', 'New file.'): every copy is
skipped; a longer one keeps its first copy."""

# Sentences end in punctuation, optionally closed by a quote, bracket or emphasis mark.
_CLOSED = re.compile(r"[.!?。！？][\"'”’」』)）\]*_]*$")
# A glossary entry's description going on from its term ('1.3. "Contribution"' / 'means
# Covered Software of a particular Contributor.'); 'Means of payment ...' opens a sentence.
_GOES_ON_FROM_TERM = re.compile(r"(?:means|shall mean|refers? to)\b")
# A licence grant: the content of a licence, boilerplate anywhere else.
_GRANT = re.compile(
    r"permission is (?:hereby )?granted|under the terms of the gnu|licensed under|"
    r"a copy of the licen[cs]e",
    re.IGNORECASE,
)
# The text's first sentence saying what it is: 'This is a terse description of ...'.
_THIS_IS = re.compile(r"this\s+is\s+(?:a|an|the)\b", re.IGNORECASE)
_DEFINES = re.compile(r"\b(?:is|are|was)\s+(?:a|an|the|one)\b", re.IGNORECASE)
_BOILERPLATE = re.compile(
    # a notice ('Copyright (C) 2007 ...', 'Copyright 2024 ...'), not a licence's 'Copyright Holder'
    r"\bcopyright\s*(?:©|\(c\)|\d{4}|by\b|$)|©|\(c\)\s*\d{4}|all rights reserved"
    r"|^report (?:a )?bugs\b|home page:",
    re.IGNORECASE,
)
# A contents line's leader dots and page number: 'aptitude . . . . . . 44', 'Usage ...... 7'.
_LEADERS = re.compile(r"(?:\s?\.){4,}\s*\d+[ \t]*$", re.MULTILINE)
# ... and a translated man page's: 作者 (author), 著作権 / 版權 (copyright), 報告錯誤 (reporting
# bugs), 関連項目 / 參見 / 추가 참조 (see also), 跋 (colophon). Compared folded (see fold).
_BOILERPLATE_SECTIONS = frozenset(
    fold(name)
    for name in (
        "see also|author|authors|copyright|copying|license|licence|licensing|credits|"
        "acknowledgements|acknowledgments|contributors|table of contents|contents|index|"
        "navigation|footnotes|references|colophon|reporting bugs|sponsors|backers|"
        "作者|著作権|版權|版权|ライセンス|バグ報告|報告錯誤|报告错误|関連項目|參見|参见|"
        "另見|另见|跋|저자|저작권|추가 참조|관련 항목"
    ).split("|")
)
_SENTENCE_CLOSERS = frozenset(".!?;:。！？")
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+")
# Sections that list the document rather than say something: only their own lines.
_LISTING_SECTIONS = frozenset(("contents", "table of contents", "index", "navigation"))
# A word of code: identifiers with underscores, calls, brackets, operators, markup.
_CODE_WORD = re.compile(r"[_{}\[\]<>=;\\|]|\w\(|::|->|^[*&]+\w|\w\*")
_CODE_START = re.compile(r"(?:\$|>>>|#include|\[Function\]|\[Macro\]|\[Variable\])")
# An entry's label before its text: '* tests/foo.c (main): Likewise.' -> 'Likewise.'
_ENTRY_LABEL = re.compile(r"^(?:[-*•]\s+)?(?:[\w./,*-]+(?:\s+\([^)]*\))?:\s+)?")
_NAME_WORD = re.compile(r"[_*]|^\W*[A-Z]{2,}\W*$")
_CJK_END = re.compile(f"[{HAN}{KANA}]")  # Korean ends a sentence with a full stop, not '。'
# Prose opens with a word, a number or a quote; '{ Begin a block', '= Print' are syntax.
_OPENS_PROSE = re.compile(f"[\\w\"'“‘{CJK}]")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS = re.compile(r"^[*_]+|[*_]+$")
# A man page's section that names it: 'NAME' / 'ssh — OpenSSH remote login client'.
_NAME_SECTIONS = frozenset(fold(n) for n in ("name", "nom", "名前", "名称", "名稱", "이름"))


@dataclass(frozen=True)
class Pick:
    """A summary candidate: chunk-local span, tiered score and how it reads."""

    start: int
    end: int
    score: float
    text: str


def summary_candidates(
    text: str, focus: frozenset[str] = frozenset(), *, at_start: bool = True
) -> list[Pick]:
    """The chunk's candidates (see the module docstring), in document order.

    `at_start`: the chunk starts its document, so it holds the title and lead.
    """
    return _Outline(Passages.read(text), focus, at_start).candidates()


def choose(texts: list[str], scores: list[float], words: int) -> list[int]:
    """Indices of the candidates to keep, best first, no near-duplicates, within `words`.

    Candidates that would overflow the budget are skipped for shorter ones, so a
    250-word budget fills to ~240 rather than stopping at the first long sentence.
    """
    # The title is never a text the lead repeats: 'Command-line Arguments' and 'Here's a
    # list of the command-line arguments to rustc' share most of their words on purpose.
    terms = [tokens(t) if score < TITLE else [] for t, score in zip(texts, scores, strict=True)]
    return fill_budget(texts, tfidf_matrix(terms), scores, words)


NEAR_DUPLICATE = 0.5
"""Cosine similarity above which a candidate repeats one already picked and is skipped."""


def as_sentence(text: str) -> str:
    """A title read as the first sentence of a summary: 'User Manual' -> 'User Manual.',
    '百年の歩み' -> '百年の歩み。', '사용자 안내서' -> '사용자 안내서.'."""
    if not text or _CLOSED.search(text):
        return text
    return f"{text}{'。' if _CJK_END.match(text[-1]) else '.'}"


class _Outline:
    """One chunk's units with what the summary needs to know about each."""

    def __init__(self, passages: Passages, focus: frozenset[str], at_start: bool) -> None:
        self.at_start = at_start
        self.p = passages
        self.s = passages.structure
        self.focus = focus
        self.known = known_in(passages.text)
        self.reads = [self._read(u) for u in range(len(passages.spans))]
        self.terms = [tokens(r) for r in self.reads]
        self.releases = self._releases()
        self.title = self._title() if at_start else []
        self.title_terms = frozenset(t for u in self.title for t in self.terms[u])
        self._contents: dict[int, bool] = {}  # per block: contents lines (see _in_contents)
        self.usable = self._usable()

    # -- the tiers -------------------------------------------------------------------------

    def candidates(self) -> list[Pick]:
        picks: dict[int, Pick] = {}
        taken: set[int] = set()
        if self.at_start:
            for pick, units in self._lead():
                picks[units[0]] = pick
                taken.update(units)
        if self.releases:
            self._add(picks, taken, self._release_entries(latest=self.at_start))
        else:
            self._add(picks, taken, self._sections())
            self._add(picks, taken, self._details(taken))
        if not picks and self.reads:  # a one-line text still gets its summary
            picks[0] = self._pick(0, DETAIL)
        return self._focused(picks)

    def _focused(self, picks: dict[int, Pick]) -> list[Pick]:
        """The picks in document order, those on the instructions' topic moved up to the
        FOCUS tier: ordered by how much of the topic they hold (all three words 0.5, one
        of three 0.33) plus their centrality among the topic's sentences (up to 0.4), so
        sentences that share the topic with each other beat one that only shares a word."""
        units = sorted(picks)
        boosts = {u: focus_boost(self.terms[u], self.focus) for u in units}
        on_topic = [u for u in units if boosts[u] > 1.0 and picks[u].score < FOCUS]
        central = dict(zip(on_topic, self._centrality(on_topic), strict=True)) if on_topic else {}
        found = []
        for unit in units:
            pick = picks[unit]
            if unit in central:
                share = (boosts[unit] - 1) / FOCUS_WEIGHT
                score = FOCUS + 0.5 * share + 0.4 * central[unit]
                pick = Pick(pick.start, pick.end, score, pick.text)
            found.append(pick)
        return found

    def _add(self, picks: dict[int, Pick], taken: set[int], found: list[Pick]) -> None:
        """Add picks whose units none taken yet covers (a release's heading and first entry
        are one pick)."""
        for pick in found:
            first = self.p.unit_at(pick.start)
            units = range(first, self._unit_after(first, pick.end))
            if not taken.intersection(units):
                picks[first] = pick
                taken.update(units)

    def _unit_after(self, unit: int, end: int) -> int:
        while unit < len(self.p.spans) and self.p.spans[unit][0] < end:
            unit += 1
        return unit

    def _lead(self) -> list[tuple[Pick, list[int]]]:
        """The title and the sentence that says what the document is, with their units."""
        found: list[tuple[Pick, list[int]]] = []
        title = self.title
        if title:
            names = _once_each(self._title_text(u) for u in title)
            start, end = self.p.spans[title[0]][0], self.p.spans[title[-1]][1]
            found.append((Pick(start, end, TITLE, as_sentence(" — ".join(names))), title))
        after = title[-1] + 1 if title else 0
        window = [u for u in range(after, len(self.reads)) if self._alone(u)][:LEAD_WINDOW]
        if self.releases:  # a changelog's intro, if any, comes before its first release
            first = self.s[self.releases[0]].start
            window = [u for u in window if self.p.spans[u][0] < first]
        if window:
            preamble = self._preamble(after)
            best = max(window, key=lambda u: (self._defining(u) + PREAMBLE * (u < preamble), -u))
            found.append((self._pick(best, LEAD + 0.5), [best]))
        return found

    def _preamble(self, after: int) -> int:
        """The first unit of the first heading from unit `after` on: the text before it,
        under the title, introduces the document ('A utility library for mocking out the
        requests Python library.')."""
        return next(
            (
                u
                for u in range(after, len(self.reads))
                if self.s.kind(self.p.blocks[u]) == Kind.HEADING
            ),
            len(self.reads),
        )

    def _title(self) -> list[int]:
        """The units of the title: the headings the document opens with (a heading then
        its subtitle heading), a man page's NAME line, or a short first line."""
        if not self.reads or (self.releases and self.p.blocks[0] in self.releases):
            return []
        first = self.p.blocks[0]
        kind = self.s.kind(first)
        if kind == Kind.HEADING:
            if fold(self.p.heading_text(first).strip().lower()) in _NAME_SECTIONS:
                following = 1 if len(self.reads) > 1 else -1
                return [following] if following > 0 and self._short(following) else []
            if self._section_name(first) in _BOILERPLATE_SECTIONS:
                return []
            # A subtitle: a heading right under the title ('# Company' / '## Annual Report').
            second = self.p.blocks[1] if len(self.reads) > 1 else -1
            subtitle = second >= 0 and self.s.kind(second) == Kind.HEADING
            return [0, 1] if subtitle and self.s.parent(second) == first else [0]
        read = self.reads[0]
        plain = read[:1].isalnum() and not _CLOSED.search(read)
        return [0] if kind == Kind.PARAGRAPH and self._short(0) and plain else []

    def _title_text(self, unit: int) -> str:
        block = self.p.blocks[unit]
        if self.s.kind(block) == Kind.HEADING:
            return heading_line(self.p.heading_text(block))
        return self.reads[unit]

    def _defining(self, unit: int) -> float:
        """How plainly a sentence says what the document is: it names the document ('This
        manual explains'), defines something ('ssh ... is a program'), shares the title's words."""
        text = self.reads[unit]
        head = " ".join(text.split()[:12])
        opening = unit == 0 and self.at_start and _THIS_IS.match(text) is not None
        score = 2.0 if opening or SELF_REFERENCE.search(head) else 0.0
        score += 1.5 if _DEFINES.search(head) else 0.0
        if self.title_terms:
            score += len(self.title_terms.intersection(self.terms[unit])) / len(self.title_terms)
        return score

    def _sections(self) -> list[Pick]:
        """Each section's first sentence that reads alone, ranked by the section's depth
        (top level +0.6, the next +0.3) and then by centrality. Text before a later chunk's
        first heading goes on a section whose heading the chunk before holds (-1 here):
        it ranks with subsections two levels down, below any section whose heading is here."""
        first: dict[int, int] = {}
        for unit in range(len(self.reads)):
            if not self.usable[unit] or self._under_term(unit):
                continue
            heading = self.s.section(self.p.blocks[unit])
            if heading < 0 and self.at_start:
                continue  # the document's opening: the lead's place
            titled = heading >= 0 and self.first_unit(heading) in self.title
            if not titled and heading not in first and self._alone(unit):
                first[heading] = unit
        if not first:
            return []
        levels = sorted({self.s[h].level for h in first if h >= 0})
        central = self._centrality(list(first.values()))
        picks = []
        for (heading, unit), share in zip(first.items(), central, strict=True):
            depth = levels.index(self.s[heading].level) if heading >= 0 else 2
            picks.append(self._pick(unit, SECTION + max(0.0, 0.6 - 0.3 * depth) + 0.29 * share))
        return picks

    def _releases(self) -> list[int]:
        """A changelog's release headings, newest first; empty if this is no changelog."""
        return release_headings(self.s, self._heading_line)

    def _release_entries(self, latest: bool) -> list[Pick]:
        """The latest releases' entries: each entry's first sentence, newest release first,
        the release's heading read before its first entry; older releases offer only that
        first entry, in the DETAIL tier, to fill what budget is left. A chunk after the
        document's first holds no latest release (changelogs put the newest first)."""
        picks: list[Pick] = []
        skip = 0 if latest else LATEST_RELEASES
        for rank, release in enumerate(self.releases[:OLDER_RELEASES], start=skip):
            entries = self._entries(release)
            if rank >= LATEST_RELEASES:
                entries = entries[:1]
            for index, unit in enumerate(entries):
                if rank < LATEST_RELEASES:
                    score = RELEASE + 0.9 - 0.3 * rank - 0.25 * index / max(1, len(entries))
                else:
                    score = DETAIL + 0.9 * max(0.0, 1 - rank / (LATEST_RELEASES + OLDER_RELEASES))
                if index == 0:
                    start = self.s[release].start
                    heading = self._heading_line(release)
                    picks.append(
                        Pick(start, self.p.spans[unit][1], score, f"{heading}: {self.reads[unit]}")
                    )
                else:
                    picks.append(self._pick(unit, score))
        return picks

    def _details(self, taken: set[int]) -> list[Pick]:
        """About a fifth of the chunk's other sentences, at least three, by centrality; with
        focus terms, those on the topic rank in the FOCUS tier."""
        rest = [u for u in range(len(self.reads)) if self.usable[u] and u not in taken]
        if not rest:
            return []
        central = self._centrality(rest)
        boosts = [focus_boost(self.terms[u], self.focus) for u in rest]
        weighted = [c * b for c, b in zip(central, boosts, strict=True)]
        top = max(weighted) or 1.0
        keep = max(3, math.ceil(len(rest) / 5))
        order = sorted(range(len(rest)), key=lambda i: -weighted[i])[:keep]
        picks = []
        for i in order:
            picks.append(self._pick(rest[i], DETAIL + 0.9 * weighted[i] / top))
        return picks

    # -- what a unit is --------------------------------------------------------------------

    def first_unit(self, block: int) -> int:
        return self.p.first[block]

    def _usable(self) -> list[bool]:
        """Per unit: a sentence that can stand in a summary (see the module docstring)."""
        keys = [_repeat_key(r) for r in self.reads]
        counts = Counter(keys)
        seen: set[str] = set()
        licence = any(t.startswith("licen") for t in self.title_terms)
        usable = []
        for unit, read in enumerate(self.reads):
            key = keys[unit]
            repeated = counts[key] > 1 and (len(key.split()) <= SHORT_REPEAT_WORDS or key in seen)
            seen.add(key)
            kind = self.s.kind(self.p.blocks[unit])
            usable.append(
                kind in (Kind.PARAGRAPH, Kind.ITEM)
                and _OPENS_PROSE.match(read) is not None
                and not repeated
                and (_CLOSED.search(read) is not None or self._whole_item(unit))
                and len(self.terms[unit]) >= MIN_TERMS
                and not _codeish(read)
                and not _shouted(read)
                and not _BOILERPLATE.search(read)
                and not points_elsewhere(read)
                and (licence or not _GRANT.search(read))
                and not self._in_boilerplate_section(unit)
                and not self._in_contents(unit)
                and (not self._dangles(unit) or bool(self._pointed_at(unit)))
                # an item led in by '...: ' states a condition as a fact when alone
                and not self.p.led_in(self.p.blocks[unit])
                # a lead-in without its list says nothing: 'Unix ファイルの基礎は以下です。'
                and not self.p.leads_list(unit)
            )
        return usable

    def _whole_item(self, unit: int) -> bool:
        """A list item read whole: an entry needs no full stop ('* Use https in Format')."""
        block = self.s[self.p.blocks[unit]]
        return block.kind == Kind.ITEM and self.p.spans[unit] == (block.start, block.end)

    def _alone(self, unit: int) -> bool:
        """Usable and short enough to represent a section or the document."""
        return self.usable[unit] and len(self.reads[unit].split()) <= MAX_WORDS

    def _dangles(self, unit: int) -> bool:
        """Opens with a word that points back: 'It receives...', 'However, ...', or goes on
        from a term ('means ...'); 'This manual ...' and 'The Corvid 3 ...' (words of the
        title) point at the document."""
        text = self.reads[unit]
        if _GOES_ON_FROM_TERM.match(text) or (goes_on(text) and self._resumes(unit)):
            return True
        if not DANGLING.match(text):
            return False
        if SELF_REFERENCE.match(text) or (unit == 0 and self.at_start):
            return False  # the text's first sentence has nothing before it to point back to
        second = tokens(" ".join(text.split()[1:2]))
        return not (second and second[0] in self.title_terms)

    def _resumes(self, unit: int) -> bool:
        """The unit opens a block that goes on with the sentence an example broke off:
        wget's 'with this command:' / 'wget -r -l 2 ...' / 'all the above files ... will
        be downloaded.'"""
        block = self.p.blocks[unit]
        if self.p.first[block] != unit or block == 0:
            return False
        before = self.s[block - 1]
        if before.kind in (Kind.HEADING, Kind.TERM):
            return False
        return self.p.text[before.start : before.end].rstrip()[-1:] not in _SENTENCE_CLOSERS

    def _under_term(self, unit: int) -> bool:
        """Part of a definition entry (an option's description): a detail, not a section."""
        return any(self.s.kind(b) == Kind.TERM for b in self.s.ancestors(self.p.blocks[unit]))

    def _entries(self, release: int) -> list[int]:
        """A release's entries: the first sentence that reads alone of each of its blocks
        (an item, or a ChangeLog entry whose unpunctuated title line is no sentence)."""
        found: dict[int, int] = {}
        for unit in range(self.p.first[release] + 1, len(self.reads)):
            block = self.p.blocks[unit]
            if release not in self.s.heading_path(block):
                if (
                    self.s.kind(block) == Kind.HEADING
                    and self.s[block].level <= self.s[release].level
                ):
                    break
                continue
            if block not in found and self._alone(unit):
                found[block] = unit
        return list(found.values())

    def _in_boilerplate_section(self, unit: int) -> bool:
        path = self.s.heading_path(self.p.blocks[unit])
        for depth, heading in enumerate(path):
            name = self._section_name(heading)
            if name in _LISTING_SECTIONS and depth < len(path) - 1:
                continue  # the document's chapters under a 'Contents' heading are no listing
            if name in _BOILERPLATE_SECTIONS:
                return True
        return False

    def _in_contents(self, unit: int) -> bool:
        """The unit is in a block of contents lines: a title, leader dots, a page number."""
        block = self.p.blocks[unit]
        if block not in self._contents:
            item = self.s[block]
            self._contents[block] = _LEADERS.search(self.p.text, item.start, item.end) is not None
        return self._contents[block]

    def _short(self, unit: int) -> bool:
        return len(self.reads[unit].split()) <= 12

    def _heading_line(self, block: int) -> str:
        return heading_line(self.p.heading_text(block))

    def _section_name(self, block: int) -> str:
        """A heading as the name of its kind of section: '1. Copyright' -> 'copyright'."""
        return fold(_NUMBERING.sub("", self._heading_line(block)).lower().strip(" :"))

    def _centrality(self, units: list[int]) -> list[float]:
        """LexRank of these units among themselves, as shares of the best (0-1)."""
        scores = lexrank(tfidf_matrix([self.terms[u] for u in units]))
        top = float(scores.max()) if len(scores) else 1.0
        return [float(s) / top if top else 0.0 for s in scores]

    def _pick(self, unit: int, score: float) -> Pick:
        """The unit as a candidate; after its heading when it opens its section pointing
        back to it: rustc's 'code-model: This option lets you choose which code model to
        use.'"""
        start, end = self.p.spans[unit]
        name = self._pointed_at(unit)
        if name:
            heading_start = self.s[self.p.blocks[unit] - 1].start
            return Pick(heading_start, end, score, f"{name}: {self.reads[unit]}")
        return Pick(start, end, score, self.reads[unit])

    def _pointed_at(self, unit: int) -> str:
        """The name of the heading the unit points back to (Passages.heading_pointed_at),
        as the summary reads it; empty for none."""
        heading = self.p.heading_pointed_at(unit)
        return self._heading_line(heading).rstrip(".:") if heading >= 0 else ""

    def _read(self, unit: int) -> str:
        start, end = self.p.spans[unit]
        read = reflow(self.p.text[start:end], self.known)
        if self.s.kind(self.p.blocks[unit]) in (Kind.ITEM, Kind.PARAGRAPH):
            read = _EMPHASIS.sub("", without_marker(_STRONG.sub(r"\1", read))).strip()
        return read


def _repeat_key(text: str) -> str:
    """A sentence as compared for repeats: its entry label and the names in it dropped
    (words with underscores or capitals only), case and spacing folded:
    'xlat: update TLS_* constants.' and 'xlat: update ABS_* constants.' are one formula."""
    words = _ENTRY_LABEL.sub("", text).split()
    return " ".join(w.lower() for w in words if not _NAME_WORD.search(w))


SHOUTED_WORDS = 6
"""Fewest words of a sentence in capitals read as a disclaimer ('THERE IS NO WARRANTY FOR
THE PROGRAM...'), not as a short title or an acronym."""


def _shouted(text: str) -> bool:
    """A sentence written in capitals: a licence's warranty disclaimer, which says nothing
    of what the document is about."""
    words = [w for w in text.split() if any(c.isalpha() for c in w)]
    return len(words) >= SHOUTED_WORDS and sum(w.isupper() for w in words) >= 0.8 * len(words)


def _codeish(text: str) -> bool:
    """Code or a signature rather than prose: 'int asn1_create_element (asn1_node ...)'."""
    if _CODE_START.match(text):
        return True
    words = text.split()
    code = sum(1 for w in words if _CODE_WORD.search(w.strip("`'\".,:")))
    return code >= max(2, 0.3 * len(words))


def _once_each(names: Iterable[str]) -> list[str]:
    """The title's lines, each once whatever its case, as first written: an HTML page's
    <title> is often its first heading too."""
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(name.casefold(), name)
    return list(seen.values())
