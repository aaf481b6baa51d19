"""Perl's POD (Plain Old Documentation) as Markdown, in the shapes html.py writes.

POD is how Perl documents itself: perlfaq, perlfunc, every CPAN module's manual, and .pm
files that hold code and documentation together. Read as plain text, its markup lands in
answers ('set your C<PERL5LIB> environment variable to F<~/lib/perl5>') and its headings
(`=head2 Module Installation`) are no headings. Read here, by perlpodspec, paragraph by
paragraph:

- `=head1`..`=head6` are `#` headings;
- `=over`/`=item`/`=back` lists are `-` or `1.` items, or, when an item names a thing
  (`=item -v`, `=item How do I ...?`), a definition entry: the item on a line, its
  paragraphs indented DESCRIPTION_INDENT below it, as html.py writes a `<dl>`;
- verbatim (indented) paragraphs are fenced code; the Perl code around the documentation
  (before the first command, after `=cut`) is left out, as perldoc and pod2text leave it:
  on Getopt::Long's .pm, 1,600 lines of code around the manual, 'Why do I get Undefined
  subroutine &main::GetOptions called?' was answered with '# Call main routine.';
- `=begin`/`=end` and `=for` blocks for other formatters (`html`, `man`) are skipped, as
  pod2text skips them: they repeat the text for their formatter;
- formatting codes read as their text: `B<bold>` and `F<file>` as the words, `C<code>` in
  backticks, `L<text|target>` as its text, `E<gt>` as '>', `X<index>` as nothing.

Linear in the text: paragraphs are read once, and formatting codes in one pass with a
stack at most MAX_NESTING deep.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pipeline.documents.blocks import Blocks
from pipeline.documents.html import DESCRIPTION_INDENT, MAX_INDENT
from pipeline.documents.roff_escapes import character

_COMMAND = re.compile(r"=([a-zA-Z]\w*)")
_LINE_COMMAND = re.compile(r"^=[a-zA-Z]", re.MULTILINE)
# POD's own commands at a line's start: two or more, one of them a heading, =pod or a list,
# make a document POD (a Markdown file quoting one command in its prose does not).
_POD_COMMAND = re.compile(r"^=(head[1-6]|pod|over|item|back|cut|begin|end|for|encoding)\b", re.M)
_OPENING_COMMANDS = ("head", "pod", "over")
# Perl before its POD: a module's `package Foo::Bar;`, a script's `#!/usr/bin/perl` or
# `use strict;` (a Python `import` or a Markdown heading is no Perl).
_PERL = re.compile(
    r"^(?:package\s+[\w:]+(?:\s+v?[\d._]+)?\s*[;{]|use\s+(?:strict|warnings|v?5[\d.]*|Moo\w*)\b"
    r"|#!.*\bperl)",
    re.MULTILINE,
)
_PERL_HEAD_CHARS = 65_536
MAX_NESTING = 64
"""Formatting codes open at once past this read as text: 'C<' 200,000 times is no stack."""
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
_BULLET = re.compile(r"[*\-+•](?:\s+|$)")
_NUMBER = re.compile(r"(\d+)\.?(?:\s+|$)")
_KEPT_FORMATS = frozenset(("text", "pod"))
"""=begin/=for formats written for every reader; a ':' before any format means the same."""
_CODES = frozenset("BCEFILSXZ")
_CHECK_EVERY = 256
"""Paragraphs between checks of the load budget."""


def looks_like_pod(text: str) -> bool:
    """Whether the text is POD: a .pod file (its first line a POD command) or Perl with its
    manual in POD (a `package` or `use` line before it); two commands open lines, one a
    heading, =pod or =over. A README quoting POD in an example, or a Python file holding
    some in a string, is neither: read as POD, all but the quoted POD would be dropped."""
    start = text.lstrip()
    if not (_POD_COMMAND.match(start) or _PERL.search(text[:_PERL_HEAD_CHARS])):
        return False
    opening = False
    for found, match in enumerate(_POD_COMMAND.finditer(text), start=1):
        opening = opening or match.group(1).startswith(_OPENING_COMMANDS)
        if found >= 2 and opening:
            return True
    return False


def pod_text(source: str, check: Callable[[], None] | None = None) -> str:
    """The POD in `source` as Markdown (see the module docstring)."""
    writer = _Writer()
    for count, paragraph in enumerate(_paragraphs(source.replace("\r\n", "\n"))):
        if check is not None and count % _CHECK_EVERY == 0:
            check()
        writer.add(paragraph)
    return writer.finish()


def _paragraphs(source: str) -> Iterator[str]:
    """The paragraphs of the documentation: from a command opening a line to `=cut`."""
    pos = 0
    while pos < len(source):
        start = _LINE_COMMAND.search(source, pos)
        if start is None:
            return
        pos = start.start()
        for paragraph in _split(source, pos):
            text, pos = paragraph
            yield text
            if text.startswith("=cut") and not text[4:5].isalnum():
                break
        else:
            return


def _split(source: str, pos: int) -> Iterator[tuple[str, int]]:
    """The paragraphs from `pos` on, each with where the next one starts."""
    while pos < len(source):
        gap = _BLANK_LINES.search(source, pos)
        end = len(source) if gap is None else gap.start()
        after = len(source) if gap is None else gap.end()
        while after < len(source) and source[after] == "\n":
            after += 1
        if source[pos:end].strip():
            yield source[pos:end], after
        pos = after


@dataclass
class _List:
    """An open =over: the indent of its items and the kind its first item set."""

    indent: int
    kind: str = ""  # "bullet", "number" or "entry", set by the first =item


class _Writer:
    """Markdown written paragraph by paragraph; lists nest by indent (see html.py)."""

    def __init__(self) -> None:
        self._blocks = Blocks()
        self._lists: list[_List] = []
        self._content = 0  # the indent a paragraph is written at
        self._skipping = ""  # the format of a =begin block being skipped
        self._verbatim: list[str] = []
        self._item = ""  # an item marker ('- ', '1. ') waiting for its first paragraph
        self._tight = False  # the last block was an entry's term: the next one joins it

    def add(self, body: str) -> None:
        command = _COMMAND.match(body)
        if self._skipping:
            if command and command.group(1) == "end":
                self._skipping = ""
            return
        if body[0] in " \t":
            self._verbatim.append(body)
            return
        self._flush_verbatim()
        if command is None:
            self._paragraph(_inline(" ".join(body.split())))
        else:
            argument = body[command.end() :].strip()
            self._command(command.group(1), argument)

    def finish(self) -> str:
        self._flush_verbatim()
        if self._item:
            self._write(self._item.rstrip())
        return self._blocks.text()

    def _command(self, name: str, argument: str) -> None:
        if name.startswith("head") and name[4:].isdigit():
            self._lists.clear()
            self._content = 0
            self._write("#" * min(int(name[4:]), 6) + " " + _inline(" ".join(argument.split())))
        elif name == "over":
            self._lists.append(_List(self._content))
        elif name == "item":
            self._list_item(" ".join(argument.split()))
        elif name == "back":
            if self._lists:
                self._content = self._lists.pop().indent
        elif name == "begin":
            if not _kept(argument):
                self._skipping = argument.split()[0] if argument.split() else "?"
        elif name == "for":
            format_name, _, text = argument.partition(" ")
            if _kept(format_name) and text.strip():
                self._paragraph(_inline(" ".join(text.split())))
        elif name not in ("pod", "cut", "end", "encoding") and argument:
            # an unknown command keeps its text: nothing is lost
            self._paragraph(_inline(" ".join(argument.split())))

    def _list_item(self, label: str) -> None:
        if not self._lists:
            self._lists.append(_List(self._content))  # an =item outside =over: one is implied
        current = self._lists[-1]
        if self._item:  # the item before this one had no paragraph of its own
            self._write(self._item.rstrip())
            self._item = ""
        bullet, number = _BULLET.match(label), _NUMBER.match(label)
        if not current.kind:
            current.kind = "bullet" if bullet else "number" if number and label[0].isdigit() else ""
            current.kind = current.kind or "entry"
        indent = min(current.indent, MAX_INDENT)
        if current.kind == "entry" or not (bullet or number):
            term = _inline(label)
            self._write(term, indent, tight=self._tight)
            self._tight = True
            self._content = indent + DESCRIPTION_INDENT
            return
        if bullet is not None:
            marker, rest = "- ", label[bullet.end() :]
        else:
            assert number is not None  # an item of a bullet or numbered list, by the test above
            marker, rest = f"{number.group(1)}. ", label[number.end() :]
        self._content = indent + len(marker)
        if rest:
            self._write(marker + _inline(rest), indent)
        else:
            self._item = " " * indent + marker

    def _paragraph(self, text: str) -> None:
        if self._item:
            self._write(self._item + text)
            self._item = ""
        else:
            self._write(text, self._content, tight=self._tight)

    def _flush_verbatim(self) -> None:
        if not self._verbatim:
            return
        code = "\n\n".join(self._verbatim)
        self._verbatim = []
        if self._item:
            self._write(self._item.rstrip())
            self._item = ""
        self._blocks.code(code, self._content, tight=self._tight)
        self._tight = False

    def _write(self, block: str, indent: int = 0, tight: bool = False) -> None:
        """A block, after a blank line unless it is an entry's description or next term."""
        self._blocks.write(block, indent, tight)
        self._tight = False


def _kept(format_name: str) -> bool:
    """Whether a =begin or =for block is for every reader (see _KEPT_FORMATS)."""
    name = format_name.strip().lstrip(":").lower()
    return format_name.strip().startswith(":") or name in _KEPT_FORMATS


# A formatting code's opening: its letter, then one '<', or two or more and a space.
_OPENING = re.compile(r"([BCEFILSXZ])(?:(<<+)\s+|<)")


def _inline(text: str) -> str:
    """A paragraph's formatting codes as the text they show (see the module docstring).

    One pass with a stack of open codes: each is (letter, closing delimiter, text so far).
    A code opened with two or more angles and a space closes at a space and as many angles
    (`C<< $a <=> $b >>`); the paragraph's whitespace is one space by then. A code left open
    at the paragraph's end closes there.
    """
    stack: list[tuple[str, str, list[str]]] = [("", "", [])]
    pos = 0
    while pos < len(text):
        top = stack[-1]
        closing = top[1]
        if closing and text.startswith(closing, pos):
            letter, _, parts = stack.pop()
            stack[-1][2].append(_render(letter, "".join(parts)))
            pos += len(closing)
            continue
        opening = _OPENING.match(text, pos) if len(stack) <= MAX_NESTING else None
        if opening is not None:  # even inside a word, as perlpodspec reads it: 'E<lt>fileE<gt>'
            angles = opening.group(2)
            stack.append((opening.group(1), " " + ">" * len(angles) if angles else ">", []))
            pos = opening.end()
            continue
        top[2].append(text[pos])
        pos += 1
    while len(stack) > 1:
        letter, _, parts = stack.pop()
        stack[-1][2].append(_render(letter, "".join(parts)))
    return "".join(stack[0][2])


def _render(letter: str, content: str) -> str:
    if letter == "C":
        return f"``{content}``" if "`" in content else f"`{content}`"
    if letter == "E":
        return _escape(content)
    if letter in "XZ":
        return ""
    if letter == "L":
        return _link(content)
    return content


def _escape(name: str) -> str:
    """E<...>: a named or numbered character ('gt', 'verbar', '0x201E', '181')."""
    named = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/"}
    if name in named:
        return named[name]
    try:
        if name.lower().startswith("0x"):
            return character(int(name, 16))
        if name.startswith("0") and len(name) > 1:
            return character(int(name, 8))
        if name.isdigit():
            return character(int(name))
    except ValueError:
        return name
    decoded = html.unescape(f"&{name};")
    return name if decoded.startswith("&") else decoded


_URL = re.compile(r"[a-zA-Z][\w+.-]*:[^:\s]")
"""A URL's scheme ('https:', 'mailto:'), which a module's name ('Foo::Bar') is not."""


def _link(content: str) -> str:
    """L<...> as a reader sees it: its text, a URL, or 'section in page'."""
    text, bar, target = content.partition("|")
    target = (target if bar else text).strip()
    if bar and text.strip():  # its text, and a URL after it as pod2text shows one
        return f"{text.strip()} <{target}>" if _URL.match(target) else text.strip()
    if _URL.match(target):
        return target
    page, slash, section = target.partition("/")
    section = section.strip().strip('"')
    if not slash:
        return page.strip()
    return f'"{section}" in {page.strip()}' if page.strip() else f'"{section}"'
