"""A Word document (.docx) as Markdown: headings, list items, tables and footnotes as a
reader sees them, in the shapes html.py writes.

WordprocessingML keeps the text in `word/document.xml`, paragraph by paragraph (`w:p`),
with what a paragraph is in its style: `Heading1`, or a style whose name is 'heading 1'
(a French Word names it 'Titre 1', keeping the outline level), or any style with an outline
level. A paragraph with numbering (`w:numPr`, its own or its style's) is a list item:
`numbering.xml` tells bullets ('- ') from numbers ('1.'); a numbered heading keeps the
number Word shows ('Article 1', '3.2'). Tables (`w:tbl`) are pipe tables with their first
row as the header. Text is what Word shows: inserted text of tracked changes is in, deleted
and hidden text is out, field codes ('TOC \\o') are out and their results in. Footnotes and
endnotes follow the text, numbered as their references in it are.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from pipeline.documents.blocks import Blocks
from pipeline.documents.roff_escapes import character
from pipeline.documents.zipped import MAIN_WORD_PART, Archive

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_STRICT = (b"http://purl.oclc.org/ooxml/wordprocessingml/main", W[1:-1].encode())
"""Strict OOXML's namespace for the same elements, read as the usual one."""
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_SKIPPED = frozenset(
    W + tag for tag in ("del", "delText", "instrText", "pPr", "rPr", "moveFrom", "sectPr")
) | {_FALLBACK}
"""What Word does not show in the text: deleted text, field codes, properties, and a
drawing's fallback copy of its text box."""
_CONTAINERS = frozenset(W + tag for tag in ("sdt", "sdtContent", "customXml", "ins", "moveTo"))
"""Elements of the body that hold paragraphs and tables."""
_LEVEL_NUMBER = re.compile(r"%([1-9])")
"""A level's number in a numbering's level text: '%1.%2' is '3.2'."""
_HEADING_NAME = re.compile(r"(?:heading|title)\s*(\d?)$", re.IGNORECASE)
_NOT_NOTES = frozenset(("separator", "continuationSeparator", "continuationNotice"))
_SPACE = Element(W + "tab")
"""Read as a space: what a text box's paragraph ends with (see paragraph_text)."""


def _attribute(element: Element | None, name: str) -> str | None:
    return None if element is None else element.get(W + name)


@dataclass
class _Style:
    level: int = 0  # heading level, 0 for none
    numbered: tuple[str, str] | None = None  # (numId, ilvl) a list style gives
    based_on: str = ""


@dataclass
class _Lists:
    """Numbering definitions, and the count of each list's items so far."""

    formats: dict[tuple[str, str], str] = field(default_factory=dict)  # (numId, ilvl) -> fmt
    starts: dict[tuple[str, str], int] = field(default_factory=dict)  # ... -> first number
    texts: dict[tuple[str, str], str] = field(default_factory=dict)  # ... -> lvlText '%1.%2'
    counts: dict[tuple[str, int], int] = field(default_factory=dict)

    def marker(self, num_id: str, level: int) -> str:
        """A list item's marker: '- ', or its number at its level ('3. ', 'c. ')."""
        count = self._advance(num_id, level)
        number_format = self.formats.get((num_id, str(level)), "bullet")
        if number_format in ("bullet", "none"):
            return "- "
        return f"{_numbered(count, number_format)}. "

    def label(self, num_id: str, level: int) -> str:
        """A numbered heading's number as Word shows it, by its level's text: 'Article 1',
        '3.2' (the numbers of the levels above it too); '' for a bullet."""
        self._advance(num_id, level)
        number_format = self.formats.get((num_id, str(level)), "bullet")
        if number_format in ("bullet", "none"):
            return ""
        pattern = self.texts.get((num_id, str(level))) or f"%{level + 1}."

        def number(match: re.Match[str]) -> str:
            above = int(match.group(1)) - 1
            return _numbered(
                self.counts.get((num_id, above), 1), self.formats.get((num_id, str(above)), "")
            )

        return _LEVEL_NUMBER.sub(number, pattern).strip()

    def _advance(self, num_id: str, level: int) -> int:
        """Count an item at `level`; a new item restarts the lists below it."""
        for deeper in [key for key in self.counts if key[0] == num_id and key[1] > level]:
            del self.counts[deeper]
        count = self.counts.get((num_id, level), self.starts.get((num_id, str(level)), 1) - 1) + 1
        self.counts[(num_id, level)] = count
        return count


def docx_text(archive: Archive) -> str:
    """The document's text as Markdown (see the module docstring)."""
    styles = _styles(archive)
    lists = _lists(archive)
    root = archive.xml(_main_part(archive), _STRICT)
    body = root.find(W + "body")
    blocks = Blocks()
    last_item = False
    for element in _body_blocks(body if body is not None else root):
        archive.check()
        if element.tag == W + "tbl":
            _write_table(blocks, element)
            last_item = False
            continue
        text = paragraph_text(element)
        if not text:
            continue
        level, numbered = _paragraph_kind(element, styles)
        if level:  # a numbered heading keeps its number: 'Article 1', '3.2 Payment'
            number = _heading_number(lists, numbered)
            blocks.write("#" * min(level, 6) + " " + (f"{number} " if number else "") + text)
            last_item = False
        elif numbered is not None and numbered[0] != "0":
            depth = int(numbered[1]) if numbered[1].isdigit() else 0
            marker = lists.marker(numbered[0], depth)
            blocks.write(marker + text, 2 * depth, tight=last_item)
            last_item = True
        else:
            blocks.write(text)
            last_item = False
    for part, title in (("word/footnotes.xml", "Footnotes"), ("word/endnotes.xml", "Endnotes")):
        notes = _notes(archive, part)
        if notes:
            blocks.write("# " + title)
            for number, text in notes:
                blocks.write(f"[{number}] {text}")
    return blocks.text()


_PACKAGE_RELATIONS = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def _main_part(archive: Archive) -> str:
    """The part holding the document's text, as the package's relationships name it:
    'word/document.xml', or 'word/document2.xml' as Word Online may save it; without
    relationships, the one part named so."""
    if archive.has("word/document.xml"):
        return "word/document.xml"
    if archive.has("_rels/.rels"):
        for relation in archive.xml("_rels/.rels").iter(_PACKAGE_RELATIONS + "Relationship"):
            part = posixpath.normpath(relation.get("Target", "")).lstrip("/")
            if relation.get("Type", "").endswith("/officeDocument") and archive.has(part):
                return part
    named = sorted(n for n in archive.names() if MAIN_WORD_PART.fullmatch(n))
    return named[0] if named else "word/document.xml"


def _heading_number(lists: _Lists, numbered: tuple[str, str] | None) -> str:
    if numbered is None or numbered[0] == "0":
        return ""
    return lists.label(numbered[0], int(numbered[1]) if numbered[1].isdigit() else 0)


def _body_blocks(body: Element) -> Iterator[Element]:
    """The body's paragraphs and tables in order, out of the containers that hold them; a
    table of one cell is a box around its paragraphs (a layout's frame), read as they are."""
    stack = [iter(body)]
    while stack:
        element = next(stack[-1], None)
        if element is None:
            stack.pop()
        elif element.tag == W + "tbl" and (cell := _only_cell(element)) is not None:
            stack.append(iter(cell))
        elif element.tag in (W + "p", W + "tbl"):
            yield element
        elif element.tag in _CONTAINERS:
            stack.append(iter(element))


def _only_cell(table: Element) -> Element | None:
    """The table's cell if it has one row of one cell, else None."""
    rows = list(_through_containers(table, W + "tr"))
    if len(rows) != 1:
        return None
    cells = list(_through_containers(rows[0], W + "tc"))
    return cells[0] if len(cells) == 1 else None


def paragraph_text(paragraph: Element) -> str:
    """What the paragraph shows, its whitespace collapsed (see the module docstring)."""
    parts: list[str] = []
    fields = _Fields()
    stack = [iter(paragraph)]
    while stack:  # a loop, not recursion: nesting in a part is the sender's to choose
        element = next(stack[-1], None)
        if element is None:
            stack.pop()
            continue
        tag = element.tag
        if tag in _SKIPPED:
            continue
        if tag == W + "r" and _hidden(element):
            continue  # hidden text (w:vanish): Word does not show it
        if tag == W + "fldChar":
            fields.mark(_attribute(element, "fldCharType"))
        elif fields.coding:
            pass  # a field's code, or the result of a field inside it
        elif tag in (W + "t", MATH + "t"):
            parts.append(element.text or "")
        elif tag in (W + "tab", W + "ptab", W + "br", W + "cr"):
            parts.append(" ")
        elif tag == W + "noBreakHyphen":
            parts.append("-")
        elif tag == W + "sym":
            parts.append(_symbol(element))
        elif tag in (W + "footnoteReference", W + "endnoteReference"):
            parts.append(f"[{_attribute(element, 'id')}]")
        elif tag == W + "p":  # a text box's paragraph inside this one: words apart
            parts.append(" ")
            stack.append(iter([_SPACE]))  # ... after it too
        stack.append(iter(element))
    return " ".join("".join(parts).split())


class _Fields:
    """The open fields of a paragraph (w:fldChar begin ... separate ... end), each in its
    code or its result. Word shows a result only when no field around it is in its code:
    'IF { MERGEFIELD x } = "y" ...' shows the IF's result, not the MERGEFIELD's."""

    def __init__(self) -> None:
        self.results: list[bool] = []  # per open field, innermost last: in its result
        self.coding = 0  # how many open fields are in their code

    def mark(self, kind: str | None) -> None:
        if kind == "begin":
            self.results.append(False)
            self.coding += 1
        elif kind == "separate" and self.results and not self.results[-1]:
            self.results[-1] = True
            self.coding -= 1
        elif kind == "end" and self.results:
            in_result = self.results.pop()
            self.coding -= 0 if in_result else 1  # no result: it ended in its code


def _hidden(run: Element) -> bool:
    vanish = run.find(f"{W}rPr/{W}vanish")
    return vanish is not None and _attribute(vanish, "val") not in ("0", "false", "off")


def _symbol(element: Element) -> str:
    """A `w:sym`'s character, unless it is in a symbol font's private area (F000-F0FF)."""
    code = _attribute(element, "char") or ""
    try:
        value = int(code, 16)
    except ValueError:
        return ""
    return "" if 0xE000 <= value <= 0xF8FF else character(value)


def _paragraph_kind(
    paragraph: Element, styles: dict[str, _Style]
) -> tuple[int, tuple[str, str] | None]:
    """(heading level or 0, (numId, ilvl) or None) from the paragraph's properties and style."""
    properties = paragraph.find(W + "pPr")
    style_id = _attribute(properties.find(W + "pStyle") if properties is not None else None, "val")
    level, numbered = _style_kind(style_id or "", styles)
    if properties is not None:
        outline = _attribute(properties.find(W + "outlineLvl"), "val")
        if outline is not None and outline.isdigit() and int(outline) < 9:
            level = int(outline) + 1
        own = _numbering(properties.find(W + "numPr"))
        if own is not None:
            numbered = (own[0], own[1] or (numbered[1] if numbered else "0"))
    return level, numbered


def _style_kind(style_id: str, styles: dict[str, _Style]) -> tuple[int, tuple[str, str] | None]:
    """A style's heading level and numbering, inherited through `basedOn` (cycles end)."""
    level, numbered, seen = 0, None, set()
    while style_id and style_id not in seen:
        seen.add(style_id)
        style = styles.get(style_id)
        if style is None:
            break
        level = level or style.level
        numbered = numbered or style.numbered
        style_id = style.based_on
    return level, numbered


def _numbering(element: Element | None) -> tuple[str, str] | None:
    """(numId, ilvl) of a `w:numPr`; ilvl '' when it gives none."""
    if element is None:
        return None
    num_id = _attribute(element.find(W + "numId"), "val")
    return None if num_id is None else (num_id, _attribute(element.find(W + "ilvl"), "val") or "")


def _styles(archive: Archive) -> dict[str, _Style]:
    if not archive.has("word/styles.xml"):
        return {}
    styles = {}
    for element in archive.xml("word/styles.xml", _STRICT).iter(W + "style"):
        style_id = _attribute(element, "styleId")
        if not style_id or _attribute(element, "type") not in (None, "paragraph"):
            continue
        style = _Style(based_on=_attribute(element.find(W + "basedOn"), "val") or "")
        name = _attribute(element.find(W + "name"), "val") or ""
        named = _HEADING_NAME.match(name)
        properties = element.find(W + "pPr")
        outline = _attribute(
            properties.find(W + "outlineLvl") if properties is not None else None, "val"
        )
        if named:
            style.level = int(named.group(1) or 1)
        elif outline is not None and outline.isdigit() and int(outline) < 9:
            style.level = int(outline) + 1
        if properties is not None:
            numbered = _numbering(properties.find(W + "numPr"))
            style.numbered = (numbered[0], numbered[1] or "0") if numbered else None
        styles[style_id] = style
    return styles


def _lists(archive: Archive) -> _Lists:
    lists = _Lists()
    if not archive.has("word/numbering.xml"):
        return lists
    root = archive.xml("word/numbering.xml", _STRICT)
    abstract: dict[str, dict[str, tuple[str, int, str]]] = {}
    for definition in root.iter(W + "abstractNum"):
        levels = abstract.setdefault(_attribute(definition, "abstractNumId") or "", {})
        for lvl in definition.iter(W + "lvl"):
            start = _attribute(lvl.find(W + "start"), "val") or "1"
            levels[_attribute(lvl, "ilvl") or "0"] = (
                _attribute(lvl.find(W + "numFmt"), "val") or "bullet",
                int(start) if start.isdigit() else 1,
                _attribute(lvl.find(W + "lvlText"), "val") or "",
            )
    for num in root.iter(W + "num"):
        defined = abstract.get(_attribute(num.find(W + "abstractNumId"), "val") or "", {})
        for level, (number_format, first, text) in defined.items():
            key = (_attribute(num, "numId") or "", level)
            lists.formats[key], lists.starts[key], lists.texts[key] = number_format, first, text
    return lists


_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))  # fmt: skip


def _numbered(count: int, number_format: str) -> str:
    """An item's number as its list writes it: '3', 'c', 'C', 'iii', 'III'."""
    if number_format in ("lowerLetter", "upperLetter") and 1 <= count <= 26:
        letter = chr(ord("a") + count - 1)
        return letter.upper() if number_format == "upperLetter" else letter
    if number_format in ("lowerRoman", "upperRoman") and 1 <= count < 4000:
        roman = ""
        for value, numeral in _ROMAN:
            while count >= value:
                roman += numeral
                count -= value
        return roman.upper() if number_format == "upperRoman" else roman
    return str(count)


def _write_table(blocks: Blocks, table: Element) -> None:
    """A pipe table; the first row is its header (a Word table's usual first row)."""
    rows = []
    for row in _through_containers(table, W + "tr"):  # its own rows, not a nested table's
        if row.find(f"{W}trPr/{W}del") is not None:
            continue  # a row deleted with changes tracked
        cells = []
        for cell in _through_containers(row, W + "tc"):
            cells.append(_text_of(cell))
            span = _attribute(cell.find(f"{W}tcPr/{W}gridSpan"), "val") or "1"
            cells += [""] * (min(int(span), 64) - 1 if span.isdigit() else 0)
        if any(cells):
            rows.append(cells)
    blocks.table(rows, header=True)


def _through_containers(parent: Element, tag: str) -> Iterator[Element]:
    """`parent`'s children of `tag`, and those inside content controls (`w:sdt`) and the
    like: a form template wraps its table's rows and cells in them."""
    stack = [iter(parent)]
    while stack:
        element = next(stack[-1], None)
        if element is None:
            stack.pop()
        elif element.tag == tag:
            yield element
        elif element.tag in _CONTAINERS:
            stack.append(iter(element))


def _text_of(element: Element) -> str:
    """The text of every paragraph inside `element` (a cell, a note), each read once: a
    text box's paragraphs are read with the paragraph holding them, not again."""
    texts = []
    stack = [iter(element)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        elif child.tag == W + "p":
            texts.append(paragraph_text(child))
        else:
            stack.append(iter(child))
    return " ".join(filter(None, texts))


def _notes(archive: Archive, part: str) -> list[tuple[str, str]]:
    if not archive.has(part):
        return []
    notes = []
    for note in archive.xml(part, _STRICT):
        if _attribute(note, "type") in _NOT_NOTES:
            continue
        text = _text_of(note)
        if text:
            notes.append((_attribute(note, "id") or "", text))
    return notes
