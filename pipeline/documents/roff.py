"""Manual pages in roff source as Markdown: roff itself, read before a macro package writes.

A man page as shipped (`ls.1`, a project's `doc/tool.1`) is roff: read as text, answers
carried '\\fB\\-p\\fR same as \\fB\\-\\-preserve\\fR=\\fI\\,mode\\/\\fR'. Here the page is read
as `man` reads it, line by line, and written by man.py (the man(7) macros) or mdoc.py (the
BSD mdoc(7) macros) in the Markdown the other readers write:

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

from pipeline.documents.man import ManWriter
from pipeline.documents.roff_escapes import arguments, expand

MAX_EXPANDED_LINES = 200_000
"""Lines macro calls may add in all; past it a call reads as nothing. A page expands its
macros to a few thousand lines; a macro calling itself, or a chain that doubles, to any."""
MAX_STRING_CHARS = 10_000
"""Longest string (`.ds`, `.as`) or macro argument list kept: a page's are a few words;
a string that doubles itself line by line would reach gigabytes in thirty lines."""
MAX_LINE_CHARS = 100_000
"""Longest a line grows by its strings: one line of 10,000 `\\*a` is not 100 MB of text."""
_MAX_DEPTH = 32
_CHECK_EVERY = 2_048
_PAGE_MACROS = re.compile(r"^[.'][ \t]*(?:TH|SH|Dd|Sh)[ \t]", re.MULTILINE)
_FIRST_REQUEST = re.compile(r"[.'][ \t]*(?:\\\"|[a-zA-Z]{1,4}(?:\s|$)|$)", re.MULTILINE)
_CONTROL = re.compile(r"[.'][ \t]*([^\s\\]+)")
_MAN_STRINGS = {"R": "\u00ae", "lq": "\u201c", "rq": "\u201d", "Tm": "\u2122", "S": ""}
"""Strings man(7) defines for every page."""
# Requests that only set layout, fonts, hyphenation, registers or traps, or that reach
# outside the text (so, mso, pso, sy, open, cf, nx, rd, pi, tm, ...): nothing to read.
_IGNORED = frozenset(
    (
        "ab ad asciify bd blm bp c2 cc ce cf ch char chop close cs cu da di dt ec "
        "em eo ev evc fam fc fchar fcolor fl fp fschar fspecial ft ftr fzoom gcolor hc hla "
        "hlm hpf hw hy hym hys in it itc kern lc lf lg linetabs ll ls lsm lt mc mk mso na ne "
        "nh nm nn nr nroff ns nx open opena output pc pev pi pl pm pn pnr po ps pso ptr pvs "
        "rchar rd rj rm rr rs rt schar shc shift sizes so special spreadwarn ss sty substring "
        "sy ta tc ti tkf tl tm tm1 tmc trf trin troff uf ul unformat vpt vs warn warnscale "
        "wh while write writec writem"
    ).split()
)


def looks_like_roff(text: str) -> bool:
    """A man page's source: its first line a roff request or comment, `.TH` or `.SH` in it."""
    return _FIRST_REQUEST.match(text.lstrip()) is not None and _PAGE_MACROS.search(text) is not None


def roff_text(source: str, check: Callable[[], None] | None = None, limit: int = 50_000_000) -> str:
    """The page in `source` as Markdown (see the module docstring); TooLargeError when it
    writes more than `limit` characters."""
    strings = dict(_MAN_STRINGS)
    translated: dict[int, str] = {}  # .tr: characters printed as others

    def expanded(text: str) -> str:
        return expand(text, strings, MAX_LINE_CHARS).translate(translated)

    writer = ManWriter(expanded, limit)
    _Reader(writer, strings, translated, check).read(_logical_lines(source))
    return writer.finish()


def _logical_lines(source: str) -> Iterator[str]:
    """Input lines with a line ending in an escaped newline ('\\') joined to the next."""
    pending: list[str] = []
    for line in source.replace("\r\n", "\n").split("\n"):
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2:
            pending.append(line[:-1])
            continue
        yield "".join([*pending, line]) if pending else line
        pending = []
    if pending:
        yield "".join(pending)


class _Reader:
    """Requests, conditions, strings and macros: what roff does before a macro package writes."""

    def __init__(
        self,
        writer: ManWriter,
        strings: dict[str, str],
        translated: dict[int, str],
        check: Callable[[], None] | None,
    ) -> None:
        self.writer = writer
        self.check = check or (lambda: None)
        self.strings = strings  # the page's, shared with the writer's `expand`
        self.translated = translated  # likewise
        self.macros: dict[str, list[str]] = {}
        self.conditions: list[bool] = []  # per .ie not yet met by its .el: whether it held
        self.expanded = 0
        self.count = 0

    def read(self, lines: Iterator[str], depth: int = 0) -> None:
        for line in lines:
            self.count += 1
            if self.count % _CHECK_EVERY == 0:
                self.check()
            self.line(line, lines, depth)

    def line(self, line: str, lines: Iterator[str], depth: int) -> None:
        if line[:1] in (".", "'"):
            self.request(line, lines, depth)
        elif line.lstrip().startswith(("\\}", "\\{")) and not line.strip("\\{} \t"):
            return  # a condition's brace on a line of its own
        else:
            self.writer.text(self.writer.expand(line), glued=line.endswith("\\c"))

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
        elif name in ("ds", "ds1", "as", "as1"):
            self.define_string(name, rest)
        elif name in ("if", "ie", "el"):
            self.condition(name, rest, lines, depth)
        elif name in ("nop", "do") and depth < _MAX_DEPTH:  # .do: the rest is a request
            self.line(("." if name == "do" else "") + rest.lstrip(), lines, depth + 1)
        elif name in ("als", "rn"):
            self.rename(name, arguments(rest))
        elif name == "tr":
            self.translate(rest)
        elif name == "TS":
            self.writer.table(_table_lines(lines))
        elif name not in _IGNORED:
            self.writer.macro(name, arguments(rest))

    def define(self, name: str, args: list[str], lines: Iterator[str]) -> None:
        """`.de NAME [END]`: the lines up to `..` (or `.END`) are the macro's body."""
        if not args:
            return
        body = _skip_to(lines, args[1] if len(args) > 1 else ".")
        if name.startswith("am"):
            self.macros.setdefault(args[0], []).extend(body)  # in place: .am after .am is linear
        else:
            self.macros[args[0]] = body

    def call(self, name: str, args: list[str], depth: int) -> None:
        body = self.macros[name]
        if (
            depth >= _MAX_DEPTH
            or self.expanded + len(body) > MAX_EXPANDED_LINES
            or sum(len(arg) for arg in args) > MAX_STRING_CHARS  # arguments doubled per call
        ):
            return
        self.check()
        self.expanded += len(body)
        lines = [_with_arguments(line, args) for line in body]
        self.read(iter(lines), depth + 1)

    def define_string(self, name: str, rest: str) -> None:
        parts = rest.lstrip().split(None, 1)
        if not parts:
            return
        before = self.strings.get(parts[0], "") if name.startswith("as") else ""
        if len(before) >= MAX_STRING_CHARS:
            return
        value = parts[1] if len(parts) > 1 else ""
        value = expand(value[1:] if value.startswith('"') else value, self.strings, MAX_LINE_CHARS)
        self.strings[parts[0]] = (before + value)[:MAX_STRING_CHARS]

    def rename(self, name: str, args: list[str]) -> None:
        """`.als NEW OLD` (one more name for a macro or string), `.rn OLD NEW`."""
        if len(args) < 2:
            return
        new, old = (args[0], args[1]) if name == "als" else (args[1], args[0])
        if old in self.macros:
            self.macros[new] = self.macros.pop(old) if name == "rn" else self.macros[old]
        if old in self.strings:
            self.strings[new] = self.strings.pop(old) if name == "rn" else self.strings[old]

    def translate(self, rest: str) -> None:
        """`.tr abcd`: a prints as b, c as d (pod2man's `.tr \\(*W-`: its Ω as a hyphen)."""
        pairs = expand(rest.strip(), self.strings, MAX_LINE_CHARS)
        for index in range(0, len(pairs) - 1, 2):
            self.translated[ord(pairs[index])] = pairs[index + 1]

    def condition(self, name: str, rest: str, lines: Iterator[str], depth: int) -> None:
        """`.if COND BODY`, `.ie COND BODY` / `.el BODY`: BODY (a line, or a `\\{` block
        running to its `\\}`) is read when the condition holds for nroff on a terminal."""
        if name == "el":  # the .ie it answers is the last one not yet answered
            holds, body = (not self.conditions.pop() if self.conditions else False), rest
        else:
            holds, body = self.holds(rest)
            if name == "ie":
                self.conditions.append(holds)
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
        if first in "ntoev" and (len(text) == 1 or not text[1].isalnum()):
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
        return self.writer.expand(left) == self.writer.expand(right), text[second_end + 1 :]


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
    """The lines up to a line that is `.` followed by `end` ('.' for '..', a comment after
    it allowed), which is consumed."""
    taken = []
    for line in lines:
        if line[:1] in (".", "'") and line[1:].split('\\"', 1)[0].strip() == end:
            break
        taken.append(line)
    return taken


def _table_lines(lines: Iterator[str]) -> list[str]:
    """The lines of a tbl table, up to its `.TE` (consumed)."""
    taken = []
    for line in lines:
        if line[:1] in (".", "'") and line[1:].strip().startswith("TE"):
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
