"""PDF to text with page starts, parsed in a capped child process (see pdf_worker.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pipeline.config import Settings
from pipeline.errors import InputError, TooLargeError
from pipeline.text.clean import strip_unusable

_WORKER = Path(__file__).with_name("pdf_worker.py")
PAGE_BREAK = "\n\n"


def pdf_text(raw: bytes, where: str, settings: Settings) -> tuple[str, list[int]]:
    """The PDF's text and `page_starts` (offset where each page begins); InputError if unusable."""
    try:
        done = subprocess.run(
            [
                sys.executable,
                str(_WORKER),
                str(settings.pdf_max_pages),
                str(settings.max_document_chars),
                str(settings.pdf_max_memory_mb),
            ],
            input=raw,
            capture_output=True,
            timeout=settings.pdf_timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise InputError(
            f"{where}: reading the PDF took longer than {settings.pdf_timeout_s:g} s",
            hint="The PDF may be malformed or a decompression bomb; send its text instead.",
        ) from None
    try:
        result = json.loads(done.stdout)
    except ValueError:
        # The worker died without answering: killed for memory, or crashed in C code.
        raise InputError(
            f"{where}: the PDF could not be read (the parser stopped, exit {done.returncode})",
            hint="The PDF may be malformed or too large to unpack; send its text instead.",
        ) from None
    return _pages_to_text(result, where, settings)


def _pages_to_text(
    result: dict[str, object], where: str, settings: Settings
) -> tuple[str, list[int]]:
    error = result.get("error")
    if error == "encrypted":
        raise InputError(
            f"{where} is an encrypted PDF", hint="Remove the password and send it again."
        )
    if error == "too_many_pages":
        raise TooLargeError(
            f"{where} has {result.get('pages')} pages, over the limit of {settings.pdf_max_pages}",
            hint="Split the PDF, or raise LONGDOC_PDF_MAX_PAGES.",
        )
    if error in ("too_many_chars", "too_much_memory"):
        raise TooLargeError(
            f"{where} unpacks to more text than the limit allows",
            hint="Send a smaller PDF, or raise LONGDOC_MAX_DOCUMENT_MB.",
        )
    if error is not None:
        raise InputError(
            f"{where} is not a readable PDF ({result.get('detail') or error})",
            hint="Check that the file is a complete, valid PDF.",
        )
    pages = result.get("pages")
    assert isinstance(pages, list)
    text_parts: list[str] = []
    page_starts: list[int] = []
    offset = 0
    for page in pages:
        # Clean per page, before offsets are taken, so page_starts stay exact; a PDF's
        # broken text encoding is not the caller's fault, so surrogates are dropped here.
        clean = strip_unusable(str(page))
        page_starts.append(offset)
        text_parts.append(clean)
        offset += len(clean) + len(PAGE_BREAK)
    text = PAGE_BREAK.join(text_parts)
    if not text.strip():
        raise InputError(
            f"{where} has no extractable text",
            hint="It may be a scanned image; run OCR on it first, or send its text.",
        )
    return text, page_starts
