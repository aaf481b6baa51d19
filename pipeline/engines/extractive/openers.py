"""Words that open a sentence and point elsewhere: back to what came before it ('This
command works this way because ...', 'However, ...'), or at the document itself ('This
manual describes ...'). Summaries avoid a sentence that points back without what it points
to, and answers show it after that or under the heading it leans on."""

from __future__ import annotations

import re

# An opener that needs what came before it: a pronoun, a demonstrative or a connective.
DANGLING = re.compile(
    r"(?:it|its|it's|they|their|them|these|those|this|that|such|he|she|his|her|however|"
    r"also|but|and|or|so|then|thus|hence|therefore|moreover|furthermore|likewise|similarly|"
    r"instead|otherwise|besides|additionally|consequently|finally|here|again|"
    r"in addition|for example|for instance|as a result|in this case|in that case|"
    r"on the other hand|note that)\b",
    re.IGNORECASE,
)


# "This manual ...", "The present document ...": the document speaking of itself.
DOCUMENT_WORDS = (
    "manual|report|document|guide|licen[cs]e|page|book|file|program|library|module|package|"
    "tool|specification|standard|paper|article|chapter|release|version|project|agreement|policy|"
    "handbook|tutorial|reference|changelog|notes?|readme|text|section|appendix|newsletter|issue"
)
# Up to two words may stand between: 'this short manual', not 'This installs the library'
# (an article between opens a phrase of its own: the words before it are a verb's).
SELF_REFERENCE = re.compile(
    rf"\b(?:this|the|these)\s+(?:(?!(?:the|a|an)\s)[\w-]+\s+){{0,2}}?(?:{DOCUMENT_WORDS})s?\b"
    # 'Here's a list of the command-line arguments': presenting what follows, not pointing back
    # ('There is a modular version' is no such pointer)
    r"|\bhere(?:'s|’s|\s+(?:is|are))\s",
    re.IGNORECASE,
)


def points_back(text: str) -> bool:
    """Whether a sentence opens with a word that needs what came before it ('This command
    works this way because ...', 'However, ...'), not at the document ('This version ...')."""
    return DANGLING.match(text) is not None and not SELF_REFERENCE.match(text)
