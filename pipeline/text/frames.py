"""Text drawn in a frame, read as the text inside it.

Licences and READMEs box a notice in a character: the MPL 2.0's disclaimer of warranty is

    ************************************************************************
    *                                                                      *
    *  6. Disclaimer of Warranty                                           *
    *  -------------------------                                           *
    *                                                                      *
    *  Covered Software is provided under this License on an "as is"       *
    *  basis, without warranty of any kind, ...                            *
    ************************************************************************

Read as it stands, each line opens with a bullet ('*  basis, without warranty') and a
sentence ends in the frame ('on an "as is" *'). unframed() writes spaces over the frame,
same length, so every offset still points at the same character of the source.
"""

from __future__ import annotations

import re

FRAME_CHARS = "*#"
"""Characters a frame is drawn with: asterisks, or hashes (a comment box)."""
RULE_LEAST = 20
"""Fewest frame characters a frame's top or bottom rule has."""
# A frame's top or bottom: one frame character repeated, nothing else on the line.
_RULE = re.compile(rf"^[ \t]*([{re.escape(FRAME_CHARS)}])\1{{{RULE_LEAST - 1},}}[ \t]*$", re.M)


def unframed(text: str) -> str:
    """`text` with the frames in it (see module doc) written over with spaces, or `text`
    itself when it has none: one search for a rule line on text without a frame."""
    rules = list(_RULE.finditer(text))
    if len(rules) < 2:
        return text
    pieces: list[str] = []
    done = 0
    at = 0
    while at < len(rules) - 1:
        top, bottom = rules[at], rules[at + 1]
        inside = _inside(text, top, bottom)
        if inside is None:
            at += 1
            continue
        pieces += [text[done : top.start()], _blank(text[top.start() : top.end()]), "\n"]
        pieces += [*inside, _blank(text[bottom.start() : bottom.end()])]
        done = bottom.end()
        at += 2
    pieces.append(text[done:])
    return "".join(pieces)


def _inside(text: str, top: re.Match[str], bottom: re.Match[str]) -> list[str] | None:
    """The lines between `top` and `bottom`, frame written over and each ending in a
    newline, if every one opens and closes with the rules' character; else None."""
    char = top.group(1)
    if bottom.group(1) != char:
        return None
    lines = text[top.end() + 1 : bottom.start()].split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline before the bottom rule
    if not lines:
        return None
    framed = re.compile(rf"([ \t]*){re.escape(char)}(.*){re.escape(char)}([ \t]*)")
    inside = []
    for line in lines:
        match = framed.fullmatch(line)
        if match is None:
            return None
        inside.append(f"{match.group(1)} {match.group(2)} {match.group(3)}\n")
    return inside


def _blank(line: str) -> str:
    return " " * len(line)
