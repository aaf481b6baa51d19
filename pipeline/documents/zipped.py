"""ZIP-packaged documents (Word's .docx, EPUB books): which one a ZIP is, and its parts read
within limits.

A ZIP says what its size is, and may lie: each part is read in blocks and refused past
what is left of the document's byte budget (the same bytes a plain file may have), so a
small archive that inflates to gigabytes stops at the budget, not at the memory's end.
Parts that are XML are parsed only when they declare no DTD: a DTD is how an entity bomb
or an external entity gets in, and no Word or EPUB part needs one.
"""

from __future__ import annotations

import io
import lzma
import re
import struct
import zipfile
import zlib
from collections.abc import Callable
from typing import Literal
from xml.etree import ElementTree
from xml.parsers import expat

from pipeline.errors import InputError, TooLargeError, UnsupportedTypeError

ZipKind = Literal["docx", "epub"]
MAX_PARTS = 20_000
"""Most entries an archive may list: a book has hundreds, a report a few dozen."""
_BLOCK = 1 << 20
_DAMAGED = (
    zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, RuntimeError,
    zlib.error, lzma.LZMAError, struct.error, KeyError,
)  # fmt: skip
"""What a damaged archive raises as zipfile reads it (RuntimeError: an encrypted part)."""
_END_OF_DIRECTORY = b"PK\x05\x06"
MAIN_WORD_PART = re.compile(r"word/document\d*\.xml")
"""A Word document's main part: Word Online may save it as 'word/document2.xml'."""
_OTHER_ZIPS = {
    "xl/workbook.xml": "an Excel workbook (.xlsx)",
    "ppt/presentation.xml": "a PowerPoint presentation (.pptx)",
    "content.xml": "an OpenDocument file (.odt/.ods/.odp)",
}


def zipped_kind(raw: bytes, name: str) -> ZipKind:
    """ "docx" or "epub" for a ZIP that is one; UnsupportedTypeError for any other ZIP."""
    _check_parts(raw, name)
    try:
        names = set(zipfile.ZipFile(io.BytesIO(raw)).namelist())
    except NotImplementedError as exc:
        raise UnsupportedTypeError(f"{name} is a ZIP archive longdoc cannot open ({exc})") from None
    except _DAMAGED as exc:
        raise InputError(f"{name} is a damaged ZIP archive ({exc})") from None
    if any(MAIN_WORD_PART.fullmatch(n) for n in names):
        return "docx"
    if "META-INF/container.xml" in names:
        return "epub"
    what = next((kind for part, kind in _OTHER_ZIPS.items() if part in names), "a ZIP archive")
    raise UnsupportedTypeError(
        f"{name} looks like {what}, a type longdoc cannot read",
        hint="Send Word (.docx), EPUB, PDF, HTML, Markdown or plain text.",
    )


class Archive:
    """A ZIP's parts, read within the document's byte budget; `check` runs between reads
    (the load's CPU budget and cancellation)."""

    def __init__(self, raw: bytes, name: str, budget_bytes: int, check: Callable[[], None]) -> None:
        self.name = name
        self.budget = budget_bytes
        self.left = budget_bytes
        self.check = check
        _check_parts(raw, name)
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(raw))
        except _DAMAGED as exc:
            raise InputError(f"{name} is a damaged ZIP archive ({exc})") from None

    def names(self) -> list[str]:
        return self.zip.namelist()

    def has(self, part: str) -> bool:
        try:
            self.zip.getinfo(part)
        except KeyError:
            return False
        return True

    def read(self, part: str) -> bytes:
        """A part's bytes; InputError if it is missing or damaged, TooLargeError past the
        budget."""
        try:
            info = self.zip.getinfo(part)
        except KeyError:
            raise InputError(f"{self.name} has no part {part!r}") from None
        if info.file_size > self.left:  # as it says: refused before a byte is inflated
            self._spend(info.file_size)
        blocks = []
        try:
            with self.zip.open(info) as stream:
                while block := stream.read(_BLOCK):  # as it is: counted while inflated
                    self._spend(len(block))
                    blocks.append(block)
                    self.check()
        except NotImplementedError as exc:  # an unsupported compression
            raise UnsupportedTypeError(f"{self.name}: part {part!r}: {exc}") from None
        except _DAMAGED as exc:
            raise InputError(f"{self.name}: part {part!r} cannot be read ({exc})") from None
        return b"".join(blocks)

    def xml(self, part: str, renamed: tuple[bytes, bytes] | None = None) -> ElementTree.Element:
        """A part parsed as XML (without a DTD: see the module docstring); `renamed`
        (old, new) is a namespace read as another (Strict OOXML's as the usual one)."""
        if self.has(part) and self.zip.getinfo(part).file_size > self.budget // 4:
            raise TooLargeError(  # a parsed tree takes about 25 times its markup's bytes
                f"{self.name}: part {part!r} is too large to parse",
                hint="Send a smaller document or raise LONGDOC_MAX_DOCUMENT_MB.",
            )
        data = self.read(part)
        if renamed is not None:
            data = data.replace(*renamed)
        _refuse_dtd(data, f"{self.name}: part {part!r}")
        try:
            return ElementTree.fromstring(data)
        except ElementTree.ParseError as exc:
            raise InputError(f"{self.name}: part {part!r} is not well-formed XML ({exc})") from None

    def _spend(self, size: int) -> None:
        if size > self.left:
            raise TooLargeError(
                f"{self.name} unpacks to more than the document size limit allows",
                hint="Send a smaller document or raise LONGDOC_MAX_DOCUMENT_MB.",
            )
        self.left -= size


def _check_parts(raw: bytes, name: str) -> None:
    """TooLargeError when the archive lists more than MAX_PARTS entries: read from its end
    record, and counted, before zipfile parses a million of them."""
    end = raw.rfind(_END_OF_DIRECTORY, max(0, len(raw) - 65_557))
    if end >= 0 and len(raw) >= end + 12:
        (entries,) = struct.unpack_from("<H", raw, end + 10)
        if entries > MAX_PARTS:
            raise TooLargeError(f"{name} holds over {MAX_PARTS:,} parts")
    if raw.count(b"PK\x01\x02") > MAX_PARTS:  # ZIP64, or an end record that lies
        raise TooLargeError(f"{name} holds over {MAX_PARTS:,} parts")


class _Refused(Exception):
    pass


def _refuse_dtd(data: bytes, where: str) -> None:
    """InputError when the XML declares entities or an internal DTD subset, in whatever
    encoding it is written (a UTF-16 part hides '<!ENTITY' from a byte search). expat reads
    it first with only these two handlers, which fire before any entity is expanded."""

    def doctype(name: str, system: str | None, public: str | None, internal: int) -> None:
        if internal:
            raise _Refused

    def entity(*args: object) -> None:
        raise _Refused

    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(data, True)
    except _Refused:
        raise InputError(f"{where} declares a DTD, which no such file needs") from None
    except expat.ExpatError as exc:
        raise InputError(f"{where} is not well-formed XML ({exc})") from None
