"""PDF to text with page starts, parsed in a capped child process (see pdf_worker.py)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline.config import Settings
from pipeline.documents.budget import LoadBudget, LoadCancelled, too_slow
from pipeline.errors import InputError, TooLargeError
from pipeline.text.clean import strip_unusable

_WORKER = Path(__file__).with_name("pdf_worker.py")
PAGE_BREAK = "\n\n"
POLL_S = 0.05
"""How often a load waiting on the PDF child checks whether it was cancelled."""


def pdf_text(
    raw: bytes, where: str, settings: Settings, budget: LoadBudget | None = None
) -> tuple[str, list[int]]:
    """The PDF's text and `page_starts` (offset where each page begins); InputError if unusable.

    The child is killed as soon as `budget` is cancelled or `load_timeout_s` has passed (it
    also caps its own CPU time at that many seconds), so no parse outlives its request.
    """
    budget = budget or LoadBudget(settings.load_timeout_s)
    command = [
        sys.executable,
        str(_WORKER),
        str(settings.pdf_max_pages),
        str(settings.max_document_chars),
        str(settings.pdf_max_memory_mb),
        str(math.ceil(settings.load_timeout_s)),
    ]
    # The bytes go in through a file, not a pipe: `communicate` retried after a timeout
    # writes no more input, so a PDF over the pipe's 64 KB sent to a child that had not
    # started reading within the first poll (a busy machine) was never sent whole.
    with tempfile.TemporaryFile() as source:
        source.write(raw)
        source.seek(0)
        with subprocess.Popen(
            command, stdin=source, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        ) as child:
            stdout = _wait(child, where, settings, budget)
    try:
        result = json.loads(stdout)
    except ValueError:
        # The worker died without answering: killed for memory or CPU, or crashed in C code.
        raise InputError(
            f"{where}: the PDF could not be read (the parser stopped, exit {child.returncode})",
            hint="The PDF may be malformed or too large to unpack; send its text instead.",
        ) from None
    return _pages_to_text(result, where, settings)


def _wait(
    child: subprocess.Popen[bytes], where: str, settings: Settings, budget: LoadBudget
) -> bytes:
    """The child's output; it is killed when the budget is cancelled or its time is up."""
    deadline = time.monotonic() + settings.load_timeout_s
    while True:
        try:
            stdout, _ = child.communicate(timeout=POLL_S)
            return stdout
        except subprocess.TimeoutExpired:
            if budget.cancelled or time.monotonic() > deadline:
                child.kill()
                child.communicate()
                if budget.cancelled:
                    raise LoadCancelled(where) from None
                raise too_slow(where, settings.load_timeout_s) from None


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
