"""The document model: a text's blocks (headings, paragraphs, items, rows, terms, code, furniture).

Every block is an exact span of the text it was read from, with a kind, a level and a
parent: the block that gives it its context (a paragraph's section heading or definition
term, a list item's lead-in, a table row's header row). Blocks never overlap and come in
document order, so `text[block.start:block.end]` reads the document front to back.

Where the structure lives: it is a pure function of the loaded text and its page starts
(pipeline/text/layout.py reads it back from how the lines look), and loaders write what
they know into the text in that one form: HTML as Markdown (headings, lists, pipe tables,
definition lists, fenced code), PDFs with a blank line between paragraphs. So any slice of
a document, a chunk included, has the structure its text shows; a DocumentText needs no
second field to keep in step through JSON, checkpoints or `include_documents`; and a model
reading a chunk sees the same headings, items and rows the built-in engine does.

Columns, not objects: 10 MB of man page holds ~100,000 blocks, which as tuples of Python
ints would take ~14 MB; as arrays they take 2 MB.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterator
from enum import IntEnum
from typing import NamedTuple


class Kind(IntEnum):
    """What a block is."""

    HEADING = 0
    """A section title; `level` 1 is the top."""
    PARAGRAPH = 1
    """Running text (one or more sentences, hard-wrapped or not)."""
    ITEM = 2
    """A list item, marker included; `level` is its nesting depth from 0."""
    ROW = 3
    """A table row (`| a | b |`); `level` 1 marks the header row that names the columns."""
    TERM = 4
    """The term of a definition entry (a man page option, a `<dt>`); its description is the
    blocks whose parent it is. `level` is its nesting depth (set's -e is inside set)."""
    CODE = 5
    """Preformatted text: a fenced block, fences included."""
    FURNITURE = 6
    """A running header or footer, or a page number: on the page, not in the text's flow."""


_KINDS = tuple(Kind)
"""Kind by value: indexing it is 10x faster than calling Kind(value), once per unit scored."""


class Block(NamedTuple):
    """One block: `text[start:end]` is it, stripped of surrounding whitespace."""

    kind: Kind
    start: int
    end: int
    level: int
    parent: int
    """Index of the block that gives this one its context, -1 for none."""


class Structure:
    """The blocks of one text, in order, stored as parallel columns."""

    __slots__ = ("_ends", "_kinds", "_levels", "_parents", "_starts")

    def __init__(self) -> None:
        self._kinds = bytearray()
        self._levels = bytearray()
        self._starts = array("i")
        self._ends = array("i")
        self._parents = array("i")

    def add(self, kind: Kind, start: int, end: int, level: int = 0, parent: int = -1) -> int:
        """Append a block; returns its index."""
        self._kinds.append(kind)
        self._levels.append(min(level, 255))
        self._starts.append(start)
        self._ends.append(end)
        self._parents.append(parent)
        return len(self._kinds) - 1

    def __len__(self) -> int:
        return len(self._kinds)

    def __getitem__(self, index: int) -> Block:
        return Block(
            _KINDS[self._kinds[index]],
            self._starts[index],
            self._ends[index],
            self._levels[index],
            self._parents[index],
        )

    def __iter__(self) -> Iterator[Block]:
        return (self[i] for i in range(len(self)))

    def kind(self, index: int) -> Kind:
        return _KINDS[self._kinds[index]]

    def parent(self, index: int) -> int:
        return self._parents[index]

    def set_parent(self, index: int, parent: int) -> None:
        self._parents[index] = parent

    def set_level(self, index: int, level: int) -> None:
        self._levels[index] = min(level, 255)

    def set_end(self, index: int, end: int) -> None:
        self._ends[index] = end

    def ancestors(self, index: int) -> list[int]:
        """The chain of parents of a block, nearest first (a cycle cannot occur: parents
        always come earlier in the document)."""
        chain: list[int] = []
        parent = self._parents[index]
        while parent >= 0:
            chain.append(parent)
            parent = self._parents[parent]
        return chain

    def section(self, index: int) -> int:
        """The heading a block sits under (itself for a heading), -1 if none."""
        for at in (index, *self.ancestors(index)):
            if self._kinds[at] == Kind.HEADING:
                return at
        return -1

    def heading_path(self, index: int) -> list[int]:
        """The headings above a block, outermost first (for a heading: its own path)."""
        path = [i for i in (index, *self.ancestors(index)) if self._kinds[i] == Kind.HEADING]
        return path[::-1]

    def at(self, offset: int) -> int:
        """Index of the last block starting at or before `offset`, -1 if none."""
        return bisect.bisect_right(self._starts, offset) - 1

    def ends(self) -> array[int]:
        """Block end offsets, in order (for bisecting)."""
        return self._ends

    def starts(self) -> array[int]:
        """Block start offsets, in order (for bisecting)."""
        return self._starts
