"""Chat without a model: spotting small talk, and recalling sentences from the conversation."""

from __future__ import annotations

import re

from langchain_core.messages import AIMessage, BaseMessage

from pipeline.engines.extractive.memory_notes import SELF_FACT
from pipeline.engines.extractive.retrieval import Query, build_query, score_sentences
from pipeline.engines.extractive.sentences import sentence_spans
from pipeline.engines.extractive.terms import fold
from pipeline.prompts import NEEDS_MODEL, NOTED, RECALLED, SMALL_TALK_REPLIES
from pipeline.text.language import detect_language

# Whole messages that are plainly conversation: greetings, thanks, goodbyes, acknowledgements,
# one or several ("ok, thank you!"), with softeners ("thanks a lot", "hello there"). A message
# that goes on to ask something ("thanks, and what was revenue?") does not match.
_KINDS = {
    "greeting": r"hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening)|how are you(?: doing)?"
    r"|こんにちは|こんばんは|おはよう(?:ございます)?|안녕(?:하세요)?|你好|您好",
    "thanks": r"thanks?(?: you)?|thank you|thx|ty|cheers|ありがとう(?:ございます)?|どうも"
    r"|감사합니다|고마워(?:요)?|谢谢|多谢",
    "bye": r"bye|goodbye|see you|さようなら|またね|안녕히 (?:계세요|가세요)|再见",
    "ack": r"ok(?:ay)?|cool|great|nice|got it|perfect|了解|わかりました|알겠습니다|好的",
}
_SOFTENER = r"there|again|a lot|so much|very much|everyone|all|bot|longdoc"
_PHRASE = "|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _KINDS.items())
_ANY = "|".join(_KINDS.values())
_PHRASES = re.compile(rf"\b(?:{_PHRASE})", re.IGNORECASE)
_SMALL_TALK = re.compile(
    rf"^\W*(?:{_PHRASE})(?:[\s,.!~]+(?:{_ANY}|{_SOFTENER}))*[\s\W]*$", re.IGNORECASE
)

ROOT_LETTERS = 4
"""Letters two words share at their start to count as one root in _self_fact."""
_ABOUT_ME = re.compile(r"\b(?:I|my|me|mine|myself)\b", re.IGNORECASE)

# Canned replies are never recalled as if they were facts from the conversation.
_CANNED = frozenset(
    [
        *NEEDS_MODEL.values(),
        *NOTED.values(),
        *(text for kinds in SMALL_TALK_REPLIES.values() for text in kinds.values()),
    ]
)


def reply(message: str) -> str:
    """The answer to small talk, or else that a model is needed, in the message's language.

    An empty message is a greeting: the conversation has just started.
    """
    language = detect_language(message)
    kind = small_talk(message) if message.strip() else "greeting"
    return SMALL_TALK_REPLIES[language][kind] if kind else NEEDS_MODEL[language]


# A question: it ends in a question mark, or opens as one ('where do I keep ...').
_QUESTION = re.compile(
    r"[?？]\s*$|^\W*(?:who|whom|whose|what|which|when|where|why|how|do|does|did|is|are|was"
    r"|were|am|can|could|will|would|should|have|has|had|tell|remind|recall)\b",
    re.IGNORECASE,
)


# A message that asks for something although it states a fact: 'I have a question about
# section 3', 'I like it, now summarize the pricing part'.
_REQUEST = re.compile(
    r"\b(?:question|help|please|tell|show|give|explain|summari[sz]e|summary|find|list|look up"
    r"|want|need|would like|can you|could you)\b",
    re.IGNORECASE,
)


def tells_about_user(message: str) -> bool:
    """A statement of a fact about the user ('My name is Priya and my flat is 14B.'),
    neither a question nor a request: the conversation is where it belongs, whatever is
    attached."""
    return (
        SELF_FACT.search(message) is not None
        and _QUESTION.search(message) is None
        and _REQUEST.search(message) is None
    )


def asks_about_user(question: str) -> bool:
    """A question in the first person ('What is my flat number?'); the conversation may
    answer it, or an attached document ('What does my lease say about pets?')."""
    return _ABOUT_ME.search(question) is not None and _QUESTION.search(question) is not None


def noted(message: str) -> str:
    """The reply to a fact the user tells: kept, and recalled when asked."""
    return NOTED[detect_language(message)]


def small_talk(text: str) -> str | None:
    """'greeting', 'thanks', 'bye' or 'ack' for plainly conversational input, else None."""
    if _SMALL_TALK.match(text.strip()) is None:
        return None
    # "ok, thank you" is thanks: the most specific kind present wins.
    found = {k for m in _PHRASES.finditer(text) for k, v in m.groupdict().items() if v}
    return next(kind for kind in ("thanks", "bye", "greeting", "ack") if kind in found)


def recall(history: list[BaseMessage], question: str, min_coverage: float) -> str | None:
    """The earlier sentence that best answers `question`, quoted with who said it, or None.

    'What is my name?' after 'My name is Aiko.' -> 'You said: "My name is Aiko."'.
    Questions asked earlier are not answers, so sentences ending in '?' are skipped.
    """
    history = [m for m in history if m.text not in _CANNED]
    texts = [str(m.text) for m in history]
    query = build_query(question, texts)
    best: tuple[float, str, BaseMessage] | None = None
    for message, text in zip(history, texts, strict=True):
        for hit in score_sentences(text, query):
            sentence = text[hit.start : hit.end]
            if sentence.endswith(("?", "？")):
                continue
            if hit.coverage >= min_coverage and (best is None or hit.score > best[0]):
                best = (hit.score, sentence, message)
    if best is None:
        fact = _self_fact(history, texts, query) if _ABOUT_ME.search(question) else None
        if fact is None:
            return None
        best = (0.0, *fact)
    speaker = "assistant" if isinstance(best[2], AIMessage) else "user"
    return RECALLED[detect_language(question)][speaker].format(sentence=best[1])


def _self_fact(
    history: list[BaseMessage], texts: list[str], query: Query
) -> tuple[str, BaseMessage] | None:
    """The first fact the user stated about themselves with a word of the question's root.

    For a question about the user that no sentence answers word for word: 'What do I
    study?' shares no stem with '... I am a statistics student' ('studi', 'student'), but
    'stud' starts both. Too loose for documents, where it would join 'studio'; among the
    few sentences in which a user says who they are, it finds the one asked about.
    """
    roots = {t[:ROOT_LETTERS] for t in query.idf if len(t) >= ROOT_LETTERS and t.isalpha()}
    for message, text in zip(history, texts, strict=True):
        if isinstance(message, AIMessage):
            continue  # the user's own words (a summary holds only theirs)
        for start, end in sentence_spans(text):
            sentence = text[start:end]
            words = {w[:ROOT_LETTERS] for w in re.findall(r"[a-z]+", fold(sentence))}
            if SELF_FACT.search(sentence) and roots & words:
                return sentence, message
    return None
