"""Unanswerable questions derived from answerable SQuAD ones, in the style of SQuAD 2.0.

Each kind changes one thing so that the article no longer answers the question while
it still talks about the question's words:
- negation: 'What was founded in 1870?' -> 'What was not founded in 1870?', 'What did
  the Normans conquer?' -> 'What did the Normans not conquer?';
- swapped entity: a capitalized name of the question that the article holds is replaced
  by a name from another article's title that this article never mentions;
- swapped number: a number of the question is replaced by one the article never holds
  (the number plus 7, 14, ... until absent);
- answer removed: the question is unchanged, and every sentence holding one of its answers
  is taken out of the article (every REMOVED_EVERY-th question). The article still names
  what the question is about; the fact asked is gone, as it is from most documents a user
  asks something they do not say.
Deterministic: the same questions every run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

REMOVED_EVERY = 3
"""Every third question gets an answer-removed copy of its article: ~500 of the 1,520."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

_NEGATABLE = re.compile(
    r"^((?:What|Who|Which(?: \w+)?) (?:was|were|is|are)) (\w+(?:ed|en|wn|ght))\b"
)
_NAME = re.compile(r"(?<=\s)[A-Z][a-z]{3,}\b")
_NUMBER = re.compile(r"\b\d{1,4}\b")


_DO = re.compile(r"^(?:What|Who|Whom|Which(?: \w+)?|Where|When|How|Why) (?:did|does|do) ")
_PREPOSITIONS = frozenset("of on in for to at by with from as and or".split())
_SUBJECT_WORD = re.compile(r"(?:the|a|an|[A-Z][\w'’.-]*)$")


def negated(question: str) -> str | None:
    """'What was founded ...' -> 'What was not founded ...'; 'What did the Normans
    conquer?' -> 'What did the Normans not conquer?' (the subject is articles and
    capitalized words; other questions are left alone)."""
    match = _NEGATABLE.match(question)
    if match is not None:
        return f"{match.group(1)} not {match.group(2)}{question[match.end() :]}"
    match = _DO.match(question)
    if match is None:
        return None
    words = question[match.end() :].split(" ")
    subject = 0
    while subject < len(words) - 1 and _SUBJECT_WORD.fullmatch(words[subject]):
        subject += 1
    named = any(w[:1].isupper() for w in words[:subject])
    if not named or not words[subject][:1].islower() or words[subject] in _PREPOSITIONS:
        return None
    return question[: match.end()] + " ".join([*words[:subject], "not", *words[subject:]])


def swapped_entity(question: str, text: str, names: list[str]) -> str | None:
    """The question with one of its names replaced by one `text` never holds."""
    for match in _NAME.finditer(question):
        if match.group() not in text:
            continue
        for name in names:
            if name not in text and name.lower() not in text.lower():
                return question[: match.start()] + name + question[match.end() :]
    return None


def swapped_number(question: str, text: str) -> str | None:
    match = _NUMBER.search(question)
    if match is None:
        return None
    number = int(match.group())
    for step in range(7, 700, 7):
        other = str(number + step)
        if not re.search(rf"(?<!\d){other}(?!\d)", text):
            return question[: match.start()] + other + question[match.end() :]
    return None


def answer_removed(text: str, answers: list[str], normalize: Callable[[str], str]) -> str:
    """`text` without its sentences that hold one of `answers` (compared normalized)."""
    golds = [g for g in map(normalize, answers) if g]
    paragraphs = (
        " ".join(s for s in _SENTENCE_END.split(p) if not any(g in normalize(s) for g in golds))
        for p in text.split("\n\n")
    )
    return "\n\n".join(paragraphs)


def derive(
    questions: list[dict[str, Any]], docs: dict[str, str], normalize: Callable[[str], str]
) -> dict[str, list[dict[str, Any]]]:
    """Kind -> derived questions ({'doc_id', 'question', 'source'}, and the 'text' to ask
    it of when that is not the article's), at most one per source."""
    titles = sorted(
        {w for doc_id in docs for w in re.findall(r"[A-Z][a-z]{3,}", doc_id.split("-", 1)[-1])}
    )
    kinds: dict[str, list[dict[str, Any]]] = {
        "negation": [],
        "swapped entity": [],
        "swapped number": [],
        "answer removed": [],
    }
    for index, q in enumerate(questions):
        text = docs[q["doc_id"]]
        # Rotate the replacement names so one title is not used for every question.
        names = titles[index % len(titles) :] + titles[: index % len(titles)]
        for kind, changed in (
            ("negation", negated(q["question"])),
            ("swapped entity", swapped_entity(q["question"], text, names)),
            ("swapped number", swapped_number(q["question"], text)),
        ):
            if changed is not None:
                kinds[kind].append(
                    {"doc_id": q["doc_id"], "question": changed, "source": q["question"]}
                )
        if index % REMOVED_EVERY == 0:
            kinds["answer removed"].append(
                {
                    "doc_id": q["doc_id"],
                    "question": q["question"],
                    "source": q["question"],
                    "text": answer_removed(text, q["answers"], normalize),
                }
            )
    return kinds
