"""Chunking: token-sized chunks with exact character offsets, and the Send payload for each."""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Iterator
from typing import Any

from pipeline.config import Settings
from pipeline.errors import TooLargeError
from pipeline.text.boundaries import (
    Break,
    Breaks,
    Sizes,
    candidate_breaks,
    content_defined_cuts,
    fenced_code,
    overlap_start,
    structured_breaks,
)
from pipeline.text.layout import analyse
from pipeline.text.structure import Kind, Structure
from pipeline.text.tokens import chars_per_token
from pipeline.types import Chunk, ChunkTask, DocumentText, Task

SECTION_MAX_CHARS = 100
"""A heading in a chunk's section path is cut to this many characters (a title, not text)."""
_PATH_KINDS = (Kind.HEADING, Kind.TERM)
_HEADING_MARKS = re.compile(r"^#{1,6}[ \t]+|[ \t]+#+$|^\*{1,6} ")

RATIO_STEPS_PER_OCTAVE = 8
"""chars-per-token is rounded down to eighth octaves (steps of 9%), so a small edit cannot
nudge it and resize every chunk; English's 3.9998 rounds to exactly 4."""


def split_documents(
    documents: list[DocumentText],
    settings: Settings,
    chunk_size: int | None = None,
    *,
    structured: bool = False,
    chars_per_token: float | None = None,
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
    before it, from a sentence start. A chunk is always `text[start:end]` exactly, and a
    PDF's chunk carries the page starts inside it (so its page furniture is told apart).

    `chars_per_token` fixes the ratio for every document (the built-in engine's reading
    costs by characters, whatever the script).

    `structured` (for a model's chunks) reads each document's structure first: no cut falls
    inside a list item, table row or term, a cut before a heading is likelier, and each
    chunk carries its `section`, the headings above its start.
    """
    size = chunk_size or settings.chunk_size
    chunks: list[Chunk] = []
    for document in documents:
        structure = analyse(document.text, document.page_starts) if structured else None
        code = fenced_code(document.text)
        breaks = structured_breaks(structure) if structure is not None else candidate_breaks
        cuts = outside(code, breaks)
        spans = chunk_spans(document.text, size, settings.chunk_overlap, cuts, chars_per_token)
        for start, end in outside_starts(spans, code):
            piece = document.text[start:end]
            if not piece.strip():
                continue
            chunk = Chunk(id=len(chunks), document=document.id, start=start, end=end, text=piece)
            if document.page_starts:
                chunk["page_starts"] = chunk_page_starts(document.page_starts, start, end)
            if structure is not None:
                chunk["section"] = section_at(structure, document.text, start)
            chunks.append(chunk)
            if len(chunks) > settings.max_chunks:
                raise TooLargeError(
                    f"the documents split into more than {settings.max_chunks} chunks",
                    hint="Send less text, raise LONGDOC_CHUNK_SIZE or LONGDOC_MAX_CHUNKS.",
                )
    return chunks


def chunk_spans(
    text: str,
    size: int,
    overlap: int,
    breaks: Breaks = candidate_breaks,
    chars_per_token: float | None = None,
) -> list[tuple[int, int]]:
    """(start, end) of each chunk of `text`: at most `size` tokens (at `chars_per_token`, or
    the text's own ratio), overlap included."""
    ratio = chars_per_token or quantised_chars_per_token(text)
    most = max(2, int(size * ratio))
    repeat = min(int(overlap * ratio), most // 4)  # the overlap never crowds out the text
    cuts = content_defined_cuts(text, Sizes.up_to(most - repeat), breaks)
    bounds = [0, *cuts, len(text)]
    return [
        (overlap_start(text, begin, repeat, breaks), end)
        for begin, end in itertools.pairwise(bounds)
    ]


def _inside(blocks: list[tuple[int, int]], offset: int) -> bool:
    """Whether `offset` falls after the start and before the end of one of `blocks`."""
    at = bisect.bisect_right(blocks, offset, key=lambda block: block[0]) - 1
    return at >= 0 and blocks[at][0] < offset < blocks[at][1]


def outside(blocks: list[tuple[int, int]], breaks: Breaks) -> Breaks:
    """`breaks` less those inside a code block. A chunk that began inside one would read
    its closing fence as an opening one, and all its prose up to the next fence as code."""
    if not blocks:
        return breaks

    def kept(text: str, start: int, stop: int) -> Iterator[Break]:
        found = breaks(text, start, stop)
        return (b for b in found if not _inside(blocks, b[0]))

    return kept


def outside_starts(
    spans: list[tuple[int, int]], blocks: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """`spans` with an overlap that would start inside a code block dropped: the chunk
    starts at its cut instead (which `outside` keeps out of code blocks)."""
    if not blocks:
        return spans
    cuts = [0, *(end for _, end in spans[:-1])]
    return [
        (cut if _inside(blocks, start) else start, end)
        for (start, end), cut in zip(spans, cuts, strict=True)
    ]


def chunk_page_starts(page_starts: list[int], start: int, end: int) -> list[int]:
    """Where pages begin in the chunk `[start, end)`: 0 for the page it starts in, then each
    page that starts inside it (page starts [0, 3000, 6100], chunk 2500-6500: [0, 500, 3600])."""
    first = bisect.bisect_right(page_starts, start)
    last = bisect.bisect_left(page_starts, end)
    return [0, *(page - start for page in page_starts[first:last])]


def section_at(structure: Structure, text: str, offset: int) -> list[str]:
    """The headings and definition terms above `offset`, outermost first ('Logger Objects',
    'class logging.Logger'); a heading that starts there is the chunk's own first line, so
    its path stops above it."""
    block = structure.at(offset)
    if block < 0:
        return []
    chain = [block, *structure.ancestors(block)]
    path = [at for at in reversed(chain) if structure.kind(at) in _PATH_KINDS]
    if path and path[-1] == block and structure[block].start >= offset:
        path = path[:-1]
    names = (_HEADING_MARKS.sub("", text[structure[at].start : structure[at].end]) for at in path)
    return [" ".join(name.split())[:SECTION_MAX_CHARS] for name in names]


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
