"""Exact spans: find a model's quote in its chunk, and turn evidence into citations."""

from __future__ import annotations

import bisect
import re

from pipeline.results import Citation
from pipeline.types import Chunk, DocumentText, Evidence


def locate(quote: str, chunk: Chunk, score: float = 0.0) -> Evidence | None:
    """The quote's span in the source document, or None if it is not in the chunk.

    Models often change whitespace or line breaks inside a quote, so a miss on the
    exact text is retried with any run of whitespace allowed between the words.
    """
    quote = quote.strip()
    if not quote:
        return None
    text = chunk["text"]
    at = text.find(quote)
    if at >= 0:
        start, end = at, at + len(quote)
    else:
        words = quote.split()
        match = re.search(r"\s+".join(map(re.escape, words)), text)
        if match is None:
            return None
        start, end = match.span()
    return evidence_at(chunk, start, end, score)


def evidence_at(
    chunk: Chunk, start: int, end: int, score: float = 0.0, display: str = ""
) -> Evidence:
    """Evidence for chunk-local offsets, placed at absolute document offsets."""
    return Evidence(
        document=chunk["document"],
        chunk=chunk["id"],
        start=chunk["start"] + start,
        end=chunk["start"] + end,
        quote=chunk["text"][start:end],
        score=score,
        display=display,
    )


def page_of(document: DocumentText, offset: int) -> int | None:
    """1-based page holding `offset`, for documents that carry page starts (PDFs)."""
    starts = document.page_starts
    if not starts:
        return None
    return bisect.bisect_right(starts, offset)


def to_citations(evidence: list[Evidence], documents: list[DocumentText]) -> list[Citation]:
    """Citations in first-seen order, without duplicate spans, each checked against its source."""
    by_id = {doc.id: doc for doc in documents}
    seen: set[tuple[str, int, int]] = set()
    citations: list[Citation] = []
    for item in evidence:
        key = (item.document, item.start, item.end)
        document = by_id.get(item.document)
        if key in seen or document is None:
            continue
        if document.text[item.start : item.end] != item.quote:
            continue  # never cite a span that does not slice back to its quote
        seen.add(key)
        citations.append(
            Citation(
                document=item.document,
                chunk=item.chunk,
                start=item.start,
                end=item.end,
                quote=item.quote,
                page=page_of(document, item.start),
            )
        )
    return citations
