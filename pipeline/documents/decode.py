"""Bytes to text: by the byte-order mark, else UTF-8; NULs without a BOM mean a binary file."""

from __future__ import annotations

import codecs

from pipeline.errors import InputError, UnsupportedTypeError


def decode_text(raw: bytes, where: str) -> str:
    """Decode bytes by their BOM, else as UTF-8; NULs without a BOM mean a binary file."""
    encoding = next((name for bom, name in BOMS if raw.startswith(bom)), None)
    if encoding is None and b"\x00" in raw[:8192]:
        raise UnsupportedTypeError(f"{where} looks like a binary file")
    try:
        return raw.decode(encoding or "utf-8")
    except UnicodeDecodeError as exc:
        # A BOM names the encoding, so its bytes are checked as strictly as plain UTF-8:
        # UTF-16 cut to an odd length, a lone surrogate, invalid UTF-8 after its BOM.
        at = exc.start + (len(codecs.BOM_UTF8) if encoding == "utf-8-sig" else 0)
        raise InputError(
            f"{where} is not valid {_NAMES[encoding]} (byte {at}: {exc.reason})",
            hint="Save the file as UTF-8 (or UTF-16 with a byte-order mark).",
        ) from None


BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_NAMES = {None: "UTF-8", "utf-8-sig": "UTF-8", "utf-16": "UTF-16"}
