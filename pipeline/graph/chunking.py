"""Chunking: token-sized chunks with exact character offsets, and the Send payload for each."""

from __future__ import annotations

from typing import Any

from semantic_text_splitter import TextSplitter

from pipeline.config import Settings
from pipeline.errors import TooLargeError
from pipeline.text.tokens import chars_per_token
from pipeline.types import Chunk, ChunkTask, DocumentText, Task


def split_documents(
    documents: list[DocumentText], settings: Settings, chunk_size: int | None = None
) -> list[Chunk]:
    """Chunks of every document in order, ids numbered across documents from 0.

    `chunk_size` (tokens) overrides `settings.chunk_size`, for an engine that reads
    best at another size (the extractive engine's `extractive_chunk_size`).

    Sizes are tokens, converted to characters with each document's own ratio: at
    chunk_size=2000 an English text (~4 chars/token) gets ~8,000-char chunks and a
    Japanese one (~1.1 chars/token) ~2,200-char chunks. The splitter prefers
    paragraph, then sentence (Unicode rules, so 。！？ count), then word boundaries,
    and reports character offsets itself, so repeated text is never mislocated.
    """
    size = chunk_size or settings.chunk_size
    chunks: list[Chunk] = []
    for document in documents:
        text = document.text
        ratio = chars_per_token(text)
        splitter = TextSplitter(
            max(1, int(size * ratio)),
            overlap=int(settings.chunk_overlap * ratio),
            trim=False,
        )
        for start, piece in splitter.chunk_indices(text):
            if not piece.strip():
                continue
            chunks.append(
                Chunk(
                    id=len(chunks),
                    document=document.id,
                    start=start,
                    end=start + len(piece),
                    text=piece,
                )
            )
            if len(chunks) > settings.max_chunks:
                raise TooLargeError(
                    f"the documents split into more than {settings.max_chunks} chunks",
                    hint="Send less text, raise LONGDOC_CHUNK_SIZE or LONGDOC_MAX_CHUNKS.",
                )
    return chunks


def chunk_tasks(
    chunks: list[Chunk],
    *,
    question: str,
    task: Task,
    instructions: str,
    run: str,
    hints: dict[str, Any],
) -> list[ChunkTask]:
    """One Send payload per chunk, for the document map and the chat-history fold alike."""
    return [
        ChunkTask(
            chunk=chunk,
            question=question,
            task=task,
            instructions=instructions,
            total=len(chunks),
            run=run,
            hints=hints,
        )
        for chunk in chunks
    ]
