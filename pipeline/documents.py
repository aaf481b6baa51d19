"""Turning what callers pass (strings, paths, dicts, uploaded bytes) into validated SourceDocuments.

File types are told from content first (a PDF is a PDF whatever its name): PDF (text per
page, parsed in a capped child process, see pdf.py), HTML (visible text, via
BeautifulSoup), and UTF-8 or UTF-16-with-BOM text, Markdown included. Known binary
formats (images, archives, Office files) are refused as unsupported types.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.config import Settings
from pipeline.errors import InputError, TooLargeError, UnsupportedTypeError
from pipeline.state import SourceDocument

DocumentLike = str | Path | Mapping[str, Any]
Documents = DocumentLike | Sequence[DocumentLike]

# C0 controls except tab, newline and carriage return; NUL among them.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def load_documents(documents: Documents, settings: Settings) -> list[SourceDocument]:
    """Validated documents with unique ids; raises InputError saying what to fix."""
    if isinstance(documents, str | Path | Mapping):
        items: list[Any] = [documents]
    elif isinstance(documents, Sequence):
        items = list(documents)
    else:
        raise InputError(
            f"documents must be text, a path, or a list of them, not {type(documents).__name__}",
            hint="Pass a string, a pathlib.Path, a dict with 'id' and 'text', or a list.",
        )
    if not items:
        raise InputError("no documents were given", hint="Pass at least one document.")
    loaded = [_load_one(item, index, settings) for index, item in enumerate(items, start=1)]
    _check_unique_ids(loaded)
    total = sum(len(doc["text"]) for doc in loaded)
    if total > settings.max_document_chars:
        raise TooLargeError(
            f"the documents hold {total:,} characters, over the limit of "
            f"{settings.max_document_chars:,}",
            hint=f"Send less, or raise LONGDOC_MAX_DOCUMENT_MB={settings.max_document_mb:g}",
        )
    return loaded


def strip_unusable(text: str) -> str:
    """Lone surrogates and control characters removed (for extracted text we cannot refuse)."""
    return _CONTROL.sub("", _SURROGATE.sub("", text))


def clean_text(text: str, where: str) -> str:
    """Text fit for a model: lone surrogates refused, NULs and control characters removed."""
    # ASCII text cannot hold a surrogate; skipping that scan halves the cost on 10 MB.
    if not text.isascii() and _SURROGATE.search(text):
        raise InputError(
            f"{where} contains invalid Unicode (a lone surrogate)",
            hint="Send valid UTF-8 text.",
        )
    return _CONTROL.sub("", text)


def read_file(path: Path, settings: Settings) -> dict[str, Any]:
    """A file as `{"id", "text"[, "page_starts"]}`, its type told by content (see from_bytes)."""
    return from_bytes(_read_bytes(path), path.name, settings)


def from_bytes(raw: bytes, name: str, settings: Settings) -> dict[str, Any]:
    """Uploaded or read bytes as `{"id": name, "text", "page_starts"?}`; the type is sniffed.

    Raises UnsupportedTypeError for binary formats, InputError for undecodable,
    encrypted, malformed or empty documents, TooLargeError past the size limits.
    """
    if len(raw) > settings.max_document_chars * 4:  # 4 bytes per character at most in UTF-8
        raise TooLargeError(
            f"{name} is {len(raw):,} bytes, over the limit",
            hint=f"Send less, or raise LONGDOC_MAX_DOCUMENT_MB={settings.max_document_mb:g}",
        )
    kind = sniff_type(raw, name)
    if kind == "pdf":
        from pipeline.pdf import pdf_text  # imported late: only PDFs need it

        text, page_starts = pdf_text(raw, name, settings)
        return {"id": name, "text": text, "page_starts": page_starts}
    text = decode_text(raw, name)
    if kind == "html" or (kind == "text" and _looks_like_html(text)):
        text = html_text(text)
    return {"id": name, "text": text}


# Leading bytes of formats that are certainly not text; checked before decoding.
_BINARY_MAGIC = {
    b"PK\x03\x04": "a ZIP archive (or a .docx/.xlsx/.pptx/.epub file)",
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


def sniff_type(raw: bytes, name: str = "") -> str:
    """ "pdf", "html" or "text", from the content (the name only breaks a tie for HTML)."""
    head = raw[:1024]
    if b"%PDF-" in head:
        return "pdf"
    for magic, what in _BINARY_MAGIC.items():
        if raw.startswith(magic):
            raise UnsupportedTypeError(
                f"{name or 'the document'} looks like {what}, a binary type longdoc cannot read"
            )
    body = head.lstrip(codecs.BOM_UTF8)
    if _HTML_START.match(body) or name.lower().endswith(_HTML_SUFFIXES):
        return "html"
    return "text"


def _looks_like_html(text: str) -> bool:
    """HTML sent in UTF-16 (its bytes did not match the byte-level sniff)."""
    return _HTML_START.match(text[:1024].encode("utf-8", "ignore")) is not None


_BLOCKS = (
    "address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 "
    "h4 h5 h6 header hr li main nav ol p pre section table td th tr ul"
).split()


def html_text(html: str) -> str:
    """The visible text of an HTML page: scripts, styles and markup dropped, blocks on lines."""
    from bs4 import BeautifulSoup  # imported late: only HTML needs it

    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup(["script", "style", "noscript", "template", "head"]):
        hidden.decompose()
    # Inline tags (<b>, <a>) stay inside their line; block tags start a new one.
    for block in soup.find_all(_BLOCKS):
        block.insert_before("\n")
        block.insert_after("\n")
    lines = (" ".join(line.split()) for line in soup.get_text().splitlines())
    return "\n".join(line for line in lines if line)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"file not found: {path}", hint="Check the path.") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory", hint="Pass files, not folders.") from None


def decode_text(raw: bytes, where: str) -> str:
    """Decode bytes by their BOM, else as UTF-8; NULs without a BOM mean a binary file."""
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if raw.startswith(bom):
            return raw.decode(encoding)
    if b"\x00" in raw[:8192]:
        raise UnsupportedTypeError(f"{where} looks like a binary file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where} is not valid UTF-8 (byte {exc.start})",
            hint="Save the file as UTF-8 (or UTF-16 with a byte-order mark).",
        ) from None


def _load_one(item: Any, index: int, settings: Settings) -> SourceDocument:
    if isinstance(item, Path):
        item = read_file(item, settings)  # a dict from here on, page_starts included
    if isinstance(item, str):
        doc_id, text = f"doc{index}", item
    elif isinstance(item, Mapping):
        doc_id = str(item.get("id") or f"doc{index}")
        raw_text: Any = item.get("text")
        if not isinstance(raw_text, str):
            raise InputError(
                f"document {doc_id!r} has no text",
                hint='Give each document as {"id": ..., "text": "..."}.',
            )
        text = raw_text
    else:
        raise InputError(
            f"document {index} is a {type(item).__name__}, not text",
            hint="Pass a string, a pathlib.Path, or a dict with 'id' and 'text'.",
        )
    text = clean_text(text, f"document {doc_id!r}")
    if not text.strip():
        raise InputError(f"document {doc_id!r} is empty", hint="Send a document with text in it.")
    document = SourceDocument(id=doc_id, text=text)
    if isinstance(item, Mapping) and item.get("page_starts"):
        document["page_starts"] = list(item["page_starts"])
    return document


def _check_unique_ids(documents: list[SourceDocument]) -> None:
    seen: set[str] = set()
    for doc in documents:
        if doc["id"] in seen:
            raise InputError(
                f"two documents share the id {doc['id']!r}",
                hint="Give every document its own id so citations can tell them apart.",
            )
        seen.add(doc["id"])
