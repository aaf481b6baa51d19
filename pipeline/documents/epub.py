"""An EPUB book as Markdown: its chapters in reading order, each read as the HTML it is.

An EPUB is a ZIP of XHTML files. `META-INF/container.xml` names the package file (OPF),
whose manifest lists the files and whose spine gives their reading order; each chapter in
the spine is read by html.py, so headings, lists and tables keep their shapes. A book
whose chapters are encrypted (DRM) cannot be read, and says so; fonts that EPUB's own
font obfuscation scrambles are no text and do not matter.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from pipeline.documents.decode import decode_text
from pipeline.documents.html import html_text
from pipeline.documents.zipped import Archive
from pipeline.errors import InputError, UnsupportedTypeError

_CHAPTER_TYPES = frozenset(("application/xhtml+xml", "text/html", "application/html"))
# XHTML may close a script or style in its start tag, which HTML reads as opening raw text
# to a '</script>' that never comes.
_SELF_CLOSED = re.compile(r"<(script|style)\b([^>]*?)/>", re.IGNORECASE)
_FONT_OBFUSCATION = frozenset(
    ("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC")
)


def epub_text(archive: Archive) -> str:
    """The book's chapters as Markdown, in spine order (see the module docstring)."""
    _refuse_drm(archive)
    package = _package_path(archive)
    opf = archive.xml(package)
    base = posixpath.dirname(package)
    manifest = {
        item.get("id"): (item.get("href") or "", item.get("media-type") or "")
        for item in opf.iter()
        if _local(item.tag) == "item"
    }
    chapters = []
    for itemref in (e for e in opf.iter() if _local(e.tag) == "itemref"):
        href, media_type = manifest.get(itemref.get("idref"), ("", ""))
        if not href or media_type.lower() not in _CHAPTER_TYPES:
            continue
        href = unquote(href.split("#")[0])
        path = posixpath.normpath(
            href.lstrip("/") if href.startswith("/") else posixpath.join(base, href)
        )
        if not archive.has(path):
            continue  # a spine entry whose file is missing: the rest of the book still reads
        page = _SELF_CLOSED.sub(
            r"<\1\2></\1>", decode_text(archive.read(path), f"{archive.name}: {path}")
        )
        text = html_text(page, archive.check, titled=False).strip()
        if text:
            chapters.append(text)
    if not chapters:
        raise InputError(f"{archive.name} holds no chapter to read", hint="Check the EPUB file.")
    return "\n\n".join(chapters) + "\n"


def _package_path(archive: Archive) -> str:
    container = archive.xml("META-INF/container.xml")
    for element in container.iter():
        if _local(element.tag) == "rootfile" and element.get("full-path"):
            return unquote(element.get("full-path") or "")
    raise InputError(f"{archive.name}: META-INF/container.xml names no package file")


def _refuse_drm(archive: Archive) -> None:
    if not archive.has("META-INF/encryption.xml"):
        return
    for element in archive.xml("META-INF/encryption.xml").iter():
        method = _local(element.tag) == "EncryptionMethod"
        if method and element.get("Algorithm") not in _FONT_OBFUSCATION:
            raise UnsupportedTypeError(
                f"{archive.name} is protected by DRM: its chapters are encrypted",
                hint="Send a copy of the book without DRM.",
            )


def _local(tag: str) -> str:
    """An element's name without its namespace: '{http://...}item' -> 'item'."""
    return tag.rsplit("}", 1)[-1]
