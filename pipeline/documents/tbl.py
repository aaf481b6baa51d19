"""A tbl(1) table of a man page (`.TS` ... `.TE`) as its rows of cells.

tbl's source opens with an options line (`tab(@);`, ending ';') and format lines (`l l.`,
the last ending '.'), then one line per row, cells split by the tab character (a tab
unless the options name another); a cell `T{` ... `T}` runs over lines. `_` and `=` alone
are rules; `.T&` brings new format lines. Only the cells are read: they are the table.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.documents.roff_escapes import arguments

_TAB_OPTION = re.compile(r"\btab\s*\(\s*(.)\s*\)")
_RULE = frozenset(("_", "=", "\\_", "\\="))


def table_rows(lines: list[str], expand: Callable[[str], str]) -> tuple[list[list[str]], bool]:
    """The table's rows, each a list of its cells' text (escapes read by `expand`), and
    whether its first row is a header: a rule under it, or a format line of its own in
    bold ('lB lB' over 'l l')."""
    at = 0
    separator = "\t"
    if lines and lines[0].rstrip().endswith(";"):
        option = _TAB_OPTION.search(lines[0])
        separator = option.group(1) if option else separator
        at = 1
    formats_start = at
    at = _past_format(lines, at)
    formats = [line.strip().rstrip(".").strip() for line in lines[formats_start:at]]
    header = (
        len(formats) > 1
        and "b" in formats[0].lower().replace("lb", "b")
        and (formats[0] != formats[1])
    )
    rows: list[list[str]] = []
    ruled = False
    while at < len(lines):
        line = lines[at]
        at += 1
        stripped = line.strip()
        if stripped == ".T&":
            at = _past_format(lines, at)
            continue
        if stripped in _RULE:
            ruled = ruled or len(rows) == 1
            continue
        if not stripped or line[:1] in (".", "'"):
            continue
        cells, at = _cells(line, lines, at, separator, expand)
        row = [" ".join(cell.split()) for cell in cells]
        if any(row):
            rows.append(row)
    return rows, header or ruled


def _past_format(lines: list[str], at: int) -> int:
    """Past the format lines from `at`: the first ending in '.' is the last."""
    while at < len(lines):
        line = lines[at].rstrip()
        at += 1
        if line.endswith("."):
            break
    return at


def _cells(
    line: str, lines: list[str], at: int, separator: str, expand: Callable[[str], str]
) -> tuple[list[str], int]:
    """A row's cells, text blocks (`T{` to `T}`) read on from the lines after it."""
    cells: list[str] = []
    pieces = line.split(separator)
    index = 0
    while index < len(pieces):
        piece = pieces[index]
        index += 1
        if piece.strip() != "T{":
            cells.append(expand(piece))
            continue
        block: list[str] = []
        while at < len(lines):  # the block ends at a line opening 'T}', the row goes on
            following = lines[at]
            at += 1
            if following.startswith("T}"):
                pieces = following[2:].split(separator)[1:] if separator in following else []
                index = 0
                break
            block.append(_macro_words(following, expand))
        cells.append(" ".join(block))
    return cells, at


_RUN_TOGETHER = frozenset(("BR", "BI", "IB", "IR", "RB", "RI"))


def _macro_words(line: str, expand: Callable[[str], str]) -> str:
    """A line of a text block as it prints: a font macro's words ('.BR printf ()'), a
    cross-reference ('.MR stat 2'); other requests print nothing here."""
    if line[:1] not in (".", "'"):
        return expand(line)
    name, _, rest = line[1:].strip().partition(" ")
    words = [expand(word) for word in arguments(rest)]
    if name in _RUN_TOGETHER:
        return "".join(words)
    if name == "MR" and len(words) >= 2:
        return f"{words[0]}({words[1]}){''.join(words[2:])}"
    return " ".join(words) if name in ("B", "I", "SM", "SB") else ""
