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


# A sentence that only points elsewhere, saying nothing alone: 'See section 6.3.8.', 'See PEP
# 657 for more details.', 'For more information, see the limits page.', 'For more about trait
# objects, refer to the section ...', '参见第 6.3.8 节。',
# '詳細は aptitude(8) を参照下さい。', '6.3.8 절을 참조하십시오.' ('See how ...' shows, not points).
POINTER = re.compile(
    r"\(?(?:see(?:\s+also)?(?!\s+(?:how|that|what|why|whether|if|when|where|who)\b)"
    r"|refer\s+to|cf\."
    r"|for\s+(?:more|further|full|additional)\s+(?:information|details?|discussion|about|on)"
    r"\b[^.;:]{0,80}?,?\s+(?:see|refer\s+to))"
    r"\s[^;]{1,240}$"
    r"|(?:参见|參見|参看|參看|请参阅|請參閱|请参考|請參考|详见|詳見)[^。]{0,40}。$"
    r"|[^。]{0,100}参照(?:下さい|ください|して下さい|してください)?。$"
    r"|(?:[^.]|\.(?=\S)){0,60}(?:참조|참고)(?:하십시오|하세요|해 주십시오)\.$",
    re.IGNORECASE | re.DOTALL,
)


def points_elsewhere(text: str) -> bool:
    """Whether a sentence only says where to read about something (see POINTER)."""
    return POINTER.match(text) is not None
