"""Sentence retrieval: BM25 with whole-document statistics, neighbour context, answer-type cues.

BM25 is computed here rather than by a bm25s index: map tasks each score their own chunk
but must share IDF over all the documents (build_query computes it once, for the question's
terms only), and a score adds word families and neighbour, paragraph and heading context
that an index of exact tokens cannot. It costs about the same: on 10 MB of text (90,887
sentences) bm25s tokenizes, indexes and queries in 1.2 s; this module finds IDF and scores
every sentence in 1.4 s. bm25s still supplies the stopword lists (see terms.py).
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import re
from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from pipeline.engines.extractive.decisive import Decisive, Usage, decide
from pipeline.engines.extractive.options import options_not_held
from pipeline.engines.extractive.passages import Passages, unit_bounds, whole_structure
from pipeline.engines.extractive.releases import RELEASE_WORDS, asks_for_latest, newest_release
from pipeline.engines.extractive.terms import (
    LITERAL,
    SoftFinder,
    TermFinder,
    fold,
    iter_tokens,
    lone_stems,
    query_terms,
    tokens,
)
from pipeline.engines.extractive.units import Unit, coverage_units, covered
from pipeline.text.scripts import HAN, HIRAGANA
from pipeline.text.structure import Structure

AnswerType = Literal["date", "number", "person", "place", "reason", "name"]

# General parameters, chosen by coordinate ascent on SQuAD questions held out from the
# evaluated set (tests/bench/eval_qa.py --dev), maximizing top-3 + top-1 / 2; never per question.
K1 = 0.8
"""BM25 term-frequency saturation: a second occurrence adds (k1+1)/(k1+2) - 1 = 0.29 more."""
B = 0.5
"""BM25 length normalization (0 = none, 1 = full), lengths measured in characters."""
PRIOR_SENTENCES = 50
"""Sentences without any question term assumed besides the document's own, in IDF: on a
2-sentence document a matched term would get idf ln(1 + 1.5/1.5) = 0.69 and a missing one
1.79, so one missing word would outweigh every matched one; with 50 more they get 3.57 and
4.66. On a 500-sentence article the prior moves idf by under 0.1."""
CONTEXT_WEIGHT = 0.2
"""Share of each neighbouring sentence's score a sentence borrows: questions often name the
subject in one sentence and ask about a fact stated in the next."""
ANAPHOR_CONTEXT = 0.6
"""Share of the previous sentence's score (and terms, for coverage) a sentence opening with
a pronoun borrows: in "Tesla ran away to Tomingaj. There, he explored the mountains." the
second sentence is about Tomingaj though it never names it."""
TYPE_BOOST = 0.5
"""Score bonus (x1.5) for a sentence holding what the question asks for (a year for 'when')
that the question itself does not contain."""
LACKING_NAME = 0.45
"""Share of its score a passage keeps when it lacks one of the question's names (see
decisive.py): it then wins only where no passage naming the thing comes close, and the
answer reports the missing name. On held-out SQuAD questions excluding such passages
outright costs 0.7 points of top-1 (the name is often two paragraphs up); 0.5 costs 0.3
and 0.7 none. Under 0.5, so that a twin's passage, as good a match but for the name, stays
out of an answer (which adds runners-up from half the best's score) and is only cited."""
RESTATED = 0.5
"""Share of its score a sentence keeps when the question holds all its content terms (see
restates): it still lends to its neighbours, and may answer a yes-no question. On the
Japanese dev questions top-1 is 0.819 at 1 (none), 0.832 at 0.5, 0.822 at 0.25, 0.825 at
0; SQuAD held-out half unchanged."""
SUBJECT_CONTEXT = 0.3
"""Share of its score a sentence the question restates lends to the sentence before it and
to the document's lead, which may name the subject it leaves out (see _lent_to_subject),
on top of what a neighbour borrows. On the Japanese dev questions the first cited sentence
holds the answer for 0.806 at 0 (none), 0.819 at 0.3, 0.812 at 0.5; Chinese unchanged."""
HEADING_WEIGHT = 0.5
"""Headings name topics; they rarely state the answer, so they count half."""
COVERAGE_IDF_POWER = 2
"""Ranking coverage weighs terms by idf squared: a question's rare terms carry its focus."""
HEADING_CONTEXT = 0.5
"""Share of its section heading's score a sentence borrows (see Passages.labels)."""
PARAGRAPH_WEIGHT = 0.15
"""Share of its paragraph's BM25 a sentence adds to its own (see _paragraph_scores)."""
COVERAGE_POWER = 0.3
"""Scores are multiplied by coverage**this: of two sentences with equal BM25, the one
matching more of the question's distinct terms wins (0.3: a tie-breaker, not a filter)."""
DIVERSITY = 0.1
"""Share of its score a runner-up citation loses when all the question terms it holds are
already cited: two sentences matching the same words are one reading of the question, and
a third citation is better spent on another (0.1-0.2 help on held-out questions, 0.3 hurts)."""
SOFT_WEIGHT = 0.5
"""Term count a word of the same family adds ('German' for a question's 'Germany', see
terms.related), against 1 for the word itself: 0.3-0.7 all help on held-out questions."""
_ANAPHOR = re.compile(
    r"(?:he|she|it|they|this|these|that|those|there|his|her|its|their|such|the latter)\b",
    re.IGNORECASE,
)

_QUESTION_TYPES: list[tuple[AnswerType, re.Pattern[str]]] = [
    (
        "date",
        re.compile(
            r"^\s*when\b|\b(what|which|in what) (year|date|day|month|century|decade)\b"
            r"|いつ|何年|何月|何日|哪一?年|什么时候|언제|몇\s*년",
            re.IGNORECASE,
        ),
    ),
    (
        "number",
        re.compile(
            r"\bhow (many|much|long|old|far|large|big|high|tall|often|fast|heavy)\b"
            r"|\bwhat (percentage|percent|number|amount|share|proportion)\b"
            r"|いくら|何人|何個|いくつ|何パーセント|多少|几|몇|얼마",
            re.IGNORECASE,
        ),
    ),
    ("person", re.compile(r"^\s*who\b|\bwhom\b|\bwhose\b|誰|だれ|谁|누구", re.IGNORECASE)),
    (
        "place",
        re.compile(
            r"^\s*where\b|\bin what (?:city|country|place|state|region)\b|どこ|哪里|哪儿|어디",
            re.IGNORECASE,
        ),
    ),
    ("reason", re.compile(r"^\s*why\b|なぜ|どうして|为什么|왜", re.IGNORECASE)),
    (
        "name",
        re.compile(
            r"\b(?:called|named|known as|termed|referred to as)\W*$"
            r"|\b(?:what|which) (?:is|was|are|were) (?:the )?(?:\w+ )?(?:name|term)s?\b"
            r"|\bthe (?:\w+ )?(?:name|term)s? (?:for|of|given)\b",
            re.IGNORECASE,
        ),
    ),
]
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_NUMBER_WORDS = (
    "zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:thir|four|fif|six|seven"
    "|eigh|nine)teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?"
    "|millions?|billions?|dozens?|half"
)
# Two or more capitalized words, initials allowed between: "Silas B. Cobb", "Sun Life Stadium".
_NAME = r"\b[A-Z][\w'’-]+(?:\s+(?:[A-Z]\.\s*)*[A-Z][\w'’-]+)+"
_ANSWER_PATTERNS: dict[AnswerType, re.Pattern[str]] = {
    "date": re.compile(
        rf"\b(1[0-9]\d\d|20\d\d)s?\b|\b({_MONTHS})\b|\d+\s*[年月日년월일]"
        r"|\b\d+(?:st|nd|rd|th)\s+centur|\b(?:first|second|third|[a-z]+th)\s+century\b"
    ),
    "number": re.compile(
        rf"\d[\d,.]*|[一二三四五六七八九十百千万億]+[人個円年件%]|\b(?:{_NUMBER_WORDS})\b",
        re.IGNORECASE,
    ),
    "person": re.compile(_NAME),
    # A place is a name after a preposition of place: "in Prague", "at the Louvre".
    "place": re.compile(
        r"\b(?:in|at|near|from|to|into|across|outside|inside|between)\s+(?:the\s+)?[A-Z][\w'’-]+"
        # ... or, in Chinese and Japanese, a name with the suffix of a state, city or ward.
        rf"|[{HAN}\u30a1-\u30fa\u30fc]{{1,8}}?[県州市区區町村郡省县縣]"
    ),
    # A name is introduced by a naming verb, quoted, or written in capitals.
    "name": re.compile(
        r"\b(?:called|named|known as|termed|referred to as|dubbed|nicknamed)\b"
        rf"|[\"“][^\"”]{{2,60}}[\"”]|{_NAME}"
    ),
    # A reason is stated with a connective: "because ...", "due to ...", "...のため".
    "reason": re.compile(
        r"\b(?:because|due to|so that|in order to|as a result|owing to|since|caused by"
        r"|thanks to)\b|ため|因为|由于|때문"
    ),
}


# "What kind of X", "in what year", "the name of": the frame says what to look for, not where;
# "kind" or "year" rarely appears in the answering sentence, so these words are not searched.
_FRAME = re.compile(
    r"\b(?:what|which|whose)\s+(?:kind|type|sort|form|name|year|date|day|month|century|decade"
    r"|percentage|percent|number|amount)s?\b(?:\s+of\b)?|\bthe\s+names?\s+of\b"
    r"|\bhow\s+(?:long|many|much|large|big|old|far|high|tall|often)\b",
    re.IGNORECASE,
)
# 'Which section of the GPL is the Disclaimer of Warranty?': the answer is a heading.
_SECTION = re.compile(
    r"\b(?:what|which) (?:section|chapter|clause|appendix|annex|schedule)\b", re.IGNORECASE
)


def content_question(question: str) -> str:
    """The question without its frame: 'In what year was X founded?' -> 'In  was X founded?'."""
    return _FRAME.sub(" ", question)


_STEPS = re.compile(
    r"\bhow (?:do|can|should|would) (?:i|you|we|one)\b|\bhow to\b|\bsteps?\b|\bprocedure\b"
    r"|\bin (?:what|which) order\b|\bwhat order\b|\binstructions\b",
    re.IGNORECASE,
)


_DEFINITION = re.compile(
    r"\b(?:what|which)\s+(?:is|are|does|do)\b(?!.*\b(?:how|when|why|where)\b)"
    r"|\bwhat\b.*\b(?:mean|stand for|do|does|contain|display|test)s?\s*\??\s*$|\bdefin",
    re.IGNORECASE,
)


_RELEASE = re.compile(
    r"^\s*when\b|\b(?:which|what|in which|in what)\s+(?:\w+\s+)?(?:release|version)s?\b"
    r"|\bsince (?:which|what|when)\b",
    re.IGNORECASE,
)


def asks_for_release(question: str) -> bool:
    """'Which release dropped Python 3.7?', 'When was 0.28.0 released?': in a changelog the
    answer is the version or date of the section heading the entry sits under."""
    return _RELEASE.search(question) is not None


def asks_what_is(question: str) -> bool:
    """'What does -e do?', 'What is a metacharacter?': the answer is an entry's description,
    so a term that matches is not counted down as a mere label."""
    return _DEFINITION.search(question) is not None


# "What is a Transparent copy?", "What does 'convey' mean?", "What does it mean to convey a work?"
_DEFINED = re.compile(
    r"^\s*(?:what|which)\s+(?:is|are)\s+(?:meant\s+by\s+)?(?P<is>.+?)\s*\??\s*$"
    r"|^\s*what\s+(?:does|do)\s+(?:it\s+mean\s+to\s+(?P<to>.+?)|(?P<mean>.+?)\s+mean)\s*\??\s*$"
    r"|^\s*define\s+(?P<define>.+?)\s*[.?]?\s*$",
    re.IGNORECASE,
)
# A sentence defining its subject: 'A "Transparent" copy ... means', 'To "convey" a work
# means', 'A "Secondary License" is', 'The term "Program" refers to'.
_DEFINING_VERB = re.compile(
    r"\b(?:(?P<strong>means|mean|shall\s+mean|refers?\s+to|is\s+defined\s+as|denotes)|is|are)\b",
    re.IGNORECASE,
)
# Before a plain 'is': only the subject, an article and quotes ('A "Secondary License" is',
# 'An "Opaque" copy is');
# 'These clades (which are thought to be extinct)' is a sentence using the word.
_PLAIN_HEAD = re.compile(r"[^\w\s\"“”'‘’-]")
DEFINED_TERMS = 5
"""Most content terms a definition question's subject has: 'the name of the team that
won the 1990 final' is a question about a fact, not a term to define."""
DEFINITION_HEAD = 6
"""Most content words a defining sentence has before 'means' or 'refers to' besides the
subject's: 'The "Corresponding Source" for a work in object code form means' has 4 more."""
DEFINITION_BOOST = 1.0
"""Score bonus (x2) for the sentence that defines what a definition question asks about:
'What is a Transparent copy?' wants 'A "Transparent" copy of the Document means ...', not
one of the many sentences that use the term."""


def defined_terms(question: str) -> list[str]:
    """Index terms of what a definition question asks to define, [] for other questions:
    'What is a Transparent copy?' -> ['transpar', 'copi']; when the question quotes the
    term ('What does it mean to "convey" a work?'), the quoted words only: ['convey']."""
    match = _DEFINED.match(question)
    if match is None:
        return []
    subject = next(g for g in match.groups() if g)
    quoted = re.findall(r"[\"“'‘]([^\"”'’]{2,60})[\"”'’]", subject)
    found = list(dict.fromkeys(tokens(" ".join(quoted) if quoted else subject)))
    return found if len(found) <= DEFINED_TERMS else []


def defines(sentence: str, subject: list[str]) -> bool:
    """Whether `sentence` opens by defining `subject` (index terms): the subject's words,
    at most DEFINITION_HEAD others, then a defining verb ('means', 'is', 'refers to')."""
    verb = _DEFINING_VERB.search(sentence, 0, 400)
    if verb is None or not subject:
        return False
    head = sentence[: verb.start()]
    content = tokens(head)
    if not set(subject) <= set(content):
        return False
    if verb.group("strong"):
        return len(content) <= len(subject) + DEFINITION_HEAD
    words = tokens(head, keep_stopwords=True)
    others = [w for w in words if w not in subject and w not in _ARTICLES]
    quoted = any(q in head for q in "\"“'‘")  # 'An "Opaque" copy is': the noun it qualifies
    return len(others) <= quoted and not _PLAIN_HEAD.search(head)


_ARTICLES = frozenset({"a", "an", "the"})


# "What was not founded in 1870?", "Who never returned?": the question asks about a negation.
_NEGATED = re.compile(r"\b(?:not|never)\b|n['’]t\b", re.IGNORECASE)
_NOT_NEGATED = re.compile(r"\bor not\b|\bnot only\b", re.IGNORECASE)
# A sentence stating one: 'Teachers do not discipline them', 'It lacks isotopes'.
_NEGATION = re.compile(
    r"\b(?:not|never|no|none|nothing|nobody|neither|nor|without|cannot|lack(?:s|ed|ing)?"
    r"|fail(?:s|ed)?\s+to|refus(?:e|es|ed)|den(?:y|ies|ied)|unable|absent)\b|n['’]t\b",
    re.IGNORECASE,
)


def asks_negated(question: str) -> bool:
    """'What was not founded in 1870?': only a sentence stating a negation can answer it;
    the sentence saying what was founded answers the question without 'not'."""
    return _NEGATED.search(_NOT_NEGATED.sub(" ", question)) is not None


def asks_for_section(question: str) -> bool:
    """'Which section covers X?' is answered by the heading of the section on X, which
    otherwise counts half (HEADING_WEIGHT): here it holds what the question asks for."""
    return _SECTION.search(question) is not None


def asks_for_steps(question: str) -> bool:
    """'How do I restore factory settings?' wants the procedure, not one step of it."""
    return _STEPS.search(question) is not None


def answer_type(question: str) -> AnswerType | None:
    """What kind of answer a question wants: 'When was ...' -> 'date', 'Who ...' -> 'person'."""
    for kind, pattern in _QUESTION_TYPES:
        if pattern.search(question):
            return kind
    return None


@dataclass(frozen=True)
class Query:
    """A question's terms with their IDF over every sentence of the documents."""

    question: str
    idf: dict[str, float]
    avg_length: float
    kind: AnswerType | None = None
    decisive: Decisive = field(default_factory=Decisive)
    units: list[Unit] = field(default_factory=list)
    """A CJK question's characters for coverage (see units.py), a Japanese one's terms at
    their idf (see build_query); empty otherwise."""
    latest: dict[str, list[int]] = field(default_factory=dict)
    """For a question about the latest release: per changelog document, the span of its
    newest release (see releases.py); empty otherwise."""
    finder: TermFinder = field(init=False, compare=False, repr=False)
    soft: SoftFinder = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "finder", TermFinder(self.idf))
        object.__setattr__(self, "soft", SoftFinder(self.idf))

    def hints(self) -> dict[str, Any]:
        """The JSON-ready form every map task carries: a few dozen bytes per term."""
        return {
            "idf": self.idf,
            "avg_length": self.avg_length,
            "kind": self.kind,
            "decisive": dataclasses.asdict(self.decisive),
            "units": self.units,
            "latest": self.latest,
        }

    @classmethod
    def from_hints(cls, question: str, hints: dict[str, Any]) -> Query:
        return cls(
            question,
            dict(hints["idf"]),
            float(hints["avg_length"]),
            hints.get("kind"),
            Decisive(**hints.get("decisive", {})),
            [(list(terms), float(weight)) for terms, weight in hints.get("units", [])],
            {doc: list(span) for doc, span in hints.get("latest", {}).items()},
        )


def build_query(question: str, texts: list[str], ids: list[str] | None = None) -> Query:
    """IDF of the question's terms over all sentences of `texts`, and their mean length.

    Sentences are the BM25 "documents": a term in 3 of 1,000 sentences gets
    idf = ln(1 + (1000 - 3 + 0.5) / (3 + 0.5)) = 5.66; one in 500 of them 0.69
    (plus PRIOR_SENTENCES). The same pass notes how the documents write each term
    (capitalized mid-sentence or not), to find the question's decisive terms; `ids`
    name the documents of `texts`, for the names each one's title gives (see decisive.py).
    """
    terms = query_terms(content_question(question))
    latest = asks_for_latest(question) and ids is not None
    # Read once for both passes: the layout pass is most of their cost. The structure is
    # kept only for an option question's check (see _unwritten) or one about the latest
    # release, for the memory it takes.
    asks_option = any(t.startswith(LITERAL + "-") for t in terms)
    structures = [whole_structure(text) for text in texts] if asks_option or latest else []
    newest = _newest_releases(texts, structures, ids) if latest else {}
    if newest:  # 'What changed in the latest release?' of a changelog: which, not what in it
        terms = [t for t in terms if t not in _RELEASE_TERMS]
    if structures:
        bounds = [unit_bounds(t, s) for t, s in zip(texts, structures, strict=True)]
    else:
        bounds = [unit_bounds(text) for text in texts]
    usage = _usage(terms, texts, bounds)
    decisive = decide(question, terms, usage, texts, ids)
    # A misspelt name ('Ghandi') is searched as the documents spell it ('Gandhi').
    # ... and a name the documents write their own way ('LGPL') as they write it too.
    spellings = [v for variants in decisive.variants.values() for v in variants]
    spellings += [a for aliases in decisive.aliases.values() for a in aliases]
    if spellings:
        terms = [t for t in terms if t not in decisive.variants]
        terms += [v for v in spellings if v not in terms]
        usage = _usage(terms, texts, bounds)
    unwritten = _unwritten(question, terms, usage, texts, structures if asks_option else [])
    if unwritten:
        decisive = dataclasses.replace(decisive, absent=[*decisive.absent, *unwritten])
    n = usage.sentences + PRIOR_SENTENCES
    idf = {
        t: math.log(1 + (n - usage.df.get(t, 0) + 0.5) / (usage.df.get(t, 0) + 0.5)) for t in terms
    }
    weighed = _per_word(question, idf)
    average = usage.length / usage.sentences if usage.sentences else 1.0
    coverage = coverage_units(content_question(question), idf)
    stems = lone_stems(question)
    if (weighed != idf or stems) and not coverage:
        # Per-word weights rank sentences; the not-found threshold keeps the idf share it
        # was calibrated on (as units: each term at its idf). On it, per-word weights
        # refused 0.013 of answerable Japanese dev questions, not 0.016, but answered
        # 0.029 of those asked of the wrong article, not 0.010.
        # A one-kanji stem ('開' of '開いた') is left out of it (see terms.lone_stems).
        coverage = [([t], v) for t, v in idf.items() if t not in stems]
    return Query(question, weighed, average, answer_type(question), decisive, coverage, newest)


_RELEASE_TERMS = frozenset(tokens(RELEASE_WORDS))


def _newest_releases(
    texts: list[str], structures: list[Structure], ids: list[str] | None
) -> dict[str, list[int]]:
    """Document id -> [start, end] of its newest release, for each text that is a changelog."""
    spans = {}
    for doc, text, structure in zip(ids or [], texts, structures, strict=True):
        span = newest_release(text, structure)
        if span is not None:
            spans[doc] = list(span)
    return spans


WORD_SHARE = 0.75
"""Power of its bigram count a Japanese word's bigrams share its weight by (see _per_word)."""
# A word of Japanese text: katakana (with its long mark and middle dot) or ideographs.
_JAPANESE_WORD = re.compile(f"[\u30a1-\u30fc{HAN}]+")
_KANA_PARTICLE = re.compile(f"[{HIRAGANA}]")


def _per_word(question: str, idf: dict[str, float]) -> dict[str, float]:
    """In a Japanese question, each bigram of a word of n bigrams weighs 1/n**WORD_SHARE.

    Kana particles cut Japanese into words, and a word of k characters gives k - 1
    bigrams that come and go together: 'ジェイ・キャスト' gives 5 ('ジェ' ... 'スト'), '特徴' 1,
    so in 'ジェイ・キャストのコンテンツの特徴とは' the name would outweigh what is asked about
    the name 5 to 1; at 5**-0.75 = 0.30 each it weighs 1.5 to 1. On the Japanese dev
    questions the first cited sentence holds the answer for 0.748 at power 0, 0.783 at
    0.5, 0.793 at 0.75 and 0.780 at 1.
    """
    if not _KANA_PARTICLE.search(question):
        return idf
    scale: dict[str, float] = {}
    for run in _JAPANESE_WORD.findall(fold(question)):
        grams = [g for g in tokens(run) if g in idf]
        for gram in grams:
            scale[gram] = max(scale.get(gram, 0.0), len(grams) ** -WORD_SHARE)
    return {t: v * scale.get(t, 1.0) for t, v in idf.items()}


# A version or a protocol as written: '3.8', '0.28.0', 'HTTP/3'. Its pieces ('3', '8') are
# in every changelog, so only the whole says whether the documents mention it.
_COMPOUND_NUMBER = re.compile(r"(?<![\w.])(?:\d+(?:\.\d+)+|[A-Za-z]+/\d+(?:\.\d+)*)(?![\w]|\.\d)")


# A software thing named by its kind: 'the beamer class', 'the xfp package', 'the read
# builtin'. The word before the kind is its name, which the documents must write.
_NAMED_THING = re.compile(
    r"\bthe ([A-Za-z][\w.+-]*) (?:class|package|module|library|builtin|command|subcommand"
    r"|function|method|macro|option|flag|variable|parameter|attribute|property|keyword)\b",
    re.IGNORECASE,
)


def _unwritten(
    question: str, terms: list[str], usage: Usage, texts: list[str], structures: list[Structure]
) -> list[str]:
    """Names the question writes literally that the documents never write: an option
    ('-Z' of a man page that has none), a version ('grep 4.0' in a NEWS file that stops
    at 3.8) or a named thing ('the beamer class' in release notes that never mention
    beamer), or an option of a command that lists its options without it (see
    options.py). They name the thing asked about, so a passage without them cannot
    answer. `structures` are the texts' (whole_structure), for a question naming an
    option; empty for others, which need none."""
    missing = [t[len(LITERAL) :] for t in terms if t.startswith(LITERAL + "-")]
    missing = [m for m in missing if not usage.df.get(LITERAL + m)]
    names = [m.group() for m in _COMPOUND_NUMBER.finditer(question)]
    names += [
        m.group(1)
        for m in _NAMED_THING.finditer(question)
        if tokens(m.group(1)) and not _COMPOUND_NUMBER.fullmatch(m.group(1))
    ]
    for name in names:
        written = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w]|\.\d)", re.IGNORECASE)
        if not any(written.search(text) for text in texts):
            missing.append(name)
    if structures:  # 'read -z' when only 'test -z' is
        missing += options_not_held(question, list(zip(texts, structures, strict=True)))
    return list(dict.fromkeys(missing))


def _usage(
    terms: list[str], texts: list[str], bounds: list[tuple[array[int], array[int]]]
) -> Usage:
    """Per term: the sentences holding it, and its mid-sentence uses, capitalized or not.

    `bounds` holds each text's unit starts and ends (passages.unit_bounds)."""
    finder = TermFinder(terms)
    usage = Usage()
    df: Counter[str] = Counter()
    mid: Counter[str] = Counter()
    capital: Counter[str] = Counter()
    for text, (starts, ends) in zip(texts, bounds, strict=True):
        usage.sentences += len(starts)
        usage.length += sum(ends) - sum(starts)
        seen: set[tuple[int, str]] = set()
        for position, term in finder.find_unfolded(text):
            seen.add((bisect.bisect_right(ends, position), term))
            first = bisect.bisect_left(starts, position)  # units are in order: starts sorted
            if first == len(starts) or starts[first] != position:
                mid[term] += 1
                capital[term] += text[position].isupper()
        df.update(term for _, term in seen)
    usage.df, usage.mid, usage.capital = dict(df), dict(mid), dict(capital)
    return usage


@dataclass(frozen=True)
class Hit:
    """A scored sentence: local offsets into the scored text."""

    start: int
    end: int
    score: float
    coverage: float
    """Share of the question's idf mass found in this sentence, its neighbours and heading:
    how well the passage around it matches, for the not-found threshold. Plain idf (not
    squared) over the 3-sentence window separates real questions from questions asked of
    the wrong document best (see extractive.relevance)."""
    lacking: tuple[str, ...] = ()
    """The question's names (see decisive.py) the passage does not hold."""


def score_sentences(
    text: str,
    query: Query,
    passages: Passages | None = None,
    document: str | None = None,
    *,
    opens: bool = True,
) -> list[Hit]:
    """Every unit of `text` that matches (or borrows from a neighbour that does).

    `document` is the id of the document `text` comes from: the names its title gives
    are held by every passage of it. `opens`: `text` starts its document, so its first
    sentence is the lead that names what the document is about.

    Units, their paragraphs and their labels (headings, terms, header rows) come from
    the text's structure (see passages.py); `passages` is that reading, if already made.
    """
    passages = passages or Passages.read(text)
    spans = passages.spans
    if not spans or not query.idf or query.decisive.absent:
        return []  # nothing, or the documents lack something the question names
    ends = [end for _, end in spans]
    counts: dict[int, dict[str, float]] = {}
    folded = fold(text)  # same length: positions index `text`
    matches = [(p, t, 1.0) for p, t in query.finder.find(folded)]
    matches += [(p, t, SOFT_WEIGHT) for p, t in query.soft.find(folded)]
    for position, term, count in matches:
        sid = bisect.bisect_right(ends, position)
        if sid < len(spans) and position >= spans[sid][0]:
            tf = counts.setdefault(sid, {})
            tf[term] = tf.get(term, 0.0) + count
    passages.inherit(counts)
    base: dict[int, float] = {}
    for sid, tf in counts.items():
        start, end = spans[sid]
        norm = K1 * (1 - B + B * (end - start) / query.avg_length)
        base[sid] = sum(query.idf[t] * c * (K1 + 1) / (c + norm) for t, c in tf.items())
    weight = {t: v**COVERAGE_IDF_POWER for t, v in query.idf.items()}
    total_weight = sum(weight.values()) or 1.0
    total_idf = sum(query.idf.values()) or 1.0
    paragraph, paragraph_terms = _paragraph_scores(passages.blocks, counts, query)
    variants = query.decisive.variants
    aliases = query.decisive.aliases
    titled = set(query.decisive.titled.get(document, [])) if document is not None else set()
    groups = [g for i, g in enumerate(query.decisive.groups) if i not in titled]
    required = [
        [s for t in g for s in [*variants.get(t, [t]), *aliases.get(t, [])]] for g in groups
    ]
    words = [" ".join(query.decisive.words.get(t, t) for t in g) for g in groups]
    heading = passages.labels
    what_is = asks_what_is(query.question)
    subject = defined_terms(query.question)
    negated = asks_negated(query.question)
    section = asks_for_section(query.question)
    lent = _lent_to_subject(passages, counts, base, query, opens)
    candidates = {i for sid in counts for i in (sid - 1, sid, sid + 1) if 0 <= i < len(spans)}
    candidates |= {sid for sid, h in enumerate(heading) if h in counts} | set(lent)
    hits: list[Hit] = []
    for sid in sorted(candidates):
        own = counts.get(sid, {})
        start, end = spans[sid]
        sentence = text[start:end]
        previous = ANAPHOR_CONTEXT if _ANAPHOR.match(sentence) else CONTEXT_WEIGHT
        near: dict[str, float] = {}  # terms found only next door, at the share borrowed
        # A word of the same family alone (count SOFT_WEIGHT) is a partial match of its term.
        found = {t: min(1.0, c) for t, c in own.items()}
        near_found: dict[str, float] = {}
        context = PARAGRAPH_WEIGHT * paragraph[sid] + lent.get(sid, 0.0)
        for other, share in (
            (sid - 1, previous),
            (sid + 1, CONTEXT_WEIGHT),
            (heading[sid], HEADING_CONTEXT),
        ):
            if other in counts and other != sid:
                context += share * base[other]
                for term, count in counts[other].items():
                    if term not in own:
                        near[term] = max(near.get(term, 0.0), share)
                        near_found[term] = max(near_found.get(term, 0.0), min(1.0, count))
        held = _held(sid, counts, heading, previous == ANAPHOR_CONTEXT, paragraph_terms)
        if required:
            held.update(t for h in passages.sections[sid] for t in counts.get(h, ()))
        lacking = _lacking(required, held) if required else []
        ranking = (
            sum(weight[t] * f for t, f in found.items())
            + sum(weight[t] * s * near_found[t] for t, s in near.items())
        ) / total_weight
        score = (base.get(sid, 0.0) + context) * ranking**COVERAGE_POWER
        defining = subject and not passages.is_label(sid)
        if defining and defines(_entry_led(passages, heading, sid), subject):
            score *= 1 + DEFINITION_BOOST  # the sentence defining what the question asks about
        elif what_is and passages.is_term(sid) and passages.names(sid, query.idf):
            score *= 1 + DEFINITION_BOOST  # the entry the question names: what it defines
        elif section and passages.is_heading(sid):
            score *= 1 + TYPE_BOOST  # the section's heading is what the question asks for
        elif passages.is_label(sid):
            score *= HEADING_WEIGHT
        elif query.kind and _has_answer_type(sentence, query):
            score *= 1 + TYPE_BOOST
        if query.units:
            coverage = covered(query.units, {**near_found, **found})
        else:
            coverage = (
                sum(query.idf[t] * f for t, f in found.items())
                + sum(query.idf[t] * f for t, f in near_found.items())
            ) / total_idf
        if own and not passages.is_label(sid) and restates(sentence, query.idf):
            score *= RESTATED  # a heading or term the question names is what it asks about
        if lacking:  # about something else than the question names, most likely
            score *= LACKING_NAME
        if negated and not _NEGATION.search(sentence):
            # States what happened; the question asks what did not. Only its coverage goes
            # (not-found when no sentence stating a negation matches): lowering its score
            # too cost 4 of the 29 real SQuAD questions with 'not', whose answer sentence
            # need not repeat it ('What did Newton's mechanics not affect?').
            coverage = 0.0
        hits.append(Hit(start, end, score, coverage, tuple(words[i] for i in lacking)))
    return hits


def _lent_to_subject(
    passages: Passages,
    counts: dict[int, dict[str, float]],
    base: dict[int, float],
    query: Query,
    opens: bool,
) -> dict[int, float]:
    """Score lent by each sentence the question restates (see restates) to the sentences
    that may name the subject it leaves out: the one before it and, in the text that opens
    its document, the lead.

    'Xであるのは？' copies a sentence of the text and asks for its subject, which Japanese
    and Chinese drop when the sentence before names it or the text is about it: the lead
    sentence of an article names its topic ('株式会社ジェイ・キャストは、...').
    """
    text, spans = passages.text, passages.spans
    restated = [
        sid
        for sid in counts
        if not passages.is_label(sid) and restates(text[spans[sid][0] : spans[sid][1]], query.idf)
    ]
    if not restated:
        return {}
    lead = next((sid for sid in range(len(spans)) if not passages.is_label(sid)), -1)
    lent: dict[int, float] = {}
    for sid in restated:
        for other in {sid - 1, lead if opens else -1} - {sid, -1}:
            lent[other] = max(lent.get(other, 0.0), SUBJECT_CONTEXT * base[sid])
    return lent


def _entry_led(passages: Passages, labels: list[int], sid: int) -> str:
    """A sentence, led by its entry's term when it opens with the defining verb: a
    licence's '1.7. "Larger Work"' over 'means a work that combines ...'."""
    text, spans = passages.text, passages.spans
    sentence = text[spans[sid][0] : spans[sid][1]]
    label = labels[sid]
    if label < 0 or label == sid or not passages.is_term(label):
        return sentence
    if _DEFINING_VERB.match(sentence) is None:
        return sentence
    start, end = spans[label]
    return f"{text[start:end]} {sentence}"


def restates(sentence: str, idf: dict[str, float]) -> bool:
    """Whether every content term of `sentence` is one of the question's (`idf`'s keys):
    '京都市山科区に本社を置いている。' for '京都市山科区に本社を置いている出版社は?'. The
    answer is what the question does not say, so such a sentence cannot hold it; it sits
    next to the one that does (here the one before, naming the publisher)."""
    terms = iter_tokens(sentence)  # most sentences stop at their first word or two
    return next(terms, None) in idf and all(t in idf for t in terms)


def _held(
    sid: int,
    counts: dict[int, dict[str, float]],
    heading: list[int],
    anaphoric: bool,
    paragraph_terms: list[set[str]],
) -> set[str]:
    """The terms a passage holds for the decisive check: its sentence, its paragraph, its
    section heading (and the headings above it, see Passages.sections), and the previous
    sentence when it opens with a pronoun. Not the
    next paragraph's first sentence, which is about the next entry of a register."""
    held = set(counts.get(sid, {})) | paragraph_terms[sid]
    if heading[sid] in counts:
        held |= set(counts[heading[sid]])
    if anaphoric:
        held |= set(counts.get(sid - 1, {}))
    return held


def _lacking(required: list[list[str]], held: set[str]) -> list[int]:
    """Indices of the decisive groups a passage (its sentence, neighbours, heading,
    paragraph) holds no term of, nor a spelling of one the documents use."""
    return [i for i, spellings in enumerate(required) if not any(t in held for t in spellings)]


def _paragraph_scores(
    para_of: list[int], counts: dict[int, dict[str, float]], query: Query
) -> tuple[list[float], list[set[str]]]:
    """Per unit, BM25 of its whole paragraph (its block; no length normalization), and its
    terms.

    Questions are often written about a paragraph: its other sentences name the subject
    while one states the fact, so the paragraph's match lifts all its sentences.
    """
    terms: dict[int, dict[str, float]] = {}
    for sid, tf in counts.items():
        merged = terms.setdefault(para_of[sid], {})
        for term, count in tf.items():
            merged[term] = merged.get(term, 0.0) + count
    score = {
        p: sum(query.idf[t] * c * (K1 + 1) / (c + K1) for t, c in tf.items())
        for p, tf in terms.items()
    }
    held = {p: set(tf) for p, tf in terms.items()}
    return [score.get(p, 0.0) for p in para_of], [held.get(p, set()) for p in para_of]


def _has_answer_type(sentence: str, query: Query) -> bool:
    assert query.kind is not None
    question = query.question.lower()
    for match in _ANSWER_PATTERNS[query.kind].finditer(sentence):
        found = match.group()
        if query.kind == "person":
            if any(word.lower() not in question for word in found.split()):
                return True
        elif query.kind == "name":
            if found[0].islower() or any(w.lower() not in question for w in found.split()):
                return True
        elif query.kind == "place":
            if fold(found.split()[-1].lower()) not in fold(question):
                return True
        elif query.kind == "number" and _is_date_part(sentence, match):
            continue  # "how many" wants a count: in "May 4, 1990" neither 4 nor 1990 is one
        elif found.lower() not in question:
            return True
    return False


_YEAR = re.compile(r"(1[0-9]\d\d|20\d\d)s?")
_AFTER_MONTH = re.compile(rf"\b(?:{_MONTHS})\s*$")


def _is_date_part(sentence: str, match: re.Match[str]) -> bool:
    """A year ('1990', '1990s') or a day after a month name ('May 4')."""
    return bool(
        _YEAR.fullmatch(match.group().rstrip(".,"))
        or _AFTER_MONTH.search(sentence, 0, match.start())
    )


def diverse_order(question: str, sentences: list[str], scores: list[float], k: int) -> list[int]:
    """Indices of `k` sentences to cite, best first, preferring ones that add question terms.

    Greedy: the best-scored sentence first, then each time the sentence whose score, less
    DIVERSITY times the share of its question terms already cited, is highest. Of
    "Manning threw nine touchdowns in the year" and "Osweiler threw ten touchdowns", the
    second repeats 'throw' and 'touchdown'; "Manning finished the game with zero
    touchdowns" adds 'game' and is cited before it when their scores are close.
    """
    finder = TermFinder(query_terms(content_question(question)))
    held = [{term for _, term in finder.find(fold(sentence))} for sentence in sentences]
    left = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))
    order = left[:1]  # the best-scored sentence always comes first
    del left[:1]
    cited = set().union(*(held[i] for i in order))
    while left and len(order) < k:
        adjusted = [scores[i] * (1 - DIVERSITY * _share_cited(held[i], cited)) for i in left]
        pick = left.pop(adjusted.index(max(adjusted)))  # the better-ranked of equals
        order.append(pick)
        cited |= held[pick]
    return order[:k]


def _share_cited(terms: set[str], cited: set[str]) -> float:
    """Share of a sentence's question terms already cited (all, if it holds none)."""
    return len(terms & cited) / len(terms) if terms else 1.0
