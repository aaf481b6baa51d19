"""Reading hard-wrapped text as prose: lines joined, end-of-line hyphens undone, spacing single.

Display only: citations keep the exact source span, and what is shown is rebuilt from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.text.scripts import CJK_PUNCTUATION, HAN, KANA

# groff hyphenates with U+2010 and only at line ends; U+00AD is a soft hyphen by definition.
_SOFT_BREAK = re.compile(r"(?<=\w)[\u2010\u00ad]\n[ \t>]*(?=\w)")
# Chinese and Japanese wrap anywhere, inside a word too ('見' / 'つからない'): the lines join
# with no space. (Korean wraps at the spaces between its words.)
_UNSPACED = f"{HAN}{KANA}{CJK_PUNCTUATION}"
# (A no-break space indents as a space does: a text dump of an HTML page writes its
# indents with them.)
_CJK_WRAP = re.compile(f"(?<=[{_UNSPACED}])[ \t\u00a0]*\n[ \t\u00a0]*(?=[{_UNSPACED}])")
# An ASCII hyphen at a line end between letters: a hyphenated word ('iden-' / 'tifier') or a
# compound broken at its hyphen ('non-' / 'zero').
_HARD_BREAK = re.compile(r"(\w+)-\n[ \t>]*([a-z]\w*)")
_NEWLINE = re.compile(r"[ \t\u00a0]*\n[ \t\u00a0]*(?:>[ \t]?)?")
_SPACES = re.compile(r"[ \t\u00a0]{2,}|\t")  # a tab alone too: Vim's "'ts'\tnumber"
# reStructuredText's inline markup, read as a reader of the rendered page sees it: ``code``
# as `code`, a link `Hg issue 12 <https://...>`_ as its words.
_RST_LITERAL = re.compile(r"``([^`\n]+?)``")
_RST_LINK = re.compile(r"`([^`<>]+?)\s+<[^<>\s]+>`__?")
# ... and a Sphinx role as its text: ':func:`clear`' as `clear`, ':class:`~click.Choice`' as
# `Choice`, ':ref:`the options <options>`' as its title, 'the options'.
_RST_ROLE = re.compile(r"(?<![\w`]):(?:[a-z][\w.+-]*:)+`([^`\n]+?)`(?!`)")
_CODE_ROLES = frozenset(
    "func meth class mod data attr exc obj const var type member macro option envvar program"
    " command file samp kbd code".split()
)
# ... and Markdown's: '[RFC 3339](https://...)' and '[the docs][docs]' as their words, an
# image '![PyPI](badge.svg)' as its alt text (inside a link first: '[![PyPI](b.svg)](url)').
_MD_LINK = re.compile(r"(?<![\w\]])!?\[([^\]\n]*)\](?:\((?:[^()\s]+|\([^()\s]*\))*\)|\[[^\]\n]*\])")

# ... and its inline HTML, as the rendered page shows it: '<abbr title="command line
# interface">CLI</abbr>' reads 'CLI'. Only inline HTML's own tags, and a paired one only
# with its pair: in a usage line '<file>' is a placeholder the reader fills in, and so are
# dpkg's '<T>' and '<I>' (the triggering and the interested package).
_INLINE_TAG = re.compile(
    r"<(/?)(a|abbr|b|br|code|dfn|em|i|img|kbd|mark|small|span|strong|sub|sup|u)(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)
_VOID_TAGS = frozenset(("br", "img"))

Known = Callable[[str], bool]
"""Whether a word occurs in the document: decides 'manip-' / 'ulation' -> 'manipulation'."""


def reflow(text: str, known: Known | None = None) -> str:
    """`text` as one line of prose: 'com‐\\n   mands' -> 'commands', 'a\\n   b' -> 'a b',
    '見\\n   つから' -> '見つから'.

    A line-end ASCII hyphen is dropped unless the document writes the hyphenated form
    and not the joined one ('non-zero' stays when 'nonzero' is nowhere in the text).
    """
    text = _SOFT_BREAK.sub("", text)
    if "-\n" in text:
        text = _HARD_BREAK.sub(lambda m: _join(m, known), text)
    if "\n" in text and not text.isascii():
        text = _CJK_WRAP.sub("", text)
    text = _NEWLINE.sub(" ", text)
    if "`" in text:
        text = _RST_LINK.sub(r"\1", _RST_LITERAL.sub(r"`\1`", text))
        if ":`" in text:
            text = _RST_ROLE.sub(_role_text, text)
    if "](" in text or "][" in text:
        text = _MD_LINK.sub(r"\1", _MD_LINK.sub(r"\1", text))
    if "\\_" in text:
        text = _unescaped(text)
    if "**" in text:
        text = _outside_code(_STRONG, r"\1", text)
    if "<" in text:
        text = _without_tags(text)
    return _SPACES.sub(" ", text).strip()


def _role_text(role: re.Match[str]) -> str:
    """A Sphinx role as the rendered page shows it (see _RST_ROLE)."""
    target = role.group(1)
    titled = re.fullmatch(r"(.+?)\s*<[^<>]+>", target)
    text = titled.group(1) if titled else target.lstrip("!")
    if not titled and text.startswith("~"):
        text = text[1:].rsplit(".", 1)[-1]
    name = role.group(0)[1:].split(":`", 1)[0].rsplit(":", 1)[-1]
    return f"`{text}`" if name in _CODE_ROLES else text


# Markdown's escaped underscore in a word: 'simple\_grid' reads 'simple_grid'. (Other
# escapes stay: a man page's regular expressions write '\<', '\|' and '\*' themselves.)
_ESCAPE = re.compile(r"(?<=\w)\\(_)|\\(_)(?=\w)")


# Strong emphasis, in Markdown and reStructuredText alike: '**Typer**' reads 'Typer'. Not
# '**kwargs' or 'f(**a, **b)': the marks close a word or phrase on both sides. Nor a glob's
# '**/foo' or a quoted '"**"' (gitignore's 'A leading "**" followed by a slash ...'). ('__'
# stays: in prose it is more often a name, '__init__', than emphasis.)
_STRONG = re.compile(
    r"(?<![\w*])\*\*(?=[^\s*/])(?<![\"'“‘]\*\*(?=[\"'”’]))([^*\n]+?)(?<=[^\s*])\*\*(?![\w*/])"
)


def _unescaped(text: str) -> str:
    """Markdown escapes undone outside code spans (in '`a\\_b`' the backslash is code)."""
    return _outside_code(_ESCAPE, "_", text)


def _without_tags(text: str) -> str:
    """`text` without its inline HTML tags (outside code spans): void ones, and paired ones
    whose other half it holds."""
    found = [(m.group(1), m.group(2).lower()) for m in _INLINE_TAG.finditer(text)]
    paired = {n for c, n in found if c} & {n for c, n in found if not c}

    def dropped(match: re.Match[str]) -> str:
        name = match.group(2).lower()
        return "" if name in _VOID_TAGS or name in paired else match.group()

    return _outside_code(_INLINE_TAG, dropped, text)


def _outside_code(
    pattern: re.Pattern[str], replacement: str | Callable[[re.Match[str]], str], text: str
) -> str:
    """`pattern` replaced outside backtick code spans, whose text is code as written."""
    parts = text.split("`")
    parts[::2] = [pattern.sub(replacement, part) for part in parts[::2]]
    return "`".join(parts)


def _join(match: re.Match[str], known: Known | None) -> str:
    head, tail = match.group(1), match.group(2)
    joined, hyphenated = head + tail, f"{head}-{tail}"
    if known is not None and not known(joined) and known(hyphenated):
        return hyphenated
    return joined


def known_in(text: str) -> Known:
    """A `Known` that looks words up in `text` (a substring test: a few per answer)."""
    return lambda word: word in text
