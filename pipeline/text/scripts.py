"""The one definition of the scripts written without spaces between words (Japanese, Chinese,
Korean), as regex character-class bodies; token counts, term finding, word counts and language
detection all use these, so they cannot disagree."""

from __future__ import annotations

import re

HIRAGANA = "\u3040-\u309f"
KANA = "\u3040-\u30fa\u30fc-\u30ff"
"""Hiragana and katakana, without U+30FB (the katakana middle dot, which is punctuation)."""
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""CJK ideographs: extension A, the unified block and the compatibility block."""
HANGUL = "\uac00-\ud7af\u1100-\u11ff"
"""Hangul syllables and jamo."""
CJK = KANA + HAN + HANGUL
"""Every letter of those scripts: about one model token each, indexed as bigrams."""
CJK_PUNCTUATION = "\u3000-\u303f\uff01-\uff60"
"""Their punctuation and full-width forms ('、', '。', '「', '（'): as wide as a letter of them."""

CJK_CHAR = re.compile(f"[{CJK}]")
CJK_RUN = re.compile(f"[{CJK}]+")
HANGUL_CHAR = re.compile(f"[{HANGUL}]")
