"""The visible text of an HTML page as Markdown, in one linear pass: scripts and markup dropped.

A small tokenizer walks the page once, left to right, and never looks back: text runs,
tags, comments and declarations are each consumed whole, and a construct left open at
the end of the page (`<!--`, `<div class="...`) simply ends there, as it does in a
browser. So the cost is linear in the page's size whatever its markup (the standard
library's parser rescans unfinished constructs and takes 10 s on 80 KB of `<a<a<a...`).
The text is written by `_Markdown` in the shapes the structure pass reads
(pipeline/text/layout.py): `#` headings, `-`/`1.` list items indented by nesting, pipe
tables with a `|---|` rule under a header row of `<th>` cells, definition entries as a
term line with its description indented four spaces on the lines below (as in a man
page), and `<pre>` as fenced code. So a citation still slices the loaded text exactly,
and the engine and a model both see the page's headings, items, rows and entries.

Page furniture is not content: navigation (`<nav>`, `role="navigation"`, a sidebar or
menu by its class or id), search boxes, the page footer (`role="contentinfo"`, a `<footer>`
outside any article or section, a `class="footer"` block) and what the page hides
(`hidden`, `aria-hidden="true"`, `style="display:none"`) are
skipped with everything inside them, so a docs page opens with its title, not with its
sidebar's table of contents. If such an element never closes, where it ends cannot be
told: the page is read again with furniture kept rather than lose the rest of it.

A page that marks its main content (`<main>`, `role="main"`: mdBook, Sphinx, MkDocs and
most site templates do) is read from there only, so what the site puts around every page
(menus, theme pickers, help pop-ups shown by script, banners) stays out even when it has
no role to say so. A page whose main element holds no text is read whole.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator

_IN_HEADING = frozenset({"div", "br"})
"""Blocks a heading's own text runs on across: rustdoc's 'pub fn retain<F>(&mut self, f:
F)<div class="where">where F: FnMut(&T) -> bool,</div>' is one signature, not two headings."""
BLOCKS = frozenset(
    (
        "address article aside blockquote br caption dd div dl dt figcaption figure footer form "
        "h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table td th tr ul"
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
# One attribute of a start tag: its name and its value, quoted or bare.
_ATTRIBUTE = re.compile(
    r"([^\t\n\f\r />\"'=]+)"
    r"(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:\"([^\"]*)\"|'([^']*)'|([^\t\n\f\r >]*)))?"
)

FURNITURE_ROLES = frozenset(("navigation", "contentinfo", "search"))
"""ARIA roles of page furniture: site navigation and breadcrumbs, the page footer, search."""
FURNITURE_CLASSES = frozenset(("footer", "breadcrumb", "breadcrumbs", "sphinxsidebar", "toc"))
"""Class names doc generators give a page's footer, breadcrumb trail, sidebar and table of
contents (Sphinx: `footer`, `sphinxsidebar`; its `class="sidebar"` is an aside of the text;
DocBook, which PostgreSQL's and Debian's manuals are made with: `toc`, the section titles
again, which answered 'How do I purge a package?' with the list of them)."""
FURNITURE_IDS = frozenset(("sidebar", "nav", "navigation", "toc", "menu"))
"""Ids a hand-made page gives its sidebar or menu: Underscore.js's `<div id="sidebar">`
holds a link to every function before the page's text."""
_SECTIONING = frozenset(("article", "aside", "main", "nav", "section"))
"""Inside these a `<footer>` is the footer of that part (its author, its date), not the page's."""
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
"""Elements that never have an end tag, so never contain anything to skip."""
# A start tag without one of these words has no attribute that could make it furniture.
_FURNITURE_HINT = re.compile(
    "role|hidden|footer|breadcrumb|sidebar|nav|toc|menu|display", re.IGNORECASE
)
# An inline style that hides its element: SQLite's pragma page repeats each title in a
# '<h style="display:none">' the browser never shows.
_DISPLAY_NONE = re.compile(r"(?:^|;)\s*display\s*:\s*none\b", re.IGNORECASE)
_ROLE_HINT = re.compile("role", re.IGNORECASE)
# A page that marks its main content: a <main> start tag or a role="main" attribute.
_MAIN_HINT = re.compile(r"<main[\t\n\f\r />]|\brole\s*=\s*[\"']?main\b", re.IGNORECASE)

_TITLE = re.compile(r"<title[^>]*>([^<]*)</title", re.IGNORECASE)
_INTERNAL_SUBSET = re.compile(r"<!DOCTYPE[^>\[]*\[", re.IGNORECASE)
_SUBSET_END = re.compile(r"\]\s*>")
DOCTYPE_WITHIN = 65_536
"""Characters from the page's start a doctype with an internal subset is looked for in: it
opens the page, after at most a licence's comment; looking further would let a page of a
million doctypes cost a scan each."""
SUBSET_MAX_CHARS = 65_536
"""Longest internal subset skipped whole (an EPUB chapter's few entities need far less)."""
TITLE_SEARCH_CHARS = 100_000
"""How far into a page its `<title>` is looked for (it belongs in the head)."""

BARE_PAGE_CHARS = 400
BARE_SHARE = 0.1
"""A page without its furniture holding less text than BARE_PAGE_CHARS and this share of
the whole is read whole: its furniture is what it has to say."""
CHECK_EVERY = 2048
"""Tokens between two calls of `check` (a deadline or cancellation test)."""


def html_text(page: str, check: Callable[[], None] | None = None, titled: bool = True) -> str:
    """The visible text of `page` as Markdown, one block per line, whitespace collapsed
    inside lines (not inside `<pre>`), page furniture left out (see the module docstring).

    `check` is called every CHECK_EVERY tokens and may raise to stop the work (a deadline
    passed, the request was cancelled); 2,048 tokens take about a millisecond. `titled`:
    a page that opens with no title of its own opens with its `<title>` (not an EPUB's
    chapter, whose `<title>` is the book's, on every chapter).
    """
    text = ""
    if _MAIN_HINT.search(page) is not None:
        text = _read(page, check, only_main=True)
    if not text.strip():
        text = _read(page, check, only_main=False)
    return _titled(text, page) if titled else text


def _titled(text: str, page: str) -> str:
    """The text under the page's `<title>` when the text opens with no title of its own:
    Underscore.js's page names itself only in its sidebar, which is furniture."""
    if text.startswith("# "):
        return text
    found = _TITLE.search(page, 0, TITLE_SEARCH_CHARS)
    title = " ".join(html.unescape(found.group(1)).split()) if found else ""
    return f"# {title}\n\n{text}" if title and text.strip() else text


def _read(page: str, check: Callable[[], None] | None, only_main: bool) -> str:
    """The page's text without furniture, or with it when a furniture element never closes
    or nothing but a title and a line or two is left: a manual's front page is its table
    of contents (PostgreSQL's index.html)."""
    text, furniture_closed = _visible_text(page, check, True, only_main)
    if furniture_closed and len(text.strip()) >= BARE_PAGE_CHARS:
        return text  # most pages: read once
    whole = _visible_text(page, check, False, only_main)[0]
    if not furniture_closed or len(text.strip()) < BARE_SHARE * len(whole.strip()):
        return whole
    return text


def _visible_text(
    page: str, check: Callable[[], None] | None, skip_furniture: bool, only_main: bool
) -> tuple[str, bool]:
    """The page's text (of its main elements only, when `only_main`), and False when a
    furniture element was still open at its end."""
    blocks = _Markdown()
    hidden: dict[str, int] = {}  # open hidden elements by name
    furniture: _Element | None = None
    main: _Element | None = None  # the open main element, when only_main
    sectioning = 0  # open article, aside, main, nav and section elements
    pos, end, tokens = 0, len(page), 0
    while pos < end:
        tokens += 1
        if check is not None and tokens % CHECK_EVERY == 0:
            check()
        lt = _next_markup(page, pos)
        if lt > pos:
            if not hidden and furniture is None and (main is not None or not only_main):
                blocks.text(page[pos:lt])
            pos = lt
            continue
        start = pos
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
        if hidden:
            continue
        if furniture is not None:
            if furniture.sees(tag, closing, _opens(page, start, pos, tag)):
                blocks.end(furniture.tag)
                furniture = None
            continue
        if only_main:
            if main is None:
                if (
                    not closing
                    and _is_main(page, start, pos, tag)
                    and _opens(page, start, pos, tag)
                ):
                    main = _Element(tag)
                    blocks.start(tag)
                continue  # outside the main content: the site's frame around the page
            if main.sees(tag, closing, _opens(page, start, pos, tag)):
                blocks.end(tag)
                main = None
                continue
        if closing:
            if tag in _SECTIONING and sectioning:
                sectioning -= 1
            blocks.end(tag)
        elif skip_furniture and _is_furniture(page, start, pos, tag, sectioning):
            if _opens(page, start, pos, tag):
                furniture = _Element(tag)
                blocks.start(tag)  # its place still ends a line, a cell or an item
        else:
            if tag in _SECTIONING:
                sectioning += 1
            blocks.start(tag)
    return blocks.finish(), furniture is None


def _opens(page: str, start: int, after: int, tag: str) -> bool:
    """Whether the start tag at page[start:after] opens an element that an end tag closes."""
    return tag not in _VOID and not page.startswith("/>", after - 2)


def _is_furniture(page: str, start: int, after: int, tag: str, sectioning: int) -> bool:
    """Whether the element the start tag at page[start:after] opens is page furniture
    (see the module docstring)."""
    if tag == "nav" or (tag == "footer" and not sectioning):
        return True
    if _FURNITURE_HINT.search(page, start, after) is None:
        return False  # most tags: no attribute that could say so
    for name, value in _attributes(page, start, after, tag):
        if name == "hidden" or (name == "aria-hidden" and value.strip() == "true"):
            return True
        if name == "style" and _DISPLAY_NONE.search(value):
            return True
        if name == "role" and FURNITURE_ROLES.intersection(value.split()):
            return True
        if name == "class" and FURNITURE_CLASSES.intersection(value.split()):
            return True
        if name == "id" and value.strip() in FURNITURE_IDS:
            return True
    return False


def _is_main(page: str, start: int, after: int, tag: str) -> bool:
    """Whether the start tag at page[start:after] opens the page's main content."""
    if tag == "main":
        return True
    if _ROLE_HINT.search(page, start, after) is None:
        return False  # most tags: no role attribute
    return any(
        name == "role" and "main" in value.split()
        for name, value in _attributes(page, start, after, tag)
    )


def _attributes(page: str, start: int, after: int, tag: str) -> Iterator[tuple[str, str]]:
    """(name, value) of each attribute of the start tag at page[start:after], lowercased."""
    for found in _ATTRIBUTE.finditer(page[start:after].lower(), len(tag) + 1):
        yield found.group(1), found.group(2) or found.group(3) or found.group(4) or ""


class _Element:
    """An open element skipped or read whole (furniture, the main content): its name, and
    how deep elements of that name nest in it."""

    __slots__ = ("depth", "tag")

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.depth = 1

    def sees(self, tag: str, closing: bool, opens: bool) -> bool:
        """Count a tag met inside; True when it closes the furniture element.

        `</body>` and `</html>` close it too, as a browser closes what is left open.
        """
        if closing and tag in ("body", "html"):
            return True
        if tag == self.tag:
            if closing:
                self.depth -= 1
            elif opens:
                self.depth += 1
        return self.depth == 0


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
    # <!DOCTYPE ...>, <![CDATA[...]]>, <?xml ...?>: skipped to the next ">", but an XHTML
    # doctype's internal subset to its "]>" ('<!DOCTYPE html [ <!ENTITY ...> ]>')
    close = page.find(">", pos + 2)
    subset = _INTERNAL_SUBSET.match(page, pos) if pos < DOCTYPE_WITHIN else None
    if subset is not None and (close == -1 or subset.end() <= close):
        ends = _SUBSET_END.search(page, subset.end(), subset.end() + SUBSET_MAX_CHARS)
        if ends is not None:  # else read on from the first ">", as a browser does
            return ends.end(), None, False
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


DESCRIPTION_INDENT = 4
"""How far a `<dd>` sits inside its `<dt>`: a man page's shape, which layout.py reads as an
entry (a term line, then its description on deeper lines)."""
MAX_INDENT = 16
"""Nesting deeper than this stays at this indent: 100,000 nested lists must not write
lines of 400,000 spaces (the page would grow quadratically)."""
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
LINK_MARKS = frozenset("#¶§🔗")
"""Marks doc generators link a heading or term with, in an element of its own: Sphinx's
`<a class="headerlink">¶</a>`, Node's `<a class="mark">#</a>`."""


def _without_link_marks(parts: list[str]) -> list[str]:
    """A heading's or term's text runs less a link mark that is a text of its own at either
    end: 'Child process' + '#' reads 'Child process'; 'C#', one text, stays."""
    filled = [i for i, part in enumerate(parts) if part.strip()]
    drop = {i for i in (filled[:1] + filled[-1:]) if parts[i].strip() in LINK_MARKS}
    return [part for i, part in enumerate(parts) if i not in drop]


class _Frame:
    """An open list, list item or description: what indents the lines written inside it."""

    __slots__ = ("count", "indent", "kind", "marker")

    def __init__(self, kind: str, indent: int, marker: str = "") -> None:
        self.kind = kind  # "ul", "ol", "li", "dl" or "dd"
        self.indent = min(indent, MAX_INDENT)
        self.marker = marker  # an item's marker, until its first line is written
        self.count = 0  # items of an "ol" so far


class _Table:
    """The outermost open table: its row so far and whether a header row was written."""

    def __init__(self) -> None:
        self.cells: list[str] | None = None  # the open row's cells
        self.cell: list[str] | None = None  # the open cell's text
        self.header_cells = 0  # how many of the open row's cells are <th>
        self.head = False  # inside <thead>
        self.rows = 0  # rows written


def _frames_only(table: _Table) -> bool:
    """The table has written no row and its open row no cell, and its open cell holds no
    text yet."""
    blank = table.cell is None or not "".join(table.cell).strip()
    return table.rows == 0 and not table.cells and blank


class _Markdown:
    """The page's text, written as Markdown block by block (see the module docstring)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._parts: list[str] = []
        self._frames: list[_Frame] = []
        self._open = {"ul": 0, "ol": 0, "li": 0, "dl": 0, "dd": 0}
        self._last = ""  # the kind of line last written: term, item, row, text, ""
        self._heading = 0  # the level of the open heading
        self._heading_blocks = 0  # blocks opened inside it and not closed yet
        self._term = False  # inside a <dt>
        self._tables: list[_Table] = []
        self._pre = 0  # open <pre> elements

    # -- what the tokenizer feeds ----------------------------------------------------------

    def text(self, data: str) -> None:
        data = html.unescape(data) if "&" in data else data
        table = self._tables[-1] if self._tables else None
        if table is not None and table.cell is not None:
            table.cell.append(data)
        else:
            self._parts.append(data)

    def start(self, tag: str) -> None:
        if tag not in BLOCKS and tag != "thead":
            return  # inline (<a>, <code>, <span>): its text runs on in the line
        table = self._tables[-1] if self._tables else None
        outermost = table is not None and len(self._tables) == 1
        if tag == "pre" and outermost and table is not None and _frames_only(table):
            # A table whose first cell opens with preformatted text frames it (DocBook's
            # program listings, shaded boxes): its lines are the content, not one cell to
            # run together. The rest of the table reads as blocks.
            self._tables.pop()
            table, outermost = None, False
        if (outermost or tag == "table") and self._table_start(tag):
            return
        if table is not None and table.cell is not None:
            if tag in BLOCKS:
                table.cell.append(" ")  # a block inside a cell reads as one run of words
            return
        if self._heading and tag not in _HEADINGS and tag not in _IN_HEADING and not self._pre:
            self._heading_blocks += 1  # a block inside the heading: its end is no heading's
        if tag == "pre":
            self._flush()
            self._pre += 1
        elif self._pre:
            if tag == "br":
                self._parts.append("\n")
        elif self._heading and tag in _IN_HEADING:
            self._heading_blocks += tag == "div"
            self._parts.append(" ")
        elif tag in ("ul", "ol", "dl"):
            self._flush()
            self._push(tag, self._indent())
        elif tag == "li":
            self._item()
        elif tag in ("dt", "dd"):
            self._flush()
            self._close_description()
            self._term = False
            if tag == "dt":
                self._term = True
            else:
                self._push("dd", self._indent() + DESCRIPTION_INDENT)
        elif tag in _HEADINGS:
            self._flush()
            self._heading = _HEADINGS[tag]
            self._heading_blocks = 0
        elif tag == "br":
            self._flush(then_tight=True)
        elif tag in BLOCKS:
            self._flush()

    def end(self, tag: str) -> None:
        if tag not in BLOCKS and tag != "thead":
            return
        if self._tables and (tag in ("table", "tr", "td", "th", "thead") and self._table_end(tag)):
            return
        if self._tables and self._tables[-1].cell is not None:
            if tag in BLOCKS:
                self._tables[-1].cell.append(" ")
            return
        if self._heading and not self._pre and tag not in _HEADINGS and tag not in _IN_HEADING:
            if self._heading_blocks:
                self._heading_blocks -= 1
            else:  # a block around a heading never closed ends it, as in a browser: '</li>'
                self._flush()
                self._heading = 0
        if tag == "pre":
            if self._pre:
                self._pre -= 1
                if not self._pre:
                    self._code()
        elif self._pre:
            return
        elif self._heading and tag == "br":
            self._parts.append(" ")  # '</br>', which a browser reads as '<br>'
        elif self._heading and tag == "div" and self._heading_blocks:
            self._heading_blocks -= 1  # a <div> of the heading's own ends
            self._parts.append(" ")
        elif self._heading and tag == "div":
            # a heading never closed, ended by the <div> around it: read as a browser
            # does, not as one heading taking in the page's blocks after it
            self._flush()
            self._heading = 0
        elif tag in ("ul", "ol", "dl", "li", "dd"):
            self._flush()
            if self._open[tag]:
                while self._frames:
                    frame = self._pop()
                    if frame.kind == tag:
                        break
        elif tag == "dt":
            self._flush()
            self._term = False
        elif tag in _HEADINGS:
            self._flush()
            self._heading = 0
        elif tag in BLOCKS:
            self._flush()

    def finish(self) -> str:
        while self._tables:
            self._table_end("table")
        if self._pre:
            self._code()
        self._flush()
        while self.lines and not self.lines[-1]:
            self.lines.pop()
        return "\n".join(self.lines)

    # -- lists and entries -----------------------------------------------------------------

    def _push(self, kind: str, indent: int, marker: str = "") -> _Frame:
        frame = _Frame(kind, indent, marker)
        self._frames.append(frame)
        self._open[kind] += 1
        return frame

    def _pop(self) -> _Frame:
        frame = self._frames.pop()
        self._open[frame.kind] -= 1
        return frame

    def _indent(self) -> int:
        return self._frames[-1].indent if self._frames else 0

    def _item(self) -> None:
        """An <li>: closes the item before it in the same list (its </li> is optional)."""
        self._flush()
        if self._frames and self._frames[-1].kind == "li":
            self._pop()
        lists = self._frames[-1] if self._frames else None
        if lists is not None and lists.kind == "ol":
            lists.count += 1
            marker = f"{lists.count}. "
        else:
            marker = "- "
        base = lists.indent if lists is not None else 0
        self._push("li", base + len(marker), marker)

    def _close_description(self) -> None:
        """A <dt> or <dd> ends the <dd> open in the same list (its </dd> is optional)."""
        if self._frames and self._frames[-1].kind == "dd":
            self._pop()

    # -- lines -----------------------------------------------------------------------------

    def _write(self, line: str, kind: str, tight: bool) -> None:
        """Append a line; a blank line goes before it unless it belongs with the last one."""
        if not tight and self.lines and self.lines[-1]:
            self.lines.append("")
        self.lines.append(line)
        self._last = kind

    def _flush(self, then_tight: bool = False) -> None:
        """The inline text so far becomes a line: a heading, a term, an item or text."""
        if not self._parts:
            return
        parts = _without_link_marks(self._parts) if self._heading or self._term else self._parts
        words = " ".join("".join(parts).split()) or " ".join("".join(self._parts).split())
        self._parts = []
        if not words:
            return
        tight = self._last == "tight"
        if self._heading or self._term:  # a pilcrow ends no title, even inside its text
            words = words.removesuffix("¶").rstrip() or words
        frame = self._frames[-1] if self._frames else None
        if self._heading and frame is None:
            self._write(f"{'#' * self._heading} {words}", "heading", False)
        elif self._term:
            self._write(" " * self._indent() + words, "term", self._last == "term")
        elif frame is not None and frame.kind == "li" and frame.marker:
            lead = " " * (frame.indent - len(frame.marker))
            self._write(lead + frame.marker + words, "item", self._last == "item" or tight)
            frame.marker = ""
        else:
            self._write(" " * self._indent() + words, "text", self._last == "term" or tight)
        if then_tight:
            self._last = "tight"

    def _code(self) -> None:
        """The open <pre> as a fenced block, its lines as they were."""
        body = "".join(self._parts).strip("\n").rstrip()
        self._parts = []
        self._pre = 0
        if not body.strip():
            return
        fence = "~~~" if "```" in body else "```"
        prefix = " " * self._indent()
        self._write(prefix + fence, "code", self._last == "term")
        for line in body.split("\n"):
            self.lines.append(prefix + line.rstrip() if line.strip() else "")
        self.lines.append(prefix + fence)
        self._last = "code"

    # -- tables ----------------------------------------------------------------------------

    def _table_start(self, tag: str) -> bool:
        """A table tag of the outermost table; True when it was handled."""
        if tag == "table":
            if self._tables:  # a table in a cell: its text runs on in the cell
                self._tables.append(_Table())
                return False
            self._flush()
            self._tables.append(_Table())
            return True
        table = self._tables[-1]
        if tag == "thead":
            table.head = True
        elif tag == "tr":
            self._end_row(table)
            self._flush()
            table.cells = []
        elif tag in ("td", "th"):
            self._end_cell(table)
            if table.cells is None:
                self._flush()
                table.cells = []
            table.cell = []
            table.header_cells += tag == "th"
        else:
            return False
        return True

    def _table_end(self, tag: str) -> bool:
        table = self._tables[-1]
        if len(self._tables) > 1:
            if tag == "table":
                self._tables.pop()
                outer = self._tables[-1]
                if outer.cell is not None:
                    outer.cell.append(" ")
                return True
            return False
        if tag == "table":
            self._end_row(table)
            self._tables.pop()
            self._last = "" if self._last == "row" else self._last
        elif tag == "tr":
            self._end_row(table)
        elif tag in ("td", "th"):
            self._end_cell(table)
        elif tag == "thead":
            table.head = False
        return True

    def _end_cell(self, table: _Table) -> None:
        if table.cell is not None and table.cells is not None:
            words = " ".join("".join(table.cell).split())
            table.cells.append(words.replace("|", "\\|"))
        table.cell = None

    def _end_row(self, table: _Table) -> None:
        """The open row as `| a | b |`; a first row of header cells gets the rule under it."""
        self._end_cell(table)
        cells, table.cells = table.cells, None
        header = table.head or (bool(cells) and table.header_cells == len(cells or ()))
        table.header_cells = 0
        if not cells or not any(cells):
            return
        prefix = " " * self._indent()
        self._write(f"{prefix}| {' | '.join(cells)} |", "row", self._last in ("row", "term"))
        if header and table.rows == 0:
            self.lines.append(f"{prefix}|{'---|' * len(cells)}")
        table.rows += 1
