"""Telling a file's type from its content: a PDF is a PDF whatever its name."""

from __future__ import annotations

import codecs
import re
from typing import Literal

from pipeline.documents.decode import BOMS
from pipeline.documents.zipped import zipped_kind
from pipeline.errors import UnsupportedTypeError

Kind = Literal["pdf", "html", "text", "docx", "epub"]

# Leading bytes of formats that are certainly not text; checked before decoding.
_BINARY_MAGIC = {
    b"PK\x03\x04": "a ZIP archive",  # unless it is a Word document or a book: zipped.py
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"\x1f\x8b": "a gzip archive",
    b"\xd0\xcf\x11\xe0": "an old Office document",
    b"{\\rtf": "an RTF document",
    b"7z\xbc\xaf": "a 7-Zip archive",
    b"Rar!": "a RAR archive",
    b"\x7fELF": "a program",
    b"MZ": "a program",
    b"II*\x00": "a TIFF image",
    b"MM\x00*": "a TIFF image",
    b"RIFF": "a media file",
    b"OggS": "a media file",
    b"ID3": "an audio file",
}
_HTML_START = re.compile(
    rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])", re.I | re.S
)
_HTML_SUFFIXES = (".html", ".htm", ".xhtml")


def sniff_type(raw: bytes, name: str = "") -> Kind:
    """ "pdf", "html", "text", "docx" or "epub", from the content (the name only breaks a
    tie for HTML)."""
    head = raw[:1024]
    if b"%PDF-" in head:
        return "pdf"
    if raw.startswith(b"PK\x03\x04"):
        return zipped_kind(raw, name or "the document")
    for magic, what in _BINARY_MAGIC.items():
        if raw.startswith(magic):
            raise UnsupportedTypeError(
                f"{name or 'the document'} looks like {what}, a binary type longdoc cannot read"
            )
    body = head.lstrip(codecs.BOM_UTF8)
    if _HTML_START.match(body) or name.lower().endswith(_HTML_SUFFIXES):
        return "html"
    return "text"


def looks_like_text(head: bytes) -> bool:
    """Whether a file's first bytes read as text: a BOM, or UTF-8 with no NUL and no binary
    signature. A multibyte character cut at the end of `head` still counts as text."""
    if any(head.startswith(bom) for bom, _ in BOMS):
        return True
    if b"\x00" in head or any(head.startswith(magic) for magic in _BINARY_MAGIC):
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3 and exc.reason == "unexpected end of data"
    return True


def looks_like_html(text: str) -> bool:
    """HTML sent in UTF-16 (its bytes did not match the byte-level sniff)."""
    return _HTML_START.match(text[:1024].encode("utf-8", "ignore")) is not None
