"""Bytes to text: by the byte-order mark, else UTF-8; NULs without a BOM mean a binary file."""

from __future__ import annotations

import codecs

from pipeline.errors import InputError, UnsupportedTypeError


def decode_text(raw: bytes, where: str) -> str:
    """Decode bytes by their BOM, else as UTF-8; NULs without a BOM mean a binary file."""
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if raw.startswith(bom):
            return raw.decode(encoding)
    if b"\x00" in raw[:8192]:
        raise UnsupportedTypeError(f"{where} looks like a binary file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where} is not valid UTF-8 (byte {exc.start})",
            hint="Save the file as UTF-8 (or UTF-16 with a byte-order mark).",
        ) from None
