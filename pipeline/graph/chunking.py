"""Chunking: token-sized chunks with exact character offsets, and the Send payload for each."""

from __future__ import annotations

import itertools
import math
from typing import Any

from pipeline.config import Settings
from pipeline.errors import TooLargeError
from pipeline.text.boundaries import Sizes, content_defined_cuts, overlap_start
from pipeline.text.tokens import chars_per_token
from pipeline.types import Chunk, ChunkTask, DocumentText, Task

RATIO_STEPS_PER_OCTAVE = 8
"""chars-per-token is rounded down to eighth octaves (steps of 9%), so a small edit cannot
nudge it and resize every chunk; English's 3.9998 rounds to exactly 4."""


def split_documents(
    documents: list[DocumentText], settings: Settings, chunk_size: int | None = None
) -> list[Chunk]:
    """Chunks of every document in order, ids numbered across documents from 0.

    `chunk_size` (tokens) overrides `settings.chunk_size`, for an engine that reads
    best at another size (the extractive engine's `extractive_chunk_size`).

    Sizes are tokens, converted to characters with each document's own ratio: at
    chunk_size=2000 an English text (~4 chars/token) gets chunks of at most 8,000
    characters and a Japanese one (~1.1 chars/token) ~2,200. Boundaries are
    content-defined (pipeline/text/boundaries.py): paragraph, sentence (。！？ too) or
    line ends chosen by the text around them, so an edit changes only the chunks near it.
    Each chunk after the first also repeats up to `chunk_overlap` tokens of the text
    before it, from a sentence start. A chunk is always `text[start:end]` exactly.
    """
    size = chunk_size or settings.chunk_size
    chunks: list[Chunk] = []
    for document in documents:
        for start, end in chunk_spans(document.text, size, settings.chunk_overlap):
            piece = document.text[start:end]
            if not piece.strip():
                continue
            chunks.append(
                Chunk(id=len(chunks), document=document.id, start=start, end=end, text=piece)
            )
            if len(chunks) > settings.max_chunks:
                raise TooLargeError(
                    f"the documents split into more than {settings.max_chunks} chunks",
                    hint="Send less text, raise LONGDOC_CHUNK_SIZE or LONGDOC_MAX_CHUNKS.",
                )
    return chunks


def chunk_spans(text: str, size: int, overlap: int) -> list[tuple[int, int]]:
    """(start, end) of each chunk of `text`: at most `size` tokens, overlap included."""
    ratio = quantised_chars_per_token(text)
    most = max(2, int(size * ratio))
    repeat = min(int(overlap * ratio), most // 4)  # the overlap never crowds out the text
    cuts = content_defined_cuts(text, Sizes.up_to(most - repeat))
    bounds = [0, *cuts, len(text)]
    return [(overlap_start(text, begin, repeat), end) for begin, end in itertools.pairwise(bounds)]


def quantised_chars_per_token(text: str) -> float:
    """chars_per_token rounded down to a step, with a hair of slack for 3.9998 -> 4."""
    steps = math.floor(RATIO_STEPS_PER_OCTAVE * math.log2(chars_per_token(text)) + 0.01)
    return float(2 ** (steps / RATIO_STEPS_PER_OCTAVE))


def chunk_tasks(
    chunks: list[Chunk],
    *,
    question: str,
    task: Task,
    instructions: str,
    run: str,
    hints: dict[str, Any],
    words: int = 0,
) -> list[ChunkTask]:
    """One Send payload per chunk, for the document map and the chat-history fold alike."""
    return [
        ChunkTask(
            chunk=chunk,
            question=question,
            task=task,
            instructions=instructions,
            words=words,
            total=len(chunks),
            run=run,
            hints=hints,
        )
        for chunk in chunks
    ]
