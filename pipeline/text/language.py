"""Guess the language of a question from its script, to answer in kind."""

from __future__ import annotations

import re
from typing import Literal

from pipeline.text.scripts import HAN, HANGUL, KANA

Language = Literal["en", "ja", "ko", "zh"]

_KANA = re.compile(f"[{KANA}]")
_HANGUL = re.compile(f"[{HANGUL}]")
_HAN = re.compile(f"[{HAN}]")


def detect_language(text: str) -> Language:
    """'ja' if any kana, 'ko' if any Hangul, 'zh' if Han only, else 'en'."""
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    if _HAN.search(text):
        return "zh"
    return "en"
