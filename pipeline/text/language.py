"""Guess the language of a question from its script, to answer in kind."""

from __future__ import annotations

import re
from typing import Literal

from hanziconv.charmap import simplified_charmap, traditional_charmap

from pipeline.text.scripts import HAN, HANGUL_CHAR, KANA

Language = Literal["en", "ja", "ko", "zh", "zh-Hant"]
"""'zh' is Chinese in Simplified characters, 'zh-Hant' in Traditional ones."""

_KANA = re.compile(f"[{KANA}]")
_HAN = re.compile(f"[{HAN}]")


# Characters only one script writes: '國' only Traditional, '国' only Simplified.
_TRADITIONAL = frozenset(
    t for t, s in zip(traditional_charmap, simplified_charmap, strict=False) if t != s
)
_SIMPLIFIED = frozenset(simplified_charmap) - frozenset(traditional_charmap)


def detect_language(text: str) -> Language:
    """'ja' if any kana, 'ko' if any Hangul; for Han only, 'zh-Hant' if it holds more
    characters only Traditional Chinese writes than ones only Simplified writes, else
    'zh'; otherwise 'en'. '這個國家' -> 'zh-Hant', '这个国家' -> 'zh'."""
    if _KANA.search(text):
        return "ja"
    if HANGUL_CHAR.search(text):
        return "ko"
    if _HAN.search(text):
        traditional = sum(c in _TRADITIONAL for c in text)
        simplified = sum(c in _SIMPLIFIED for c in text)
        return "zh-Hant" if traditional > simplified else "zh"
    return "en"
