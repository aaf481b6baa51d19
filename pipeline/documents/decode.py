"""Bytes to text: by the byte-order mark, else UTF-8, else the charset the page (or a POD
file's `=encoding`) declares; NULs without a BOM mean a binary file."""

from __future__ import annotations

import codecs
import re

from bs4.dammit import EncodingDetector

from pipeline.errors import InputError, UnsupportedTypeError

# Browsers read a page labelled Latin-1 or ASCII as Windows-1252 (the WHATWG Encoding
# standard), whose 0x80-0x9F are the curly quotes and dashes such pages hold.
_AS_WINDOWS_1252 = frozenset(("iso8859-1", "ascii"))
_POD_ENCODING = re.compile(rb"^=encoding[ \t]+([\w.:-]+)", re.MULTILINE)
_POD_HEADING = re.compile(rb"^=(?:head[1-6]|pod)\b", re.MULTILINE)


def decode_text(raw: bytes, where: str) -> str:
    """Decode bytes by their BOM, else as UTF-8, else (an HTML or XML page, or Perl's POD,
    that is not UTF-8) by the charset it declares; NULs without a BOM mean a binary file."""
    encoding = next((name for bom, name in BOMS if raw.startswith(bom)), None)
    if encoding is None and b"\x00" in raw[:8192]:
        raise UnsupportedTypeError(f"{where} looks like a binary file")
    try:
        return raw.decode(encoding or "utf-8")
    except UnicodeDecodeError as exc:
        declared = _declared(raw) if encoding is None else None
        if declared is not None:
            return _decode_declared(raw, declared, where)
        # A BOM names the encoding, so its bytes are checked as strictly as plain UTF-8:
        # UTF-16 cut to an odd length, a lone surrogate, invalid UTF-8 after its BOM.
        at = exc.start + (len(codecs.BOM_UTF8) if encoding == "utf-8-sig" else 0)
        raise InputError(
            f"{where} is not valid {_NAMES[encoding]} (byte {at}: {exc.reason})",
            hint="Save the file as UTF-8 (or UTF-16 with a byte-order mark).",
        ) from None


def _declared(raw: bytes) -> str | None:
    """The codec of the charset a page's head declares (`<?xml ... encoding=` or a `<meta>`
    charset) or a POD file's `=encoding` line, if Python knows it and it is not UTF-8
    (which the bytes just failed)."""
    pod = _POD_ENCODING.search(raw) if _POD_HEADING.search(raw) else None
    label = pod.group(1).decode("ascii") if pod else None
    label = label or EncodingDetector.find_declared_encoding(raw, is_html=True)
    try:
        info = codecs.lookup(label) if label else None
    except LookupError:
        return None
    # a codec of bytes to bytes ('base64', 'zlib') or of no text ('undefined') is no charset
    if info is None or info.name.startswith("utf") or info.name == "undefined":
        return None
    if not getattr(info, "_is_text_encoding", True):
        return None
    name = info.name
    return "cp1252" if name in _AS_WINDOWS_1252 else name


def _decode_declared(raw: bytes, codec: str, where: str) -> str:
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as exc:
        if codec == "cp1252":  # five bytes Windows-1252 leaves undefined: Latin-1 has them
            return raw.decode("latin-1")
        raise InputError(
            f"{where} is not valid {codec}, the charset it declares (byte {exc.start}: "
            f"{exc.reason})",
            hint="Save the file as UTF-8, or declare the charset it is written in.",
        ) from None


BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_NAMES = {None: "UTF-8", "utf-8-sig": "UTF-8", "utf-16": "UTF-16"}
