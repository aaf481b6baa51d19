"""roff's escapes in a line of text (special characters, strings, what prints nothing), and
a request's arguments.

`\\fB-a\\fR` is '-a', `\\(em` '—', `\\*(lq` whatever the page defined `lq` as, `\\s-1`
nothing. One pass over the line: each escape is read once, left to right.
"""

from __future__ import annotations

from collections.abc import Mapping

SPECIAL = {
    "em": "\u2014", "en": "\u2013", "hy": "-", "mi": "-", "-": "-", "pl": "+", "mu": "\u00d7",
    "di": "\u00f7", "eq": "=", "aq": "'", "dq": '"', "lq": "\u201c", "rq": "\u201d",
    "oq": "\u2018", "cq": "\u2019", "ga": "`", "aa": "\u00b4", "ti": "~", "ha": "^", "sl": "/",
    "rs": "\\", "ba": "|", "br": "\u2502", "bv": "|", "ul": "_", "bu": "\u2022",
    "co": "\u00a9", "rg": "\u00ae", "tm": "\u2122", "de": "\u00b0", "dg": "\u2020",
    "dd": "\u2021", "sc": "\u00a7", "ps": "\u00b6", "ct": "\u00a2", "Eu": "\u20ac",
    "eu": "\u20ac", "Po": "\u00a3", "Ye": "\u00a5", "fm": "\u2032", "sd": "\u2033",
    "->": "\u2192", "<-": "\u2190", "<>": "\u2194", "ua": "\u2191", "da": "\u2193",
    "rA": "\u21d2", "lA": "\u21d0", ">=": "\u2265", "<=": "\u2264", "!=": "\u2260",
    "==": "\u2261", "~=": "\u2245", "~~": "\u2248", "+-": "\u00b1", "**": "*", "sq": "\u25a1",
    "ci": "\u25cb", "lh": "\u261c", "rh": "\u261e", "OK": "\u2713", "la": "\u27e8", "ra": "\u27e9",
    "Fo": "\u00ab", "Fc": "\u00bb", "fo": "\u2039", "fc": "\u203a", "r!": "\u00a1",
    "r?": "\u00bf", "ss": "\u00df", "ae": "\u00e6", "AE": "\u00c6", "o/": "\u00f8",
    "O/": "\u00d8", "'e": "\u00e9", "'E": "\u00c9", "`e": "\u00e8", "`a": "\u00e0",
    ":a": "\u00e4", ":o": "\u00f6", ":u": "\u00fc", ":A": "\u00c4", ":O": "\u00d6",
    ":U": "\u00dc", "~n": "\u00f1", ",c": "\u00e7", "*a": "\u03b1", "*b": "\u03b2",
    "*g": "\u03b3", "*d": "\u03b4", "*e": "\u03b5", "*l": "\u03bb", "*m": "\u03bc",
    "*p": "\u03c0", "*s": "\u03c3", "*W": "\u03a9", "12": "\u00bd", "14": "\u00bc",
    "34": "\u00be", "S1": "\u00b9", "S2": "\u00b2", "S3": "\u00b3", "tno": "~", "lB": "[",
    "rB": "]", "lC": "{", "rC": "}", "at": "@", "sh": "#", "Do": "$",
    "dollar": "$", "bs": "\\", "char92": "\\", "slash": "/", "ellipsis": "\u2026",
}  # fmt: skip
"""groff's named glyphs (groff_char(7)) a manual uses, as Unicode."""
_SIMPLE = {
    "-": "-", "e": "\\", "\\": "\\", "E": "\\", ".": ".", "'": "'", "`": "`", " ": " ",
    "~": " ", "0": " ", "t": " ", "&": "", ")": "", "|": "", "^": "", ",": "", "/": "",
    ":": "", "%": "", "{": "", "}": "", "c": "", "d": "", "u": "", "r": "", "p": "", "a": "",
}  # fmt: skip
"""One-character escapes: what each prints ('\\-' a hyphen, '\\&' nothing)."""
_DELIMITED = frozenset("bDhHlLNoRSvwxXZ")
"""Escapes with a quoted argument that draw or move (`\\h'3n'`, `\\w'text'`): nothing to read."""
_NAMED = frozenset("fFgkmMnVY$")
"""Escapes with a one-, two- (`(xx`) or long (`[name]`) name that print nothing here."""


def expand(line: str, strings: Mapping[str, str], limit: int = 1 << 62) -> str:
    """The text `line` prints: escapes read, fonts and motions dropped, strings interpolated;
    at most about `limit` characters of it (a line of strings may say more than it holds)."""
    out: list[str] = []
    pos = 0
    size = 0
    while size <= limit:
        slash = line.find("\\", pos)
        if slash < 0:
            out.append(line[pos:])
            break
        out.append(line[pos:slash])
        size += slash - pos
        if slash + 1 >= len(line):
            break
        kind = line[slash + 1]
        pos = slash + 2
        if kind in ('"', "#"):  # a comment to the end of the line
            break
        if kind == "(":
            out.append(_glyph(line[pos : pos + 2]))
            pos += 2
        elif kind == "[":
            name, pos = _long_name(line, pos)
            out.append(_glyph(name.split()[0] if name.strip() else ""))
        elif kind == "*":
            name, pos = _name(line, pos)
            out.append(strings.get(name, ""))
            size += len(out[-1])
        elif kind == "s":
            pos = _size_end(line, pos)
        elif kind in _NAMED:
            _, pos = _name(line, pos)
        elif kind in _DELIMITED:
            pos = _delimited_end(line, pos)
        elif kind == "C":
            end = _delimited_end(line, pos)
            out.append(_glyph(line[pos + 1 : end - 1]))
            pos = end
        else:
            out.append(_SIMPLE.get(kind, kind))
    return "".join(out)


def _glyph(name: str) -> str:
    if name in SPECIAL:
        return SPECIAL[name]
    if name.startswith("u") and len(name) >= 5:  # \[u00E9], \[u0065_0301]
        try:
            return "".join(character(int(part, 16)) for part in name[1:].split("_"))
        except ValueError:
            return ""
    return ""


def character(code: int) -> str:
    """The character of a code point; '' for a surrogate or past Unicode's last, which no
    text holds (a lone surrogate would make the whole document invalid)."""
    return chr(code) if 0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else ""


def _name(line: str, pos: int) -> tuple[str, int]:
    """A name after an escape: one character, `(xx`, or `[long name]`."""
    if pos >= len(line):
        return "", pos
    if line[pos] == "(":
        return line[pos + 1 : pos + 3], pos + 3
    if line[pos] == "[":
        return _long_name(line, pos + 1)
    return line[pos], pos + 1


def _long_name(line: str, pos: int) -> tuple[str, int]:
    end = line.find("]", pos)
    if end < 0:
        return line[pos:], len(line)
    return line[pos:end], end + 1


def _size_end(line: str, pos: int) -> int:
    """Past a size change: \\s+2, \\s-1, \\s0, \\s12, \\s(12, \\s[12], \\s'12'."""
    if pos < len(line) and line[pos] in "+-":
        pos += 1
    if pos < len(line) and line[pos] in "([":
        return _name(line, pos)[1]
    if pos < len(line) and line[pos] == "'":
        return _delimited_end(line, pos)
    if pos < len(line) and line[pos].isdigit():
        pos += 1
        if pos < len(line) and line[pos].isdigit() and line[pos - 1] in "123":
            pos += 1
    return pos


def _delimited_end(line: str, pos: int) -> int:
    """Past an argument between two of the same delimiter: 'text'."""
    if pos >= len(line):
        return pos
    end = line.find(line[pos], pos + 1)
    return len(line) if end < 0 else end + 1


def arguments(text: str) -> list[str]:
    """A request's arguments: words, or "quoted words" ("" in quotes is a quote)."""
    args: list[str] = []
    pos, size = 0, len(text)
    while pos < size:
        while pos < size and text[pos] in " \t":
            pos += 1
        if pos >= size or text.startswith('\\"', pos):
            break
        if text[pos] == '"':
            pos += 1
            word: list[str] = []
            while pos < size:
                if text[pos] == '"':
                    if text.startswith('""', pos):
                        word.append('"')
                        pos += 2
                        continue
                    pos += 1
                    break
                word.append(text[pos])
                pos += 1
            args.append("".join(word))
        else:
            end = pos
            while end < size and text[end] not in " \t" and not text.startswith('\\"', end):
                end += 2 if text[end] == "\\" else 1  # an escape, '\\ ' too, is in the word
            args.append(text[pos:end])
            pos = end
    return args
