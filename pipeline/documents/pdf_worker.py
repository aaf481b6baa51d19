"""Child-process PDF text extraction, run as a script so a hostile PDF cannot hurt the server.

Reads the PDF bytes on stdin and writes one JSON object on stdout:
`{"pages": [str, ...]}` or `{"error": code, ...}`, the code one of "encrypted", "malformed",
"too_many_pages", "too_many_chars" or "too_much_memory" (pdf.py turns each into an error).
It caps its own address space first, so a decompression bomb dies here with MemoryError
(or is killed) instead of taking the server's memory, and its CPU time (SIGXCPU); the
parent caps wall time and characters, and kills it when its request is cancelled.
It is started by file path, not `-m pipeline...`, so it never imports the heavy pipeline
package (langgraph, numpy) and starts in a fraction of a second.

Two columns: pypdf's plain extraction follows the content stream, which is right for a
page drawn column by column (TeX) but interleaves one drawn line by line across both
columns ("The pump must be primed The filter is replaced"). Such a page is seen during
the plain pass (most of its text lines go on across the page's middle, each from a left
fragment straight to a right one), and only it is read again in pypdf's layout mode,
whose fixed-width lines are cut at the gutter: the left column, then the right.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import resource
import sys
from typing import Any

INTERLEAVED_SHARE = 0.5
"""A page is read by columns when at least this share of its text lines crosses the middle
from a left fragment to a right one (a table row crosses too, but a table is not most of a
page of text)."""
MIN_INTERLEAVED_LINES = 3
GUTTER = 2
"""Blank characters a gutter is at least wide, in layout mode's fixed-width lines."""
_SPACES = re.compile(r"[ \t]{2,}")
TITLE_SIZE = 1.15
"""Least size of a PDF's title line against its page's text: a section title is set
larger (R's manuals: 14.3 points over 10.9; a 12-point subtitle over 10 is 1.2)."""
_SECTION = re.compile(r"\d{1,3}(?:\.\d{1,3})*\.?\s")  # '3.1 Invoking asn1Parser'
TITLE_MAX_CHARS = 120
"""Longest line read as a title: a paragraph in large type (a cover's blurb) is none."""


def _limit(megabytes: int, cpu_s: int) -> None:
    """Cap this process's memory and CPU time: past either the kernel stops it."""
    limit = megabytes * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):  # a lower hard limit already applies
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))


def extract(raw: bytes, max_pages: int, max_chars: int) -> dict[str, Any]:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError, PdfReadError, PyPdfError

    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted and not reader.decrypt(""):
            return {"error": "encrypted"}
        if len(reader.pages) > max_pages:
            return {"error": "too_many_pages", "pages": len(reader.pages)}
        pages: list[str] = []
        total = 0
        for page in reader.pages:
            text = page_text(page)
            total += len(text)
            if total > max_chars:
                return {"error": "too_many_chars", "chars": total}
            pages.append(text)
    except FileNotDecryptedError:
        return {"error": "encrypted"}
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return {"error": "malformed", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    return {"pages": pages}


def page_text(page: Any) -> str:
    """A page's text in reading order (see the module docstring on two columns)."""
    box = page.mediabox
    middle = float(box.left) + float(box.width) / 2
    rows: dict[int, bool] = {}  # per text line (its baseline), whether it crossed the middle
    last: list[tuple[float, bool]] = []

    sizes: dict[int, list[tuple[float, str]]] = {}  # per text line, its pieces' sizes

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if not text.strip():
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        right = x >= middle
        crossed = bool(last) and abs(last[0][0] - y) < 1 and right and not last[0][1]
        rows[round(y)] = rows.get(round(y), False) or crossed
        last[:] = [(y, right)]
        scale = abs(tm[3] * cm[3]) or 1.0
        sizes.setdefault(round(y), []).append((float(size or 0) * scale, text))

    text = page.extract_text(visitor_text=visit) or ""
    crossing = sum(rows.values())
    if crossing < max(MIN_INTERLEAVED_LINES, INTERLEAVED_SHARE * len(rows)):
        return set_apart(text, titles(sizes))
    try:
        layout = page.extract_text(extraction_mode="layout")
    except Exception:  # layout mode is pypdf's newer code: a page it fails on reads as before
        return text
    return by_columns(layout) or text


def titles(sizes: dict[int, list[tuple[float, str]]]) -> dict[str, float]:
    """The page's lines set in a larger type than most of its text, with their size: its
    section titles ('7.31 Why doesn't R think these numbers are equal?' at 14.3 points over
    text at 10.9)."""
    weight: dict[float, int] = {}
    for pieces in sizes.values():
        for size, text in pieces:
            weight[round(size, 1)] = weight.get(round(size, 1), 0) + len(text)
    if not weight:
        return {}
    body = max(weight, key=lambda size: weight[size])
    found = {}
    for pieces in sizes.values():
        line = " ".join("".join(text for _, text in pieces).split())
        smallest = min(s for s, _ in pieces)
        if 0 < len(line) <= TITLE_MAX_CHARS and smallest >= TITLE_SIZE * body:
            found[line] = round(smallest, 1)
    return found


def set_apart(text: str, titles: dict[str, float]) -> str:
    """`text` with a blank line before and after each run of its lines that are `titles`
    (a title wrapped over two lines of one size is joined into one, unless the first closes
    with a full stop or the second opens with a section's number): a PDF's text has no
    blank lines, so its titles would otherwise read as the first words of the paragraph
    under them."""
    if not titles:
        return text
    out: list[str] = []
    run: list[str] = []
    for line in text.split("\n"):
        key = " ".join(line.split())
        if key in titles:
            if run and not _goes_on(run[-1], key, titles):
                out.extend(["", " ".join(run)])
                run.clear()
            run.append(line.strip())
            continue
        if run:
            out.extend(["", " ".join(run), ""])
            run.clear()
        out.append(line)
    if run:
        out.extend(["", " ".join(run)])
    return "\n".join(out)


def _goes_on(title: str, line: str, titles: dict[str, float]) -> bool:
    """The title line `line` goes on with the title before it ('7.32 How can I capture or
    ignore errors in a long' / 'simulation?'), not a title of its own ('3 Utilities' /
    '3.1 Invoking asn1Parser')."""
    key = " ".join(title.split())
    return (
        titles.get(key) == titles[line]
        and not title.endswith((".", ":", "?", "!"))
        and _SECTION.match(line) is None
    )


def by_columns(layout: str) -> str:
    """Fixed-width page text with its columns one after the other: each run of lines split
    by a gutter gives its left parts, then its right; a line across the gutter (a title)
    or above or below both columns (a running header, a page number) stays where it is."""
    lines = [line.rstrip() for line in layout.split("\n")]
    gutter = _gutter(lines)
    if gutter < 0:
        return ""
    out: list[str] = []
    left: list[str] = []
    right: list[str] = []

    def close_run() -> None:
        if not left:
            return
        out.extend(_unindent(left))
        out.append("")
        out.extend(_unindent(right))
        out.append("")
        left.clear()
        right.clear()

    two_sided = [i for i, line in enumerate(lines) if line[gutter:].strip()]
    for i, line in enumerate(lines):
        across = bool(line[gutter - GUTTER : gutter].strip())
        if across or not two_sided[0] <= i <= two_sided[-1]:
            close_run()  # a line across the gutter, or above or below both columns
            out.append(" ".join(line.split()))
        else:
            left.append(line[:gutter])
            right.append(line[gutter:])
    close_run()
    text = "\n".join(_SPACES.sub(" ", line.rstrip()) for line in out)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def _gutter(lines: list[str]) -> int:
    """The column just past the widest-supported gutter in the page's middle half, -1 if none:
    blank there on nearly every line, with text after it on a good share of them."""
    width = max((len(line) for line in lines), default=0)
    text_lines = [line for line in lines if line.strip()]
    if width < 20 or not text_lines:
        return -1
    best, support = -1, 0
    for column in range(width // 4, 3 * width // 4):
        blank = sum(1 for line in text_lines if not line[column - GUTTER : column].strip())
        beyond = sum(1 for line in text_lines if line[column:].strip())
        if blank >= 0.9 * len(text_lines) and beyond >= 0.3 * len(text_lines) and blank > support:
            best, support = column, blank
    return best


def _unindent(lines: list[str]) -> list[str]:
    """The lines less their common indent (layout mode pads them out to their x position)."""
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] if line.strip() else "" for line in lines]


def main() -> None:
    max_pages, max_chars, memory_mb, cpu_s = (int(arg) for arg in sys.argv[1:5])
    _limit(memory_mb, cpu_s)
    raw = sys.stdin.buffer.read()
    try:
        result = extract(raw, max_pages, max_chars)
    except MemoryError:
        result = {"error": "too_much_memory"}
    except RecursionError:
        result = {"error": "malformed", "detail": "nesting too deep"}
    sys.stdout.write(json.dumps(result))


if __name__ == "__main__":
    main()
