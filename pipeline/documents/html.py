"""The visible text of an HTML page, in one linear pass: scripts, styles and markup dropped.

A small tokenizer walks the page once, left to right, and never looks back: text runs,
tags, comments and declarations are each consumed whole, and a construct left open at
the end of the page (`<!--`, `<div class="...`) simply ends there, as it does in a
browser. So the cost is linear in the page's size whatever its markup (the standard
library's parser rescans unfinished constructs and takes 10 s on 80 KB of `<a<a<a...`).
Blocks are emitted one at a time by `_Blocks.end_block`, the one place that turns a
block's text into lines.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

BLOCKS = frozenset(
    (
        "address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 "
        "h3 h4 h5 h6 header hr li main nav ol p pre section table td th tr ul"
    ).split()
)
"""Elements that start and end a line of their own; inline ones (<b>, <a>) stay in it."""

# Elements whose content is never shown. Script and style hold raw text (skipped to their
# end tag); the others hold markup, skipped until they close.
_HIDDEN = frozenset(("head", "noscript", "template"))
_RAW_TEXT = frozenset(("script", "style"))
# Elements that belong in <head>: any other start tag ends an unclosed head, as in browsers.
_HEAD_CONTENT = frozenset(
    "base basefont bgsound link meta title style script noscript template".split()
)

# A start tag: its name, then attributes up to `>` or the end of the page. Every branch
# is possessive and they never overlap, so a failed quote costs one scan to the end of
# the page at most once per quote character: after it, no such quote is left.
_START_TAG = re.compile(
    r"<([a-zA-Z][^\t\n\f\r />]*+)"
    r"(?:[^>\"'=]++|=[\t\n\f\r ]*+(?:\"[^\"]*+\"|'[^']*+')|[=\"'])*+"
    r"(>?)"
)
_END_TAG_NAME = re.compile(r"</([a-zA-Z][^\t\n\f\r />]*+)")

CHECK_EVERY = 2048
"""Tokens between two calls of `check` (a deadline or cancellation test)."""


def html_text(page: str, check: Callable[[], None] | None = None) -> str:
    """The visible text of `page`, one block per line, whitespace collapsed inside lines.

    `check` is called every CHECK_EVERY tokens and may raise to stop the work (a deadline
    passed, the request was cancelled); 2,048 tokens take about a millisecond.
    """
    blocks = _Blocks()
    hidden: dict[str, int] = {}  # open hidden elements by name
    pos, end, tokens = 0, len(page), 0
    while pos < end:
        tokens += 1
        if check is not None and tokens % CHECK_EVERY == 0:
            check()
        lt = _next_markup(page, pos)
        if lt > pos:
            if not hidden:
                blocks.text(page[pos:lt])
            pos = lt
            continue
        pos, tag, closing = _markup(page, pos)
        if tag is None:
            continue
        if closing:
            if hidden.get(tag):
                hidden[tag] -= 1
                if not hidden[tag]:
                    del hidden[tag]
        else:
            if "head" in hidden and tag not in _HEAD_CONTENT:
                del hidden["head"]  # <body> or any body element ends an unclosed head
            if tag in _RAW_TEXT:
                pos = _raw_text_end(page, pos, tag)
                continue
            if tag in _HIDDEN:
                hidden[tag] = hidden.get(tag, 0) + 1
        if tag in BLOCKS and not hidden:
            blocks.end_block()
    return blocks.finish()


def _markup(page: str, pos: int) -> tuple[int, str | None, bool]:
    """What starts at `page[pos] == "<"`: (where it ends, tag name or None, is end tag).

    Comments, declarations and processing instructions give None and are skipped.
    """
    following = page[pos + 1 : pos + 2]
    if following.isascii() and following.isalpha():
        tag = _START_TAG.match(page, pos)
        assert tag is not None  # the name's first letter is already known to match
        if not tag.group(2):  # the page ends inside the tag: the rest is not shown
            return len(page), None, False
        return tag.end(), tag.group(1).lower(), False
    if page.startswith("<!--", pos):
        return _comment_end(page, pos + 4), None, False
    if following == "/":
        name = _END_TAG_NAME.match(page, pos)
        close = page.find(">", pos + 2)
        after = len(page) if close == -1 else close + 1
        return after, (name.group(1).lower() if name and close != -1 else None), True
    # <!DOCTYPE ...>, <![CDATA[...]]>, <?xml ...?>: skipped to the next ">"
    close = page.find(">", pos + 2)
    return (len(page) if close == -1 else close + 1), None, False


def _next_markup(page: str, pos: int) -> int:
    """Where the next tag, comment or declaration starts (a "<" before a space is text)."""
    lt = page.find("<", pos)
    while lt != -1:
        following = page[lt + 1 : lt + 2]
        if following in ("!", "/", "?") or (following.isascii() and following.isalpha()):
            return lt
        lt = page.find("<", lt + 1)
    return len(page)


def _comment_end(page: str, body: int) -> int:
    """Where a comment whose body starts at `body` ends; `<!-->` and `<!--->` are empty."""
    if page.startswith(">", body):
        return body + 1
    if page.startswith("->", body):
        return body + 2
    close = page.find("-->", body)
    return len(page) if close == -1 else close + 3


_RAW_TEXT_ENDS: dict[str, re.Pattern[str]] = {}


def _raw_text_end(page: str, pos: int, tag: str) -> int:
    """Past the end tag of the raw-text element (script, style) whose content starts at pos."""
    pattern = _RAW_TEXT_ENDS.get(tag)
    if pattern is None:
        pattern = _RAW_TEXT_ENDS[tag] = re.compile(rf"</{tag}[\t\n\f\r />]", re.IGNORECASE)
    found = pattern.search(page, pos)
    if found is None:
        return len(page)
    close = page.find(">", found.end() - 1)
    return len(page) if close == -1 else close + 1


class _Blocks:
    """The page's text, collected block by block; `end_block` turns a block into lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._parts: list[str] = []

    def text(self, data: str) -> None:
        self._parts.append(html.unescape(data) if "&" in data else data)

    def end_block(self) -> None:
        """A block element opened or closed: its text so far becomes lines of their own."""
        if not self._parts:
            return
        for line in "".join(self._parts).splitlines():
            words = " ".join(line.split())
            if words:
                self.lines.append(words)
        self._parts = []

    def finish(self) -> str:
        self.end_block()
        return "\n".join(self.lines)
