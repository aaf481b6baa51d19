"""What the built-in engine keeps when it folds a chat transcript into the running summary.

With no model, an assistant turn only ever repeats document or conversation text (or
says it needs a model), so it adds nothing to remember; what the user said does.
Among the user's sentences, facts they state about themselves ("my name is...", "I live
in Busan", "I prefer tea") come first, then other first-person sentences ("we ship on
Fridays"), then the most recent; the ranking is by these scores alone, since centrality
would favour repetitive chatter over a fact stated once. A fact kept by an earlier fold
scores the same when it is folded again, so forty turns of filler never push it out.
"""

from __future__ import annotations

import re

from pipeline.engines.extractive.lexrank import Candidate
from pipeline.engines.extractive.sentences import sentence_spans
from pipeline.prompts import ASSISTANT_LABEL, MEMORY_PREFIX

SELF_FACT_BONUS = 2.0
"""Over any first-person sentence: with the recency bonus at most 0.5, a stated fact
(1 + 1 + 2 = 4) outranks the newest first-person chatter (1 + 1 + 0.5 = 2.5)."""
FIRST_PERSON_BONUS = 1.0
RECENCY_BONUS = 0.5  # spread over the transcript: its last sentence gets the full 0.5

FIRST_PERSON = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll|my|me|mine|myself|we|we're|our|ours|us)\b"
    r"|私|僕|俺|わたし|自分|저는|제가|저의|나는|내가|我",
    re.IGNORECASE,
)
# Statements of who the user is, where from, what they do, have or like, and where they
# keep things ('I keep my bike in the shed').
SELF_FACT = re.compile(
    r"\b(?:my name(?:'s| is)|call me|i am called|i'm called|my \w+(?: \w+)? (?:is|are|was)"
    r"|i (?:am|'m) (?:a|an|from|in|based|married|\d)|i'm (?:a|an|from|in|based|married|\d)"
    r"|i (?:live|work|study|teach|grew up|was born|come from|moved to|speak)"
    r"|i (?:like|love|prefer|enjoy|hate|dislike|can't stand|am allergic)"
    r"|i (?:have|own) (?:a|an|two|three|\d)"
    r"|i (?:keep|kept|park|parked|store|stored|leave|left|put) (?:my|our|the|a|an))\b"
    r"|私の名前|私は.{1,20}(?:です|でした)|(?:に|で)住んで|저는.{1,20}(?:입니다|이에요|예요)"
    r"|제 이름|我叫|我是|我住在|我的名字",
    re.IGNORECASE,
)
_ASSISTANT = f"{ASSISTANT_LABEL}: "


def remembered_sentences(text: str) -> list[Candidate]:
    """Scored sentence spans of `text` (offsets into it) worth carrying into the summary."""
    kept: list[Candidate] = []
    offset = 0
    for paragraph in text.split("\n\n"):
        start = offset
        offset += len(paragraph) + 2
        if paragraph.startswith(_ASSISTANT):
            continue
        carried = paragraph.startswith(MEMORY_PREFIX.strip())
        body = paragraph.find(": ") + 2 if not carried and ": " in paragraph[:12] else 0
        for s, e in sentence_spans(paragraph[body:], start + body):
            sentence = text[s:e]
            if carried and MEMORY_PREFIX.strip() in sentence:
                continue
            score = 1.0 + RECENCY_BONUS * s / max(1, len(text))
            score += FIRST_PERSON_BONUS if FIRST_PERSON.search(sentence) else 0.0
            score += SELF_FACT_BONUS if SELF_FACT.search(sentence) else 0.0
            kept.append(Candidate(s, e, score))
    return kept
