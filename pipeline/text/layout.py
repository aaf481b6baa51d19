"""Line-shape analysis: a text's structure (pipeline/text/structure.py) read from its lines.

One pass over the lines, each line looked at with the one after it:

- Markdown: `#` headings and underlined ones, fenced code, `-`/`*`/`1.` items, pipe tables
  (a `|---|` rule marks the row above it as the header).
- reStructuredText: titles underlined with any punctuation (levels in the order the text
  first uses them, after Markdown's `=` and `-`), code under `.. code-block::` or after a
  paragraph ending `::`; other directive lines make no block.
- Man pages and other hard-wrapped text: a term followed by an indented description is a
  definition entry, whether the description starts on the term's line after a gap
  (`-e      Exit immediately if ...`) or on the next, deeper line (`HISTSIZE` / `   The
  number of ...`); its paragraphs are the blocks indented at least as deep as the
  description, so `set`'s `-e` is a term inside `set`. ALL-CAPS lines at the margin are
  section headings, short capitalised lines just inside it subsection headings.
- Any text: a short line alone between blank lines, without closing punctuation and no
  deeper than the text after it, is a heading, and so are centred lines (licence titles);
  Emacs outline files (`-*- outline -*-` on the first line: GNU NEWS) use `*`, `**`.
- With page starts (PDFs): the first or last line of a page is furniture when it carries
  the page's number (`Chapter 4: Function reference 18`, `–2`) or repeats on most pages.

Everything else is paragraphs: lines run on until a blank line, a line of another shape,
or an indent that starts a new paragraph.
"""

from __future__ import annotations

import bisect
import codeop
import itertools
import re
import textwrap
import unicodedata
import warnings
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple, Protocol

from pipeline.text.frames import unframed
from pipeline.text.scripts import CJK
from pipeline.text.structure import Kind, Structure

_FENCE = re.compile(r" *(`{3,}|~{3,})")
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")
_SETEXT = re.compile(r" {0,3}(?:={2,}|-{2,})[ \t]*$")
# reStructuredText's other underlines ('Main Interface' / '^^^^^^^^^^^^^^'): one punctuation
# character repeated at least as long as the title ('`' is left out: '```' opens code).
_ADORNMENT = re.compile(r" {0,3}([~^\"':+*#_<>.])\1{2,}[ \t]*$")
_RULE_CHARS = frozenset("=-~^\"':+*#_<>.")
"""What a line of _SETEXT or _ADORNMENT opens with."""
_OUTLINE = re.compile(r"(\*{1,6}) \S")
_TABLE_RULE = re.compile(r" *\|?(?:[ \t]*:?-{2,}:?[ \t]*\|)+(?:[ \t]*:?-{2,}:?[ \t]*)?$")
# The rule of a table aligned with spaces: a run of dashes or equals signs over each column
# ('----------  --------------' under 'Field  Allowed values'; reStructuredText's simple
# tables open, part and close with '=====  ====='). Two columns at least: one run under a
# line is a heading's underline.
ALIGNED_RULE = re.compile(r"[ \t]*[-=]{2,}(?:[ \t]+[-=]{2,})+[ \t]*$")
BULLETS = "-*+•◦‣▪·○●■□▸►"
"""Characters a bulleted item opens with: Markdown's, and the circles, squares and
triangles that man pages (jq's '○   --tab:'), PDFs and word processors print."""
BULLET_CLASS = f"[{re.escape(BULLETS)}]"
"""BULLETS as a regular expression's character class."""
_BULLETED = re.compile(rf" *{BULLET_CLASS} ")
"""A line opening a bulleted item (a numbered one may be a title: '2. Supplement ...')."""
# A list marker: a bullet, a number or letter with '.' or ')' (a letter doubled after 'z', as
# bash's NEWS counts: 'aa.', 'jj.'), or one in brackets; then space.
LIST_MARKER = re.compile(
    rf" *(?:{BULLET_CLASS}|\d{{1,3}}[.)]|([a-z])\1?[.)]|[A-Z]\)"
    r"|\((?:\d{1,3}|[a-zA-Z]|[ivxlc]{1,5})\))"
    r"(?: +|$)"
)


# A lead-in's last sentence that points ahead to its list without a colon, in English,
# Japanese, Chinese or Korean; '以下' after a number is 'or less' ('5 以下').
_POINTS_AHEAD = re.compile(
    r"\b(?:as follows|the following)\W*$"
    r"|(?:次の|下記の?|(?<![\d０-９])(?<![\d０-９] )以下)[^。.]*。$|(?:如下|下列)[^。.]*。$"
    r"|다음(?:과 같|의)[^.]*\.$",
    re.IGNORECASE,
)
LEAD_IN_CHARS = 160
"""Most characters from a lead-in's end searched for a phrase pointing ahead."""


_CJK_CHAR = re.compile(f"[{CJK}]")
# A question closing a text: its last clause, then the mark (and a closing quote or bold).
_ASKS = re.compile(r"([^.!;:。！；：?？]*)[?？][\"'”’)\]」』）*]*\s*\Z")
ASKS_TAIL = 80
"""Characters at a text's end that hold its closing question mark, if any: after it come
only closing quotes, brackets, bold marks and spaces."""
ASKING_WORDS = 3
"""Fewest words (or CJK characters, 4) of a question: 'Is SQLite threadsafe?'; Wikipedia's
'[unreliable source?]' tag asks nothing of the reader."""


def asks(text: str) -> bool:
    """`text` closes with a question: 'How do I create an AUTOINCREMENT field?'."""
    end = text.rstrip()[-ASKS_TAIL:]  # the same text, uncopied, when it ends with no space
    if "?" not in end and "？" not in end:
        return False  # most texts: no search, which tries every start of a long clause
    found = _ASKS.search(text)
    if found is None:
        return False
    clause = found.group(1)
    return len(clause.split()) >= ASKING_WORDS or len(_CJK_CHAR.findall(clause)) >= 4


# The end of a paragraph whose code follows, indented: reStructuredText's '::' and the ' >'
# of Vim's help files ('To set mark a at the cursor: >').
_OPENS_LITERAL = re.compile(r"(?:::|[ \t]>)$")
_VIM_EXAMPLE = re.compile(r"[:：][ \t]+>$")


def as_read_lead_in(text: str) -> str:
    """A lead-in without the marker of the code it leads in to: reStructuredText's 'Install
    it with pip::' reads 'Install it with pip:', Vim's 'To set mark a: >' 'To set mark a:'."""
    if text.endswith("::"):
        return text[:-1]
    return text[:-1].rstrip() if _VIM_EXAMPLE.search(text) else text


def ends_lead_in(text: str, start: int, end: int) -> bool:
    """Whether the block `text[start:end]` leads in to a list after it: it ends with a
    colon (maybe Vim's ': >'), or its last sentence points ahead ('次の情報がこの順序で表示
    されます。', 'The fields are as follows.')."""
    if text[end - 1 : end] in (":", "：") or _VIM_EXAMPLE.search(text, max(start, end - 8), end):
        return True
    return _POINTS_AHEAD.search(text, max(start, end - LEAD_IN_CHARS), end) is not None


# Japanese case particles, which follow a noun and open no sentence: 'を使用すると...' goes on
# from 'コマンド' / 'info ls' above it (not も, で or は: 'もし', 'では' and 'はい' open one).
_JAPANESE_CASE_PARTICLE = frozenset("をがにへの")


def goes_on(text: str) -> bool:
    """Whether `text` opens in the middle of a sentence: with a lowercase letter ('should
    give you access to the complete manual.') or a Japanese case particle ('を使用すると')."""
    return text[:1].islower() or _opens_with_particle(text)


def _opens_with_particle(text: str) -> bool:
    return text[:1] in _JAPANESE_CASE_PARTICLE


def aligned_cells(row: str, rule: str) -> list[str]:
    """A row of a table aligned with spaces, cut where the rule's runs start, counting a
    wide (East Asian) character as two columns: under '---------- --------------',
    '曜日       0-7' -> ['曜日', '0-7'], as the page shows it."""
    starts = [m.start() for m in re.finditer(r"[-=]+", rule)][1:]
    cells: list[str] = []
    column, begin = 0, 0
    for index, char in enumerate(row):
        if starts and column >= starts[0]:
            cells.append(row[begin:index])
            begin = index
            while starts and column >= starts[0]:
                starts.pop(0)
        column += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    cells.append(row[begin:])
    return [cell.strip() for cell in cells]


def without_marker(text: str) -> str:
    """`text` less the list marker it opens with, if any: '3. You may ...' -> 'You may ...'."""
    marker = LIST_MARKER.match(text)
    return text[marker.end() :] if marker else text


# '-' or '*' then a wide gap is a term ('-      Expands to the current option flags'), not a bullet.
_TERM_MARKER = re.compile(r" *[-*+] {4,}")
_NUMBERED = re.compile(r"(?:\d{1,3}|[A-Z])\.(?:\d{1,3}\.?)*\s+\S")
# A term, then a gap of two or more spaces (or tabs), then its description.
_INLINE_TERM = re.compile(r" *(\S+(?: \S+)*?)(?: {2,}|\t+)(?=\S)")
_WORD_GAP = re.compile(r"[^\s.!?:;。]  +\S")
"""Two spaces or more after a word, not a sentence: justified text."""
# CJK text that goes on past a wide gap to another option: a justified sentence naming
# options ('フラグと              -u              フラグを'), not a term's description, whose
# CJK words need no gaps
_NAMES_OPTIONS_ON = re.compile(rf"[{CJK}][^\n]*?\S {{2,}}--?[A-Za-z]")
# An option's argument alone: 'n', 'pattern', 'FILE', '<file>', '[=WHEN]', 'n[cwbkMG]'; not a
# one-word description ('Decompress.', '強制的に上書きする。').
_ARGUMENT = re.compile(r"[a-z][a-z_-]{0,15}|[A-Z][A-Z_]{0,15}|[<\[{][^\s>\]}]+[>\]}]|[a-z]\[\w+\]")
_CJK_STOPS = frozenset("。、，．！？；")
_FIELD_GAP = re.compile(r"\S {2,}(?=\S)")
"""A gap before a field of a line, tabs expanded: its end is the field's column."""
# A CJK subsection title: up to 25 characters, no sentence or clause stop.
_CJK_TITLE = re.compile(rf"[{CJK}][^。、，．！？；.,:：]{{0,24}}")
# Terms that are plainly options, escapes or placeholders: '-e', '--login', '\j', '~.', '%%';
# maybe in the quotes of Texinfo's info files ('‘-N’').
_OPTIONISH = re.compile(r"[‘`]?[-+\\~%$@\[]")
# A call's signature alone: 'debounce_.debounce(function, wait, [immediate])', 'f(x, *args)'.
_SIGNATURE = re.compile(r"[\w$]+(?:\.[\w$]+)*\((?:[^()\n]|\([^()\n]*\))*\)")
# A line opening a sentence of prose: a capitalized word, then at least three more words.
_SENTENCE_OPENING = re.compile(r"[A-Z][a-z]*(?:\s+\S+){3}")
_OPTION_LINE = re.compile(r"--?[A-Za-z0-9]")  # a line naming an option: '-l N, --line-length=N'
# A term line's names going on at a column: an option ('--window=n or -n' after '-zn or',
# '-9' after xz's '-0 ...'), or a word and a comma before one ('NUM, --unified[=NUM]' after
# '-u, -U').
_NAMES_ON = re.compile(r"(?:[^\s,]*,\s*)?--?[A-Za-z0-9]")
_CAPS = re.compile(r"[A-Z][A-Z0-9 ,.'&/()\-]*[A-Z0-9)]")
# ... and a title in a script without capitals, as a translated man page writes its
# sections: '描述', '説明', 'オプション', '옵션'.
_UNCASED_TITLE = re.compile(f"[{CJK}][{CJK} ]{{0,11}}")
_CLOSING = frozenset(".,;:!?。！？、：；，")
_GOES_ON = frozenset("([{−+=×/&")
"""Last characters of a line whose sentence goes on: an open bracket or an operator."""
# What a command or code line holds and a title does not: braces, pipes, '=', '$', a
# redirection or placeholder ('> list', '2>&1', '<file>'; a ChangeLog's '<ana@example.org>'
# is a title's address), an option after a word ('wget -r'), a URL.
_COMMAND_LINE = re.compile(r"[{}|=$\\]|\s>|[\d\]&]>|>[&>]|<(?![\w.+-]+@)|\s--?[A-Za-z]|://")
# A word alone that joins two lines, no title: 'and' between two paths.
_JOINING_WORD = re.compile(r"and|or|and/or", re.IGNORECASE)
# A release's version as the last word of its title: "What's new in at-spi2-core 2.46.0:",
# 'Version 2.4:' (not 'Changes for bc-1.03-6:', a Debian changelog's note on an old upload).
_VERSION_LAST = re.compile(r"(?:^|\s)v?\d+(?:\.\d+)+:$")
# A section's number of two levels or more: '5.4.1 Mixed vector and array arithmetic. The
# recycling rule' is a title whatever its full stops.
_SECTION_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3})+\.?\s")
# A sentence that ends inside a line and another that starts after it: no heading's shape.
_SENTENCE_INSIDE = re.compile(r"[a-z]{2}[.!?] +[A-Z][a-z]")
# A byline under a title, 'by Steve Klabnik, Carol Nichols, and Chris Krycho': the authors'
# names, no title of its own ('By Region' and 'By the Numbers' are).
BYLINE = re.compile(r"(?i:by)\s+[A-ZÀ-ÖØ-Þ][\w.'’-]*\s+[A-ZÀ-ÖØ-Þ]")
_PAGE_NUMBER = re.compile(r"\W{0,3}(?:\d{1,4}|[ivxlc]{1,7})\W{0,3}")
# A reStructuredText directive ('.. code-block:: python', '.. note::'): markup, not a title;
# the code ones introduce an indented block of code.
_DIRECTIVE = re.compile(r" *\.\.[ \t]+(?:(?P<code>code-block|code|sourcecode)|(?P<name>[\w:-]+))::")
# Directives whose body may be a program to run or show, tried as Python (see
# _Analyser._python_body): an extension's, named with its domain ('click:example'), and
# Sphinx's tests and notebook cells; not docutils' own (note, math, csv-table, figure).
_RUNS_CODE = re.compile(r"[\w-]+:[\w:-]+|test(?:setup|code|cleanup)|jupyter-execute|ipython")
PYTHON_BODY_MAX_CHARS = 20_000
"""Longest directive body tried as Python (see _Analyser._python_body)."""
PYTHON_BUDGET_CHARS = 2_000_000
"""Most characters of directive bodies one text reads to try them as Python: a body holds
directives of its own, each read again, and a text of nothing else would be quadratic."""
PYTHON_TRY_CHARS = 2_000
"""What one try costs of that budget at least: its compile (so at most 1,000 tries)."""
# What Python has and a line of prose lacks: a call, an assignment, a decorator, a colon
# closing a line ('def f():'). A lone word ('Deprecated') compiles as Python too.
_CODE_SIGN = re.compile(r"\(|=|^\s*@|:\s*$", re.MULTILINE)
_HTML_BLOCK = re.compile(r" {0,3}<(?:/?[a-zA-Z][\w-]*(?:[\s/>]|$)|!--)")
_TAGS = re.compile(r"<!--.*?-->|</?[a-zA-Z][^<>]*>", re.DOTALL)
# A man page's first and last lines: 'BASH(1)   General Commands Manual   BASH(1)'.
_MAN_TITLE = re.compile(r"\S.*\S {3,}\S.* {3,}[\w.-]+\(\w+\)")
_EDGE_NUMBER = re.compile(r"^\W{0,3}(\d{1,4})\b|\b(\d{1,4})\W{0,3}$")

HEADING_MAX_CHARS = 80
"""Longest line a heading told by its shape alone may be (a title, not a sentence)."""
SYNOPSIS_MAX_CHARS = 300
"""Longest term line that a command's synopsis may be: a man page written unwrapped (from
roff source, or HTML) has bash's 131-character 'read [-ers] [-a aname] ... [name ...]'."""
# A command's synopsis: its name, then bracketed arguments and words ('[-u fd] [name ...]').
_SYNOPSIS = re.compile(
    r"[\w.-]+(?: +(?:\[[^\]\n]*\]|[\w.-]+))*(?: +\[[^\]\n]*\])(?: +(?:\[[^\]\n]*\]|[\w.-]+))*"
)
HEADING_MAX_WORDS = 12
CENTRED_INDENT = 10
"""Least indent of a centred title line (licence titles sit 20-30 spaces in)."""
CENTRE_SLACK = 3
"""Most columns the centres of a centred title's lines may be apart (a line of odd length
centres half a column off; a title typed by hand, a little more)."""
RELEASE_TITLE_WORDS = 8
"""Most words of a release's title ending in a colon after its version."""
TERM_MAX_CHARS = 40
QUESTION_TITLE_MAX_CHARS = 200
"""Longest question line read as the title of the answer below it (a FAQ's questions run
longer than titles: '(5) Can multiple applications or multiple instances of the same
application access a single database file at the same time?' is 124)."""
"""Longest term of an entry whose description starts on the same line."""


class _Item(NamedTuple):
    """An open list item: where its marker and text start, its block, its list's parent."""

    indent: int
    column: int
    block: int
    parent: int


class _Term(NamedTuple):
    """An open definition entry: its term's indent, its description's column, its block."""

    indent: int
    column: int
    block: int


class _LineAt(Protocol):
    def __getitem__(self, i: int, /) -> str: ...
    def __len__(self) -> int: ...


class _Slices:
    """Line i of a text, from a window of WINDOW_LINES lines split out of it at a time (see
    analyse's `lean`): the pass reads lines in order, looking a few back and ahead, so
    nearly every look is an index into the window rather than a slice of the text."""

    __slots__ = ("ends", "first", "starts", "text", "window")

    def __init__(self, text: str, starts: array[int], ends: array[int]) -> None:
        self.text, self.starts, self.ends = text, starts, ends
        self.first = 0  # the line window[0] is
        self.window: list[str] = []

    def __getitem__(self, i: int) -> str:
        at = i - self.first
        if 0 <= at < len(self.window):
            return self.window[at]
        if not 0 <= i < len(self.starts):
            raise IndexError(i)
        # From a few lines back: the pass looks at the line before the one it reads.
        self.first = max(0, i - WINDOW_BACK)
        last = min(len(self.starts), self.first + WINDOW_LINES) - 1
        self.window = self.text[self.starts[self.first] : self.ends[last]].split("\n")
        return self.window[i - self.first]

    def __len__(self) -> int:
        return len(self.starts)


WINDOW_LINES = 4096
"""Lines split out at a time by a lean pass: ~200 KB of a man page's lines as strings."""
WINDOW_BACK = 8
LEAN_PIECE = 1 << 16
"""Characters split into lines at a time when the lines are not kept (see analyse)."""


class _Lines:
    """The text's lines with their offsets and indents (-1 for a blank line)."""

    def __init__(self, text: str, lean: bool = False) -> None:
        self.text = text
        self.starts = array("q")  # 8 bytes a line, where a list of ints takes 40
        self.indents: list[int] = []
        if lean:
            ends = array("q")
            offset = 0
            for line in _pieces(text):
                self.starts.append(offset)
                offset += len(line) + 1
                ends.append(offset - 1)
                rest = len(line.lstrip())
                self.indents.append(len(line) - rest if rest else -1)
            self.lines: _LineAt = _Slices(text, self.starts, ends)
        else:
            # The same, by builtins mapped over the lines: a loop over them in Python was a
            # tenth of a chunk's layout pass.
            kept = text.split("\n")
            lengths = list(map(len, kept))
            rests = map(len, map(str.lstrip, kept))
            self.indents = [
                n - rest if rest else -1 for n, rest in zip(lengths, rests, strict=True)
            ]
            # A line's start is the one before's plus its length and the newline.
            self.starts = array("q", itertools.accumulate(map((1).__add__, lengths), initial=0))
            self.starts.pop()  # the offset after the last line
            self.lines = kept
        self.count = len(self.starts)

    def blank(self, i: int) -> bool:
        return i >= self.count or self.indents[i] < 0

    def content(self, i: int) -> str:
        return self.lines[i].strip()

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Offsets of lines first..last, without surrounding whitespace."""
        start = self.starts[first] + max(0, self.indents[first])
        return start, self.starts[last] + len(self.lines[last].rstrip())


def _pieces(text: str) -> Iterator[str]:
    """text.split("\n"), a LEAN_PIECE of text at a time."""
    start = 0
    while True:
        end = text.find("\n", start + LEAN_PIECE)
        if end < 0:
            yield from text[start:].split("\n")
            return
        yield from text[start:end].split("\n")
        start = end + 1


def analyse(text: str, page_starts: Sequence[int] = (), *, lean: bool = False) -> Structure:
    """The structure of `text`; `page_starts` (PDFs) lets page furniture be recognised.

    `lean` slices each line from the text when it is looked at instead of keeping them
    all: the same structure, for a peak of 0.5x the text's size instead of 2.5x on a man
    page (its lines as a list of strings, ~50 bytes each besides their characters) and
    1.2x instead of 2.4x on licences, at ~1.5x the time of the pass.
    """
    lines = _Lines(unframed(text), lean)  # a framed notice as the text inside its frame
    furniture = _furniture(lines, page_starts) | _man_title(lines) | _info_nodes(lines)
    furniture |= _section_rules(lines) | _anchor_lines(lines)
    return _Analyser(lines, furniture, markdown=not page_starts).run()


class _Analyser:
    """Walks the lines once, keeping what is open: headings, entries, a list."""

    def __init__(self, lines: _Lines, furniture: set[int], markdown: bool = True) -> None:
        self.l = lines
        self.furniture = furniture
        # A PDF's text has no Markdown: its '## Create some text labels' is a code comment.
        self.markdown = markdown
        self.out = Structure()
        self.outline = bool(lines.lines) and "-*- outline -*-" in lines.lines[0]
        self.headings: list[tuple[int, int, int]] = []  # (level, block, indent)
        self.terms: list[_Term] = []
        self.items: list[_Item] = []
        self.last = -1  # the last block added
        self.adornments: dict[str, int] = {}  # reStructuredText underline -> heading level
        # whether the text's first underline is Markdown's ('=' or '-'); None before any
        self.setext_first: bool | None = None
        self.python_budget = PYTHON_BUDGET_CHARS  # see _python_body
        self.marked = 0  # the level of the last heading the text marks ('## ...'), if any
        self.hashed = False  # the text marks a heading with '#' (as longdoc's readers write)

    def run(self) -> Structure:
        i = 0
        while i < self.l.count:
            i = i + 1 if self.l.blank(i) else self._block(i)
        return self.out

    def _add(
        self, kind: Kind, first: int, last: int, level: int, parent: int, start: int = -1
    ) -> int:
        begin, end = self.l.span(first, last)
        self.last = self.out.add(kind, start if start >= 0 else begin, end, level, parent)
        if kind != Kind.ITEM:
            self.items.clear()
        return self.last

    def _context(self, indent: int) -> int:
        """The entry or heading a block at `indent` belongs to; closes entries it is outside,
        and one described at its own indent once its first block is read: a signature over
        its paragraph ('_.debounce(function, wait)' / 'Creates and returns ...') describes
        nothing after it that is not indented, or a PDF's code line would hold the rest of
        the text."""
        while self.terms and (
            self.terms[-1].column > indent
            or (
                self.terms[-1].column == self.terms[-1].indent and self.last != self.terms[-1].block
            )
        ):
            self.terms.pop()
        if self.terms:
            return self.terms[-1].block
        return self.headings[-1][1] if self.headings else -1

    def _lead_in(self, context: int) -> int:
        """The paragraph just before, if it leads in to a list (see ends_lead_in) and
        shares the context; else context."""
        last = self.last
        follows = last >= 0 and self.out.kind(last) in (Kind.PARAGRAPH, Kind.ITEM)
        if (
            follows
            and self.out.parent(last) == context
            and ends_lead_in(self.l.text, *self.out[last][1:3])
        ):
            return last
        return context

    # -- one block -------------------------------------------------------------------------

    def _block(self, i: int) -> int:
        """Read the block that starts at line i; returns the line after it."""
        ln = self.l
        line, indent = ln.lines[i], ln.indents[i]
        if i in self.furniture:
            self.last = self.out.add(Kind.FURNITURE, *ln.span(i, i), 0, -1)
            return i + 1
        first = line[indent]  # most lines open with a letter, which rules out the next four
        directive = _DIRECTIVE.match(line) if first == "." else None
        if directive:  # no block of its own: what it introduces follows what led to it
            after = self._options(i)
            runs = _RUNS_CODE.fullmatch(directive.group("name") or "")
            code = directive.group("code") or (runs and self._python_body(after, indent))
            return self._literal(after, indent) if code else after
        fence = _FENCE.match(line) if first in "`~" else None
        if fence:
            return self._code(i, fence.group(1))
        if first == ">" and line.startswith(">>> ", indent) and self._doctest(i):
            return self._session(i)
        if first == "<" and indent <= 3 and _HTML_BLOCK.match(line):
            return self._markup(i)
        atx = _ATX.match(line) if first == "#" and self.markdown else None
        if atx:
            self.hashed = True
            self.marked = len(atx.group(1))
            return self._heading(i, i, self.marked)
        if self.outline and indent == 0 and _OUTLINE.match(line):
            return self._heading(i, i, len(line) - len(line.lstrip("*")))
        if self._table_starts(i):
            return self._table(i)
        if self._aligned_table_starts(i):
            return self._table(i, aligned=True)
        if first in _RULE_CHARS and self._overlined_title(i):
            # reStructuredText's '=====' / 'Usage' / '=====': the rules are no text of it
            self.furniture.update((i, i + 2))
            self.marked = self._underline_level(i + 1)
            self._heading(i + 1, i + 1, self.marked)
            return i + 3
        title_end = self._underlined_title(i)
        if title_end > i:
            # a title of two lines over its rule: a licence's '2. CUDA Toolkit Supplement to
            # ... for' / 'NVIDIA Software Development Kits' / '-----'
            self.marked = self._underline_level(title_end)  # ranked as one-line titles are
            self._heading(i, title_end, self.marked)
            return title_end + 2
        marker = self._marker(i) if _may_open(line, indent) else None
        if marker and not _TERM_MARKER.match(line):
            if self._question_title(i):  # a FAQ's '(9) What is ...?' over its answer
                return self._heading(i, i, max(2, self.marked + 1 if self.marked else 0))
            if not self._numbered_heading(i):
                if title_end == i:
                    # one numbered line over its rule stays an item, the rule no text of it:
                    # the MPL's '1. Definitions' / '---' labels none of the terms under it,
                    # which take the licence's title as theirs
                    self.furniture.add(i + 1)
                return self._item(i)
        if indent <= 3 and not ln.blank(i + 1):
            level = self._underline_level(i)
            if level:
                self.marked = level
                self._heading(i, i, level)
                return i + 2
        centred = self._centred_run(i)
        if centred > i:
            return self._heading(i, centred - 1, 1)
        inline = self._inline_term(i)
        if inline is not None:
            return self._entry(i, i, *inline)
        term_end = self._term_end(i)
        if term_end >= 0:
            # A man page's section title; where the text marks its headings ('# NAME', a
            # man page or an HTML <dl> written as Markdown), an entry's ('MAILCHECK').
            if (
                indent == 0
                and not self.hashed
                and (_CAPS.fullmatch(ln.content(i)) or _UNCASED_TITLE.fullmatch(ln.content(i)))
            ):
                return self._heading(i, i, 1)
            if indent <= 4 and self._subheading(i):
                outer = [h for h in self.headings if h[2] < indent]
                return self._heading(i, i, outer[-1][0] + 1 if outer else 2)
            return self._entry(i, term_end, -1, self._description_column(term_end))
        if self._signature(i):
            return self._entry(i, i, -1, ln.indents[i])
        if self._alone(i) and not self._describes(i):
            level = self._heading_level(i) or self._release_title(i) or self._question_title(i)
            if level:
                # In a text that marks its headings, one told by its shape alone is a
                # subheading of the marked one it is under, not a new section beside it.
                return self._heading(i, i, max(level, self.marked + 1 if self.marked else 0))
        j = self._paragraph(i)
        end = self.out[self.last].end
        if _OPENS_LITERAL.search(ln.text, max(0, end - 2), end):  # the end only: one look
            # reStructuredText's 'For example::', Vim's 'To set mark a at the cursor: >'
            return self._literal(j, indent)
        return j

    # -- headings --------------------------------------------------------------------------

    def _underline_level(self, i: int) -> int:
        """The level of the heading on line i if the next line underlines it, else 0:
        Markdown's '=' is 1 and '-' 2; reStructuredText's other characters come after, in
        the order the text first uses them (its sections nest by that order). A text whose
        first underline is none of Markdown's ranks '=' and '-' by that order too: an info
        file's chapters are underlined with '*', their sections with '='."""
        underline = self.l.lines[i + 1]
        setext = _SETEXT.match(underline)
        if setext and self.setext_first is None:
            self.setext_first = True
        if setext and self.setext_first:
            return 1 if "=" in underline else 2
        adornment = setext or _ADORNMENT.match(underline)
        if adornment is None or len(underline.strip()) < len(self.l.content(i)):
            return 0
        if self.setext_first is None:
            self.setext_first = False
        return self.adornments.setdefault(underline.strip()[:1], 3 + len(self.adornments))

    def _overlined_title(self, i: int) -> bool:
        """Line i is a rule, the next a short title and the one after the same rule."""
        ln = self.l
        if i + 2 >= ln.count or ln.blank(i + 1) or ln.lines[i].strip() != ln.lines[i + 2].strip():
            return False
        rule = ln.lines[i]
        if not (_SETEXT.match(rule) or _ADORNMENT.match(rule)):
            return False
        return len(ln.content(i + 1)) <= min(len(rule.strip()), HEADING_MAX_CHARS)

    def _underlined_title(self, i: int) -> int:
        """The last line of a title of one or two short lines starting at line i that a
        Markdown rule ('=' or '-') as long as its longest line underlines, at their indent;
        -1 if none. No line of it is a rule itself (a reStructuredText overline), and a
        second line opens no item: '- alpha' / '- beta' over a rule is a list."""
        ln = self.l
        for last in (i, i + 1):
            if last + 1 >= ln.count or ln.blank(last) or ln.indents[last] > 3:
                return -1
            if _SETEXT.match(ln.lines[last]) or _ADORNMENT.match(ln.lines[last]):
                return -1
            if last > i and (LIST_MARKER.match(ln.lines[last]) or _BULLETED.match(ln.lines[i])):
                return -1
            underline = ln.lines[last + 1]
            if _SETEXT.match(underline):
                longest = max(len(ln.content(k)) for k in range(i, last + 1))
                fits = longest <= HEADING_MAX_CHARS and len(underline.strip()) >= longest
                fits = fits and ln.indents[last + 1] <= ln.indents[i]
                return last if fits else -1
        return -1

    def _heading(self, first: int, last: int, level: int) -> int:
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        parent = self.headings[-1][1] if self.headings else -1
        self.terms.clear()
        block = self._add(Kind.HEADING, first, last, level, parent)
        self.headings.append((level, block, self.l.indents[first]))
        return last + 1

    def _alone(self, i: int) -> bool:
        """Line i is a run of its own: a blank line (or the text's edge) above and below."""
        above = i == 0 or self.l.blank(i - 1) or (i - 1) in self.furniture
        return above and (self.l.blank(i + 1) or (i + 1) in self.furniture)

    def _signature(self, i: int) -> bool:
        """Line i is a call's signature opening its description on the next line, at the
        same indent: Underscore's '_.debounce(function, wait, [immediate])' over 'Creates
        and returns a new debounced version ...'."""
        ln = self.l
        below = i + 1
        if ln.blank(below) or below in self.furniture or ln.indents[below] != ln.indents[i]:
            return False
        content = ln.content(i)
        return (
            len(content) <= HEADING_MAX_CHARS
            and _SIGNATURE.fullmatch(content) is not None
            and _SENTENCE_OPENING.match(ln.content(below)) is not None
        )

    def _describes(self, i: int) -> bool:
        """Line i is the description of the term just above it, at its column: sed's 'edit
        files in place ...' a blank line under '-i[SUFFIX], --in-place[=SUFFIX]'."""
        term = self.terms[-1] if self.terms else None
        return term is not None and term.block == self.last and self.l.indents[i] >= term.column

    def _closes(self, i: int) -> bool:
        """Line i ends with punctuation that closes a sentence or clause."""
        content = self.l.content(i)
        return content[-1] in _CLOSING and not content.endswith("...")

    def _between_halves(self, previous: int, following: int) -> bool:
        """A sentence runs on from line `previous` to line `following`, past what is between:
        'If the info and ls programs are properly installed at your site, the command' /
        'info ls' / 'should give you access to the complete manual.'"""
        return not self._closes(previous) and goes_on(self.l.content(following))

    def _clause_on(self, i: int) -> bool:
        """Line i goes on with the clause line i - 1 leaves open with a comma."""
        return self.l.content(i - 1)[-1] == "," and self.l.content(i)[0].islower()

    def _numbered_heading(self, i: int) -> bool:
        """'0. Definitions.' alone, with no numbered item after it: a section title."""
        if not (_NUMBERED.match(self.l.content(i)) and self._alone(i)):
            return False
        following = self._next_text(i)
        if following >= 0 and LIST_MARKER.match(self.l.lines[following]):
            return False
        return self._heading_level(i) > 0

    def _heading_level(self, i: int) -> int:
        """The level of a heading told by its shape, 0 if line i is not one.

        Short, without closing punctuation (a numbered title may end in '.'), and no deeper
        than the text after it unless centred.
        """
        ln = self.l
        content = ln.content(i)
        if len(content) > HEADING_MAX_CHARS:  # before splitting: a line may be megabytes long
            return 0
        words = content.split()
        if len(words) > HEADING_MAX_WORDS:
            return 0
        numbered = _NUMBERED.match(content)
        if self._closes(i) and not (numbered and content.endswith(".") and len(words) <= 8):
            return 0
        if _SENTENCE_INSIDE.search(content) and not _SECTION_NUMBER.match(content):
            return 0  # 'APT uses CMake. To start building, you need to run' goes on below
        if BYLINE.match(content):
            return 0  # its authors, under the title
        following = self._next_text(i)
        if following < 0 or not any(ch.isalpha() for ch in content) or content[0] == "`":
            return 0  # '``pip install responses``' alone is code, not a title
        if _COMMAND_LINE.search(content) or _JOINING_WORD.fullmatch(content):
            return 0  # wget's example 'wget -r -l 2 -p http://<site>/1.html', jq's '{foo: .bar}'
        # ... a title stands out from the text on both sides: rm(1)'s 'rm ./-foo', as deep
        # as the example above it, is the second of two examples
        previous = self._previous_text(i)
        if previous >= 0 and " " not in content and ln.content(previous).endswith(":"):
            return 0  # a label's value: 'Linux platform:' / '/usr/local/cuda-#.#'
        centred = (
            ln.indents[i] >= CENTRED_INDENT
            and ln.indents[i] >= ln.indents[following] + 4
            and (previous < 0 or ln.indents[i] >= ln.indents[previous] + 4)
        )
        if ln.indents[i] > ln.indents[following] and not centred:
            return 0
        if centred and previous >= 0 and self._between_halves(previous, following):
            return 0  # a command a sentence names on its way: '... the command' / 'info ls' / ...
        if numbered:
            return 2 + words[0].strip(".").count(".")
        return 1 if centred or _CAPS.fullmatch(content) else 2

    def _release_title(self, i: int) -> int:
        """2 if line i, alone, ends with a version and a colon ("What's new in at-spi2-core
        2.46.0:", 'Version 2.0:' in a NEWS file), else 0: a release's title, not a lead-in."""
        ln = self.l
        content = ln.content(i)
        if not content.endswith(":") or len(content) > HEADING_MAX_CHARS:
            return 0
        if len(content.split()) > RELEASE_TITLE_WORDS or not _VERSION_LAST.search(content):
            return 0  # 'Existing users that are upgrading to 0.11 should ensure that:' leads in
        return 2 if self._next_text(i) >= 0 else 0

    def _question_title(self, i: int) -> int:
        """2 if line i, alone, is a question the text below it answers, else 0: a FAQ's
        '(9) What is the maximum size of a VARCHAR in SQLite?' over 'SQLite does not enforce
        the length of a VARCHAR. ...'. The next text asks nothing itself: a run of questions
        (a FAQ's contents, a list of exercises) titles nothing, nor does a list's item."""
        ln = self.l
        content = ln.content(i)
        if len(content) > QUESTION_TITLE_MAX_CHARS or not asks(content):
            return 0
        following = self._next_text(i)
        if following < 0 or ln.indents[i] > ln.indents[following] or not self._alone(i):
            return 0
        below = ln.lines[following].rstrip()
        if asks(below) or LIST_MARKER.match(below) or _COMMAND_LINE.search(content):
            return 0
        return 2

    def _centred_run(self, i: int) -> int:
        """The line after a run of 2-3 centred title lines starting at i; i if there is none."""
        ln = self.l
        if i > 0 and not ln.blank(i - 1):
            return i
        j = i
        while not ln.blank(j) and ln.indents[j] >= CENTRED_INDENT and len(ln.content(j)) <= 60:
            j += 1
        if j - i < 2 or j - i > 3 or not ln.blank(j):
            return i
        centres = [2 * ln.indents[k] + len(ln.content(k)) for k in range(i, j)]  # doubled
        if max(centres) - min(centres) > 2 * CENTRE_SLACK:
            return i  # lines of one margin and unlike lengths: a short paragraph, indented
        for other in (self._previous_text(i), self._next_text(j - 1)):
            if other >= 0 and ln.indents[other] > ln.indents[i] - 4:
                return i
        return j

    def _next_text(self, i: int) -> int:
        j = i + 1
        while j < self.l.count and (self.l.blank(j) or j in self.furniture):
            j += 1
        return j if j < self.l.count else -1

    def _previous_text(self, i: int) -> int:
        j = i - 1
        while j >= 0 and (self.l.blank(j) or j in self.furniture):
            j -= 1
        return j

    def _subheading(self, i: int) -> bool:
        """A man page's subsection title: just inside the margin, a few capitalised words."""
        content = self.l.content(i)
        # ... or, in Japanese, Chinese or Korean, a short phrase: 'パスワードの有効期限情報'
        titled = content[:1].isupper() or _CJK_TITLE.fullmatch(content) is not None
        return (
            bool(self.headings)
            and self.l.indents[i] > 0
            and titled
            and len(content.split()) <= 6
            and not _OPTIONISH.match(content)
        )

    # -- entries ---------------------------------------------------------------------------

    def _inline_term(
        self, i: int, strict: bool = False, line: str | None = None
    ) -> tuple[int, int] | None:
        """(term end column, description column) if line i is `term  description`.

        The description goes on at its column on the next line; or the term is an option
        (not when `strict`: inside a paragraph '~/.bash_login,  or' is prose); or a
        neighbour is an entry of the same shape and column (a list of one-line entries).
        A term as wide as the indent leaves one space before its description, at the
        column the next line goes on at: `--help Display a usage message ...`.
        """
        ln = self.l
        line = ln.lines[i] if line is None else line  # `line` is line i, if the caller has it
        following = -1 if ln.blank(i + 1) else ln.indents[i + 1]
        if following == ln.indents[i] and _opens_with_particle(ln.content(i + 1)):
            return None  # justified Japanese prose: '-L  オプションの...引数' / 'を指定する...'

        below = following > ln.indents[i] + 2 and following < len(line)
        if not below and "\t" not in line and line.find("  ", ln.indents[i]) < 0:
            return None  # no gap on the line and no deeper line below: prose, the usual case
        if below and line[following - 1] == " ":
            term = line[: following - 1].strip()
            # '-m, --merge' is one term whose names run on after the comma, not '-m,' with
            # '--merge' as its description.
            plain = line[following] != " " and "  " not in term and len(term) <= TERM_MAX_CHARS
            # '-u, -U NUM, --unified[=NUM]' over a description at column 14 names on past it
            plain = plain and not term.endswith(",") and not _NAMES_ON.match(line, following)
            # a description says something: one word is the option's argument ('-mtime n'
            # over 'File's data was ...'), as long as the indent by chance
            plain = plain and not _ARGUMENT.fullmatch(line[following:].strip())
            if plain and _OPTIONISH.match(term):
                return len(line[: following - 1].rstrip()), following
        match = _INLINE_TERM.match(line)
        if match is None or not _may_be_term(match.group(1)):
            return None
        term_end, column = match.end(1), match.end()
        if following == column:
            return term_end, column
        if below and following < column:
            return None  # top's '%CPU  --  CPU Usage' over its description: a term's line
        optionish = _OPTIONISH.match(match.group(1)) is not None and len(match.group(1)) <= 24
        if optionish and _NAMES_OPTIONS_ON.match(line, column):
            return None  # justified CJK prose: '-l     フラグと     -u     フラグを用いると、'
        if optionish and not strict:
            wrapped = following == ln.indents[i] and not self._entry_shaped(i + 1)
            if wrapped and _CJK_CHAR.match(line, column):
                return None  # a CJK sentence wrapped at its own margin: '-l  フラグと -u ...、
                # その' / 'ロックを外したりできる。', where a description goes on deeper (an
                # English one-line entry may be followed by a sentence: '-v  be verbose' /
                # 'Exit status is 0 if OK.')
            return term_end, column
        after_sentence = i > 0 and not ln.blank(i - 1) and self._closes(i - 1)
        if strict and not optionish and not after_sentence:
            return None
        # a neighbour next to it or one blank line away: xargs' EXIT STATUS lists
        # '125    if the command is killed by a signal' and the like, a blank line apart.
        # Not a justified line, gaps between its words: 'fuser 는  지정  파일  또는  ...'.
        if _WORD_GAP.search(line, column):
            return None
        neighbours = {i - 1, i + 1, self._previous_text(i), self._next_text(i)}
        for other in sorted(n for n in neighbours if abs(n - i) <= 2):
            if 0 <= other < ln.count and not ln.blank(other) and ln.indents[other] == ln.indents[i]:
                twin = _INLINE_TERM.match(ln.lines[other])
                if twin and twin.end() == column and _may_be_term(twin.group(1)):
                    return term_end, column
        return None

    def _entry_shaped(self, i: int) -> bool:
        """Line i can open an entry of a list of one-line entries: an option or a gap."""
        content = self.l.content(i)
        return bool(_OPTIONISH.match(content)) or _INLINE_TERM.match(self.l.lines[i]) is not None

    def _term_line(self, i: int) -> bool:
        """Line i can be a term standing above its description: short, no closing comma or
        full stop (an option may end in one: '~.')."""
        content = self.l.content(i)
        if len(content) > HEADING_MAX_CHARS and not (
            len(content) <= SYNOPSIS_MAX_CHARS and _SYNOPSIS.fullmatch(content)
        ):
            return False
        return not (content[-1] in ".,;:" and not _OPTIONISH.match(content))

    def _term_end(self, i: int) -> int:
        """The last line of a term starting at line i whose description follows on deeper
        lines (up to three term lines starting with the same word: `set [-abe...]`); -1."""
        ln = self.l
        word = ln.lines[i].split(None, 1)[0]  # one split: a line may be megabytes long
        if self._spaced_option(i):
            return i
        j = i
        while True:
            if not self._term_line(j) or ln.blank(j + 1) or (j + 1) in self.furniture:
                return -1
            if ln.indents[j + 1] >= ln.indents[i] + 2:
                return j + 1 if self._qualifies_term(j) else j
            if ln.indents[j + 1] != ln.indents[i] or j - i >= 2:
                return -1
            next_word = ln.lines[j + 1].split(None, 1)[0]
            same = next_word == word or (_OPTIONISH.match(word) and _OPTIONISH.match(next_word))
            open_bracket = ln.content(j).count("[") > ln.content(j).count("]")
            if not same and not open_bracket:
                return -1
            j += 1

    def _qualifies_term(self, j: int) -> bool:
        """Line j + 1, deeper than the term line j, qualifies the term rather than opening its
        description, which goes on less deep below it: Vim's \"'tabstop' 'ts'  number
        (default 8)\" / 'local to buffer' (column 24) / 'Number of spaces ...' (column 8)."""
        ln = self.l
        below = j + 2
        if below >= ln.count or ln.blank(below) or below in self.furniture:
            return False
        term, qualifier, description = (_columns(ln.lines[k]) for k in (j, j + 1, below))
        if not term + 2 <= description < qualifier or not self._term_line(j + 1):
            return False
        # ... set at the column of a field of the term line ('number' at 24 too): not a
        # description whose first line is indented further
        fields = {m.end() for m in _FIELD_GAP.finditer(ln.lines[j].expandtabs(8))}
        return qualifier in fields

    def _spaced_option(self, i: int) -> bool:
        """Line i is an option alone with its description a blank line below, deeper (sed's
        '-i[SUFFIX], --in-place[=SUFFIX]', blank, 'edit files in place ...')."""
        ln = self.l
        below = i + 2
        return (
            ln.blank(i + 1)
            and not ln.blank(below)
            and ln.indents[below] >= ln.indents[i] + 2
            and _OPTION_LINE.match(ln.content(i)) is not None
            and self._term_line(i)
            and not {i + 1, below} & self.furniture
        )

    def _description_column(self, term_end: int) -> int:
        """Where the description of a term ending on line term_end starts: the next line, or
        the one after a blank line."""
        below = term_end + 1
        return self.l.indents[below + 1 if self.l.blank(below) else below]

    def _entry(self, first: int, last: int, term_end: int, column: int, term_col: int = -1) -> int:
        """A term on lines first..last (from column `term_col` of line `first`, if given;
        inline: up to column `term_end` of line `last`, its description going on from
        `column`); returns the line its description starts on."""
        ln = self.l
        indent = ln.indents[first]
        while self.terms and (self.terms[-1].indent >= indent or self.terms[-1].column > indent):
            self.terms.pop()
        parent = self.terms[-1].block if self.terms else self._context(indent)
        start = ln.starts[first] + term_col if term_col >= 0 else -1
        block = self._add(Kind.TERM, first, last, len(self.terms), parent, start)
        if term_end >= 0:
            self.out.set_end(block, ln.starts[last] + term_end)
        self.terms.append(_Term(indent, column, block))
        if term_end >= 0:
            return self._paragraph(last, start_col=column)
        return last + 1

    # -- lists -----------------------------------------------------------------------------

    def _item(self, i: int) -> int:
        ln = self.l
        indent = ln.indents[i]
        marker = LIST_MARKER.match(ln.lines[i])
        assert marker is not None
        column = marker.end() if marker.end() < len(ln.lines[i]) else indent + 2
        if self._bulleted_term(i, column):
            return self._entry(i, i, -1, column, term_col=column)
        items = self.items
        while items and items[-1].indent > indent:
            items.pop()  # a nested list ends
        if items and items[-1].indent == indent:
            parent = items.pop().parent  # the next item of the same list
        elif items:
            parent = items[-1].block  # a list nested in the item above
        else:
            parent = self._lead_in(self._context(indent))
        level = len(items)
        j = i + 1
        while not ln.blank(j) and j not in self.furniture:
            line = ln.lines[j]
            if self._marker(j) or _ATX.match(line):
                break
            # Less indented after a line that closes: the text after the list. After one that
            # does not, the item's sentence goes on at the margin ('  5. A program that
            # ... portion of the' / 'Library, but is designed ...'), as licences wrap it;
            # after a comma, when the line goes on in lowercase ('(or a work based on it,' /
            # 'under Section 2) in object code ...').
            if ln.indents[j] < indent and self._closes(j - 1) and not self._clause_on(j):
                break
            if _FENCE.match(line) or self._table_starts(j):
                break
            j += 1
        kept = list(items)
        block = self._add(Kind.ITEM, i, j - 1, level, parent)
        self.items = [*kept, _Item(indent, column, block, parent)]
        return j

    def _bulleted_term(self, i: int, column: int) -> bool:
        """Line i is a bullet before an option's names alone, its description under it
        after a blank line: jq's '○   --tab:' is an entry, as '--tab' on a line of its own
        would be."""
        ln = self.l
        line = ln.lines[i]
        if line[ln.indents[i]] not in BULLETS or not _OPTIONISH.match(line, column):
            return False
        if len(line) - column > HEADING_MAX_CHARS or not ln.blank(i + 1):
            return False
        below = self._next_text(i)
        return below >= 0 and ln.indents[below] >= column

    def _marker(self, i: int) -> re.Match[str] | None:
        """The list marker opening line i; a number right after a line that does not close
        is a hard-wrapped sentence going on ('... under section' / '7.  This ...')."""
        marker = LIST_MARKER.match(self.l.lines[i])
        if marker is None or not marker.group().strip()[0].isdigit() or i == 0:
            return marker
        if self.l.blank(i - 1) or (i - 1) in self.furniture:
            return marker
        last = self.l.content(i - 1)[-1]
        # ... or after an open bracket or an operator: '(O−' / '2) and hydrogen peroxide'
        runs_on = last.isalnum() or last in _GOES_ON
        return marker if last in _CLOSING or not runs_on else None

    # -- tables and code -------------------------------------------------------------------

    def _table_starts(self, i: int) -> bool:
        """Line i is a pipe row followed by another row or by the rule under a header."""
        ln = self.l
        line = ln.lines[i]
        if "|" not in line or ln.blank(i + 1):
            return False
        following = ln.lines[i + 1]
        if _TABLE_RULE.match(following):
            return True
        return line.lstrip().startswith("|") and following.lstrip().startswith("|")

    def _aligned_table_starts(self, i: int) -> bool:
        """Line i is the header of a table aligned with spaces, the rule under it (see
        ALIGNED_RULE), or the rule over a reStructuredText table's header."""
        ln = self.l
        if i + 2 >= ln.count or ln.blank(i + 1):
            return False
        if ALIGNED_RULE.match(ln.lines[i]):
            return ALIGNED_RULE.match(ln.lines[i + 2]) is not None
        return ALIGNED_RULE.match(ln.lines[i + 1]) is not None

    def _table(self, i: int, aligned: bool = False) -> int:
        """A table's rows, up to a blank line: a pipe table's, or with `aligned` one whose
        columns a rule of dashes or equals signs marks. The row above the first rule below
        a row names the columns."""
        ln = self.l
        rule = ALIGNED_RULE if aligned else _TABLE_RULE
        context = self._lead_in(self._context(ln.indents[i]))
        header = -1
        j = i
        while not ln.blank(j) and (aligned or "|" in ln.lines[j]) and j not in self.furniture:
            if rule.match(ln.lines[j]):
                if header < 0 and j > i and self.last >= 0 and self.out.kind(self.last) == Kind.ROW:
                    header = self.last  # the row above the rule names the columns
                    self.out.set_level(header, 1)
            else:
                self.last = self.out.add(
                    Kind.ROW, *ln.span(j, j), 0, header if header >= 0 else context
                )
            j += 1
        self.items.clear()
        return j

    def _markup(self, i: int) -> int:
        """Raw HTML in Markdown, up to the next blank line: markup, not prose. Tags alone
        ('<div class="termy">' around a console example) are layout with nothing to read,
        and no block: the lead-in above the example reads on into it."""
        j = self._up_to_blank(i)
        start, end = self.l.span(i, j - 1)
        if _TAGS.sub("", self.l.text[start:end]).strip():
            self._add(Kind.CODE, i, j - 1, 0, self._context(self.l.indents[i]))
        return j

    def _doctest(self, i: int) -> bool:
        """Line i opens a Python session ('>>> ftfy.fix_text(...)' and its output), not a
        quoted e-mail ('>>> Hi Ann,'): what follows its prompt is Python."""
        source = self.l.content(i)[4:]
        with warnings.catch_warnings():  # an escape such as '\d' in a string only warns
            warnings.simplefilter("ignore")
            try:  # None for a statement going on ('for line in lines:'): Python too
                codeop.compile_command(source, "<session>", "single")
            except (SyntaxError, ValueError, OverflowError):
                return False
        return True

    def _up_to_blank(self, i: int) -> int:
        """The line after the lines from i up to the next blank line (or the text's end)."""
        j = i
        while j < self.l.count and not self.l.blank(j):
            j += 1
        return j

    def _session(self, i: int) -> int:
        """A Python session up to the next blank line, one code block."""
        j = self._up_to_blank(i)
        self._add(Kind.CODE, i, j - 1, 0, self._context(self.l.indents[i]))
        return j

    def _code(self, i: int, fence: str) -> int:
        ln = self.l
        context = self._context(ln.indents[i])
        j = i + 1
        while j < ln.count:
            closing = _FENCE.match(ln.lines[j])
            if (
                closing
                and closing.group(1).startswith(fence)
                and not ln.lines[j][closing.end() :].strip()
            ):
                break
            j += 1
        last = min(j, ln.count - 1)
        self._add(Kind.CODE, i, last, 0, context)
        return last + 1

    def _options(self, i: int) -> int:
        """The line after directive i's indented ':option: value' lines ('.. image::' and
        its ':target: https://...'): markup, no block either."""
        ln = self.l
        j = i + 1
        while j < ln.count and ln.indents[j] > ln.indents[i] and ln.content(j).startswith(":"):
            j += 1
        return j

    def _python_body(self, i: int, indent: int) -> bool:
        """The lines indented deeper than `indent` after the blank lines from line i are
        Python: an extension's directive ('.. click:example::') around an example, read as
        code as '.. code-block::' is, not its prose ('.. note::')."""
        ln = self.l
        first = i
        while first < ln.count and ln.blank(first):
            first += 1
        lines: list[str] = []
        size, j = 0, first
        while j < ln.count and (ln.blank(j) or ln.indents[j] > indent):
            size += len(ln.lines[j]) + 1
            if size > min(PYTHON_BODY_MAX_CHARS, self.python_budget):
                return False  # too long for an example, or the text's tries are spent
            lines.append(ln.lines[j])
            j += 1
        source = textwrap.dedent("\n".join(lines)).strip()
        if not source or not _CODE_SIGN.search(source):
            return False
        # bodies inside bodies are each read again, and each try compiles: both bounded
        self.python_budget -= max(size, PYTHON_TRY_CHARS)
        with warnings.catch_warnings():  # an escape such as '\d' in a string only warns
            warnings.simplefilter("ignore")
            try:
                compile(source, "<directive>", "exec", dont_inherit=True)
            except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
                return False
        return True

    def _literal(self, i: int, indent: int) -> int:
        """The code block indented deeper than `indent` after the blank lines from line i,
        if any; returns the line after it (i when there is none)."""
        ln = self.l
        first = i
        while first < ln.count and ln.blank(first):
            first += 1
        if first >= ln.count or ln.indents[first] <= indent:
            return i
        last = j = first
        while j < ln.count and (ln.blank(j) or ln.indents[j] > indent):
            last = last if ln.blank(j) else j
            j += 1
        self._add(Kind.CODE, first, last, 0, self._context(indent))
        return last + 1

    # -- paragraphs ------------------------------------------------------------------------

    def _paragraph(self, i: int, start_col: int = -1) -> int:
        """Lines from i on that run on as one paragraph (from column `start_col` of line i)."""
        ln = self.l
        first = start_col if start_col >= 0 else ln.indents[i]
        items = list(self.items)
        if items and start_col < 0 and first >= items[-1].column:
            context = items[-1].block  # a further paragraph of a list item
        else:
            items = []
            context = self._context(first)
        j = i + 1
        body = -1  # the indent of the lines after the first
        lines, indents, count, furniture = ln.lines, ln.indents, ln.count, self.furniture
        # Every line of every paragraph passes here: each is fetched once, tests inlined.
        while j < count and j not in furniture and (indents[j] >= 0 or self._goes_on(j, first)):
            if indents[j] < 0:
                j += 1  # the blank line inside a description's sentence
                continue
            indent = indents[j]
            line = lines[j]
            if self._interrupts(j, first, line):
                break
            if self.terms and indent < self.terms[-1].column:
                break  # outside the entry whose description this is
            if body < 0:
                if indent >= first + 2 or (start_col >= 0 and indent < start_col - 1):
                    break  # deeper text under the first line, or an outdent from a description
            elif indent < body - 1 or (indent > body + 1 and self._closes(j - 1)):
                break  # an outdent, or a first-line indent starting the next paragraph
            # Cheap tests first: _term_end looks at the lines below.
            content = line.strip()
            closes = content[-1] in _CLOSING and not content.endswith("...")  # _closes(j)
            if len(content) < 60 and not closes and self._term_end(j) >= 0:
                break  # line j is the term of an entry whose description follows
            body = indent if body < 0 else body
            j += 1
        self._add(
            Kind.PARAGRAPH, i, j - 1, 0, context, ln.starts[i] + start_col if start_col >= 0 else -1
        )
        self.items = items
        return j

    def _goes_on(self, blank: int, indent: int) -> bool:
        """The blank line `blank` falls inside a sentence of a description: help2man's
        timeout(1) writes 'exit with the same status as COMMAND, even when the', a blank
        line, then 'command times out' at the same indent."""
        ln = self.l
        below = blank + 1
        if not self.terms or ln.blank(below) or below in self.furniture or blank == 0:
            return False
        above = ln.content(blank - 1)
        return (
            ln.indents[below] == indent >= self.terms[-1].column
            and above[-1:].isalpha()
            and ln.content(below)[:1].islower()
        )

    def _interrupts(self, j: int, indent: int, line: str) -> bool:
        """Line j (`line`) starts a block of another kind: a heading, fence, item, table or
        option."""
        own = self.l.indents[j]
        opens = _may_open(line, own)
        if opens and (_ATX.match(line) or _FENCE.match(line) or self._marker(j)):
            return True
        if "|" in line and self._table_starts(j):
            return True
        if own > indent:
            return False
        return self._inline_term(j, strict=True, line=line) is not None


_OPENERS = frozenset("#`~(" + BULLETS)


def _may_be_term(words: str) -> bool:
    """Words before a gap can name an entry: not too long, and not the end of a Japanese or
    Chinese sentence that justified text spaced out ('らです。   シンボリックリンク...')."""
    return len(words) <= TERM_MAX_CHARS and words[-1] not in _CJK_STOPS


def _may_open(line: str, indent: int) -> bool:
    """Whether line's first characters could start a heading, fence or list marker (_ATX,
    _FENCE, LIST_MARKER): a filter that spares most prose lines three regex matches."""
    first = line[indent]
    if first in _OPENERS or first.isdigit():
        return True
    after = line[indent + 1 : indent + 3]
    return after[:1] in (".", ")") or (after[:1] == first and after[1:] in (".", ")"))


def _furniture(lines: _Lines, page_starts: Sequence[int]) -> set[int]:
    """Lines that are running headers, footers or page numbers (see the module docstring)."""
    if len(page_starts) < 2:
        return set()
    edges: list[tuple[int, int]] = []  # (page index, line)
    for page, start in enumerate(page_starts):
        first = bisect.bisect_left(lines.starts, start)
        end = page_starts[page + 1] if page + 1 < len(page_starts) else len(lines.text) + 1
        last = bisect.bisect_left(lines.starts, end) - 1
        top = next((k for k in range(first, last + 1) if not lines.blank(k)), -1)
        bottom = next((k for k in range(last, first - 1, -1) if not lines.blank(k)), -1)
        edges += [(page, line) for line in dict.fromkeys((top, bottom)) if line >= 0]
    found = {line for _, line in edges if _PAGE_NUMBER.fullmatch(lines.content(line))}
    # The page's own number at the line's edge, at one steady offset from the page's index.
    offsets: Counter[int] = Counter()
    numbered: list[tuple[int, int]] = []
    for page, line in edges:
        content = lines.content(line)
        match = _EDGE_NUMBER.search(content)
        if match and len(content) <= HEADING_MAX_CHARS:
            offset = int(match.group(1) or match.group(2)) - page
            offsets[offset] += 1
            numbered.append((offset, line))
    found.update(line for offset, line in numbered if offsets[offset] >= 2)
    # Lines repeated at the edge of at least half the pages (digits aside).
    shapes = Counter(re.sub(r"\d+", "#", lines.content(line)) for _, line in edges)
    least = max(3, len(page_starts) // 2)
    found.update(
        line for _, line in edges if shapes[re.sub(r"\d+", "#", lines.content(line))] >= least
    )
    return found


# A Texinfo info file's node line ('File: wget.info,  Node: Wgetrc Location,  Next: ...'):
# where an info reader stands, not text.
_INFO_NODE = re.compile(
    r"^File: [^,\s]+,[ \t]+Node: [^,\n]+(?:,[ \t]+\w+: [^,\n]+)*$", re.MULTILINE
)


def _matched_lines(lines: _Lines, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """(line index, matched text) of each match of `pattern` in the text."""
    for match in pattern.finditer(lines.text):
        yield bisect.bisect_right(lines.starts, match.start()) - 1, match.group()


def _info_nodes(lines: _Lines) -> set[int]:
    """An info file's node lines (_INFO_NODE)."""
    if "Node: " not in lines.text:
        return set()  # most texts: one substring search, not a scan by the pattern
    return {i for i, _ in _matched_lines(lines, _INFO_NODE)}


# A line of one character repeated, alone after a blank line: a rule between sections (Vim's
# help files open each with one of '=', over its title), not an underline.
_SECTION_RULE = re.compile(r"^([=*~#_-])\1{9,}[ \t]*$", re.MULTILINE)


def _section_rules(lines: _Lines) -> set[int]:
    """Lines that are a rule between sections (_SECTION_RULE) with text right below."""
    return {
        i
        for i, _ in _matched_lines(lines, _SECTION_RULE)
        if (i == 0 or lines.blank(i - 1)) and i + 1 < lines.count and not lines.blank(i + 1)
    }


# Vim's help tags on a line of their own, set to the right over the entry they name
# ("*'tabstop'* *'ts'*"): anchors for links, not text.
_ANCHORS = re.compile(r"^[ \t]{2,}(?:\*[^*\s]+\*[ \t]*)+$", re.MULTILINE)
# ... told from emphasis by their form: two or more, or one with a tag's marks
# ("*'ts'*", '*:retab*', '*usr_04.txt*'); '*Note*' alone is a word emphasized.
_TAGGED = re.compile(r"\*[^*\s]*['|.:_-][^*\s]*\*|\*[^*\s]+\*[ \t]+\*")
ANCHOR_INDENT = 16
"""Least indent of a line of tags alone for it to be anchors: a Markdown line '*Note*' is
emphasis."""


def _columns(line: str) -> int:
    """The columns a line is indented by, a tab stopping at every eighth as a terminal does
    (the indents the analyser compares count a tab as one)."""
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs(8))


def _anchor_lines(lines: _Lines) -> set[int]:
    """Lines that are anchors alone (_ANCHORS)."""
    if "*" not in lines.text:
        return set()
    return {
        i
        for i, line in _matched_lines(lines, _ANCHORS)
        if _columns(line) >= ANCHOR_INDENT and _TAGGED.search(line)
    }


def _man_title(lines: _Lines) -> set[int]:
    """A rendered man page's header and footer lines (its name and section at the edge)."""
    text_lines = [i for i in (0, 1, lines.count - 2, lines.count - 1) if 0 <= i < lines.count]
    found = set()
    for i in text_lines:
        if not lines.blank(i) and _MAN_TITLE.fullmatch(lines.content(i)):
            found.add(i)
    return found
