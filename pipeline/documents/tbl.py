"""A tbl(1) table of a man page (`.TS` ... `.TE`) as its rows of cells.

tbl's source opens with an options line (`tab(@);`, ending ';') and format lines (`l l.`,
the last ending '.'), then one line per row, cells split by the tab character (a tab
unless the options name another); a cell `T{` ... `T}` runs over lines. `_` and `=` alone
are rules; `.T&` brings new format lines. Only the cells are read: they are the table.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_TAB_OPTION = re.compile(r"\btab\s*\(\s*(.)\s*\)")
_RULE = frozenset(("_", "=", "\\_", "\\="))


def table_rows(lines: list[str], expand: Callable[[str], str]) -> list[list[str]]:
    """The table's rows, each a list of its cells' text (escapes read by `expand`)."""
    at = 0
    separator = "\t"
    if lines and lines[0].rstrip().endswith(";"):
        option = _TAB_OPTION.search(lines[0])
        separator = option.group(1) if option else separator
        at = 1
    at = _past_format(lines, at)
    rows: list[list[str]] = []
    while at < len(lines):
        line = lines[at]
        at += 1
        stripped = line.strip()
        if stripped == ".T&":
            at = _past_format(lines, at)
            continue
        if not stripped or stripped in _RULE or line[:1] in (".", "'"):
            continue
        cells, at = _cells(line, lines, at, separator)
        row = [" ".join(expand(cell).split()) for cell in cells]
        if any(row):
            rows.append(row)
    return rows


def _past_format(lines: list[str], at: int) -> int:
    """Past the format lines from `at`: the first ending in '.' is the last."""
    while at < len(lines):
        line = lines[at].rstrip()
        at += 1
        if line.endswith("."):
            break
    return at


def _cells(line: str, lines: list[str], at: int, separator: str) -> tuple[list[str], int]:
    """A row's cells, text blocks (`T{` to `T}`) read on from the lines after it."""
    cells: list[str] = []
    pieces = line.split(separator)
    while pieces:
        piece = pieces.pop(0)
        if piece.strip() != "T{":
            cells.append(piece)
            continue
        block: list[str] = []
        while at < len(lines):  # the block ends at a line opening 'T}', the row goes on
            following = lines[at]
            at += 1
            if following.startswith("T}"):
                pieces = following[2:].split(separator)[1:] if separator in following else []
                break
            if following[:1] not in (".", "'"):
                block.append(following)
        cells.append(" ".join(block))
    return cells, at
