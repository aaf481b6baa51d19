"""Sentence retrieval: BM25 with whole-document statistics, neighbour context, answer-type cues.

BM25 is computed here rather than by a bm25s index: map tasks each score their own chunk
but must share IDF over all the documents (build_query computes it once, for the question's
terms only), and a score adds word families and neighbour, paragraph and heading context
that an index of exact tokens cannot. A map step scores in full only the units that can
still rank (best_hits), so on 10 MB of Wikipedia an `ask` takes about what bm25s's tokenize,
index and query do (tests/bench/bench_extractive.py, which also shows the shapes where the
layout pass makes it slower). bm25s still supplies the stopword lists (see terms.py).
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import heapq
import math
import re
from collections.abc import Collection
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from wordfreq import zipf_frequency

from pipeline.engines.extractive import skim
from pipeline.engines.extractive.decisive import Decisive, Usage, decide, written_nowhere
from pipeline.engines.extractive.openers import points_elsewhere
from pipeline.engines.extractive.options import options_not_held
from pipeline.engines.extractive.passages import Passages, unnumbered, whole_structure
from pipeline.engines.extractive.rarity import MOST_COMMON, rarity, weighs
from pipeline.engines.extractive.releases import RELEASE_WORDS, asks_for_latest, newest_release
from pipeline.engines.extractive.terms import (
    LITERAL,
    LONE_SYMBOL,
    SoftFinder,
    TermFinder,
    code_named_stopwords,
    compound_terms,
    fold,
    is_cjk_term,
    is_literal,
    iter_tokens,
    lone_nouns,
    lone_stems,
    names_option,
    query_terms,
    same_actions,
    stem,
    tokens,
    version_literals,
    writes_camel_case,
)
from pipeline.engines.extractive.units import (
    FUNCTION_CHARS,
    Unit,
    asked_kind_terms,
    coverage_units,
    covered,
)
from pipeline.engines.extractive.usage import gather, gather_more, units_of
from pipeline.text.layout import BYLINE, LIST_MARKER
from pipeline.text.scripts import CJK_CHAR, HAN, HANGUL, HANGUL_CHAR, HIRAGANA, KANA
from pipeline.text.structure import Kind, Structure

AnswerType = Literal[
    "clock", "score", "date", "duration", "money", "number", "person", "place", "reason", "name"
]

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
CHINESE_ANAPHOR_CONTEXT = 0.4
"""ANAPHOR_CONTEXT for a Chinese sentence opening with a pronoun or demonstrative ('它是由
...', '這座天文台...'), which names what the sentence before it did. On the Chinese dev
questions (CMRC2018 and DRCD, 177) the first cited sentence holds the answer for 0.734
without, 0.740 at 0.4 and 0.6, and 0.746 with a restated sentence lending to such a next
one (see _lent_to_subject). Japanese openers are left out: この and その are determiners
of every other sentence ('その後'), and borrowing cost 0.6 points there."""
NAMING_CONTEXT = 1.0
"""Share of the previous sentence's score a sentence naming what that one describes
borrows when the question asks for a name ('これを摂関政治という。' for '...政治を何という？',
'This is called antigenic variation.'; ANAPHOR_CONTEXT for any other question): the
sentence before holds the description the question copies, this one the name, and it is
cited first. On the Japanese dev questions (with the naming verbs counting as the asked
kind, which alone gained top-3 0.932 -> 0.945) the first cited sentence holds the answer for
0.828 at 0.6 (top-1 0.900 -> 0.913) and 0.841 at 1; on the SQuAD dev questions it gains 1
top-1 and loses none."""
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
RESTATED_CHINESE = 0.25
"""RESTATED for a Chinese question, which copies a sentence and asks for what the next or
previous one says: on the Chinese dev questions the first cited sentence holds the
answer for 0.751 at 0.5 (with sentences restated character by character, see _restated;
0.746 without them), 0.757 at 0.25 and at 0."""
LEAD_CONTEXT = 0.3
"""Share of the lead sentence's score (and terms) a sentence of a Japanese text that opens
its document borrows when it holds question terms of its own (see _topic_lead). On the
Japanese dev questions the first cited sentence holds the answer for 0.816 without, 0.822
at 0.3 (top-1 0.877 -> 0.896), about level at 0.6; in Chinese it cost 0.6 points."""
HEADING_WEIGHT = 0.5
"""Headings name topics; they rarely state the answer, so they count half."""
LINKS_WEIGHT = 0.1
"""A unit of links alone (a table of contents' entry, a badge) points elsewhere and says
nothing: it is cited only when nothing else matches."""
CODE_WEIGHT = 0.5
"""Score share of a statement in a code block for a question that asks for no code (see
asks_for_code): 'use std::rc::Rc;' names what 'What is Rc<T> used for?' asks about
twice in 16 characters, and says nothing of it."""
COVERAGE_IDF_POWER = 2
"""Ranking coverage weighs terms by idf squared: a question's rare terms carry its focus."""
RANK_RARITY = 0.5
"""An English question's terms weigh in ranking coverage by idf squared times their rarity
in the language (rarity.py) to this power: the Super Bowl 50 article's idf calls 'fumbles'
as common as 'four' (3.07 and 3.00), English does not (rarity 5.1 and 2.5), and 'Who forced
four fumbles for the Broncos in the 2015 season?' is answered right with it. On the SQuAD dev
questions (1,303) top-1 is 1,122 at 0 (none), 1,126 at 0.25, 1,128 at 0.5, 1,131 at 0.75,
1,130 at 1; top-3 1,178, 1,178, 1,177, 1,178, 1,178. Above 0.5 a man page's program name,
an English word ('fetch'), outweighs what the question asks of it: 'How do I make fetch
quiet?' got '--progress' (which says 'fetch' and 'quiet') over '--quiet'. The not-found
share keeps the idf: weighed by rarity it told questions asked of the wrong article apart
better (with 0.068 of them answered, 0.017 of real ones refused, not 0.027), but a
question whose topic the document names and whose fact it lacks (unanswerable.py, answer
removed) was then answered-not-found 0.175 of the time, not 0.225."""
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
# A sentence naming what the one before describes: 'This is called antigenic variation.'
# ('It is named after ...' names no thing, it tells where a name comes from; 'This
# function is called once' is a call.)
_NAMED_BEFORE = re.compile(
    r"(?:this|these|that|those|such|it)\b[^.;:]{0,40}?\b(?:is|are|was|were|ha(?:s|ve) been)\s+"
    r"(?:(?:also|often|sometimes|commonly|usually|better|now|\w+ly)\s+)?"
    r"(?:called|known as|termed|referred to as|named|dubbed)\b"
    r"(?!\s+(?:after|for|by|off|up|into|on|upon|once|when|whenever|with|to)\b)",
    re.IGNORECASE,
)
# ... and a Japanese one: 'これを摂関政治という。'.
# ('これは事実だという。', 'it is said', names nothing: the name before と is no verb's end.)
_JAPANESE_NAMED_BEFORE = re.compile(
    "(?:これ|それ|[こそ][のう][^。]{0,40}?)"
    "(?:を[^。]{1,30}?(?<![だたるいし])と(?:いう|言う|呼ぶ|呼んだ|称する|称した)"
    "|[はが][^。]{1,30}?(?<![だたるいし])と(?:呼ばれ|称され)(?:る|た|ている))。?\\s*$"
)
# ... and a Chinese one: '这也称为间接扩展。'.
_CHINESE_CALLED = "(?:[稱称](?:[為为]|作)|叫[做作])"
_NOT_PRAISED = "(?![讚赞頌颂道霸王])"  # '被稱讚' is praised, '稱霸' dominated: no naming
_CHINESE_NAMED_BEFORE = re.compile(
    f"(?:这|這|此|该|該)[^，。,]{{0,12}}?{_CHINESE_CALLED}{_NOT_PRAISED}"
)
# A Chinese sentence opening with a pronoun: '它是由...', '這座天文台', '该公司', '其特点'.
_CHINESE_ANAPHOR = re.compile("[這这此該该它其他她]|同年")
_NAMED_BEFORES = (_NAMED_BEFORE, _JAPANESE_NAMED_BEFORE, _CHINESE_NAMED_BEFORE)

# 'Why' (为什么, 为何), but not the 'what' of '成为什么' ('became what') or '称为什么', '称呼为
# 什么' ('called what'; 呼 is 唿 once folded).
_NOT_CALLED = "(?<![称成作认以视名呼唿])"
_QUESTION_TYPES: list[tuple[AnswerType, re.Pattern[str]]] = [
    # 'At what time did Luther die?' asks the hour, 'What was the final score?' a result.
    ("clock", re.compile(r"\bwhat time\b(?! (?:of|period|frame))", re.IGNORECASE)),
    ("score", re.compile(r"\bwhat (?:was|is|were) the (?:\w+ )?scores?\b", re.IGNORECASE)),
    (
        "date",
        re.compile(
            r"^\s*when\b|\b(what|which|in what) (year|date|day|month|century|decade)\b"
            r"|いつ|何年|何月|何日|哪一?年|什么时候|언제|몇\s*년",
            re.IGNORECASE,
        ),
    ),
    ("duration", re.compile(r"\bhow long\b", re.IGNORECASE)),
    (
        "money",
        re.compile(
            r"\bhow much\b.*\b(?:cost|pa(?:y|id)|spen[dt]|purchas|invest|money|worth|price|budget"
            r"|fund|rais|charg|fee|s[eo]l[ld]|earn|salar|donat|lo?an|lend|owe)"
            r"|\bwhat (?:was|is|were|are) the (?:[\w'’]+ ){0,2}?(?:cost|price|budget|fee|salary"
            r"|revenue|income|profit|turnover|earning)s?\b",
            re.IGNORECASE,
        ),
    ),
    (
        "number",
        re.compile(
            r"\bhow (many|much|old|far|large|big|high|tall|often|fast|heavy)\b"
            r"|\bwhat (percentage|percent|number|amount|share|proportion)\b"
            r"|いくら|何人|何個|いくつ|何パーセント|多少|几|몇|얼마",
            re.IGNORECASE,
        ),
    ),
    ("person", re.compile(r"^\s*who\b|\bwhom\b|\bwhose\b|誰|だれ|谁|누구", re.IGNORECASE)),
    (
        "place",
        re.compile(
            r"^\s*where\b|(?:^\s*|\bin\s+)(?:what|which)\s+(?:city|country|place|state|region|town"
            r"|county|province|continent|island|nation)s?\b|どこ|哪里|哪儿|어디",
            re.IGNORECASE,
        ),
    ),
    ("reason", re.compile(rf"^\s*why\b|なぜ|どうして|{_NOT_CALLED}为什么|왜", re.IGNORECASE)),
    (
        "name",
        re.compile(
            r"\b(?:called|named|known as|termed|referred to as)\W*$"
            r"|\b(?:what|which) (?:is|was|are|were) (?:the )?(?:\w+ )?(?:name|term)s?\b"
            r"|\bthe (?:\w+ )?(?:name|term)s? (?:for|of|given)\b"
            # 'Xを何というか', '何と呼ばれたか': the name the text gives what it describes
            # (matched here, unfolded: fold() writes 呼 as 唿)
            "|(?:何|なん)と(?:いう|言う|いい|言い|呼|称)",
            re.IGNORECASE,
        ),
    ),
]
# More Chinese and Japanese question words, matched in the folded question (Traditional
# characters as Simplified: '幾' as '几', '為什麼' as '为什么') when the above find none.
# On the Chinese dev questions the first cited sentence holds the answer for 0.746
# without them, 0.751 with.
_CJK_QUESTION_TYPES: list[tuple[AnswerType, re.Pattern[str]]] = [
    ("date", re.compile("何时|什么时[候间期]|哪[一个]?天|几[年月]|哪个?年代|何年|何月|何日|いつ")),
    ("number", re.compile("多少|几|多[大长高久远重深宽]|何[個回度歳]|いくつ|いくら")),
    ("person", re.compile("谁|哪[一个]?位|誰|だれ")),
    ("place", re.compile("哪里|哪儿|何处|什么地方|在哪|哪[一个]?(?:国家|城市|地区|省)|どこ")),
    # '该语言被称为?', '叫什么名字': the name the text gives what it describes
    (
        "name",
        re.compile(
            "(?:称|叫)(?:为|做|作)?(?:什么)?\\s*[?？]\\s*$|(?:称为|叫|名为)(?:什么|何)|什么名字"
        ),
    ),
    ("reason", re.compile(f"{_NOT_CALLED}为(?:什么|何)|什么原因|なぜ|どうして")),
]
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_NUMBER_WORDS = (
    "zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:thir|four|fif|six|seven"
    "|eigh|nine)teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?"
    "|millions?|billions?|dozens?|half"
)
_SPAN_UNITS = (
    r"(?:milli|micro|nano)?seconds?|minutes?|hours?|days?|nights?|weeks?|months?|years?|decades?"
    r"|centur(?:y|ies)|millenni(?:um|a)|generations?|terms?|seasons?|semesters?|lines?"
    r"|(?:kilo|centi|milli)?met(?:er|re)s?|km|cm|mm|m|miles?|feet|foot|ft|yards?|inch(?:es)?"
)
# Two or more capitalized words, initials allowed between: "Silas B. Cobb", "Sun Life Stadium".
_NAME = r"\b[A-Z][\w'’-]+(?:\s+(?:[A-Z]\.\s*)*[A-Z][\w'’-]+)+"
_JAPANESE_NAMING = "(?<![だたるいし])と(?:いう|言う|いい|言い|呼|称)[^。、]{0,4}(?:[。、]|$)"
_CHINESE_NAMING = (  # ... nor is '也名列' (ranks)
    f"(?:{_CHINESE_CALLED}|名[為为]|[又也亦俗簡简通別别統统被][稱称]|[又俗通別别]名){_NOT_PRAISED}"
)
_ANSWER_PATTERNS: dict[AnswerType, re.Pattern[str]] = {
    "clock": re.compile(
        r"\b\d{1,2}[:.]\d\d\s*(?:[ap]\.?m\b\.?)?|\b\d{1,2}\s*[ap]\.?m\b\.?|\bo['’]clock\b"
        r"|\b(?:noon|midnight)\b",
        re.IGNORECASE,
    ),
    "score": re.compile(r"(?<![\d.,])\d{1,3}\s?[–-]\s?\d{1,3}(?![\d.,]\d)"),
    "date": re.compile(
        rf"\b(1[0-9]\d\d|20\d\d)s?\b|\b({_MONTHS})\b|\d+\s*[年月日년월일]"
        r"|\b\d+(?:st|nd|rd|th)\s+centur|\b(?:first|second|third|[a-z]+th)\s+century\b"
    ),
    "number": re.compile(
        rf"\d[\d,.]*|[一二三四五六七八九十百千万億]+[人個円年件%]|\b(?:{_NUMBER_WORDS})\b",
        re.IGNORECASE,
    ),
    # 'How long' asks for a span of time or of length, not any number: "2 seconds", "a
    # week-long", "86 km", "1892 to 1894", "until the age of 16", "since the 14th century".
    "duration": re.compile(
        rf"(?:\d[\d,.]*|\b(?:an?|one|several|few|many|some|{_NUMBER_WORDS}))[\s-]+(?:[a-z]+[\s-]+)?"
        rf"(?:{_SPAN_UNITS})\b|\b(?:1[0-9]\d\d|20\d\d)\s*(?:to|until|-|–)\s*(?:1[0-9]|20)?\d\d\b"
        r"|\b(?:since|until)\s+(?:at least\s+)?(?:the\s+)?(?:(?:early|mid|late)[\s-]+)?"
        rf"(?:\d|age\b|(?:{_MONTHS})\b)|\b(?:annually|daily|weekly|monthly|yearly)\b",
        re.IGNORECASE,
    ),
    # ... and 'how much did it cost' for a sum of money: "$1.2 billion", "NOK 577 million".
    "money": re.compile(
        r"[$€£¥₹]\s?\d|\b(?:NOK|USD|EUR|GBP|SEK|DKK|CHF|JPY|CNY|AUD|CAD)\s?\d"
        r"|\d[\d,.]*\s*(?:(?:million|billion|thousand|trillion|m|bn)\s+)?(?:dollars?|euros?"
        r"|pounds?|yen|yuan|francs?|marks?|lir[ae]|kron[ae]r?|rupees?|cents?|pence|shillings?"
        r"|guineas?|NOK|USD|EUR|GBP|SEK|DKK|CHF)\b|\bfree of charge\b|\bfree\b(?!\s+of\b)",
        re.IGNORECASE,
    ),
    "person": re.compile(_NAME),
    # A place is a name after a preposition of place: "in Prague", "at the Louvre".
    "place": re.compile(
        r"\b(?:in|at|near|from|to|into|across|outside|inside|between)\s+(?:the\s+)?[A-Z][\w'’-]+"
        # ... or, in Chinese and Japanese, a name with the suffix of a state, city or ward.
        rf"|[{HAN}\u30a1-\u30fa\u30fc]{{1,8}}?[県州市区區町村郡省县縣]"
        # ... or, in a manual, a file's path: 'Where are passwords stored?' -> '/etc/shadow'.
        r"|(?<![\w/.~$-])(?:~|\$\w+)?/(?:[\w.+-]+/)+[\w.+*-]+|(?<![\w/.~$-])(?:~|\$\w+)/[\w.+*-]+"
    ),
    # A name is introduced by a naming verb, quoted, or written in capitals.
    "name": re.compile(
        r"\b(?:called|named|known as|termed|referred to as|dubbed|nicknamed)\b"
        rf"|[\"“][^\"”]{{2,60}}[\"”]|{_NAME}"
        # ... or, in Japanese, by a naming verb ending the sentence or quoted: 'これを摂関
        # 政治という。', '...を唐名で太閤と呼び', '「Jカス」'.
        rf"|{_JAPANESE_NAMING}|「[^」]{{1,30}}」"
        # ... or, in Chinese, by a naming verb: '漢字在越南也叫做儒字'.
        rf"|{_CHINESE_NAMING}"
    ),
    # A reason is stated with a connective: "because ...", "due to ...", "...のため"; or a
    # purpose opens the sentence: "To ensure memory safety, ..." (a verb: not "To date,
    # ...", "To the north, ...", "To be sure, ...").
    "reason": re.compile(
        r"\b(?:because|due to|so that|in order to|as a result|owing to|since|caused by"
        r"|thanks to)\b|ため|因为|由于|때문"
        r"|(?<![\w'’])To (?!(?:the|a|an|his|her|their|its|my|our|your|this|that|these|those"
        r"|some|date|me|him|them|us|be|no|each|every|all|what|which|whom|most|many)\b)"
        r"[a-z]+\b[^,.;:]{0,60},"
    ),
}


# '... do I use to', '... should you run to': what the asked thing is for follows ('pass to'
# and 'set to' name where it goes: 'What flags do I pass to gcc to ...').
_USE_TO = r"(?:do|does|should|can|could|must|would|will)\s+(?:i|you|we|one)\s+(?:use|run|type)\s+to"
# "What kind of X", "in what year", "the name of": the frame says what to look for, not where;
# "kind" or "year" rarely appears in the answering sentence, so these words are not searched.
_FRAME = re.compile(
    r"\b(?:what|which|whose)\s+(?:kind|type|sort|form|name|year|date|time|day|month|century|decade"
    r"|percentage|percent|number|amount|section|chapter|clause)s?\b(?:\s+of\b)?"
    r"|\bthe\s+names?\s+of\b"
    r"|\bhow\s+(?:long|many|much|large|big|old|far|high|tall|often)\b"
    # 'Which option do I use to decompress?' asks how to decompress: 'option' and 'use' are
    # in every entry of a manual
    r"|\b(?:what|which)\s+(?:option|flag|switch|command|subcommand|setting|argument|parameter"
    rf"|key|function|method|tool|program)s?\s+{_USE_TO}\b"
    # 'What is the difference between push and push_str?' asks what each side is (see
    # compare.py): 'difference' is in sentences on other differences ('The most important
    # difference is how dictionary sizes ...')
    r"|\bdifferences?\s+between\b|\b(?:differ|different)\s+from\b"
    # 'according to the text': the question pointing at the document, not at its content
    # ('in the document' is often content: where in a LaTeX document a command goes)
    r"|\baccording to (?:the|this) (?:text|passage|article|document|paragraph)\b"
    r"|\bin (?:the|this) (?:text|passage|article)\b(?!['’])"
    # ... and Chinese 'what does it do': 'grep 是做什么的？' asks what grep is, not for '做'
    r"|(?:是)?(?:做|干|幹|用来做|用來做)(?:什么|什麼|啥)(?:的)?|有(?:什么|什麼)(?:用|作用)"
    # ... and Chinese 'how': '怎样分享潮汐表？' searches no '怎' or '样'
    r"|怎(?:么|麼|样|樣)[样樣]?"
    # ... and 'what does it mean': 'パーセント記号はどういう意味ですか？' asks what '%' does,
    # which its sentence says without '意味' (a table headed '意味' says it of every row)
    r"|(?:どういう|どのような|どんな)意味|何を(?:意味|表)|(?:是)?(?:什么|什麼)意思"
    r"|(?:表示|代表|意味着|意味著)(?:什么|什麼)"
    # ... and Japanese, Chinese and Korean 'which option do I use': '逆順にソートするには
    # どのオプションを使いますか？', '要反向排序用哪个选项？',
    # '압축 해제하려면 어떤 옵션을 사용합니까?'
    r"|(?:どの|どんな|何の)(?:オプション|フラグ|コマンド)(?:を|が)?(?:使|用|指定)[ぁ-ん]*"
    r"|(?:用|使用)?(?:哪个|哪個|什么|什麼)(?:选项|選項|参数|參數)"  # not 命令: an order given
    rf"|(?:어떤|무슨|어느)\s*(?:옵션|플래그|명령어?|설정)(?:을|를)?\s*(?:사용|써야|쓰|입력|실행)[{HANGUL}]*",
    re.IGNORECASE,
)
# 'Which section of the GPL is the Disclaimer of Warranty?': the answer is a heading.
_SECTION = re.compile(
    r"\b(?:what|which) (?:section|chapter|clause|appendix|annex|schedule)\b", re.IGNORECASE
)


def content_question(question: str) -> str:
    """The question without its frame: 'In what year was X founded?' -> 'In  was X founded?';
    without the kind of a symbol it asks about: 'What does the & symbol mean?' names
    the symbol, not 'symbol' ('These ampersands represent references'); and without the
    'make' of 'How do I make grep ignore case?' (see _causative)."""
    causative = _causative(question)
    if causative is not None:
        start, end = causative.span("make")
        question = f"{question[:start]}{' ' * (end - start)}{question[end:]}"
    return _FRAME.sub(" ", LONE_SYMBOL.sub(_without_kind, question))


# 'How do I make grep ignore case?', 'How can I let users upload files?': the verb asked
# for is the one after what is made to do it; 'make' says only that it is made to, and is
# no term: manuals write 'make' in passing ('make a backup of each existing destination
# file' for 'How do I make ln overwrite existing files?'), and one that never writes it
# answers all the same ('-i: Ignore case distinctions ...'). Not 'How do I make a
# backup?' (nothing after what is made), 'make a new directory', 'make new directories'
# (an article, or a plural after the first word: a thing made; mkdir says 'make'), 'make
# new directory' nor 'make sure'. What follows an object's determiner is the object ('?+':
# 'the backup' is no object 'the' and verb 'backup').
_CAUSATIVE = re.compile(
    r"\bhow\s+(?:to|(?:do|can|could|should|would)\s+(?:i|you|we|one))\s+(?P<make>make|let)\s+"
    r"(?!(?:an?|sure|new|more|less)\b)(?:(?:the|my|this|these|those|its|your|our)\s+)?+"
    r"[\w.+-]+\s+(?P<verb>[a-z]*(?:ss|[a-rt-z]))\b",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=64)  # asked of each question by its terms, action and 'make'
def _causative(question: str) -> re.Match[str] | None:
    """The match of _CAUSATIVE in `question`, if the word after what is made to do
    something is a verb or a state, not a word of grammar: 'make copies of ...' is no
    causative."""
    match = _CAUSATIVE.search(question)
    return match if match is not None and tokens(match.group("verb")) else None


def made_terms(question: str) -> set[str]:
    """{'make'} of a causative how-to question (see _causative), else nothing: a
    description opening with it does the asked action when it names the action too
    ('typeset -r: Make names readonly.' for 'How do I make variables readonly?')."""
    causative = _causative(question)
    return set(tokens(causative.group("make"))) if causative is not None else set()


def _without_kind(symbol: re.Match[str]) -> str:
    """'the & symbol' -> 'the & ' (see content_question)."""
    if symbol.group("kind") is None:
        return symbol.group()
    return symbol.group()[: symbol.start("kind") - symbol.start()]


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


# ... and in Japanese, Chinese and Korean, matched folded: '-v オプションは何をしますか',
# '-v 选项是什么意思', '종료 상태 0의 의미는?'.
_CJK_DEFINITION = re.compile(
    "何をする|何をします|とは|どういう意味|の意味|何を意味|何を表"
    "|是什么|什么是|什么意思|做什么|什么作用|的作用|表示什么|意思是"
    "|무엇을 합니|무엇을 하나|무엇입니까|무엇을 의미|무슨 뜻|의 의미|뭔가요|뭐예요"
)


def asks_what_is(question: str) -> bool:
    """'What does -e do?', 'What is a metacharacter?': the answer is an entry's description,
    so a term that matches is not counted down as a mere label."""
    return (
        _DEFINITION.search(question) is not None
        or _CJK_DEFINITION.search(fold(question)) is not None
    )


# "What is a Transparent copy?", "What does 'convey' mean?", "What does it mean to convey a work?",
# "What does 'The Library' refer to in the LGPL?" (the document it is asked of may follow)
_DEFINED = re.compile(
    r"^\s*(?:what|which|who)\s+(?:is|are)\s+(?:meant\s+by\s+)?(?P<is>.+?)\s*\??\s*$"
    r"|^\s*what\s+(?:does|do)\s+(?:it\s+mean\s+to\s+(?P<to>.+?)"
    r"|(?P<mean>.+?)\s+(?:mean|refer\s+to|stand\s+for)(?:\s+(?:in|under)\s+[^?]+)?"
    r"|(?P<do>.+?)\s+do)\s*\??\s*$"
    r"|^\s*define\s+(?P<define>.+?)\s*[.?]?\s*$",
    re.IGNORECASE,
)
# A sentence defining its subject: 'A "Transparent" copy ... means', 'To "convey" a work
# means', 'A "Secondary License" is', 'The term "Program" refers to'.
_DEFINING_VERB = re.compile(
    r"\b(?:(?P<strong>means|mean|shall\s+mean|refers?\s+to|is\s+defined\s+as|denotes)|is|are)\b",
    re.IGNORECASE,
)
# A gloss in brackets after a word says what it is: 'mojibake (encoding mix-ups)'; not a
# name's ('(Serbian Cyrillic: ...)'), a date's or a reference's, which open otherwise.
_GLOSS = re.compile(r"\s\((?P<first>[a-z][\w'’-]*)[\w ,'’-]{0,60}\)")
# A count in brackets: '(a)', '(ii)', '(iv)'.
_ENUMERATOR = re.compile(r"[a-z]|i{1,3}|iv|vi{0,3}|ix|xi{0,3}")
# ... which opens with a noun: not '(see below)', '(in seconds)', '(e.g. ...)', '(directly ...)'
_NOT_GLOSSING = frozenset("see e eg i ie default optional usually required".split())
# A clause that asks inside a sentence: its verb defines nothing ('... what the values mean').
_ASKED_IN_HEAD = re.compile(r"\b(?:what|how|why|whatever)\b", re.IGNORECASE)
# ... or one that ends by giving its name: '... is called "Opaque".', '... are known as X.'
_NAMED_AS = re.compile(
    r"\b(?:is|are)\s+(?:(?:\w+ly|also|often)\s+)?"  # 'is usually called'
    r"(?:called|termed|named|known\s+as|referred\s+to\s+as)\s+(?:an?\s+|the\s+)?"
    r"[\"“'‘]?(?P<name>[^\"”'’.,;]{1,60})[\"”'’]?\s*[.!]?\s*$",
    re.IGNORECASE,
)
# ... or that introduces it by its quoted name and says what it is: 'PEP 427 defines a
# built-package format called “wheels”, which is a Zip format archive ...' (not 'Then set
# the environment variable named "PATH" to include ...', an instruction).
_INTRODUCED_AS = re.compile(
    r"\b(?:an?|the)\s+(?:[\w-]+\s+){0,3}?(?:called|named|termed|known\s+as)\s+"
    r"[\"“'‘](?P<name>[^\"”'’]{1,60})[\"”'’],?\s+(?:which|that)\s+(?:is|are)\b",
    re.IGNORECASE,
)
# Before a plain 'is': only the subject, an article and quotes ('A "Secondary License" is',
# 'An "Opaque" copy is');
# 'These clades (which are thought to be extinct)' is a sentence using the word.
_PLAIN_HEAD = re.compile(r"[^\w\s\"“”'‘’-]")
# ... and in Markdown, code quotes around the subject, opening the head or after an article:
# '`Vec` is', 'The optional `files` field is' (not 'Calling `unwrap` is dangerous.', nor
# 'The `--force` flag is dangerous.' for 'What is a flag?').
_CODE_QUOTED = re.compile(r"`([^`]+)`")
_OPENS_CODE_HEAD = re.compile(r"\s*(?:(?:an?|the)\s|`)", re.IGNORECASE)
# ... and after it no passive, condition, comparison or negation, which say how the
# subject is, not what: 'Closures are represented by traits', 'A trait is unsafe when at
# least one of its methods ...', 'Shadowing is different from marking a variable as mut'.
_DESCRIBING = re.compile(
    r"\s+(?:not\b|(?:\w+ly\s+)?\w{3,}ed\b|\w+\s+(?:when|if|unless|whenever|because|from|than)\b)",
    re.IGNORECASE,
)
_POSSESSOR = re.compile(r"\b[\w-]+['’]s\b")
# A man page's name line: 'grep, egrep, fgrep - print lines that match patterns'.
_NAME_LINE = re.compile(r"(?P<names>[\w.+-]+(?:,\s*[\w.+-]+)*)\s+(?:-|\\-|–|—)\s+\S")
_BRACKETED = re.compile(r"\s*\([^()]*\)")
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


SOLE_SUBJECT_BOOST = 3.0
"""DEFINITION_BOOST for the first sentence defining what a question asks nothing else of:
'What is FastAPI?' wants 'FastAPI is a modern, fast (high-performance), web framework ...',
which names it once, not the sentences naming it three times ('`fastapi-cloud-cli` ...
your FastAPI application to FastAPI Cloud'). With one question term, BM25 favours those by
at most k1 + 1 = 1.8 for the repeats times ~1.5 for length between sentences of usual
lengths; x4 outweighs both. SQuAD dev unchanged (1,128 top-1, 1,177 top-3)."""


LATER_SHARE = 0.5
"""Share of DEFINITION_BOOST for a defining sentence after the first in its chunk: 'The
United Methodist Church (UMC) is a mainline Protestant Methodist denomination.' is the
definition, 'The United Methodist Church is one tradition within the Christian Church.' one
more thing said of it (SQuAD dev +1; 0 and 0.5 alike)."""


_PLACED = re.compile(r"(?:in|on|at|inside|under|behind|near|beside|between)\b", re.IGNORECASE)


# ... and in Japanese, Chinese and Korean, matched folded: 'uniq とは何ですか', 'tail 是什么',
# 'grep 是做什么的', '什么是 tail', 'pstree 는 무엇입니까'.
_CJK_DEFINED = re.compile(
    r"^\s*(?:(?P<ja>.+?)\s*(?:(?:とは|って)(?:何|なん)?|は(?:何|なん)(?:をします)?)"
    r"(?:ですか|でしょうか|か)?"
    r"|(?P<zh>.+?)\s*是(?:做|干|用来做)?(?:什么|啥)(?:的|东西)?|什么是\s*(?P<what>.+?)"
    r"|(?P<ko>.+?)\s*(?:은|는|이란|란)\s*(?:무엇|뭐)(?:입니까|인가요|예요|이에요"
    r"|을\s*(?:합니까|하나요|해요))?)\s*[?？]?\s*$"
)


# ... and a Japanese, Chinese or Korean sentence defining its subject: the subject (maybe
# with its kind: 'aptitude コマンドは'), then a copula closing the sentence ('...ツールです。')
# or opening the predicate ('ls 是列出目录内容的命令'); not 'aptitude は...を提供します。'.
_CJK_DEFINING = re.compile(
    r"\W*(?P<head>[^。、，,：:]{1,40}?)\s*"
    r"(?:(?:とは、?[^。]*|は、?[^。、]*)(?:です|である|だ|のこと)。?\s*$|是(?![否不])"
    r"|(?:은|는|이란)\s[^.,]*(?:입니다|이다)\.?\s*$)"
)
_POSSESSIVE = re.compile("[の的의]")
CJK_DEFINITION_HEAD = 4
"""Most characters of a CJK defining sentence's subject besides what the question names:
a kind, 'コマンド', '命令', '프로그램'."""
CJK_DEFINED_CHARS = 16
"""Longest CJK subject a definition question asks of: a name in bigrams exceeds
DEFINED_TERMS ('ハルカ・ネットワークス' is 8), but is one name."""


# A definition question's subject that is one thing's name: up to three words after 'a' or
# 'an' ('a Python decorator', 'goroutines'); not 'the deadline' (the document's own, a value
# asked of it), "Tesla's nationality", 'the population of Warsaw' (an attribute of a thing).
_NAMED_SUBJECT = re.compile(r"(?:an?\s+)?(?P<words>[A-Za-z][\w+-]*(?:\s+[A-Za-z][\w+-]*){0,2})")
_PARTICIPLE = re.compile(r"\w{3,}ed")


def defined_head(question: str) -> str:
    """The head word of what a definition question asks to define when its subject names
    one thing ('What is a Python decorator?' -> 'decorator', 'What does frobnicate do?' ->
    'frobnicate'), else '': a subject holding a function word ('What is it used for?') or
    a possessive, or a participle ('What is needed?'), which asks something else."""
    match = _DEFINED.match(question)
    subject = match and (match["is"] or match["mean"] or match["do"] or match["define"])
    named = _NAMED_SUBJECT.fullmatch(subject) if subject else None
    if named is None:
        return ""
    words = named["words"].split()
    if not all(tokens(w) for w in words) or _PARTICIPLE.fullmatch(words[-1]):
        return ""
    return words[-1]


def defined_terms(question: str) -> list[str]:
    """Index terms of what a definition question asks to define, [] for other questions:
    'What is a Transparent copy?' -> ['transpar', 'copi']; when the question quotes the
    term ('What does it mean to "convey" a work?'), the quoted words only: ['convey']."""
    match = _DEFINED.match(question) or _CJK_DEFINED.match(fold(question))
    if match is None:
        return []
    subject = next(g for g in match.groups() if g)
    if _PLACED.match(subject):
        return []  # 'What is in Eldon Square?' asks what is there
    if names_option(subject):
        return []  # 'What does env -S do?' asks for the option's entry, not what env is
    quoted = re.findall(r"[\"“'‘]([^\"”'’]{2,60})[\"”'’]", subject)
    found = list(dict.fromkeys(tokens(" ".join(quoted) if quoted else subject)))
    if CJK_CHAR.search(subject):
        return found if len("".join(subject.split())) <= CJK_DEFINED_CHARS else []
    return found if len(found) <= DEFINED_TERMS else []


def defines(sentence: str, subject: list[str]) -> bool:
    """Whether `sentence` opens by defining `subject` (index terms): the subject's words,
    at most DEFINITION_HEAD others, then a defining verb ('means', 'is', 'refers to');
    or ends by naming it: 'A copy that is not "Transparent" is called "Opaque".'; or is
    a man page's name line naming it: 'uniq - report or omit repeated lines'."""
    cjk = _CJK_DEFINING.match(sentence) if CJK_CHAR.search(sentence[:60]) else None
    if cjk and subject:
        return _cjk_defines(cjk.group("head"), subject)
    if subject and any(_glossed(sentence, m.start(), subject) for m in _GLOSS.finditer(sentence)):
        return True
    name_line = _NAME_LINE.match(sentence)
    if name_line and subject:
        names = tokens(name_line.group("names"))
        return set(subject) <= set(names) and len(names) <= len(subject) + DEFINITION_HEAD
    named = _NAMED_AS.search(sentence) or _INTRODUCED_AS.search(sentence)
    # ... naming the subject or part of it ('Opaque' for an Opaque copy), not a compound
    # of it ('... is called a "rowid table"' defines no rowid)
    name = set(tokens(named.group("name"))) if named else set()
    if name and subject and name <= set(subject):
        return set(subject) <= set(tokens(sentence))
    verb = _DEFINING_VERB.search(sentence, 0, 400)
    if verb is None or not subject:
        return False
    # 'The United Methodist Church (UMC) is': the bracketed short name is the subject's too
    head = _BRACKETED.sub("", sentence[: verb.start()])
    if _ASKED_IN_HEAD.search(head):
        return False  # '... so it's clear what the values mean': the verb of a clause
    content = tokens(head)
    if not set(subject) <= set(content):
        return False
    words = tokens(head, keep_stopwords=True)
    if verb.group("strong"):
        short = len(content) <= len(subject) + DEFINITION_HEAD
        return short and not _names_more(words, content, subject)
    if _DESCRIBING.match(sentence, verb.end()):
        return False
    # 'Rust's closures are': whose they are goes as an article does
    owned = tokens(_POSSESSOR.sub(" ", head), keep_stopwords=True)
    others = [w for w in owned if w not in subject and w not in _ARTICLES]
    quoted = any(q in head for q in "\"“'‘")  # 'An "Opaque" copy is': the noun it qualifies
    if "`" in head:
        if not _code_quotes_subject(head, subject):
            return False
        head, quoted = head.replace("`", ""), True
    return len(others) <= quoted and not _PLAIN_HEAD.search(head)


def _code_quotes_subject(head: str, subject: list[str]) -> bool:
    """A defining sentence's head quotes the subject in code, opening it or after an
    article, and nothing else: 'The optional `files` field' for ['file', 'field']."""
    quoted = [t for part in _CODE_QUOTED.findall(head) for t in tokens(part)]
    return bool(_OPENS_CODE_HEAD.match(head)) and set(quoted) <= set(subject)


def _glossed(sentence: str, at: int, subject: list[str]) -> bool:
    """The subject's words are the last before the gloss at `at`, which opens with a content
    word: 'ftfy can fix mojibake (encoding mix-ups)' glosses mojibake."""
    gloss = _GLOSS.match(sentence, at)
    first = gloss.group("first") if gloss else ""
    if first in _NOT_GLOSSING or _adverb(first) or _ENUMERATOR.fullmatch(first):
        return False  # ... nor an adverb ('(directly or through ...)') or a count ('(ii)')
    if not tokens(first):
        return False
    before = tokens(sentence[:at])
    return len(before) >= len(subject) and before[-len(subject) :] == subject


def _adverb(word: str) -> bool:
    """'directly', 'easily', 'possibly', 'fully', 'automatically': an English word made an
    adverb by '-ly'; not 'family' or 'supply', which no common word plus '-ly' makes."""
    if not word.endswith("ly"):
        return False
    bases = [word[:-2]]  # direct-ly
    if word.endswith("ily"):
        bases.append(word[:-3] + "y")  # eas(y)-ily
    if word.endswith("bly") or word.endswith("ply"):
        bases.append(word[:-1] + "e")  # possibl(e)-y, simpl(e)-y
    if word.endswith("lly"):
        bases.append(word[:-1])  # full-y
    if word.endswith("ically"):
        bases.append(word[:-4])  # automatic(al)-ly
    return max(zipf_frequency(base, "en") for base in bases) >= ADVERB_BASE_ZIPF


ADVERB_BASE_ZIPF = 3.0
"""Least Zipf frequency of the word an '-ly' word is made of for it to read as an adverb:
'direct' 4.9, 'usual' 4.6; 'fami' 1.9, 'supp' 2.9, 'supple' 2.9."""


def _names_more(words: list[str], content: list[str], subject: list[str]) -> bool:
    """Whether a defining sentence's head (`words`: its index terms, stopwords kept;
    `content`: without them) goes on naming after the subject, so defines a compound of
    it: 'A trait bound on ?Sized means' is no trait's definition; 'A "Transparent" copy
    of the Document means' is a copy's."""
    last = max((i for i, w in enumerate(words) if w in subject), default=len(words))
    after = words[last + 1 : last + 2]
    return bool(after) and after[0] in content and after[0] not in subject


_READING = re.compile(r"\s*[(（][^()（）]*[)）]")


def _cjk_defines(head: str, subject: list[str]) -> bool:
    """Whether the head of a CJK defining sentence is the subject, maybe with its kind
    ('aptitude コマンド'), and not something the subject has ('ハルカの社員', 'ls 的选项')."""
    head = _READING.sub("", head)  # 'ログインシェル(login shell)': the name as read
    held = tokens(fold(head))
    if not held or held[0] not in subject or not set(subject) <= set(held):
        return False  # it opens with its subject: not '跟 test 命令是等价的' ('is like test')
    named = set("".join(subject))  # the subject's own characters
    parts = re.split(r"([\w.+-]+|\s+)", head)
    others = "".join(
        part
        for part in parts
        if not part.isspace() and not (part.isascii() and set(tokens(part)) <= set(subject))
    )
    kind = "".join(c for c in others if c not in named)
    return len(kind) <= CJK_DEFINITION_HEAD and not _POSSESSIVE.search(kind)


_ARTICLES = frozenset({"a", "an", "the"})


# "How do I delete the files it finds?", "How can you quickly list ...", "how to extract":
# the verb the question asks how to do.
_HOW_TO = re.compile(
    r"\bhow\s+(?:to|(?:do|can|could|should|would)\s+(?:i|you|we|one))\s+(?:\w+ly\s+)?"
    r"(?P<verb>[a-z]+)",
    re.IGNORECASE,
)
# "Which option do I use to decompress?", "What command should I run to list jobs?": the
# verb of what the asked thing is used for.
_USED_TO = re.compile(rf"^\s*(?:which|what)\b[^?]*?\b{_USE_TO}\s+(?P<verb>[a-z]+)", re.IGNORECASE)
# A Korean how-to question: '압축 해제하려면 어떤 옵션을 ...?' (to decompress, which option
# ...), '어떻게 압축을 해제합니까?' (how do I decompress?). Its verb is a noun and 하다 (do),
# the noun the action, as in the description doing it: '압축을 해제합니다.'
_KOREAN_PURPOSE = re.compile(rf"(?P<noun>[{HANGUL}]{{2,}}?)(?:하려면|하기\s*위해)")
_KOREAN_HOW = re.compile(
    rf"어떻게\s(?:[^?]*\s)?(?P<noun>[{HANGUL}]{{2,}}?)(?:합니까|하나요|하죠|해요|할\s*수)"
)
# '-d 옵션은 어떻게 사용합니까?' (how is -d used?) asks what -d does, not how to use
_KOREAN_USING = frozenset("사용 이용 실행 입력 지정".split())
_KOREAN_DOING = "(?:합니다|한다|하다|함|해요)[.。]?\\s*$"
_OPENING_WORD = re.compile(r"[A-Za-z]+")
# A parenthesis a description opens with, before its verb: '(alias: renamew) ', '(deprecated) '.
_ASIDE = re.compile(r"\([^()]{1,40}\)\s+")
TITLED_TERMS = 2
"""Fewest terms a question has for a heading holding just them to be it as a title: one
word ('Installation') names a topic, as what_is headings do."""
ACTION_BOOST = 1.0
"""Score bonus (x2) for a term's description that opens with the verb a how-to question
asks for: 'How do I delete the files that find finds?' wants '-delete  Delete files; ...',
not the warning elsewhere that names deleting too."""


# "What tier is ...?", "Which release added ...?": the category the answer is one of; "Is
# ... a tier 2 target?": the category asked about ('tier 2', its first two words).
_ASKED_CATEGORY = re.compile(
    r"^\s*(?:what|which)\s+(?P<category>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+"
    r"(?:is|are|was|were|does|do|did|has|have)\b"
    r"|^\s*(?:is|are|was|were)\s+\S.*?\s+an?\s+(?P<member>[\w-]+(?:\s+[\w-]+)?)",
    re.IGNORECASE,
)


def asked_category(question: str) -> list[str]:
    """Index terms of the category a 'What X is ...?' question asks for ('What tier is
    aarch64-apple-darwin?' -> ['tier']) or an 'Is ... a Y?' one asks about ('Is
    riscv64gc-unknown-linux-gnu a tier 2 target?' -> ['tier', '2']); [] for others."""
    match = _ASKED_CATEGORY.match(question)
    if match is None:
        return []
    return tokens(match.group("category") or match.group("member"))


# What a question asking for code says: how to do something, an example, a name in code
# ('url.pathname', 'Rc::clone', 'open()', '`main`').
_CODE_ASKED = re.compile(
    r"^\s*how\b|\b(?:example|syntax|command|code|snippet|usage|invoke|call|declare|import)s?\b"
    r"|\w(?:\.|::)\w|\w\(|`",
    re.IGNORECASE,
)


def asks_for_code(question: str, terms: Collection[str]) -> bool:
    """Whether code may answer `question`: it asks how to do something ('How do I create a
    project?': '$ cargo new hello'), for an example or a command, or names something as
    code does ('What does url.pathname return?'; a term of `terms` that is_literal, such as
    an option, unless the question asks what it is or does: 'What does total_ordering
    require?' is answered in prose, not by the example's '@total_ordering')."""
    if _CODE_ASKED.search(question) is not None:
        return True
    return not asks_what_is(question) and any(is_literal(t) for t in terms)


# 'How do I check whether the child process was killed?': the state is what is asked.
_ASKS_WHETHER = re.compile(
    r"\b(?:whether|check|tell|know|detect|determine|verify|find\s+out)\b", re.IGNORECASE
)


def asked_action(question: str) -> str | None:
    """The index term of the verb a how-to question asks how to do ('How do I delete the
    files?' -> 'delet', 'Which option do I use to decompress?' -> 'decompress'), or a
    Korean one's noun, whole ('압축 해제하려면 ...?' -> '해제'); None for other questions."""
    match = _causative(question) or _HOW_TO.search(question) or _USED_TO.search(question)
    if match is None:
        korean = _KOREAN_PURPOSE.search(question) or _KOREAN_HOW.search(question)
        noun = fold(korean.group("noun")) if korean else ""
        return noun if noun and noun not in _KOREAN_USING else None
    return next(iter_tokens(match.group("verb")), None)


# 'How do I copy without overwriting existing files?': what is not to be done besides the action.
_WITHOUT = re.compile(r"\bwithout\s+(?P<verb>[a-z]{3,}ing)\b", re.IGNORECASE)
# A description opening by not doing something: 'do not overwrite an existing file', "Don't
# delete the input files.", 'Prevents saving to dependencies.', 'never follow symbolic links'.
_REFUSING = re.compile(
    r"\s*(?:do\s+not|don['’]t|never|prevents?|disables?|avoids?|suppress(?:es)?|skips?)\s+",
    re.IGNORECASE,
)


def forgone_action(question: str) -> str | None:
    """The index term of what a how-to question asks to do without ('How do I install a
    package without saving it?' -> 'save'), or None."""
    match = _WITHOUT.search(question)
    return next(iter_tokens(match.group("verb")), None) if match else None


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


# "What was the Group's total revenue in 2024?": the thing whose value is asked, before the
# words that set where or when ('in 2024', 'of the station', 'during the war').
_ATTRIBUTE = re.compile(
    r"^\s*what\s+(?:is|was|are|were)\s+the\s+(?P<attribute>(?:[\w'’-]+\s+){0,2}?[\w'’-]+)"
    r"\s*(?:\?|$|\b(?:in|of|for|at|on|during|by|from|after|before|when|that|which)\b)",
    re.IGNORECASE,
)
# "What does socket.setNoDelay() return?": the value a call gives back.
_RETURNS = re.compile(
    r"^\s*what\s+(?:does|do|will)\s+(?!.*\b(?:when|if|after|once|until)\b)\S+(?:\s+\S+){0,3}"
    r"\s+return\s*\??\s*$",
    re.IGNORECASE,
)
VALUE_WORDS = 6
"""Most words before a sentence's value that may state what it is the value of: 'Group
revenue for 2024 was' (5), not 'The Group's total spending on research and development
was ... of revenue'."""
LIST_BOOST = 1.0
"""Score bonus (x2) for the lead-in of a list that names what a list question asks for:
'What are the disadvantages of WAL?' wants 'But there are also disadvantages:' and its
items, not the paragraph before, which says 'advantages and disadvantages' and then lists
the advantages."""
VALUE_BOOST = 0.2
"""Score bonus (x1.2, beside TYPE_BOOST) for a sentence whose value follows, within
VALUE_WORDS words of its opening, the thing a 'What was the X?' question asks the value of."""


def attribute_terms(question: str) -> list[str]:
    """The index terms of what a 'What is the X of Y?' question asks the value of: 'What is
    the default value of work_mem?' -> ['default', 'valu']; "What was the Group's total
    revenue in 2024?" -> ['total', 'revenu'] (whose revenue is context a sentence of the
    Group's report need not repeat); [] for other questions."""
    match = _ATTRIBUTE.match(question)
    if match is None and _RETURNS.match(question):
        return ["return"]  # what a call gives back: its 'Returns:' field
    return tokens(match.group("attribute")) if match else []


def _states_value_of(before_value: str, attribute: str) -> bool:
    """The text before a sentence's value opens by naming the attribute asked about."""
    return len(before_value.split()) <= VALUE_WORDS and attribute in tokens(before_value)


# "How many times was Newton sacked?", "How many NFL teams ...": what is counted.
_COUNTED = re.compile(
    r"\bhow\s+many\s+(?:of\s+the\s+)?(?P<counted>(?:(?!(?:is|are|was|were|did|does|do|have|has"
    r"|had|can|could|will|would|should|in|of|on|at|for|from|by|to)\b)[\w'’-]+\s*){1,2})",
    re.IGNORECASE,
)
_COUNT = re.compile(rf"(?<![\w.,])(?:\d[\d,.]*|(?:{_NUMBER_WORDS}|one))(?:[\s-]+|$)", re.IGNORECASE)
COUNT_BOOST = 1.0
"""Score bonus (x2, beside TYPE_BOOST) for a sentence stating a number of what a 'How many
X' question counts: 'sacked him seven times' for 'How many times was Newton sacked?', not
'11 seconds left'. On the SQuAD dev questions 0.15 gains 1 top-1, 0.6 4, 1.0 4 top-1 and 2
top-3 with no loss, 1.5 loses a top-3 ('twice a year')."""


# ... and the measure word a Chinese or Japanese one counts by: '幾架' (of telescopes),
# '多少人', '何人' (matched in the folded question).
_CJK_COUNTED = re.compile(f"(?:几|多少|(?<![如为為任])何)(?P<counted>(?![乎年])[{HAN}])")
_CJK_COUNT = re.compile(
    r"(?<![第统統同唯单單])(?:\d[\d,.]*|[〇一二三四五六七八九十百千万萬億亿两兩]+)\s*"
)


def counted_terms(question: str) -> frozenset[str]:
    """Index terms of what a 'How many X ...?' question counts (X's first two words, up to
    a verb or preposition): 'How many NFL teams ...' -> {'nfl', 'team'}; in Chinese and
    Japanese the measure word: '...望遠鏡有幾架？' -> {'架'}; empty otherwise."""
    match = _COUNTED.search(question)
    if match:
        return frozenset(tokens(match.group("counted")))
    return frozenset(m.group("counted") for m in _CJK_COUNTED.finditer(fold(question)))


def _counts(sentence: str, counted: frozenset[str], question: str) -> bool:
    """The sentence states a number, not the question's, of one of the `counted` words:
    'seven times', 'a 5-cylinder engine', 'one million Protestants', '12架'."""
    if all(_HAN_CHAR.match(word) for word in counted):  # a measure word: '12架'
        return any(
            fold(sentence[match.end() : match.end() + 1]) in counted
            and match.group().strip() not in question
            for match in _CJK_COUNT.finditer(sentence)
        )
    for match in _COUNT.finditer(sentence):
        if match.group().strip(" -").lower() in question:
            continue
        after = tokens(sentence[match.end() : match.end() + 40])[:2]
        if counted & set(after):
            return True
    return False


def asks_for_section(question: str) -> bool:
    """'Which section covers X?' is answered by the heading of the section on X, which
    otherwise counts half (HEADING_WEIGHT): here it holds what the question asks for."""
    return _SECTION.search(question) is not None


# "Who are the authors?", "What were its main exports?", "List the supported formats."
_MANY = re.compile(
    r"^\s*(?:(?:what|which|who)\b(?:\s+[\w-]+){0,2}?\s+(?:are|were)\b|(?:list|name)\s+(?:the|all)\b)",
    re.IGNORECASE,
)


def asks_for_list(question: str) -> bool:
    """'How do I restore factory settings?' wants the procedure, not one step of it;
    'Who are the authors?' the list of them, not its first."""
    return _STEPS.search(question) is not None or _MANY.search(question) is not None


def asks_for_several(question: str) -> bool:
    """'Who are the authors?', 'What are the valid values?': several things, not steps."""
    return _MANY.search(question) is not None


def answer_type(question: str) -> AnswerType | None:
    """What kind of answer a question wants: 'When was ...' -> 'date', 'Who ...' -> 'person'."""
    for kind, pattern in _QUESTION_TYPES:
        if pattern.search(question):
            return kind
    folded = fold(question)
    for kind, pattern in _CJK_QUESTION_TYPES:
        if pattern.search(folded):
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
    rarity: dict[str, float] = field(default_factory=dict)
    """An English (Latin-script) question's terms with their rarity in the language (see
    rarity.py); empty for a CJK question."""
    latest: dict[str, list[int]] = field(default_factory=dict)
    """For a question about the latest release: per changelog document, the span of its
    newest release (see releases.py); empty otherwise."""
    regions: dict[str, list[list[int]]] = field(default_factory=dict)
    """Per skimmed document, the [start, end] regions its map steps read (see skim.py)."""
    finder: TermFinder = field(init=False, compare=False, repr=False)
    soft: SoftFinder = field(init=False, compare=False, repr=False)
    action: str | None = field(init=False, compare=False, repr=False)
    """The verb a how-to question asks how to do (see asked_action), else None."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "finder", TermFinder(self.idf, lone_nouns(self.question)))
        parts = not writes_camel_case(self.question)
        object.__setattr__(self, "action", asked_action(self.question))
        soft = SoftFinder(self.idf, self.kind, parts=parts, action=self.action)
        object.__setattr__(self, "soft", soft)

    def hints(self) -> dict[str, Any]:
        """The JSON-ready form every map task carries: a few dozen bytes per term."""
        return {
            "idf": self.idf,
            "avg_length": self.avg_length,
            "kind": self.kind,
            "decisive": dataclasses.asdict(self.decisive),
            "units": self.units,
            "rarity": self.rarity,
            "latest": self.latest,
            "regions": self.regions,
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
            dict(hints.get("rarity", {})),
            {doc: list(span) for doc, span in hints.get("latest", {}).items()},
            {doc: [list(r) for r in spans] for doc, spans in hints.get("regions", {}).items()},
        )


def build_query(
    question: str, texts: list[str], ids: list[str] | None = None, skim_above: int = 0
) -> Query:
    """IDF of the question's terms over all sentences of `texts`, and their mean length
    (counted, or for a long text estimated: see usage.py).

    Sentences are the BM25 "documents": a term in 3 of 1,000 sentences gets
    idf = ln(1 + (1000 - 3 + 0.5) / (3 + 0.5)) = 5.66; one in 500 of them 0.69
    (plus PRIOR_SENTENCES). The same pass notes how the documents write each term
    (capitalized mid-sentence or not), to find the question's decisive terms; `ids`
    name the documents of `texts`, for the names each one's title gives (see decisive.py).
    A document of more than `skim_above` characters (0: none) is skimmed: the regions
    where the question's terms gather are noted for the map steps to read (skim.py).
    """
    content = content_question(question)
    terms = query_terms(content, code_named_stopwords(content, texts))
    if asks_for_release(question):  # the version names the release asked of; elsewhere
        # ('Since 0.20.0 redirects ...') it is context the answer need not repeat
        terms += [v for v in version_literals(question) if v not in terms]
    latest = asks_for_latest(question) and ids is not None
    # A changelog's structure tells its newest release; it is read once for that and the
    # IDF pass, and kept only for such a question, for the memory it takes.
    structures = [whole_structure(text) for text in texts] if latest else []
    newest = _newest_releases(texts, structures, ids) if latest else {}
    if newest:  # 'What changed in the latest release?' of a changelog: which, not what in it
        terms = [t for t in terms if t not in _RELEASE_TERMS]
    if structures:
        units = [units_of(t, s) for t, s in zip(texts, structures, strict=True)]
    else:
        units = [units_of(text) for text in texts]  # counted once for both passes below
    compounds = [c for c in compound_terms(question) if c not in terms]
    alone = lone_nouns(question)  # found only where they stand alone
    usage = gather(terms + compounds, texts, units, alone)
    decisive = decide(question, terms, usage, texts, ids)
    terms += [c for c in compounds if usage.df.get(c)]  # 'timeout' where 'times out' is asked
    # A Chinese character none of whose question bigrams the documents write is searched by
    # itself: '弟' of '足利義昭為誰的弟弟?' (弟弟, 的弟: neither written) finds '義輝之弟足利義昭'.
    # It ranks at its own idf, and counts for nothing in the not-found share (see
    # units.py: a wrong article holds most single characters). On the Chinese dev
    # questions the first cited sentence holds the answer for 136 of 177 without, 140 at
    # half weight, 144 at full; every character at any weight: at most 140, and slower.
    # Searched in a pass of their own, only when there are any: most questions have none.
    characters = [
        c
        for c in _content_characters(content_question(question))
        if c not in terms and _unheld_grams(c, terms, usage)
    ]
    if characters:
        usage = gather_more(usage, characters, texts, units)
        characters = [c for c in characters if usage.df.get(c)]
        terms += characters
    # A misspelt name ('Ghandi') is searched as the documents spell it ('Gandhi').
    # ... and a name the documents write their own way ('LGPL') as they write it too.
    spellings = [v for variants in decisive.variants.values() for v in variants]
    spellings += [a for aliases in decisive.aliases.values() for a in aliases]
    if spellings:
        terms = [t for t in terms if t not in decisive.variants]
        terms += [v for v in spellings if v not in terms]
        usage = gather(terms, texts, units, alone)
    kind = answer_type(question)
    unwritten = _unwritten(question, terms, usage, texts) + _unheld_kind(kind, texts)
    unwritten += _undefined(question, usage, texts)
    if unwritten:
        decisive = dataclasses.replace(decisive, absent=[*decisive.absent, *unwritten])
    n = usage.sentences + PRIOR_SENTENCES
    idf = {
        t: math.log(1 + (n - usage.df.get(t, 0) + 0.5) / (usage.df.get(t, 0) + 0.5)) for t in terms
    }
    weighed = _per_word(question, idf)
    average = usage.length / usage.sentences if usage.sentences else 1.0
    by_words = {t: v for t, v in idf.items() if t not in characters}  # for the not-found share
    coverage = coverage_units(content_question(question), by_words)
    # Terms that rank but count for nothing in the not-found share: a one-kanji stem ('開'
    # of '開いた', see terms.lone_stems) and the kind a question asks for ('球団' of
    # '...獲得した球団は', see units.asked_kind_terms).
    uncounted = lone_stems(question) | asked_kind_terms(question)
    rare = rarity(question, list(idf)) if weighs(question) else {}  # ranking: RANK_RARITY
    if (weighed != idf or uncounted) and not coverage:
        # Per-word weights rank sentences; the not-found threshold keeps the idf share it
        # was calibrated on (as units: each term at its idf). On it, per-word weights
        # refused 0.013 of answerable Japanese dev questions, not 0.016, but answered
        # 0.029 of those asked of the wrong article, not 0.010.
        coverage = [([t], v) for t, v in by_words.items() if t not in uncounted]
    years = {t: a for t, a in decisive.aliases.items() if len(a) > 1 and _all_years(a)}
    if years and not coverage:
        coverage = _alias_units(by_words, years)
    regions = (
        {
            doc: skim.regions(text, weighed, uses)
            for doc, text, uses in zip(ids, texts, usage.uses, strict=True)
            # a text short enough to be counted exactly (CACHED_CHARS) keeps no uses: read whole
            if skim_above and len(text) > skim_above and uses is not None and not newest
        }
        if ids is not None
        else {}
    )
    return Query(question, weighed, average, kind, decisive, coverage, rare, newest, regions)


_RELEASE_TERMS = frozenset(tokens(RELEASE_WORDS))


def _all_years(terms: list[str]) -> bool:
    """The terms are years ('1882', '1884'): a decade's spellings (see decisive.same_name)."""
    return all(t.isdigit() and len(t) == 4 for t in terms)


def _alias_units(idf: dict[str, float], aliases: dict[str, list[str]]) -> list[Unit]:
    """The not-found share's units when a decade is written as its years: the decade and
    its years one unit, held by any of them, at the idf of its rarest year; each other
    term a unit of its own. '1880s', which an article writes as '1882', '1884', ... eight
    years, is one of the question's words, not nine. (Other names written another way,
    'Jewish' as 'Jews' or 'French' as 'France', keep a unit each: on SQuAD dev, one unit
    for them too answered one or two more questions asked of an unrelated article.)"""
    spellings = {a for written in aliases.values() for a in written}
    units: list[Unit] = []
    for term, weight in idf.items():
        if term in spellings:
            continue
        found = [a for a in aliases.get(term, []) if a in idf]
        if found:
            weight = max(idf[a] for a in found)
        units.append(([term, *found], weight))
    return units


def _content_characters(question: str) -> list[str]:
    """A Chinese question's content characters (not function characters such as 的, 是),
    once each, in order; none for other questions."""
    if not is_chinese(question):
        return []
    return list(
        dict.fromkeys(c for c in _HAN_CHAR.findall(fold(question)) if c not in FUNCTION_CHARS)
    )


def _unheld_grams(character: str, terms: list[str], usage: Usage) -> bool:
    """None of the question's bigrams holding `character` is written in the documents."""
    return not any(len(t) == 2 and character in t and usage.df.get(t) for t in terms)


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


def _unwritten(question: str, terms: list[str], usage: Usage, texts: list[str]) -> list[str]:
    """Names the question writes literally that the documents never write: an option
    ('-Z' of a man page that has none), a version ('grep 4.0' in a NEWS file that stops
    at 3.8) or a named thing ('the beamer class' in release notes that never mention
    beamer), or an option of a command that lists its options without it (see
    options.py). They name the thing asked about, so a passage without them cannot
    answer."""
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
    missing += options_not_held(question, texts)  # 'read -z' when only 'test -z' is
    return list(dict.fromkeys(missing))


def _undefined(question: str, usage: Usage, texts: list[str]) -> list[str]:
    """['decorator'] for 'What is a Python decorator?' of a book that names Python and
    never a decorator: the thing a definition question asks to define (see defined_head),
    when the documents write it in no spelling. A text cannot define what it never names,
    and the question's other words ('Python') would otherwise find sentences about them."""
    head = defined_head(question)
    if not head or any(usage.df.get(t) for t in tokens(head)):
        return []
    if any(head in t and n for t, n in usage.df.items() if is_literal(t)):
        return []  # written as the question writes it: 'C-e' of 'C-x C-e' (a key chord)
    return [head] if written_nowhere(head, texts) else []


def _unheld_kind(kind: AnswerType | None, texts: list[str]) -> list[str]:
    """['a sum of money'] when a question asks a price or cost (`kind` 'money') and the
    documents state none at all: "What is the retail price of the Corvid 3?" of a manual
    that names the Corvid 3 throughout but never a price. Its other words match, and the
    missing ones ('retail price') are common words a paraphrase could stand for; a sum of
    money has no paraphrase."""
    if kind != "money":
        return []
    money = _ANSWER_PATTERNS["money"]
    return [] if any(money.search(text) for text in texts) else ["a sum of money"]


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
    scorer = _Scorer(text, query, passages or Passages.read(text), document, opens)
    return [scorer.finish(first) for first in scorer.firsts()]


@dataclass(frozen=True)
class Ranked:
    """The best hits of a text (best first, ties in text order), out of how many, and the
    best coverage among all of them: what a map step keeps of score_sentences."""

    best: list[Hit]
    count: int
    coverage: float


def best_hits(
    text: str,
    query: Query,
    passages: Passages,
    k: int,
    document: str | None = None,
    *,
    opens: bool = True,
) -> Ranked:
    """score_sentences' `k` best hits, count and best coverage, the same as sorting all of
    them, with only the units that can still reach the best `k` or the best coverage
    scored in full.

    Each unit first gets bounds from its neighbours' BM25 alone (see _Scorer.bounds); the
    units are then taken best bound first, the bound made exact in two steps (_Scorer.first,
    then finish), until the best bound left is below the k-th best score; coverage likewise.
    On a 10 MB man page 42,772 units match or borrow, ~285 a chunk, for the 6 each offers.
    """
    scorer = _Scorer(text, query, passages, document, opens)
    candidates = scorer.candidates()
    if not candidates:
        return Ranked([], 0, 0.0)
    firsts: dict[int, _First] = {}
    score_bounds, coverage_bounds = scorer.bounds(candidates)
    waiting: list[tuple[float, int, _First | None]] = [
        (-bound, sid, None) for sid, bound in zip(candidates, score_bounds, strict=True)
    ]
    heapq.heapify(waiting)
    top: list[float] = []  # a heap of the k best scores so far
    scored: list[Hit] = []
    while waiting and k > 0:
        bound, sid, first = heapq.heappop(waiting)
        if len(top) >= k and -bound < top[0]:
            break  # no unit left can beat the k-th best
        if first is None:
            firsts[sid] = first = scorer.first(sid)
            heapq.heappush(waiting, (-first.bound * (1 + BOUND_MARGIN), sid, first))
            continue
        hit = scorer.finish(first)
        scored.append(hit)
        if len(top) < k:
            heapq.heappush(top, hit.score)
        elif hit.score > top[0]:
            heapq.heapreplace(top, hit.score)
    coverage = max((f.coverage for f in firsts.values()), default=0.0)
    for bound, sid in sorted(zip(coverage_bounds, candidates, strict=True), reverse=True):
        if bound < coverage:
            break  # no unit left can cover more
        if sid not in firsts:
            coverage = max(coverage, scorer.first(sid).coverage)
    best = sorted(scored, key=lambda h: (-h.score, h.start))[: max(0, k)]
    return Ranked(best, len(candidates), coverage)


BOUND_MARGIN = 1e-9
"""Relative slack on a bound summed in another order than the figure it bounds, which may
round a last bit higher."""


@dataclass(frozen=True)
class _First:
    """What a unit's score takes from its own and its neighbours' terms (see _Scorer)."""

    sid: int
    base: float
    """BM25 of the unit and its context, times its share of the question's terms."""
    bound: float
    """The most its score can be: `base` times the largest boost it may get."""
    coverage: float


_NO_TERMS: frozenset[str] = frozenset()


class _Scorer:
    """One text's scoring, in two steps per unit: `firsts` (BM25, context, coverage: cheap)
    and `finish` (the boosts and checks of its words: dearer), so best_hits can finish only
    the units that can still rank."""

    def __init__(
        self, text: str, query: Query, passages: Passages, document: str | None, opens: bool
    ) -> None:
        self.text, self.query, self.passages = text, query, passages
        self.counts: dict[int, dict[str, float]] = {}
        self.covering = self.counts  # the same counts unless a name is spelled two ways
        spans = passages.spans
        if not spans or not query.idf or query.decisive.absent:
            return  # nothing, or the documents lack something the question names
        ends = [end for _, end in spans]
        counts = self.counts
        folded = fold(text)  # same length: positions index `text`
        matches = [(p, t, 1.0) for p, t in query.finder.find(folded)]
        matches += [(p, t, SOFT_WEIGHT) for p, t in query.soft.find(folded)]
        for position, term, count in matches:
            sid = bisect.bisect_right(ends, position)
            if sid < len(spans) and position >= spans[sid][0]:
                tf = counts.setdefault(sid, {})
                tf[term] = tf.get(term, 0.0) + count
        if opens:
            _credit_byline(text, passages, query, counts)
        # terms whose description states what the question asks of them: the sentence
        # stating it answers, not the term's opening
        attribute = attribute_terms(query.question)
        # a section's sentence stating the attribute asked of what its heading names is
        # that thing's ('0 or none: ... (the default).' under '## debuginfo'); not for a
        # question asking several ('What are the values of ...?'), which its list answers
        several = asks_for_several(query.question)
        self.stating = passages.inherit(counts, attribute, query.idf, sections=not several)
        self.attributed = {passages.described_term(sid) for sid in self.stating}
        self.asks_attribute = bool(attribute)
        self.covering = counts
        self.counts = counts = _names_once(counts, query)
        self.base: dict[int, float] = {}
        for sid, tf in counts.items():
            start, end = spans[sid]
            norm = K1 * (1 - B + B * (end - start) / query.avg_length)
            self.base[sid] = sum(query.idf[t] * c * (K1 + 1) / (c + norm) for t, c in tf.items())
        rare = query.rarity
        self.weight = {
            t: v**COVERAGE_IDF_POWER * (rare.get(t, MOST_COMMON) ** RANK_RARITY if rare else 1.0)
            for t, v in query.idf.items()
        }
        self.total_weight = sum(self.weight.values()) or 1.0
        self.total_idf = sum(query.idf.values()) or 1.0
        self.paragraph, self.paragraph_terms = _paragraph_scores(passages.blocks, counts, query)
        variants = query.decisive.variants
        aliases = query.decisive.aliases
        titled = set(query.decisive.titled.get(document, [])) if document is not None else set()
        groups = [g for i, g in enumerate(query.decisive.groups) if i not in titled]
        self.required = [
            [s for t in g for s in [*variants.get(t, [t]), *aliases.get(t, [])]] for g in groups
        ]
        self.words = [" ".join(query.decisive.words.get(t, t) for t in g) for g in groups]
        self.heading = passages.labels
        self.what_is = asks_what_is(query.question)
        self.subject = defined_terms(query.question)
        self.defining_boost = DEFINITION_BOOST
        if self.subject and set(tokens(content_question(query.question))) <= set(self.subject):
            self.defining_boost = SOLE_SUBJECT_BOOST  # 'What is FastAPI?' asks nothing else
        # the last word of what a typed question asks the value of ('revenu'), which a
        # sentence giving the value names first
        self.attribute = attribute[-1] if query.kind and attribute else ""
        self.counted = counted_terms(query.question) if query.kind == "number" else frozenset()
        self.lowered = query.question.lower()
        self.action = query.action
        self.forgone = forgone_action(query.question) if self.action else None
        self.made = made_terms(query.question)  # 'make' of 'How do I make X readonly?'
        self.asks_whether = _ASKS_WHETHER.search(query.question) is not None
        self.titled = len(query.idf) >= TITLED_TERMS  # a heading may be the question as a title
        self.prose = not asks_for_code(query.question, query.idf)
        self.negated = asks_negated(query.question)
        self.section = asks_for_section(query.question)
        self.many = asks_for_list(query.question)
        # what a list question asks for ('disadvantag' of 'What are the disadvantages of WAL?')
        self.listed = attribute if asks_for_several(query.question) else []
        self.chinese = is_chinese(query.question)
        unasked = _unasked_han(query.question) if self.chinese else None
        self.restated = {
            sid
            for sid in counts
            if not passages.is_label(sid) and _restated(text, folded, spans[sid], query, unasked)
        }
        self.lent = _lent_to_subject(passages, self.restated, self.base, opens, self.chinese)
        kana = _KANA_CHAR.search(query.question)
        self.topic = _topic_lead(passages) if opens and kana else -1

    @cached_property
    def most_boost(self) -> dict[Kind, float]:
        """Per kind of unit, the most `finish` may multiply a score by (RESTATED and
        LACKING_NAME only lower it)."""
        plain = 1 + TYPE_BOOST if self.query.kind else 1.0
        if self.attribute:
            plain *= 1 + VALUE_BOOST
        if self.counted:
            plain *= 1 + COUNT_BOOST
        if self.subject:
            plain = max(plain, 1 + self.defining_boost)
        if self.action:
            plain = max(plain, 1 + ACTION_BOOST)
        if self.listed:
            plain = max(plain, 1 + LIST_BOOST)
        if self.stating:
            plain = max(plain, 1 + TYPE_BOOST)
        most = dict.fromkeys(Kind, plain)
        most[Kind.TERM] = max(
            1 + self.defining_boost if self.what_is else HEADING_WEIGHT,
            1 + ACTION_BOOST if self.action else HEADING_WEIGHT,
        )
        most[Kind.HEADING] = max(
            1 + TYPE_BOOST if self.section else HEADING_WEIGHT,
            1 + self.defining_boost if self.what_is else HEADING_WEIGHT,
            1 + DEFINITION_BOOST if self.titled else HEADING_WEIGHT,
            1 + ACTION_BOOST if self.action else HEADING_WEIGHT,
        )
        return most

    def candidates(self) -> list[int]:
        """Every unit that matches, borrows from a neighbour or a heading that does, or is
        lent to, but link reference definitions, which the page does not show; in text
        order."""
        counts, spans = self.counts, self.passages.spans
        if not counts:
            return []
        candidates = {i for sid in counts for i in (sid - 1, sid, sid + 1) if 0 <= i < len(spans)}
        candidates |= {sid for sid, h in enumerate(self.heading) if h in counts} | set(self.lent)
        return sorted(c for c in candidates if not self.passages.defines_links(c))

    def firsts(self) -> list[_First]:
        """The first step of every candidate, in text order."""
        return [self.first(sid) for sid in self.candidates()]

    def bounds(self, candidates: list[int]) -> tuple[list[float], list[float]]:
        """Per candidate, the most its score and its coverage can be, from its own and its
        neighbours' sums alone: a neighbour lends at most ANAPHOR_CONTEXT of its BM25, and a
        term found in several of them weighs and covers no more than their sum."""
        counts, base, heading, weight = self.counts, self.base, self.heading, self.weight
        idf, units = self.query.idf, self.query.units
        weights, coverages = {}, {}
        for sid, tf in counts.items():
            weights[sid] = sum(weight[term] * min(1.0, count) for term, count in tf.items())
            held = {t: min(1.0, c) for t, c in self.covering[sid].items()}
            if units:  # a Chinese or Korean question's characters (see units.py)
                coverages[sid] = covered(units, held)
            else:
                coverages[sid] = sum(idf[t] * f for t, f in held.items()) / self.total_idf
        score_bounds, coverage_bounds = [], []
        paragraph, blocks, kinds = self.paragraph, self.passages.blocks, self.passages.kinds
        most_boost = self.most_boost
        for sid in candidates:
            context = PARAGRAPH_WEIGHT * paragraph.get(blocks[sid], 0.0) + self.lent.get(sid, 0.0)
            ranking = weights.get(sid, 0.0)
            coverage = coverages.get(sid, 0.0)
            for other, share in (
                (sid - 1, ANAPHOR_CONTEXT),  # the most of CHINESE_ANAPHOR_CONTEXT too
                (sid + 1, CONTEXT_WEIGHT),
                (heading[sid], HEADING_CONTEXT),
                (self.topic if sid in counts else -1, LEAD_CONTEXT),
            ):
                if other in counts and other != sid:
                    context += share * base[other]
                    ranking += share * weights[other]
                    coverage += coverages[other]
            ranking = min(1.0, ranking / self.total_weight)
            bound = (
                (base.get(sid, 0.0) + context) * ranking**COVERAGE_POWER * most_boost[kinds[sid]]
            )
            score_bounds.append(bound * (1 + BOUND_MARGIN))
            coverage_bounds.append(coverage * (1 + BOUND_MARGIN))
        return score_bounds, coverage_bounds

    def first(self, sid: int) -> _First:
        """The unit's score before the boosts of `finish`, and its coverage."""
        counts, base = self.counts, self.base
        paragraph, blocks = self.paragraph, self.passages.blocks
        start, end = self.passages.spans[sid]
        sentence = self.text[start:end]
        neighbours = self._neighbours(sid, self._previous_share(sentence))
        context = PARAGRAPH_WEIGHT * paragraph.get(blocks[sid], 0.0) + self.lent.get(sid, 0.0)
        for other, share in neighbours:
            context += share * base[other]
        # A word of the same family alone (count SOFT_WEIGHT) is a partial match of its term.
        found, near_found, near = _held_around(counts, sid, neighbours)
        weight = self.weight
        ranking = (
            sum(weight[t] * f for t, f in found.items())
            + sum(weight[t] * s * near_found[t] for t, s in near.items())
        ) / self.total_weight
        score = (base.get(sid, 0.0) + context) * ranking**COVERAGE_POWER
        if self.covering is not counts:  # every spelling of a name counts (_names_once)
            found, near_found, _ = _held_around(self.covering, sid, neighbours)
        coverage = self._coverage(found, near_found)
        if self.negated and not _NEGATION.search(sentence):
            # States what happened; the question asks what did not. Only its coverage goes
            # (not-found when no sentence stating a negation matches): lowering its score
            # too cost 4 of the 29 real SQuAD questions with 'not', whose answer sentence
            # need not repeat it ('What did Newton's mechanics not affect?').
            coverage = 0.0
        # Multiplying by a larger factor never rounds to less: the bound holds exactly.
        return _First(sid, score, score * self.most_boost[self.passages.kinds[sid]], coverage)

    def _previous_share(self, sentence: str) -> float:
        """The share of the sentence before that a sentence borrows: more when it opens
        with a pronoun that names what that one did, or names what that one describes."""
        if any(p.match(sentence) for p in _NAMED_BEFORES):
            return NAMING_CONTEXT if self.query.kind == "name" else ANAPHOR_CONTEXT
        if _ANAPHOR.match(sentence):
            return ANAPHOR_CONTEXT
        if self.chinese and _CHINESE_ANAPHOR.match(sentence):
            return CHINESE_ANAPHOR_CONTEXT
        return CONTEXT_WEIGHT

    def _neighbours(self, sid: int, previous: float) -> list[tuple[int, float]]:
        """The units a unit borrows from, each with the share it borrows: the one before
        (`previous`), the one after, its heading and the document's topic lead."""
        counts = self.counts
        return [
            (other, share)
            for other, share in (
                (sid - 1, previous),
                (sid + 1, CONTEXT_WEIGHT),
                (self.heading[sid], HEADING_CONTEXT),
                (self.topic if counts.get(sid) else -1, LEAD_CONTEXT),
            )
            if other in counts and other != sid
        ]

    def _coverage(self, found: dict[str, float], near_found: dict[str, float]) -> float:
        """Share of the question a unit covers, from its own and its neighbours' terms."""
        query = self.query
        if query.units:
            return covered(query.units, {**near_found, **found})
        return (
            sum(query.idf[t] * f for t, f in found.items())
            + sum(query.idf[t] * f for t, f in near_found.items())
        ) / self.total_idf

    def finish(self, first: _First) -> Hit:
        """The unit's hit: its score after the boosts for what it is and says."""
        sid, score, query, passages = first.sid, first.base, self.query, self.passages
        start, end = passages.spans[sid]
        sentence = self.text[start:end]
        required = self.required
        if required:
            anaphoric = self._previous_share(sentence) != CONTEXT_WEIGHT
            terms = self.paragraph_terms.get(self.passages.blocks[sid], _NO_TERMS)
            held = _held(sid, self.counts, self.heading, anaphoric, terms)
            held.update(t for h in passages.sections[sid] for t in self.counts.get(h, ()))
            lacking = _lacking(required, held)
        else:
            lacking = []
        defining = self.subject and not passages.is_label(sid)
        # the entry whose description does what is asked ('-A  Select all processes.')
        doing = (
            self.action
            and (passages.opens_description(sid) or passages.describes_call(sid))
            and self._does_action(sentence)
        )
        if defining and defines(_entry_led(passages, self.heading, sid), self.subject):
            # the sentence defining what the question asks about; the chunk's first such
            # one is its definition, later ones say more about it, as do all of them
            # when a call's signature names it ('map() is conceptually similar to a for
            # loop.' under '#### fn map<B, F>(self, f: F) -> Map<Self, F>')
            later = sid != self._first_defining or self._call_entry >= 0
            score *= 1 + (DEFINITION_BOOST * LATER_SHARE if later else self.defining_boost)
        elif self.what_is and passages.is_term(sid) and self._defines_entry(sid):
            score *= 1 + self._entry_boost(sid)  # the entry the question names: what it defines
        elif self.what_is and passages.is_heading(sid) and self._names_subject(sid):
            score *= 1 + self._entry_boost(sid)  # '## opt-level' reads as its section's opening
        elif passages.is_heading(sid) and self._titles_question(sid):
            score *= 1 + DEFINITION_BOOST  # 'Use a VecDeque when:' reads as its section
        elif self.action and passages.is_heading(sid) and self._names_action(sid):
            score *= 1 + ACTION_BOOST  # 'Installing' reads as its section, how to install
        elif self.section and passages.is_heading(sid):
            score *= 1 + TYPE_BOOST  # the section's heading is what the question asks for
        elif self.action and passages.is_term(sid) and self._named_entry(sid):
            score *= 1 + ACTION_BOOST  # '-q, --quiet' for 'How do I make wget quiet?'
        elif doing:
            score *= 1 + ACTION_BOOST
        elif sid in self.stating:
            score *= 1 + TYPE_BOOST  # 'The default is typically 100 connections.', its own
        elif self.listed and passages.leads_list(sid) and self._names_list(sid):
            score *= 1 + LIST_BOOST  # 'But there are also disadvantages:' and its list
        elif passages.is_label(sid) or sid in passages.header_rows:
            score *= HEADING_WEIGHT
        elif sid in passages.typed_fields and not self.asks_attribute:
            score *= HEADING_WEIGHT  # a type labels a value: '* Returns: {net.Socket} ...'
        elif passages.links_only(sid) or passages.cites_work(sid):
            score *= LINKS_WEIGHT  # a table of contents' '1. [Install](...#install)'
        elif passages.asks(sid):
            score *= HEADING_WEIGHT  # a question names its topic as a heading does
        elif query.kind and (typed := _answer_at(typed_in := self._led(sid, sentence), query)) >= 0:
            score *= 1 + TYPE_BOOST
            if self.attribute and _states_value_of(typed_in[:typed], self.attribute):
                score *= 1 + VALUE_BOOST  # 'Group revenue for 2024 was NOK 4,812 million'
            if self.counted and _counts(typed_in, self.counted, self.lowered):
                score *= 1 + COUNT_BOOST  # 'sacked him seven times'
        if points_elsewhere(sentence) and not (
            passages.links_only(sid) or passages.cites_work(sid)  # weighed so above
        ):
            # 'See PEP 657 for more details.' says where, not what, even when it names what
            # the question asks as a definition would ('For more about trait objects, ...')
            score *= LINKS_WEIGHT
        if sid in self.restated and not self._shows_answer(sid):
            score *= RESTATED_CHINESE if self.chinese else RESTATED
        if lacking:  # about something else than the question names, most likely
            score *= LACKING_NAME
        if self.action and not self.asks_whether and self._describes_state(sid):
            score *= HEADING_WEIGHT  # '`subprocess.killed`' tells whether, not how to kill
        if self.prose and passages.is_code(sid) and sid not in passages.settings:
            score *= CODE_WEIGHT  # code; a setting ('opt-level = 3') states a value
        return Hit(start, end, score, first.coverage, tuple(self.words[i] for i in lacking))

    def _shows_answer(self, sid: int) -> bool:
        """Whether a unit the question restates is shown with its answer. A heading or term
        the question names is what it asks about; but a description is shown with its term,
        the answer ('125: if the command is killed by a signal', ps's '-A: Select all
        processes.'), the lead-in of the list a question for several asks for with its
        list, and a how-to's lead-in with its example ('To copy a line to the clipboard:'
        over '"*yy')."""
        passages = self.passages
        return (
            passages.opens_description(sid)
            or (self.many and passages.leads_list(sid))
            or (bool(self.action) and passages.leads_example(sid))
        )

    def _led(self, sid: int, sentence: str) -> str:
        """The sentence, led by its entry's term when it opens the entry's description: the
        term may be what is asked, as a FILES entry's path is for 'Where are passwords
        stored?' ('/etc/shadow' over 'Secure user account information.')."""
        if not self.passages.opens_description(sid):
            return sentence
        return _led_by_term(self.passages, self.heading[sid], sid, sentence)

    def _entry_boost(self, label: int) -> float:
        """The boost of an entry (a term or heading) the question names: a call's
        signature is its definition, as the first defining sentence is."""
        return self.defining_boost if label == self._call_entry else DEFINITION_BOOST

    @cached_property
    def _call_entry(self) -> int:
        """The first term or heading in the text that is the signature of a call the
        question asks what it is or does ('What does map do?'), or -1."""
        if not self.what_is:
            return -1
        passages, idf = self.passages, self.query.idf
        for sid in sorted(self.counts):
            if passages.is_label(sid) and passages.called(sid) and passages.names(sid, idf):
                return sid
        return -1

    @cached_property
    def _first_defining(self) -> int:
        """The first unit in the text that defines what the question asks about, or -1."""
        passages, labels = self.passages, self.heading
        for sid in sorted(self.counts):
            if not passages.is_label(sid) and defines(
                _entry_led(passages, labels, sid), self.subject
            ):
                return sid
        return -1

    def _names_list(self, lead_in: int) -> bool:
        """The lead-in itself names what the list question asks for."""
        own = self.counts.get(lead_in, {})
        return all(term in own for term in self.listed)

    def _defines_entry(self, term: int) -> bool:
        """The question names the entry, and asks no attribute of it that a sentence of its
        description states ('What is the default value of work_mem?')."""
        return term not in self.attributed and self.passages.names(term, self.query.idf)

    def _names_subject(self, heading: int) -> bool:
        """The question names the heading, and the heading all it asks to define: not
        '#### build.jobs' for 'What is the default value of build.jobs?', which its field
        '- Default: number of logical CPUs' answers. Or the heading names the subject before
        a colon and a subtitle: '### PEP 657: Fine-grained error locations in tracebacks'."""
        start, end = self.passages.spans[heading]
        title = unnumbered(self.passages.heading_text(self.passages.blocks[heading]))
        name, colon, _ = title.partition(": ")
        if colon and tokens(name) and set(tokens(name)) == set(self.subject):
            return True
        if not self.passages.names(heading, self.query.idf):
            return False
        return set(self.subject) <= set(tokens(self.text[start:end]))

    def _titles_question(self, heading: int) -> bool:
        """The heading is the question as a title: its words are the question's terms, all
        of them ('Use a VecDeque when:' for 'When should I use a VecDeque?'), so the
        section under it answers the question."""
        if not self.titled or self.passages.names_state(heading):
            return False  # '`worker.stopped`' is no title of 'How do I stop a worker?'
        start, end = self.passages.spans[heading]
        words, asked = set(tokens(self.text[start:end])), set(self.query.idf)
        if words == asked:
            return True
        # ... or a FAQ's question asking it, of little more: '(9) What is the maximum size
        # of a VARCHAR in SQLite?' for 'What is the maximum size of a VARCHAR?'
        found = self.counts.get(heading, {})
        return (
            self.passages.asks(heading) and asked <= found.keys() and len(words) <= 2 * len(asked)
        )

    def _named_entry(self, sid: int) -> bool:
        """The entry a how-to question names: an option's long name in its words ('--quiet'
        for 'How do I make wget quiet?'), or a menu entry of two words or more, all asked
        ('Run Module' for 'How do I run a module?'; not a history table's '-delete'); not
        an event's name (see _names_event)."""
        idf, passages = self.query.idf, self.passages
        start, end = passages.spans[sid]
        entry = self.text[start:end]
        if self._names_event(entry):
            return False
        if passages.names_in_words(sid, idf):
            return True
        return len(tokens(entry)) >= 2 and passages.names(sid, idf)

    def _names_event(self, entry: str) -> bool:
        """The entry writes the asked verb only as a past participle: tmux's hook
        'window-renamed' is what runs after a window is renamed, not how to rename one
        ('embed-fonts' does embed, as the question writes it)."""
        forms = {w.lower() for w in _OPENING_WORD.findall(entry) if stem(w.lower()) == self.action}
        return bool(forms) and all(f.endswith("ed") and f not in self.lowered for f in forms)

    def _names_action(self, heading: int) -> bool:
        """The heading is the signature of a call doing the asked action, whatever else
        the question names ('### `subprocess.kill([signal])`' for 'How do I kill a child
        process?'); or, not a state's name ('`worker.stopped`'), it names the action and
        nothing the question does not: 'Installing' for 'How do I install responses?'."""
        if self.passages.called(heading) == self.action:
            return True
        if self.passages.names_state(heading):
            return False  # '`worker.stopped`' says whether, not how to stop
        start, end = self.passages.spans[heading]
        return self.action in tokens(self.text[start:end]) and self.passages.names(
            heading, self.query.idf
        )

    def _describes_state(self, sid: int) -> bool:
        """The unit is in the section of a flag: a property holding a state ('###
        `worker.stopped`' over '* {boolean} ...'), which says whether something was
        done, not how to do it, when a call of the text does it ('worker.stop()'). Not
        '`config.encoding`' (a string), nor '`config.logging`' where no call does the
        asked 'configure': how to set them is what their sections say."""
        heading = self.heading[sid]
        passages = self.passages
        return (
            heading >= 0 and self.action in passages.called_verbs and passages.names_flag(heading)
        )

    def _does_action(self, sentence: str) -> bool:
        """The sentence opens with the asked verb, as a command or a statement ('Delete
        files; true if removal succeeded.', 'Deletes files'), not as the name of an
        activity: tar's '"Extracting contiguous files as regular files"' is a message.
        A Korean one closes with it: '압축을 해제합니다.'."""
        if self.forgone:
            # 'How do I copy without overwriting?': the entry that does not ('-n,
            # --no-clobber: do not overwrite an existing file'), not every one that copies
            refusing = _REFUSING.match(sentence)
            verb = _OPENING_WORD.match(sentence, refusing.end()) if refusing else None
            return verb is not None and stem(verb.group().lower()) == self.forgone
        action = self.action or ""
        if HANGUL_CHAR.match(action):
            return re.search(re.escape(action) + _KOREAN_DOING, fold(sentence)) is not None
        aside = _ASIDE.match(sentence)  # tmux's '(alias: renamew) Rename the window ...'
        opening = _OPENING_WORD.match(sentence, aside.end() if aside else 0)
        if opening is not None and opening.group().lower().endswith("ly"):
            # 'Asynchronously creates a directory.': the verb after its adverb (any '-ly'
            # word: the verb must follow, and 'asynchronous' is too rare for _adverb)
            following = len(sentence) - len(sentence[opening.end() :].lstrip())
            opening = _OPENING_WORD.match(sentence, following)
        if opening is None or opening.group().lower().endswith(("ing", "ed")):
            return False
        word = stem(opening.group().lower())
        if word == action or word in same_actions().get(action, ()):
            return True  # ... or another verb for it: 'Removes a file' for 'delete a file'
        # 'Make names readonly.' does what 'How do I make variables readonly?' asks
        return word in self.made and action in tokens(sentence)


def _lent_to_subject(
    passages: Passages, restated: set[int], base: dict[int, float], opens: bool, chinese: bool
) -> dict[int, float]:
    """Score lent by each sentence the question restates (see restates) to the sentences
    that may name the subject it leaves out: the one before it and, in the text that opens
    its document, the lead.

    'Xであるのは？' copies a sentence of the text and asks for its subject, which Japanese
    and Chinese drop when the sentence before names it or the text is about it: the lead
    sentence of an article names its topic ('株式会社ジェイ・キャストは、...'). A Chinese
    one lends to the sentence after it too when that opens with a pronoun: '現在的越南語
    ...叫做國語字。它是由...羅德...整合而成。' for '...叫做國語字，是由誰整理發展的?'.
    """
    if not restated:
        return {}
    text, spans = passages.text, passages.spans
    lead = _topic_lead(passages)
    lent: dict[int, float] = {}
    for sid in restated:
        after = sid + 1 if chinese and sid + 1 < len(spans) else -1
        if after >= 0 and not _CHINESE_ANAPHOR.match(text, spans[after][0]):
            after = -1
        for other in {sid - 1, lead if opens else -1, after} - {sid, -1}:
            lent[other] = max(lent.get(other, 0.0), SUBJECT_CONTEXT * base[sid])
    return lent


BYLINE_UNITS = 4
"""Units from a document's start its byline (layout.BYLINE) may be: after a title, a
subtitle, maybe a date."""
_AUTHORSHIP = frozenset(tokens("author authors authored wrote write written writer"))
_THIS = re.compile(r"\bthis\s+([^\W\d_]+)", re.IGNORECASE)  # 'this book': the document


def _held_around(
    counts: dict[int, dict[str, float]], sid: int, neighbours: list[tuple[int, float]]
) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """The question's terms a unit holds (each found 0-1), those only its `neighbours` hold,
    and the most share any of them lends each of those."""
    own = counts.get(sid, {})
    found = {t: min(1.0, c) for t, c in own.items()}
    near_found: dict[str, float] = {}
    near: dict[str, float] = {}
    for other, share in neighbours:
        for term, count in counts[other].items():
            if term not in own:
                near[term] = max(near.get(term, 0.0), share)
                near_found[term] = max(near_found.get(term, 0.0), min(1.0, count))
    return found, near_found, near


def _names_once(counts: dict[int, dict[str, float]], query: Query) -> dict[int, dict[str, float]]:
    """`counts` with a name written two ways in one unit ('Most Valuable Player (MVP)')
    held once, as its rarest spelling: it ranks as a unit writing it one way. (Coverage
    keeps both: the not-found share counts every spelling the question's terms hold.)"""
    groups = [
        spellings
        for term, aliases in query.decisive.aliases.items()
        if len(spellings := [t for t in (term, *aliases) if t in query.idf]) > 1
    ]
    if not groups:
        return counts
    once = {}
    for sid, tf in counts.items():
        tf = dict(tf)
        for spellings in groups:
            held = sorted((t for t in spellings if t in tf), key=query.idf.__getitem__)
            for dropped in held[:-1]:
                del tf[dropped]
        once[sid] = tf
    return once


def _credit_byline(
    text: str, passages: Passages, query: Query, counts: dict[int, dict[str, float]]
) -> None:
    """Count the question's words for writing ('Who wrote ...?', 'Who are the authors?') as
    said by the byline of a text that opens its document, in `counts`: 'by X' under a
    title is 'written by X', and the only words it writes are the authors' names. It
    speaks of its document, which the question names by the title above it ('Who wrote
    The Rust Programming Language?') or as 'this book'."""
    asked = [t for t in query.idf if t in _AUTHORSHIP]
    spans = passages.spans
    for sid in range(min(BYLINE_UNITS, len(spans))) if asked else ():
        if BYLINE.match(text, spans[sid][0], spans[sid][1]):
            named = [t for w in _THIS.findall(query.question) for t in tokens(w)]
            said = dict.fromkeys([*asked, *(t for t in named if t in query.idf)], 1.0)
            for above in range(sid):  # the title
                said.update(counts.get(above, {}))
            tf = counts.setdefault(sid, {})
            for term, count in said.items():
                tf[term] = max(tf.get(term, 0.0), count)
            return


def _topic_lead(passages: Passages) -> int:
    """The lead sentence of a text that opens its document (its first that is no label),
    which a Japanese or Chinese sentence leaning on the topic leaves unsaid: in
    'ミネルヴァ書房は、日本の出版社。... 社長は杉田啓三。' the second answers
    'ミネルヴァ書房の社長は?' though only the lead names the publisher."""
    return next((sid for sid in range(len(passages.spans)) if not passages.is_label(sid)), -1)


def _entry_led(passages: Passages, labels: list[int], sid: int) -> str:
    """A sentence, led by its entry's term when it opens with the defining verb: a
    licence's '1.7. "Larger Work"' over 'means a work that combines ...'."""
    start, end = passages.spans[sid]
    sentence = passages.text[start:end]
    if _DEFINING_VERB.match(sentence) is None:
        return sentence
    return _led_by_term(passages, labels[sid], sid, sentence)


def _led_by_term(passages: Passages, label: int, sid: int, sentence: str) -> str:
    """`sentence` (unit `sid`) after the term `label`, when that is a term other than it."""
    if label < 0 or label == sid or not passages.is_term(label):
        return sentence
    start, end = passages.spans[label]
    return f"{passages.text[start:end]} {sentence}"


_HAN_CHAR = re.compile(f"[{HAN}]")
_KANA_CHAR = re.compile(f"[{KANA}]")
RESTATED_LEAST = 4
"""Fewest content characters a Chinese sentence restated character by character has:
'它是' restates nothing."""


def is_chinese(question: str) -> bool:
    """Ideographs and no kana: '高英是哪位皇帝的皇后？', not '信長の妻は'."""
    return _HAN_CHAR.search(question) is not None and _KANA_CHAR.search(question) is None


def _restated(
    text: str, folded: str, span: tuple[int, int], query: Query, unasked: re.Pattern[str] | None
) -> bool:
    """restates() of text[span], or for a Chinese question (`unasked` is its _unasked_han),
    every content character of it is one of the question's: '孩子的屁股先露出，而膝蓋彎曲' for
    '若孩子出生時屁股先露出，而膝蓋彎曲，稱為?', whose bigrams '子的' and '出，' straddle words
    the question splits otherwise. `folded` is fold(text)."""
    start, end = span
    if restates(text[start:end], query.idf):
        return True
    # Searched in place: most sentences hold a character the question does not, early on.
    if unasked is None or unasked.search(folded, start, end):
        return False
    sentence = folded[start:end]
    chars = {c for c in _HAN_CHAR.findall(sentence) if c not in FUNCTION_CHARS}
    words = [t for t in iter_tokens(sentence) if not is_cjk_term(t)]
    return len(chars) >= RESTATED_LEAST and all(w in query.idf for w in words)


@functools.lru_cache(maxsize=16)
def _unasked_han(question: str) -> re.Pattern[str]:
    """An ideograph neither in the (folded) question nor a function character ('的')."""
    allowed = "".join(re.escape(c) for c in sorted(set(fold(question)) | FUNCTION_CHARS))
    return re.compile(f"(?![{allowed}])[{HAN}]")


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
    paragraph_terms: AbstractSet[str],
) -> set[str]:
    """The terms a passage holds for the decisive check: its sentence, its paragraph, its
    section heading (and the headings above it, see Passages.sections), and the previous
    sentence when it opens with a pronoun. Not the
    next paragraph's first sentence, which is about the next entry of a register."""
    held = set(counts.get(sid, {})) | paragraph_terms
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
) -> tuple[dict[int, float], dict[int, set[str]]]:
    """Per paragraph (a block; `para_of` gives each unit's) holding a term, its BM25 (no
    length normalization) and its terms; a candidate looks its own up.

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
    return score, {p: set(tf) for p, tf in terms.items()}


# 'If the battery lasts less than two hours, contact support.': the value of a condition
# the sentence opens with is a threshold it sets for what follows, not a fact it states.
_CONDITION = re.compile(r"\s*(?:if|unless)\b[^,;:]*[,;:]", re.IGNORECASE)


def _answer_at(sentence: str, query: Query) -> int:
    """Where the first answer of the question's type starts in `sentence` (past the
    list marker and the condition it opens with, if any), or -1."""
    assert query.kind is not None
    question = query.question.lower()
    # '4. Any member of the Committee may ...' counts nothing: its 4 numbers the item
    marker = LIST_MARKER.match(sentence)
    past = marker.end() if marker else 0
    condition = _CONDITION.match(sentence, past)
    past = condition.end() if condition else past
    for match in _ANSWER_PATTERNS[query.kind].finditer(sentence, past):
        found = match.group()
        if query.kind == "person":
            if any(word.lower() not in question for word in found.split()):
                return match.start()
        elif query.kind == "name" and not found[0].isascii() and found[0] not in "“":
            if found[0] != "「" or fold(found[1:-1]) not in fold(question):  # a verb, or a new name
                return match.start()
        elif query.kind == "name":
            if found[0].islower() or any(w.lower() not in question for w in found.split()):
                return match.start()
        elif query.kind == "place":
            if fold(found.split()[-1].lower()) not in fold(question):
                return match.start()
        elif query.kind == "number" and _is_date_part(sentence, match):
            continue  # "how many" wants a count: in "May 4, 1990" neither 4 nor 1990 is one
        elif found.lower() not in question:
            return match.start()
    return -1


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


def hold_rarest(question: str, best: str, others: list[str]) -> list[bool]:
    """Whether each of `others` holds the rarest in English (see rarity.py) of the question's
    terms that `best` holds: of 'What are the valid values of the panic option?', 'panic',
    not 'valid' or 'option'. All True when the question is not English or `best` holds none."""
    terms = query_terms(content_question(question))
    finder = TermFinder(terms)
    held = {t for _, t in finder.find(fold(best))}
    if not held or not weighs(question):
        return [True] * len(others)
    rare = rarity(question, terms)
    rarest = max(sorted(held), key=lambda t: rare.get(t, 0.0))
    return [any(t == rarest for _, t in finder.find(fold(other))) for other in others]


def _share_cited(terms: set[str], cited: set[str]) -> float:
    """Share of a sentence's question terms already cited (all, if it holds none)."""
    return len(terms & cited) / len(terms) if terms else 1.0
