"""Token estimates that need no tokenizer download: one per CJK character, four chars otherwise."""

from __future__ import annotations

import math
import re

import numpy as np

from pipeline.text.scripts import CJK, CJK_RUN

# English averages ~4 characters per token across common BPE vocabularies.
_CHARS_PER_TOKEN = 4


TABLE_CHARS = 1 << 16
"""A text at least this long counts its CJK characters by a table of code points, this many
at a time: a regex scan for CJK runs took 0.2 s of 10 MB of English with a few non-ASCII
characters (a man page's hyphens), the table a quarter of that."""


def _cjk_table() -> np.ndarray:
    """Code point -> 1 for the characters of CJK (every one in the Basic Multilingual Plane)."""
    table = np.zeros(1 << 16, dtype=np.uint8)
    for first, last in re.findall(r"(.)(?:-(.))?", CJK, re.DOTALL):
        table[ord(first) : ord(last or first) + 1] = 1
    return table


_CJK_TABLE = _cjk_table()


def count_tokens(text: str) -> int:
    """Estimated tokens in `text`; e.g. 'Hello world!' (12 chars) -> 3, '日本語' -> 3."""
    if not text:
        return 0
    if text.isascii():  # the common case, ~100x faster than the regex scan
        return math.ceil(len(text) / _CHARS_PER_TOKEN)
    cjk = _cjk_chars(text)
    return cjk + math.ceil((len(text) - cjk) / _CHARS_PER_TOKEN)


def _cjk_chars(text: str) -> int:
    if len(text) < TABLE_CHARS:
        # Runs, not characters (7x faster); their bounds, not copies.
        return sum(run.end() - run.start() for run in CJK_RUN.finditer(text))
    count = 0
    for start in range(0, len(text), TABLE_CHARS):
        # surrogatepass: a lone surrogate (a file decoded with surrogateescape) stays as is.
        raw = text[start : start + TABLE_CHARS].encode("utf-32-le", "surrogatepass")
        codes = np.frombuffer(raw, np.uint32)
        count += int(_CJK_TABLE[np.minimum(codes, 0xFFFF)].sum())  # U+FFFF is no CJK
    return count


def chars_per_token(text: str) -> float:
    """Characters per token for this text, used to size chunks in characters."""
    tokens = count_tokens(text)
    return len(text) / tokens if tokens else float(_CHARS_PER_TOKEN)
