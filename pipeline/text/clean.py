"""Text fit for a model: lone surrogates refused (dropped from extracted text), controls removed."""

from __future__ import annotations

import re

from pipeline.errors import InputError

# C0 controls except tab, newline and carriage return; NUL among them.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_text(text: str, where: str) -> str:
    """`text` with NULs and control characters removed; InputError if it holds a lone surrogate."""
    # ASCII text cannot hold a surrogate; skipping that scan halves the cost on 10 MB.
    if not text.isascii() and _SURROGATE.search(text):
        raise InputError(
            f"{where} contains invalid Unicode (a lone surrogate)",
            hint="Send valid UTF-8 text.",
        )
    return _CONTROL.sub("", text)


def strip_unusable(text: str) -> str:
    """Lone surrogates and control characters removed (for extracted text we cannot refuse)."""
    return _CONTROL.sub("", _SURROGATE.sub("", text))
