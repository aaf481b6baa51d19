"""The mdoc(7) macros of BSD-style man pages (OpenSSH's, tmux's), for roff.py's writer.

mdoc marks meaning, not looks: `.It Fl J Ar destination` is the entry of the option
'-J destination', `.Op Fl v` is '[-v]', `.Xr ssh_config 5` is 'ssh_config(5)'. A macro
line's words are read left to right; a word naming a callable macro starts that macro,
which takes the words after it up to the next macro or closing punctuation, which sticks
to the word before it. Blocks map to the writer's man(7) shapes: `.Sh` a heading, `.Bl`
/`.It`/`.El` entries or list items, `.Bd -literal` code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

_ENCLOSING = {
    "Op": ("[", "]"), "Dq": ("\u201c", "\u201d"), "Sq": ("\u2018", "\u2019"), "Qq": ('"', '"'),
    "Pq": ("(", ")"), "Bq": ("[", "]"), "Brq": ("{", "}"), "Aq": ("\u27e8", "\u27e9"),
    "Ql": ("\u2018", "\u2019"),
}  # fmt: skip
"""Macros that enclose the rest of their line (less its closing punctuation)."""
_OPENING = {"Oo": "[", "Do": "\u201c", "So": "\u2018", "Qo": '"', "Po": "(", "Bo": "[",
            "Bro": "{", "Ao": "\u27e8", "Eo": ""}  # fmt: skip
_CLOSING = {"Oc": "]", "Dc": "\u201d", "Sc": "\u2019", "Qc": '"', "Pc": ")", "Bc": "]",
            "Brc": "}", "Ac": "\u27e9", "Ec": ""}  # fmt: skip
_NAMES = {"Ux": "UNIX", "Bx": "BSD", "Ox": "OpenBSD", "Nx": "NetBSD", "Fx": "FreeBSD",
          "Dx": "DragonFly", "Bsx": "BSD/OS", "At": "AT&T UNIX"}  # fmt: skip
"""Macros that print a system's name, then their words."""
_WORDS = frozenset(
    "Ad An Ar Cd Cm Dv Em Er Ev Fa Fd Ft Ic In Lb Li Ms Mt No Pa Sx Sy Tn Va Vt %A %B %C %D "
    "%I %J %N %O %P %Q %R %T %U %V".split()
)
"""Macros that print their words as they are."""
CALLABLE = frozenset(
    (*_ENCLOSING, *_OPENING, *_CLOSING, *_NAMES, *_WORDS, "Fl", "Xr", "Nm", "Ns", "Pf", "Ap",
     "Fn", "Lk", "Ta", "In", "St", "Ex", "Rv", "Tg")
)  # fmt: skip
_STANDARDS = {
    "-ansiC": "ANSI X3.159-1989 (\u201cANSI C89\u201d)",
    "-isoC": "ISO/IEC 9899:1990 (\u201cISO C90\u201d)",
    "-isoC-99": "ISO/IEC 9899:1999 (\u201cISO C99\u201d)",
    "-isoC-2011": "ISO/IEC 9899:2011 (\u201cISO C11\u201d)",
    "-p1003.1": "IEEE Std 1003.1 (\u201cPOSIX.1\u201d)",
    "-p1003.1-2001": "IEEE Std 1003.1-2001 (\u201cPOSIX.1\u201d)",
    "-p1003.1-2008": "IEEE Std 1003.1-2008 (\u201cPOSIX.1\u201d)",
    "-p1003.2": "IEEE Std 1003.2 (\u201cPOSIX.2\u201d)",
    "-susv2": "Version 2 of the Single UNIX Specification (\u201cSUSv2\u201d)",
    "-susv3": "Version 3 of the Single UNIX Specification (\u201cSUSv3\u201d)",
    "-susv4": "Version 4 of the Single UNIX Specification (\u201cSUSv4\u201d)",
    "-xpg4": "X/Open Portability Guide Issue 4 (\u201cXPG4\u201d)",
}
"""`.St` standards a page names most; another reads as its flag less the dash."""
MAX_NESTING = 64
"""Macros nested in one line past this read as words: a line of 500 `Op` is no stack."""
_CLOSING_PUNCTUATION = frozenset(".,:;)]?!")
_OPENING_PUNCTUATION = frozenset("([")
_OWN_LINE = frozenset(("Nm", "In", "Fd", "Ft", "Fo", "Fn"))
"""Macros that open a line of their own in a SYNOPSIS section."""
BLOCK = frozenset(
    "Sh Ss Pp Lp Nd Bl El It Bd Ed Dl D1 Sm Rs Re Dd Dt Os Bk Ek Bf Ef Fo Fa Fc Xo Xc".split()
)
"""Block and layout macros, handled by `Mdoc.macro` rather than read inline."""


class Writer(Protocol):
    """What mdoc needs of roff.py's writer: its man(7) shapes."""

    def text(self, line: str, glued: bool = False) -> None: ...
    def section(self, args: list[str], level: int = 1) -> None: ...
    def paragraph(self, args: list[str]) -> None: ...
    def tagged(self, args: list[str]) -> None: ...
    def indented(self, args: list[str]) -> None: ...
    def shift_right(self, args: list[str]) -> None: ...
    def nest(self) -> None: ...
    def shift_left(self, args: list[str]) -> None: ...
    def line_break(self, args: list[str]) -> None: ...
    def no_fill(self, args: list[str]) -> None: ...
    def fill(self, args: list[str]) -> None: ...


class Mdoc:
    """One page's mdoc state: its name, open lists, spacing mode, an item head being read.

    Macro lines come with their words as written: a word is a macro's name, or punctuation,
    only as written (`\\&.` is a full stop that is a word, `\\&Fl` the word 'Fl');
    `expand` reads a word's escapes."""

    def __init__(self, writer: Writer, expand: Callable[[str], str]) -> None:
        self.writer = writer
        self.expand = expand
        self.name = ""
        self.lists: list[str] = []  # per open .Bl, its kind ('tag', 'bullet', 'enum', ...)
        self.counts: list[int] = []  # per open .Bl, its items so far (an enum's numbers)
        self.literal: list[bool] = []  # per open .Bd: whether it is literal
        self.section = ""
        self.arguments = 0  # a .Fo function's arguments so far
        self.function = False  # between .Fo and .Fc
        self.spacing = True
        self.unspaced: list[str] | None = None  # lines read with spacing off, run together
        self.head: list[str] | None = None  # an .It head spread over lines by Xo ... Xc
        self.head_spaced = True  # whether the head's next piece goes after a space

    def handles(self, name: str) -> bool:
        return name in BLOCK or name in CALLABLE

    def macro(self, name: str, args: list[str]) -> None:
        if self.head is not None:
            if name not in ("It", "El", "Sh", "Ss", "Pp", "Lp"):
                self._head_line([name, *args])
                return
            self._head_line(["Xc"])  # an item's head never closed ends where the item does
        if name == "Sm":
            self.spacing = args[0] == "on" if args else not self.spacing
            if self.spacing:
                self._end_unspaced()
            return
        if name in _OWN_LINE and self.section == "SYNOPSIS" and self.spacing:
            self._end_unspaced()
            self.writer.line_break([])  # each synopsis, include, type opens a line of its own
        if name == "Fa" and self.function:
            self._function_argument(args)
            return
        if name in CALLABLE:
            self._flow(self.inline([name, *args]))
            return
        self._end_unspaced()
        writer = self.writer
        if name in ("Sh", "Ss"):
            if name == "Sh":  # lists and displays a section leaves open end with it
                self.lists.clear()
                self.counts.clear()
                self.literal.clear()
                self.spacing = True
                self.section = self.inline(args).upper()
            writer.section([self.inline(args)] if args else [], 1 if name == "Sh" else 2)
        elif name in ("Pp", "Lp"):
            # inside a list, a paragraph of the item: man(7)'s .PP would leave it
            (writer.indented if self.lists else writer.paragraph)([])
        elif name == "Nd":
            writer.text("\u2014 " + self.inline(args))
        elif name == "Bl":
            self._list(args)
        elif name == "El":
            if self.lists:
                self.lists.pop()
                self.counts.pop()
            writer.shift_left([])
        elif name == "It":
            self._item(args)
        elif name == "Bd":
            literal = bool({"-literal", "-unfilled"} & set(args))
            self.literal.append(literal)
            (writer.no_fill if literal else self._paragraph)([])
        elif name == "Ed":
            if self.literal and self.literal.pop():
                writer.fill([])
        elif name == "Dl":
            writer.no_fill([])
            writer.text(self.inline(args))
            writer.fill([])
        elif name in ("D1", "Rs"):
            self._paragraph([])
            if args:
                writer.text(self.inline(args))
        elif name == "Fo":
            self.arguments = 0
            self.function = True
            writer.text(self.expand(args[0] if args else "") + "(", glued=True)
        elif name == "Fc":
            self.function = False
            writer.text(")")
        # Dd, Dt, Os, Re, Bk, Ek, Bf, Ef: the page's date and keeps: nothing to read

    def _function_argument(self, args: list[str]) -> None:
        """An `.Fa` between `.Fo` and `.Fc`: the function's next argument."""
        text = self.inline(args)
        self.arguments += 1
        self.writer.text(text if self.arguments == 1 else ", " + text, glued=True)

    def close(self) -> None:
        """The page ends: an item's head or unspaced text still open is written."""
        if self.head is not None:
            self._head_line(["Xc"])
        self._end_unspaced()

    def text_line(self, line: str) -> bool:
        """A text line inside an item's head (Xo ... Xc), or read with spacing off, is
        taken here; False for the writer to take it."""
        if self.head is not None:
            self._head_piece(line.strip())
            return True
        if self.unspaced is not None:
            self.unspaced.append(line.strip())
            return True
        return False

    def _flow(self, text: str) -> None:
        """A macro line's text in the running text: with spacing off, run together."""
        if not text:
            return
        if self.spacing:
            self.writer.text(text)
        elif self.unspaced is None:
            self.unspaced = [text]
        else:
            self.unspaced.append(text)

    def _end_unspaced(self) -> None:
        if self.unspaced is not None:
            text, self.unspaced = "".join(self.unspaced), None
            self.writer.text(text)

    def inline(self, tokens: list[str]) -> str:
        """A macro line's words as they print (see the module docstring)."""
        words = _Words(self.spacing, self.expand)
        self._run(tokens, words)
        return words.text()

    def _paragraph(self, args: list[str]) -> None:
        """A paragraph break; inside a list, a paragraph of the item, not out of it."""
        (self.writer.indented if self.lists else self.writer.paragraph)([])

    def _list(self, args: list[str]) -> None:
        kind = next((a[1:] for a in args if a.startswith("-") and a != "-compact"), "tag")
        self.lists.append(kind)
        self.counts.append(0)
        self.writer.nest()

    def _item(self, args: list[str]) -> None:
        kind = self.lists[-1] if self.lists else "tag"
        writer = self.writer
        if kind in ("bullet", "dash", "hyphen"):
            writer.indented(["\u2022"])
            if args:
                writer.text(self.inline(args))
        elif kind == "enum":
            self.counts[-1] += 1
            writer.indented([f"{self.counts[-1]}."])
        elif kind == "item":
            writer.paragraph([])
        elif kind == "column":
            cells: list[list[str]] = []
            cell: list[str] = []  # cells are split by "Ta"
            for token in args:
                if token == "Ta":
                    cells.append(cell)
                    cell = []
                else:
                    cell.append(token)
            cells.append(cell)
            writer.text(" | ".join(self.inline(c) for c in cells))
            writer.line_break([])
        elif "Xo" in args:  # '.It Fl D Xo', '.It Xo Ic chgrp': the head runs on to Xc
            self.head = [self.inline([a for a in args if a != "Xo"])]
            self.head_spaced = self.spacing
        else:
            writer.tagged([])
            writer.text(self.inline(args))

    def _head_line(self, tokens: list[str]) -> None:
        """A macro line inside an item's head; `Xc` ends the head, which is the term."""
        head = self.head
        assert head is not None
        done = "Xc" in tokens
        tokens = tokens[: tokens.index("Xc")] if done else tokens
        if tokens and tokens[0] == "Sm":
            self.spacing = tokens[1] == "on" if len(tokens) > 1 else not self.spacing
        elif tokens:
            self._head_piece(self.inline(tokens))
        if done:
            self.head = None
            self.writer.tagged([])
            self.writer.text("".join(head))

    def _head_piece(self, piece: str) -> None:
        """A piece of an item's head: after a space if spacing was on for the one before
        ('-D [bind_address:]port': '.Sm off' comes after '-D')."""
        assert self.head is not None
        if piece:
            if self.head and self.head_spaced:
                self.head.append(" ")
            self.head.append(piece)
            self.head_spaced = self.spacing

    def _run(self, tokens: list[str], words: _Words, depth: int = 0) -> None:
        at = 0
        while at < len(tokens):
            token = tokens[at]
            if token in CALLABLE and depth < MAX_NESTING:
                at = self._callable(token, tokens, at + 1, words, depth + 1)
            else:
                words.written(token)
                at += 1

    def _callable(self, name: str, tokens: list[str], at: int, words: _Words, depth: int) -> int:
        """Print macro `name`, whose words start at tokens[at]; where the next word is."""
        if name in _ENCLOSING:
            end = len(tokens)
            while end > at and tokens[end - 1] in _CLOSING_PUNCTUATION:
                end -= 1
            opening, closing = _ENCLOSING[name]
            words.opening(opening)
            self._run(tokens[at:end], words, depth)
            words.closing(closing)
            for punctuation in tokens[end:]:
                words.word(punctuation)
            return len(tokens)
        if name in _OPENING:
            words.opening(_OPENING[name])
            return at
        if name in _CLOSING:
            words.closing(_CLOSING[name])
            return at
        if name == "Ns":
            words.no_space()
            return at
        if name == "Ap":
            words.closing("'")
            words.no_space()
            return at
        own = [self.expand(word) for word in _own_words(tokens, at)]
        if name == "Pf":
            if own:
                words.word(own[0])
                words.no_space()
            return at + min(len(own), 1)
        elif name == "Fl":
            for word in own or [""]:
                words.word("-" + word)
        elif name == "Ar" and not own:
            words.word("file ...")
        elif name == "Nm":
            if own and not self.name:
                self.name = own[0]
            for word in own or [self.name]:
                words.word(word)
        elif name == "Xr":
            words.word(f"{own[0]}({own[1]})" if len(own) > 1 else " ".join(own))
        elif name == "Fn":
            words.word(f"{own[0]}({', '.join(own[1:])})" if own else "")
        elif name == "Lk":
            words.word(f"{' '.join(own[1:])} <{own[0]}>" if len(own) > 1 else " ".join(own))
        elif name == "In":
            words.word(f"#include <{own[0]}>" if own else "")
        elif name == "St":
            for word in own:
                words.word(_STANDARDS.get(word, word.lstrip("-")))
        elif name in ("Ex", "Rv"):
            words.word(self._standard_sentence(name, [w for w in own if w != "-std"]))
        elif name == "Tg":
            pass  # a tag for the reader's search: no text
        elif name == "An":
            for word in own:
                if word not in ("-split", "-nosplit"):
                    words.word(word)
        elif name in _NAMES:
            words.word(_NAMES[name])
            for word in own:
                words.word(word)
        else:  # _WORDS: Ar, Cm, Pa, Ev, ...
            for word in own:
                words.word(word)
        return at + len(own)

    def _standard_sentence(self, name: str, named: list[str]) -> str:
        """What `.Ex -std` and `.Rv -std` stand for, as mandoc writes it."""
        if name == "Ex":
            utility = named[0] if named else self.name
            return f"The {utility} utility exits 0 on success, and >0 if an error occurs."
        function = f"{named[0]}()" if named else "function"
        return (
            f"The {function} function returns the value 0 if successful; otherwise the value -1 "
            "is returned and the global variable errno is set to indicate the error."
        )


def _own_words(tokens: list[str], at: int) -> list[str]:
    """A macro's words: up to the next callable macro or closing punctuation."""
    end = at
    while end < len(tokens) and tokens[end] not in CALLABLE:
        if tokens[end] in _CLOSING_PUNCTUATION:
            break
        end += 1
    return tokens[at:end]


class _Words:
    """Words joined by spaces, less around punctuation, an `Ns`, or with spacing off."""

    def __init__(self, spacing: bool, expand: Callable[[str], str] = str) -> None:
        self.parts: list[str] = []
        self.spacing = spacing
        self.expand = expand
        self.spaced = False  # whether a space goes before the next word

    def written(self, token: str) -> None:
        """A word as written on the macro line: punctuation only when written bare."""
        if token in _CLOSING_PUNCTUATION or token in _OPENING_PUNCTUATION:
            self.word(token)
        else:
            self.word(self.expand(token), plain=True)

    def word(self, word: str, plain: bool = False) -> None:
        if not word:
            return
        if word in _CLOSING_PUNCTUATION and not plain:
            self.parts.append(word)
            self.spaced = self.spacing
            return
        if self.parts and self.spaced:
            self.parts.append(" ")
        self.parts.append(word)
        self.spaced = self.spacing and (plain or word not in _OPENING_PUNCTUATION)

    def opening(self, mark: str) -> None:
        if self.parts and self.spaced:
            self.parts.append(" ")
        self.parts.append(mark)
        self.spaced = False

    def closing(self, mark: str) -> None:
        self.parts.append(mark)
        self.spaced = self.spacing

    def no_space(self) -> None:
        self.spaced = False

    def text(self) -> str:
        return "".join(self.parts)
