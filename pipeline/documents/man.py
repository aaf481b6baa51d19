"""The man(7) macros written as Markdown blocks, for roff.py: what `man` shows, as the
other readers write it (headings, entries, list items, fenced code).

`.SH`/`.SS` are `#`/`##` headings; `.TP` and `.IP tag` entries a term line with the
description indented DESCRIPTION_INDENT below it (as html.py writes a `<dl>`), `.IP \\(bu`
a `-` item, and `.RS`/`.RE` nest them; filled text is joined into paragraphs, and `.nf`
/`.fi` and `.EX`/`.EE` blocks are fenced code. mdoc(7) pages are written through the same
shapes (mdoc.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.documents.blocks import Blocks
from pipeline.documents.html import DESCRIPTION_INDENT
from pipeline.documents.mdoc import Mdoc
from pipeline.documents.tbl import table_rows
from pipeline.errors import TooLargeError

_BULLETS = frozenset("\u2022*-\u00b7o+\u25cb\u25e6\u25cf\u25a1\u25a0\u25aa\u2013\u2014\u2023")
"""Tags `.IP` marks a list item with: groff's \\(bu, \\[ci], \\(sq, \\(em and their like."""
_NUMBERED = re.compile(r"\(?(\d+|[a-zA-Z])[.)]$")


_GLUE = "\x00"
"""Marks a word that runs on from the one before it, with no space (after '\\c')."""
TERM_LINE_CHARS = 200
"""Longest line read as the term of a description that `.RS 4` indents under it (systemd's
'LimitCPU=, LimitFSIZE=, ...' is one)."""


def _joined(words: list[str]) -> str:
    """The words with a space between, none before one marked _GLUE."""
    parts: list[str] = []
    for word in words:
        if word.startswith(_GLUE):
            parts.append(word[1:])
        else:
            if parts:
                parts.append(" ")
            parts.append(word)
    return "".join(parts)


@dataclass
class _Margin:
    """What a `.RS` saves and its `.RE` restores: where paragraphs and entries go."""

    base: int
    content: int
    in_entry: bool


class ManWriter:
    """The man(7) macros written as Markdown blocks (see the module docstring)."""

    def __init__(self, expand: Callable[[str], str], limit: int) -> None:
        self.expand = expand  # a word's escapes read, with the page's strings
        self.limit = limit  # most characters the page may write (TooLargeError past it)
        self.written = 0
        self.blocks = Blocks()
        self.words: list[str] = []  # a word opening with _GLUE runs on from the one before
        self.base = 0  # where entries and paragraphs start
        self.content = 0  # where the text being written goes: an entry's description is deeper
        self.in_entry = False
        self.saved: list[_Margin] = []
        self.pending = ""  # "heading1", "heading2" or "term": what the next line of text is
        self.item = ""  # a list item's marker, for its first paragraph
        self.tight = False  # the last block was a term: its description joins it
        self.broken = False  # a line break (.br) ended the last block: the next one joins it
        self.literal: list[str] | None = None  # the lines of a .nf or .EX block
        self.glued = False  # the last line ended with \c: the next one runs on
        self.term_like = False  # the last block was a line that may be an entry's term
        self.link = ""
        self.mdoc = Mdoc(self, expand)

    def finish(self) -> str:
        self.mdoc.close()
        self._flush()
        self._end_literal()
        return self.blocks.text()

    def text(self, line: str, glued: bool = False) -> None:
        """A line of text, from the page or from a font macro's arguments."""
        if self.mdoc.text_line(line):
            return
        if self.literal is not None:
            self.literal.append(line)
            return
        if self.pending:
            self._pending_line(line)
            return
        if not line.strip():
            self._flush()  # a blank line is a paragraph break
            return
        if line[:1] in (" ", "\t"):
            self._flush(then_tight=True)  # a line opening with a space starts a new line
        self._count(len(line))
        words = " ".join(line.split())  # roff's two spaces after a sentence are one here
        self.words.append(_GLUE + words if self.glued and self.words else words)
        # '\c' joins the next line to this one, unless this one ends in a space ('of\~\c')
        self.glued = glued and not line[-1:].isspace()

    def macro(self, name: str, args: list[str]) -> None:
        """A macro with its words as written (mdoc tells a macro's name from a word by it).
        One the page never defines prints nothing, as in groff ('.LINKSTYLE blue R < >')."""
        handler = _MACROS.get(name)
        if handler is not None:
            handler(self, [self.expand(arg) for arg in args])
        elif self.mdoc.handles(name):
            self.mdoc.macro(name, args)

    def table(self, lines: list[str]) -> None:
        """A tbl table (`.TS` ... `.TE`): a pipe table, with a header row when tbl marks one."""
        rows, header = table_rows(lines, self.expand)
        if not rows:
            return
        self._flush()
        self._count(sum(len(cell) + 3 for row in rows for cell in row))  # before writing it
        self.blocks.table(rows, header, self.content, self.tight)
        self.tight = self.term_like = False

    def _count(self, size: int) -> None:
        """Count `size` characters written; TooLargeError past the limit."""
        self.written += size
        if self.written > self.limit:
            raise TooLargeError("the man page writes more text than the document size limit")

    def _pending_line(self, line: str) -> None:
        pending, self.pending = self.pending, ""
        text = " ".join(line.split())
        if pending.startswith("heading"):
            self._heading(int(pending[-1]), text)
        else:
            self._term(text)

    def _heading(self, level: int, text: str) -> None:
        self._flush()
        self._end_literal()
        self.saved.clear()
        self.base = self.content = 0
        self.in_entry = self.tight = self.broken = self.term_like = False
        self.blocks.write("#" * level + " " + text)

    def _term(self, text: str) -> None:
        self.blocks.write(text, self.base, tight=self.tight)
        self.tight = True
        self.in_entry = True
        self.content = self.base + DESCRIPTION_INDENT

    def _flush(self, then_tight: bool = False) -> None:
        """The words so far as a paragraph; `then_tight` for a line break inside one: the
        next line follows this one with no blank line between."""
        if self.pending == "term":
            self.pending = ""
        if not self.words:
            self.broken = self.broken and then_tight
            return
        text = _joined(self.words)
        self.words = []
        self.glued = False
        self.term_like = len(text) <= TERM_LINE_CHARS
        if self.item:
            text, self.item = self.item + text, ""
            self.blocks.write(text, self.base, tight=self.tight)
        else:
            self.blocks.write(text, self.content, tight=self.tight or self.broken)
        self.tight = False
        self.broken = then_tight

    def _end_literal(self) -> None:
        if self.literal is not None:
            lines, self.literal = self.literal, None
            self.blocks.code("\n".join(lines), self.content, tight=self.tight)
            self.tight = False

    # The man(7) macros, and the requests that break lines.

    def section(self, args: list[str], level: int = 1) -> None:
        if args:
            self._heading(level, " ".join(args))
        else:
            self._flush()
            self.pending = f"heading{level}"

    def subsection(self, args: list[str]) -> None:
        self.section(args, 2)

    def paragraph(self, args: list[str]) -> None:
        self._flush()
        self.in_entry = False
        self.content = self.base
        self.item = ""

    def tagged(self, args: list[str]) -> None:
        """.TP: the next line is the term, the lines after it its description."""
        self._flush()
        self.item = ""
        self.pending = "term"

    def another_tag(self, args: list[str]) -> None:
        """.TQ: the next line is one more term of the same entry."""
        self._flush()
        self.tight = True
        self.pending = "term"

    def indented(self, args: list[str]) -> None:
        """.IP [tag]: an entry (or a list item, for a bullet or a number) with its tag, or
        a further paragraph of the entry before it."""
        self._flush()
        tag = " ".join(args[:1]).strip()
        if tag in _BULLETS or _NUMBERED.match(tag):
            self.item = ("- " if tag in _BULLETS else tag + " ") if tag else ""
            self.content = self.base + len(self.item)
            self.in_entry = True
        elif tag:
            self.item = ""
            self._term(tag)
        elif not self.in_entry:
            self.content = self.base

    def shift_right(self, args: list[str]) -> None:
        """.RS: what follows nests inside the current entry. Outside one, `.RS 4` under a
        line of its own is that line's description: DocBook and Asciidoctor write an option
        as '.PP' / '-n, --dry-run' / '.RS 4' / its description / '.RE' (a bare `.RS` after
        prose, 'An OR list has the form', indents an example, no description)."""
        self._flush()
        term = args[:1] == ["4"] and not self.in_entry and self.term_like and not self.broken
        self.nest()
        if term:
            self.tight = True
            self.base = self.content = self.base + DESCRIPTION_INDENT

    def nest(self) -> None:
        """What follows nests inside the current entry, if any (an mdoc list's `.Bl`)."""
        self._flush()
        self.saved.append(_Margin(self.base, self.content, self.in_entry))
        self.base = self.content if self.in_entry else self.base
        self.content = self.base
        self.in_entry = False
        self.term_like = False

    def shift_left(self, args: list[str]) -> None:
        self._flush()
        if self.saved:
            margin = self.saved.pop()
            self.base, self.content, self.in_entry = margin.base, margin.content, margin.in_entry

    def line_break(self, args: list[str]) -> None:
        if self.literal is None:
            self._flush(then_tight=True)

    def space(self, args: list[str]) -> None:
        if self.literal is not None:
            self.literal.append("")
        else:
            self._flush()

    def no_fill(self, args: list[str]) -> None:
        self._flush()
        if self.literal is None:
            self.literal = []

    def fill(self, args: list[str]) -> None:
        self._end_literal()

    def font(self, args: list[str]) -> None:
        if args:
            self.text(" ".join(args))

    def alternating(self, args: list[str]) -> None:
        if args:
            self.text("".join(args))

    def cross_reference(self, args: list[str]) -> None:
        """.MR (groff 1.23): another page, 'stat(2)', and the punctuation after it."""
        if len(args) >= 2:
            self.text(f"{args[0]}({args[1]}){''.join(args[2:])}")

    def link_start(self, args: list[str]) -> None:
        self.link = args[0] if args else ""

    def link_end(self, args: list[str]) -> None:
        if self.link and not any(self.link in word for word in self.words[-3:]):
            self.words.append(f"<{self.link}>")
        self.link = ""
        if args and self.words:
            self.words[-1] += args[0]

    def synopsis(self, args: list[str]) -> None:
        self._flush()
        if args:
            self.words.append(args[0])

    def synopsis_option(self, args: list[str]) -> None:
        self.words.append("[" + " ".join(args) + "]")


_MACROS: dict[str, Callable[[ManWriter, list[str]], None]] = {
    "SH": ManWriter.section,
    "SS": ManWriter.subsection,
    "PP": ManWriter.paragraph,
    "LP": ManWriter.paragraph,
    "P": ManWriter.paragraph,
    "HP": ManWriter.paragraph,
    "TP": ManWriter.tagged,
    "TQ": ManWriter.another_tag,
    "IP": ManWriter.indented,
    "RS": ManWriter.shift_right,
    "RE": ManWriter.shift_left,
    "br": ManWriter.line_break,
    "sp": ManWriter.space,
    "nf": ManWriter.no_fill,
    "EX": ManWriter.no_fill,
    "fi": ManWriter.fill,
    "EE": ManWriter.fill,
    "B": ManWriter.font,
    "I": ManWriter.font,
    "SM": ManWriter.font,
    "SB": ManWriter.font,
    "BR": ManWriter.alternating,
    "BI": ManWriter.alternating,
    "IB": ManWriter.alternating,
    "IR": ManWriter.alternating,
    "RB": ManWriter.alternating,
    "RI": ManWriter.alternating,
    "MR": ManWriter.cross_reference,
    "UR": ManWriter.link_start,
    "MT": ManWriter.link_start,
    "UE": ManWriter.link_end,
    "ME": ManWriter.link_end,
    "SY": ManWriter.synopsis,
    "OP": ManWriter.synopsis_option,
    "YS": ManWriter.paragraph,
    "TH": lambda writer, args: None,
}
