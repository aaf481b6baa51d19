"""Questions that compare two things: the answer says something of each.

'What is the difference between push and push_str?' is answered by what the text says of
push and what it says of push_str. Ranking alone cites the sentences matching most of the
question, which name one side twice over ('push_str' also holds the word 'push'); the
answer then joins the best passage saying most of the other side, if the documents have
one. Where the documents define both ('"Larger Work" means ...', an entry '-d, --decompress:
...'), the two definitions are the answer, in the question's order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.engines.extractive.retrieval import defines
from pipeline.engines.extractive.terms import TermFinder, fold, is_literal, query_terms

NOT_NAMED, NAMED, ABOUT, DEFINED = range(4)
"""How much a passage says of a side (Side.level)."""
OPENING_CHARS = 30
"""How far into a passage the side it is about is named: an entry's term, a subject."""
OPTION_HEAD_CHARS = 60
"""Longest head of an option's entry, its forms included: '-execdir command ; -execdir
command {} +'."""
_ROW_CELLS = " \u2014 "
"""What a table row shown as text puts between its first cell and the others."""
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z]")  # '-c, --create', '-exec command ;'
_NUMBERING = re.compile(r"\b\d+(?:\.\d+)*\.?")  # a clause's '1.7.'
_SIDE = r"(?P<{}>[^?,;]{{1,60}}?)"
# where a side ends: the question's end, a clause after a comma ('..., if any?') or a full
# stop that ends the sentence (not the one inside 'v1.2' or 'tar.gz')
_END = r"(?=\s*(?:\?|\.(?:\s|$)|,|;|$))"
_COMPARING = tuple(
    re.compile(pattern.format(a=_SIDE.format("a"), b=_SIDE.format("b"), end=_END), re.IGNORECASE)
    for pattern in (
        r"\bdifferences?\s+between\s+{a}\s+and\s+{b}{end}",
        r"\bhow\s+(?:does|do|is|are)\s+{a}\s+(?:differ|different)\s+from\s+{b}{end}",
        r"\bhow\s+(?:do|are)\s+{a}\s+and\s+{b}\s+(?:differ|different){end}",
        r"^\s*(?:please\s+)?compare\s+{a}\s+(?:and|with|to)\s+{b}{end}",  # not 'how do I compare'
    )
)
_VERSUS = re.compile(
    rf"(?P<a>(?:\S+\s+){{0,2}}\S+)\s+(?:vs\.?|versus)\s+(?P<b>[^?,;]+?){_END}", re.IGNORECASE
)
# what a side says after the thing: 'xz for log files' compares xz
_CONTEXT = re.compile(r"\s+(?:for|in|on|when|with|under|if|as|to|of)\s.*$", re.IGNORECASE)


def compared_sides(question: str) -> list[str]:
    """The two things a question compares, as it writes them, or []: 'What is the difference
    between a Transparent copy and an Opaque copy?' -> ['Transparent copy', 'Opaque copy']."""
    for pattern in (*_COMPARING, _VERSUS):
        match = pattern.search(question)
        if match:
            a, b = (_ARTICLE.sub("", match.group(g).strip()) for g in ("a", "b"))
            b = _CONTEXT.sub("", b)
            if pattern is _VERSUS:  # 'When should I use gzip vs xz?': as many words as after
                a = " ".join(a.split()[-len(b.split()) :])
            return [a, b] if query_terms(a) and query_terms(b) else []
    return []


class Side:
    """One thing compared, and whether a passage says something of it."""

    def __init__(self, side: str, other: str) -> None:
        self.words = terms = query_terms(side)
        self.other_words = query_terms(other)
        others = set(self.other_words)
        literals = [t for t in terms if is_literal(t)]
        # what tells this side from the other: its literals ('=push_str'), else its words
        # the other lacks ('transpar' of 'Transparent copy' beside 'Opaque copy')
        self.terms = literals or [t for t in terms if t not in others]
        self.finder = TermFinder(self.terms) if self.terms else None
        # a side whose words the other holds all of ('push' beside 'push_str') is its
        # name written alone, not inside the other's
        self.alone = re.compile(rf"(?<![\w-]){re.escape(fold(side))}(?![\w-])", re.IGNORECASE)

    def level(self, text: str) -> int:
        """How much `text` says of this side: DEFINED ('"Larger Work" means ...', or its
        entry '-d, --decompress: Decompress.'), ABOUT (names it first, within OPENING_CHARS:
        a sentence it is the subject of), NAMED (in passing) or NOT_NAMED."""
        if not self.said_in(text):
            return NOT_NAMED
        # a side named inside the other ('Work' of 'Derivative Work') is not defined by
        # the other's definition ('"Derivative Works" shall mean ...')
        inside = self.finder is None and defines(text, self.other_words)
        if (defines(text, self.words) or self._entry(text)) and not inside:
            return DEFINED
        return ABOUT if self.said_in(text, within=OPENING_CHARS) else NAMED

    def _entry(self, text: str) -> bool:
        """`text` reads as this side's entry: its name (an option's, with its arguments; or
        the side's words alone, numbered), then a colon and what it is or does ('-c,
        --create: Create a new archive.'); not a clause's run-in title naming it
        ('Submission of Contributions:')."""
        head, colon, _ = text.partition(": ")
        option = _OPTION.search(head) is not None
        longest = OPTION_HEAD_CHARS if option else OPENING_CHARS
        if not colon or len(head) > longest or _ROW_CELLS in head or not self.said_in(head):
            return False  # ... nor a table's row ('-execdir — Added in: 4.2.12')
        if option:
            return True  # an option's entry, with its arguments: '-exec command ;'
        return set(query_terms(_NUMBERING.sub(" ", head))) <= set(self.words)

    def said_in(self, text: str, within: int | None = None) -> bool:
        """Whether `text` names this side (in its first `within` characters, if given)."""
        folded = fold(text[:within])
        if self.finder is None:
            return self.alone.search(folded) is not None
        found = {term for _, term in self.finder.find(folded)}
        return all(t in found for t in self.terms)


def each_side(sides: list[str], shown: Sequence[str], candidates: Sequence[str]) -> list[int]:
    """Indices into `candidates` (best first) to show after `shown` so that the answer says
    something of each of the two `sides` (see compared_sides): for a side no shown text
    names, the best-ranked candidate saying most of it (Side.level); for one only named or
    talked about there, the best-ranked defining it, if any. [] when the candidates add
    nothing."""
    added: list[int] = []
    for side in (Side(sides[0], sides[1]), Side(sides[1], sides[0])):
        texts = [*shown, *(candidates[i] for i in added)]
        said = max((side.level(text) for text in texts), default=NOT_NAMED)
        levels = [side.level(text) for text in candidates]
        most = max(levels, default=NOT_NAMED)
        # a side shown already is shown more only by its definition: a passage merely
        # naming it earlier does not beat the best-ranked ones
        wanted = most > said and (said == NOT_NAMED or most == DEFINED)
        if wanted:  # says more of the side than any shown, so is neither shown nor added
            added.append(levels.index(most))
    return added


def arranged(sides: list[str], shown: Sequence[str]) -> list[int]:
    """Indices of the `shown` texts to keep, in the order to show them: the sides'
    definitions first, in the question's order of the sides ('the difference between a
    Draft copy and a Final copy' reads the Draft copy's first), then the rest in their own
    order. Once both definitions are there, a text defining neither and contrasting nothing
    goes: 'If the Larger Work is a combination of Covered Software with ...' beside the
    definitions that answer 'What is the difference between Covered Software and a Larger
    Work?'."""
    pair = (Side(sides[0], sides[1]), Side(sides[1], sides[0]))
    levels = [[side.level(text) for side in pair] for text in shown]
    both = all(any(row[k] == DEFINED for row in levels) for k in range(len(pair)))
    kept = [
        i
        for i, text in enumerate(shown)
        if not both
        or DEFINED in levels[i]
        or (min(levels[i]) > NOT_NAMED and _CONTRAST.search(text))
    ]
    return sorted(
        kept, key=lambda i: levels[i].index(DEFINED) if DEFINED in levels[i] else len(pair)
    )


# A sentence comparing what it names: 'Unlike push, push_str takes a string slice',
# 'whereas -d decompresses', 'a Transparent copy rather than an Opaque one'.
_CONTRAST = re.compile(
    r"\b(?:unlike|whereas|differs?|different|difference|instead\s+of|rather\s+than"
    r"|in\s+contrast|compared\s+(?:to|with)|as\s+opposed\s+to)\b",
    re.IGNORECASE,
)
