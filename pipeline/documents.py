"""Turning what callers pass (strings, paths, dicts) into validated SourceDocuments."""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.config import Settings
from pipeline.errors import InputError, TooLargeError
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


def clean_text(text: str, where: str) -> str:
    """Text fit for a model: lone surrogates refused, NULs and control characters removed."""
    if _SURROGATE.search(text):
        raise InputError(
            f"{where} contains invalid Unicode (a lone surrogate)",
            hint="Send valid UTF-8 text.",
        )
    return _CONTROL.sub("", text)


def read_text_file(path: Path) -> str:
    """A text file's content: UTF-8, or UTF-16/UTF-8 with a byte-order mark."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"file not found: {path}", hint="Check the path.") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory", hint="Pass files, not folders.") from None
    return decode_text(raw, str(path))


def decode_text(raw: bytes, where: str) -> str:
    """Decode bytes by their BOM, else as UTF-8; binary-looking content is an InputError."""
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if raw.startswith(bom):
            return raw.decode(encoding)
    if b"\x00" in raw[:8192]:
        raise InputError(f"{where} looks like a binary file", hint="Send a text document.")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where} is not valid UTF-8 (byte {exc.start})",
            hint="Save the file as UTF-8 (or UTF-16 with a byte-order mark).",
        ) from None


def _load_one(item: Any, index: int, settings: Settings) -> SourceDocument:
    if isinstance(item, Path):
        doc_id, text = item.name, read_text_file(item)
    elif isinstance(item, str):
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
