"""Inputs to DocumentTexts: the one place documents are read, validated and size-checked.

A DocumentText is validated when it is made (pipeline.types), so loading one that already
exists costs nothing: the service loads files off the event loop (`aload_documents`), and
the graph's route node, which direct graph callers reach with plain dicts, passes ready
documents through. Every load runs under a LoadBudget: CPU seconds per document, and
cancellation when its caller is cancelled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pipeline.config import Settings
from pipeline.documents.budget import LoadBudget
from pipeline.documents.decode import decode_text
from pipeline.documents.docx import docx_text
from pipeline.documents.epub import epub_text
from pipeline.documents.pod import looks_like_pod, pod_text
from pipeline.documents.roff import looks_like_roff, roff_text
from pipeline.documents.sniff import looks_like_html, sniff_type
from pipeline.documents.zipped import Archive
from pipeline.errors import InputError, TooLargeError
from pipeline.types import DocumentText


@dataclass(frozen=True)
class DocumentBytes:
    """A file's bytes as received (an upload), read like a file: its type told by content."""

    name: str
    data: bytes = b""


DocumentLike = str | Path | Mapping[str, Any] | DocumentText | DocumentBytes
Documents = DocumentLike | Sequence[DocumentLike]


async def aload_documents(documents: Documents, settings: Settings) -> list[DocumentText]:
    """`load_documents` on a worker thread; cancelling the caller stops the load itself.

    A thread cannot be interrupted, so on cancellation the budget is cancelled and this
    waits the few milliseconds until the load notices and stops: when the caller's
    CancelledError goes on, no parse is still using the CPU.
    """
    budget = LoadBudget(settings.load_timeout_s)
    work = asyncio.ensure_future(
        asyncio.to_thread(load_documents, documents, settings, budget=budget)
    )
    try:
        return await asyncio.shield(work)
    except asyncio.CancelledError:
        budget.cancel()
        await asyncio.wait([work])
        raise


def load_documents(
    documents: Documents, settings: Settings, *, budget: LoadBudget | None = None
) -> list[DocumentText]:
    """Validated documents with unique ids; raises InputError saying what to fix."""
    if isinstance(documents, str | Path | Mapping | DocumentText | DocumentBytes):
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
    budget = budget or LoadBudget(settings.load_timeout_s)
    loaded = [_load_one(item, index, settings, budget) for index, item in enumerate(items, start=1)]
    _check_unique_ids(loaded)
    total = sum(len(doc.text) for doc in loaded)
    if total > settings.max_document_chars:
        raise TooLargeError(
            f"the documents hold {total:,} characters, over the limit of "
            f"{settings.max_document_chars:,}",
            hint=f"Send less, or raise LONGDOC_MAX_DOCUMENT_MB={settings.max_document_mb:g}",
        )
    return loaded


def read_file(path: Path, settings: Settings, budget: LoadBudget | None = None) -> DocumentText:
    """A file as a DocumentText named after it, its type told by content (see from_bytes)."""
    return from_bytes(_read_bytes(path), path.name, settings, budget)


def from_bytes(
    raw: bytes, name: str, settings: Settings, budget: LoadBudget | None = None
) -> DocumentText:
    """Uploaded or read bytes as a DocumentText with id `name`; the type is sniffed.

    Raises UnsupportedTypeError for binary formats, InputError for undecodable,
    encrypted, malformed or empty documents, TooLargeError past the size limits or
    `load_timeout_s` of parsing (LoadCancelled when `budget` is cancelled).
    """
    budget = budget or LoadBudget(settings.load_timeout_s)
    if len(raw) > settings.max_document_chars * 4:  # 4 bytes per character at most in UTF-8
        raise TooLargeError(
            f"{name} is {len(raw):,} bytes, over the limit",
            hint=f"Send less, or raise LONGDOC_MAX_DOCUMENT_MB={settings.max_document_mb:g}",
        )
    kind = sniff_type(raw, name)
    if kind == "pdf":
        from pipeline.documents.pdf import pdf_text  # imported late: only PDFs need it

        text, page_starts = pdf_text(raw, name, settings, budget)
        return DocumentText(id=name, text=text, page_starts=page_starts)
    if kind in ("docx", "epub"):
        archive = Archive(raw, name, settings.max_document_chars * 4, budget.checker(name))
        text = docx_text(archive) if kind == "docx" else epub_text(archive)
        return DocumentText(id=name, text=text)
    text = decode_text(raw, name)
    if kind == "html" or (kind == "text" and looks_like_html(text)):
        from pipeline.documents.html import html_text  # imported late: only HTML needs it

        text = html_text(text, budget.checker(name))
    elif looks_like_pod(text):
        text = pod_text(text, budget.checker(name))
    elif looks_like_roff(text):
        text = roff_text(text, budget.checker(name), settings.max_document_chars)
    return DocumentText(id=name, text=text)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"file not found: {path}", hint="Check the path.") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory", hint="Pass files, not folders.") from None


def _load_one(item: Any, index: int, settings: Settings, budget: LoadBudget) -> DocumentText:
    budget.checker(f"document {index}")()  # a cancelled load stops between documents too
    if isinstance(item, DocumentText):
        return item  # validated when it was made
    if isinstance(item, DocumentBytes):
        return from_bytes(item.data, item.name, settings, budget)
    if isinstance(item, Path):
        return read_file(item, settings, budget)
    if isinstance(item, str):
        return DocumentText(id=f"doc{index}", text=item)
    if not isinstance(item, Mapping):
        raise InputError(
            f"document {index} is a {type(item).__name__}, not text",
            hint="Pass a string, a pathlib.Path, or a dict with 'id' and 'text'.",
        )
    doc_id = str(item.get("id") or f"doc{index}")
    text: Any = item.get("text")
    if not isinstance(text, str):
        raise InputError(
            f"document {doc_id!r} has no text",
            hint='Give each document as {"id": ..., "text": "..."}.',
        )
    try:
        return DocumentText(id=doc_id, text=text, page_starts=list(item.get("page_starts") or []))
    except ValidationError as exc:
        raise InputError(
            f"document {doc_id!r} is not valid: {exc.errors()[0]['msg']}",
            hint='Give each document as {"id": ..., "text": "...", "page_starts": [0, ...]}.',
        ) from None


def _check_unique_ids(documents: list[DocumentText]) -> None:
    seen: set[str] = set()
    for doc in documents:
        if doc.id in seen:
            raise InputError(
                f"two documents share the id {doc.id!r}",
                hint="Give every document its own id so citations can tell them apart.",
            )
        seen.add(doc.id)
