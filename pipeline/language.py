"""Guess the language of a question from its script, to answer in kind."""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "ja", "ko", "zh"]

_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def detect_language(text: str) -> Language:
    """'ja' if any kana, 'ko' if any Hangul, 'zh' if Han only, else 'en'."""
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    if _HAN.search(text):
        return "zh"
    return "en"
