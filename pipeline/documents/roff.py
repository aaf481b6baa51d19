"""Manual pages in roff source (the man(7) macros) as Markdown, in the shapes html.py writes.

A man page as shipped (`ls.1`, a project's `doc/tool.1`) is roff: read as text, answers
carried '\\fB\\-p\\fR same as \\fB\\-\\-preserve\\fR=\\fI\\,mode\\/\\fR'. Read here as `man` shows
it, in the Markdown the other readers write:

- `.SH`/`.SS` are `#`/`##` headings;
- `.TP` and `.IP tag` entries are a term line with the description indented
  DESCRIPTION_INDENT below it (as html.py writes a `<dl>`), `.IP \\(bu` a `-` item, and
  `.RS`/`.RE` nest them;
- filled text is joined into paragraphs, `.nf`/`.fi` and `.EX`/`.EE` blocks are fenced code;
- escapes read as what they print (roff_escapes.py): fonts dropped, `\\-` a hyphen, `\\(em`
  a dash, strings the page defines (`.ds`) interpolated;
- the page's own macros (`.de`) are expanded, with their arguments, and conditions
  (`.if n`, `.ie \\n(.g`) are read as nroff reads them when it writes to a terminal.

Nothing is read from outside the text: `.so` (include a file) and the requests that run
programs or write files are ignored, so an uploaded page cannot pull in a server's files.
Macro expansion is capped (MAX_EXPANDED_LINES), so a macro calling itself ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pipeline.documents.blocks import Blocks
from pipeline.documents.html import DESCRIPTION_INDENT
from pipeline.documents.roff_escapes import expand

MAX_EXPANDED_LINES = 200_000
"""Lines macro calls may add in all; past it a call reads as nothing. A page expands its
macros to a few thousand lines; a macro calling itself, or a chain that doubles, to any."""
_MAX_DEPTH = 32
_CHECK_EVERY = 2_048
_PAGE_MACROS = re.compile(r"^[.'][ \t]*(?:TH|SH)[ \t]", re.MULTILINE)
_FIRST_REQUEST = re.compile(r"[.'][ \t]*(?:\\\"|[a-zA-Z]{1,4}(?:\s|$))")
_CONTROL = re.compile(r"[.'][ \t]*([^\s\\]+)")
_MAN_STRINGS = {"R": "\u00ae", "lq": "\u201c", "rq": "\u201d", "Tm": "\u2122", "S": ""}
"""Strings man(7) defines for every page."""
_BULLETS = frozenset(("\u2022", "*", "-", "\u00b7", "o", "+"))
_NUMBERED = re.compile(r"\(?(\d+|[a-zA-Z])[.)]$")
# Requests that only set layout, fonts, hyphenation, registers or traps, or that reach
# outside the text (so, mso, pso, sy, open, cf, nx, rd, pi, tm, ...): nothing to read.
_IGNORED = frozenset(
    (
        "ab ad als asciify bd blm bp c2 cc ce cf ch char chop close cs cu da di do ds1 dt ec "
        "em eo ev evc fam fc fchar fcolor fl fp fschar fspecial ft ftr fzoom gcolor hc hla "
        "hlm hpf hw hy hym hys in it itc kern lc lf lg linetabs ll ls lsm lt mc mk mso na ne "
        "nh nm nn nr nroff ns nx open opena output pc pev pi pl pm pn pnr po ps pso ptr pvs "
        "rchar rd rj rm rn rr rs rt schar shc shift sizes so special spreadwarn ss sty substring "
        "sy ta tc ti tkf tl tm tm1 tmc tr trf trin troff uf ul unformat vpt vs warn warnscale "
        "wh while write writec writem PD DT UC AT IX LO hy"
    ).split()
)


def looks_like_roff(text: str) -> bool:
    """A man page's source: its first line a roff request or comment, `.TH` or `.SH` in it."""
    return _FIRST_REQUEST.match(text.lstrip()) is not None and _PAGE_MACROS.search(text) is not None


def roff_text(source: str, check: Callable[[], None] | None = None) -> str:
    """The page in `source` as Markdown (see the module docstring)."""
    writer = _ManWriter()
    _Reader(writer, check).read(_logical_lines(source))
    return writer.finish()


def _logical_lines(source: str) -> Iterator[str]:
    """Input lines with a line ending in an escaped newline ('\\') joined to the next."""
    pending = ""
    for line in source.replace("\r\n", "\n").split("\n"):
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2:
            pending += line[:-1]
            continue
        yield pending + line
        pending = ""
    if pending:
        yield pending


class _Reader:
    """Requests, conditions, strings and macros: what roff does before a macro package writes."""

    def __init__(self, writer: _ManWriter, check: Callable[[], None] | None) -> None:
        self.writer = writer
        self.check = check
        self.strings = dict(_MAN_STRINGS)
        self.macros: dict[str, list[str]] = {}
        self.last_ie = True
        self.expanded = 0
        self.count = 0

    def read(self, lines: Iterator[str], depth: int = 0) -> None:
        for line in lines:
            self.count += 1
            if self.check is not None and self.count % _CHECK_EVERY == 0:
                self.check()
            self.line(line, lines, depth)

    def line(self, line: str, lines: Iterator[str], depth: int) -> None:
        if line[:1] in (".", "'"):
            self.request(line, lines, depth)
        elif line.lstrip().startswith(("\\}", "\\{")) and not line.strip("\\{} \t"):
            return  # a condition's brace on a line of its own
        else:
            self.writer.text(expand(line, self.strings), glued=line.endswith("\\c"))

    def request(self, line: str, lines: Iterator[str], depth: int) -> None:
        control = _CONTROL.match(line)
        if control is None:
            return  # '.', '.\" comment', '.\}'
        name, rest = control.group(1), line[control.end() :]
        if name in self.macros:
            self.call(name, arguments(rest), depth)
        elif name in ("de", "de1", "dei", "am", "am1", "ami"):
            self.define(name, arguments(rest), lines)
        elif name == "ig":
            _skip_to(lines, (arguments(rest) or ["."])[0])
        elif name in ("ds", "as"):
            self.define_string(name, rest)
        elif name in ("if", "ie", "el"):
            self.condition(name, rest, lines, depth)
        elif name == "nop" and depth < _MAX_DEPTH:
            self.line(rest.lstrip(), lines, depth + 1)
        elif name not in _IGNORED:
            self.writer.macro(name, [expand(a, self.strings) for a in arguments(rest)])

    def define(self, name: str, args: list[str], lines: Iterator[str]) -> None:
        """`.de NAME [END]`: the lines up to `..` (or `.END`) are the macro's body."""
        if not args:
            return
        body = _skip_to(lines, args[1] if len(args) > 1 else ".")
        if name.startswith("am"):
            self.macros[args[0]] = self.macros.get(args[0], []) + body
        else:
            self.macros[args[0]] = body

    def call(self, name: str, args: list[str], depth: int) -> None:
        body = self.macros[name]
        if depth >= _MAX_DEPTH or self.expanded + len(body) > MAX_EXPANDED_LINES:
            return
        self.expanded += len(body)
        lines = [_with_arguments(line, args) for line in body]
        self.read(iter(lines), depth + 1)

    def define_string(self, name: str, rest: str) -> None:
        parts = rest.lstrip().split(None, 1)
        if not parts:
            return
        value = parts[1] if len(parts) > 1 else ""
        value = expand(value[1:] if value.startswith('"') else value, self.strings)
        self.strings[parts[0]] = (self.strings.get(parts[0], "") if name == "as" else "") + value

    def condition(self, name: str, rest: str, lines: Iterator[str], depth: int) -> None:
        """`.if COND BODY`, `.ie COND BODY` / `.el BODY`: BODY (a line, or a `\\{` block
        running to its `\\}`) is read when the condition holds for nroff on a terminal."""
        if name == "el":
            holds, body = not self.last_ie, rest
        else:
            holds, body = self.holds(rest)
            if name == "ie":
                self.last_ie = holds
        body = body.lstrip()
        block = body.startswith("\\{")
        if not holds:
            if block:
                _skip_block(body, lines)
            return
        body = body[2:].lstrip() if block else body
        if body and depth < _MAX_DEPTH:  # '.if n .if n ...' nests on one line
            self.line(body, lines, depth + 1)

    def holds(self, rest: str) -> tuple[bool, str]:
        """Whether a condition holds, and the body after it."""
        text = rest.lstrip()
        negated = text.startswith("!")
        text = text[1:] if negated else text
        if not text:
            return False, ""
        first = text[0]
        if first in "ntoevh" and (len(text) == 1 or not text[1].isalnum()):
            holds, body = first == "n", text[1:]
        elif first in "rdcmFS":  # a register, string, character, colour, font or style
            word, _, body = text[1:].lstrip().partition(" ")
            holds = first == "d" and (word in self.strings or word in self.macros)
        elif first in "'\"/|":
            holds, body = self._compare(text)
        else:
            expression, _, body = text.partition(" ")
            holds = expression in ("\\n(.g", "\\n[.g]")  # groff: the formatter reading this
        return holds != negated, body

    def _compare(self, text: str) -> tuple[bool, str]:
        """'a'b': whether the two strings print the same."""
        quote = text[0]
        first_end = text.find(quote, 1)
        second_end = text.find(quote, first_end + 1) if first_end > 0 else -1
        if second_end < 0:
            return False, ""
        left, right = text[1:first_end], text[first_end + 1 : second_end]
        return expand(left, self.strings) == expand(right, self.strings), text[second_end + 1 :]


def arguments(text: str) -> list[str]:
    """A request's arguments: words, or "quoted words" ("" in quotes is a quote)."""
    args: list[str] = []
    pos, size = 0, len(text)
    while pos < size:
        while pos < size and text[pos] in " \t":
            pos += 1
        if pos >= size or text.startswith('\\"', pos):
            break
        if text[pos] == '"':
            pos += 1
            word: list[str] = []
            while pos < size:
                if text[pos] == '"':
                    if text.startswith('""', pos):
                        word.append('"')
                        pos += 2
                        continue
                    pos += 1
                    break
                word.append(text[pos])
                pos += 1
            args.append("".join(word))
        else:
            end = pos
            while end < size and text[end] not in " \t" and not text.startswith('\\"', end):
                end += 1
            args.append(text[pos:end])
            pos = end
    return args


def _with_arguments(line: str, args: list[str]) -> str:
    """A macro body's line as called: `\\$1`.. its arguments, `\\$*` all, `\\\\` one `\\`."""

    def argument(match: re.Match[str]) -> str:
        which = match.group(1)
        if which in "*@":
            return " ".join(args)
        if which == "#":
            return str(len(args))
        index = int(which.strip("[]()")) if which.strip("[]()").isdigit() else 0
        return args[index - 1] if 0 < index <= len(args) else ""

    line = re.sub(r"\\\\?\$(\d|\*|@|#|\(\d\d|\[\d+\])", argument, line)
    return line.replace("\\\\", "\\")


def _skip_to(lines: Iterator[str], end: str) -> list[str]:
    """The lines up to a line that is `.` followed by `end` ('.' for '..'), which is consumed."""
    taken = []
    for line in lines:
        if line[:1] in (".", "'") and line[1:].strip() == end:
            break
        taken.append(line)
    return taken


def _skip_block(body: str, lines: Iterator[str]) -> None:
    """Past the `\\}` closing the block `body` opens, counting the blocks nested in it."""
    depth = body.count("\\{") - body.count("\\}")
    while depth > 0:
        line = next(lines, None)
        if line is None:
            return
        depth += line.count("\\{") - line.count("\\}")


@dataclass
class _Margin:
    """What a `.RS` saves and its `.RE` restores: where paragraphs and entries go."""

    base: int
    content: int
    in_entry: bool


class _ManWriter:
    """The man(7) macros written as Markdown blocks (see the module docstring)."""

    def __init__(self) -> None:
        self.blocks = Blocks()
        self.words: list[str] = []
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
        self.link = ""

    def finish(self) -> str:
        self._flush()
        self._end_literal()
        return self.blocks.text()

    def text(self, line: str, glued: bool = False) -> None:
        """A line of text, from the page or from a font macro's arguments."""
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
        words = " ".join(line.split())  # roff's two spaces after a sentence are one here
        if self.glued and self.words:
            self.words[-1] += words
        else:
            self.words.append(words)
        self.glued = glued

    def macro(self, name: str, args: list[str]) -> None:
        handler = _MACROS.get(name)
        if handler is not None:
            handler(self, args)
        elif args:  # a macro this page uses but never defines: its words are kept
            self.text(" ".join(args))

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
        self.in_entry = False
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
        text = " ".join(self.words)
        self.words = []
        self.glued = False
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
        """.RS: what follows nests inside the current entry (at the margin, outside one)."""
        self._flush()
        self.saved.append(_Margin(self.base, self.content, self.in_entry))
        self.base = self.content if self.in_entry else self.base
        self.content = self.base
        self.in_entry = False

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


_MACROS: dict[str, Callable[[_ManWriter, list[str]], None]] = {
    "SH": _ManWriter.section,
    "SS": _ManWriter.subsection,
    "PP": _ManWriter.paragraph,
    "LP": _ManWriter.paragraph,
    "P": _ManWriter.paragraph,
    "HP": _ManWriter.paragraph,
    "TP": _ManWriter.tagged,
    "TQ": _ManWriter.another_tag,
    "IP": _ManWriter.indented,
    "RS": _ManWriter.shift_right,
    "RE": _ManWriter.shift_left,
    "br": _ManWriter.line_break,
    "sp": _ManWriter.space,
    "nf": _ManWriter.no_fill,
    "EX": _ManWriter.no_fill,
    "fi": _ManWriter.fill,
    "EE": _ManWriter.fill,
    "B": _ManWriter.font,
    "I": _ManWriter.font,
    "SM": _ManWriter.font,
    "SB": _ManWriter.font,
    "BR": _ManWriter.alternating,
    "BI": _ManWriter.alternating,
    "IB": _ManWriter.alternating,
    "IR": _ManWriter.alternating,
    "RB": _ManWriter.alternating,
    "RI": _ManWriter.alternating,
    "UR": _ManWriter.link_start,
    "MT": _ManWriter.link_start,
    "UE": _ManWriter.link_end,
    "ME": _ManWriter.link_end,
    "SY": _ManWriter.synopsis,
    "OP": _ManWriter.synopsis_option,
    "YS": _ManWriter.paragraph,
    "TH": lambda writer, args: None,
}
