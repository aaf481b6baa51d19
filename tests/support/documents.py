"""Helpers for the API tests (no tests here): PDF and HTML fixtures built from scratch."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any


def pdf_bytes(pages: list[str]) -> bytes:
    """A valid PDF with one line of Helvetica text per page, written by hand.

    Only ASCII text without parentheses or backslashes, which need escaping in PDF strings.
    """
    return pdf_drawn([[(72, 720, text)] for text in pages])


def pdf_drawn(pages: Sequence[Sequence[tuple[Any, ...]]]) -> bytes:
    """A valid PDF whose pages draw lines of 10-point Helvetica at (x, y) points, in the
    order given (a page is 612 x 792 points, y up from the bottom): drawing two columns
    line by line across the page is how some generators write them. A line given as
    (x, y, text, size) is drawn at that size (a title)."""
    objects: list[bytes] = []
    count = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(count))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode())
    font = 3 + 2 * count
    for i, lines in enumerate(pages):
        drawn = " ".join(
            f"BT /F1 {line[3] if len(line) > 3 else 10} Tf {line[0]} {line[1]} Td ({line[2]}) Tj ET"
            for line in lines
        )
        content = drawn.encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1))
    out.write(b"startxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def encrypted_pdf_bytes(pages: list[str], password: str = "secret") -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes(pages))))
    writer.encrypt(password, algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def html_page(body: str, title: str = "A page") -> str:
    return (
        f"<!DOCTYPE html>\n<html><head><title>{title}</title>"
        "<style>p { color: red; }</style><script>var secret = 'SCRIPT_TEXT';</script>"
        f"</head><body>{body}</body></html>"
    )
