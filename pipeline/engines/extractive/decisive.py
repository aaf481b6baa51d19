"""Decisive question terms: what a question names, which the passage that answers it must hold.

"What is the access code for the Riverside warehouse?" asks one thing (the access code)
about one named thing (Riverside). A sentence giving the Ashford warehouse's access code
covers most of the question's words and still answers another question. So the words
that name something are decisive: a passage lacking one cannot be the answer, and when
the documents hold one nowhere, they do not answer the question.

Which words name something is read from the question's form and the documents' usage,
never from a list of entity types:
- a word capitalized inside an English question ("Riverside", "HMR"), unless the
  question is in title case (its small words capitalized too);
- a word holding a digit ("2024", "4290-88", "Skarv 3"'s "3"), a Latin word inside a CJK
  question ("NHK"), and every word of a quoted phrase ("'Brave New World'", 「しずく」);
- a question word the documents themselves write capitalized mid-sentence (NAME_SHARE of
  its uses): "bergen" in a lowercase question is the "Bergen" of the text;
- in CJK text, which has no capitals: a run of two or more question characters that no
  matched bigram covers and that holds a character the documents never use (the
  unknown name in 芦田倉庫 when the documents list 山下倉庫 and 川村倉庫).
A decisive word the documents use in more than TOPIC_SHARE of their sentences is their
topic ("Tesla" in an article on Tesla): a passage need not repeat it, so it is not
required there, though a word the documents never use still ends the search.

Some names are written one way in a question and another in the text, and are still
there (see `aliases`): an acronym the documents spell out ("LGPL", whose text says
"Lesser General Public License"), and a compound of letters and a number ("GPLv3",
"MPL2") whose letters the documents use as a word and whose number they write, and (see
`same_name`) a number they write in words ("8", "eight"), a decade in full ("80s",
"1980s"), a name of the same family ("Jewish", "Jews"; "European", "Europe"; "WWII",
"World War II"). A possessive is no part of a name ("Nederrijn's"). A name with no such
spelling ("Riverside" beside Ashford and Lakeside) stays absent.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from bm25s.stopwords import STOPWORDS_KOREAN

from pipeline.engines.extractive.rarity import weighs, word_rarity
from pipeline.engines.extractive.terms import (
    HYPHENED_NAME,
    KOREAN_QUESTION_WORDS,
    LITERAL,
    QUESTION_CHARS,
    fold,
    hyphened_name,
    is_cjk_term,
    option_keys,
    option_values,
    stem,
    tokens,
    uses,
)
from pipeline.engines.extractive.units import FUNCTION_CHARS
from pipeline.text.layout import analyse
from pipeline.text.scripts import CJK, HAN, HANGUL, KANA
from pipeline.text.structure import Kind

NAME_SHARE = 0.8
"""Least share of a word's mid-sentence uses in the documents that are capitalized for a
lowercase question word to count as a name: 'Bergen' always, 'Group' in a report that
writes 'the Group' 9 times in 10; sentence-initial uses say nothing and are not counted."""
TOPIC_SHARE = 0.05
"""Share of the documents' sentences above which a decisive word is their topic and a
passage need not hold it: in a 500-sentence article, a name in more than 25 sentences."""
TOPIC_LEAST = 20
"""Sentences a name must be in, whatever the share, to be the topic: in a register of
four warehouses each name fills a quarter of the sentences and is still what tells
one entry from another."""
TITLE_CASE_SHARE = 0.5
"""Share of a question's small words (the, of, for...) written capitalized above which
its capitals are style (title case), not names."""
RARE_WORD = 4.5
"""Least rarity (rarity.py: 8 less the Zipf frequency) of an English question word the
documents never write for an answer to carry a caution: 'encrypt' 5.2, 'proclamation'
4.6; not 'password' (3.9), 'remove' (3.3), which a text may well put another way. On the
1,303 held-out SQuAD questions, right answers with a caution went 0.012 -> 0.031, those
given on an unrelated article 0.172 -> 0.322."""

_QUOTED = re.compile(
    r"(?<![\w'’])['‘]([^'‘’]{2,80})['’](?![\w'’])|\"([^\"]{2,80})\"|“([^”]{2,80})”"
    r"|「([^」]{1,40})」|『([^』]{1,40})』|《([^》]{1,40})》"
)
_LATIN_WORD = re.compile(rf"[^\W_{CJK}]+(?:[-.'’][^\W_{CJK}]+)*")
# Letters that can spell a CJK name: ideographs, katakana (not hiragana: particles), Hangul.
_NAME_CHAR = re.compile(f"[{HAN}\u30a1-\u30fa\u30fc{HANGUL}]")
_HAS_CJK = re.compile(f"[{CJK}]")
_HAN_CHAR = re.compile(f"[{HAN}]")
_KANA_CHAR = re.compile(f"[{KANA}]")
_PARTICLES = FUNCTION_CHARS - QUESTION_CHARS
"""Function characters that are no question word: a name may follow one (于 of '位于南港')."""


@dataclass(frozen=True)
class Decisive:
    """What a question names, as index terms, and how the documents hold them."""

    groups: list[list[str]] = field(default_factory=list)
    """Names as index terms: a passage must hold a term (or a spelling) of every group."""
    words: dict[str, str] = field(default_factory=dict)
    """Index term of a group -> the question's own word for it, to report it."""
    absent: list[str] = field(default_factory=list)
    """Question words the documents hold nowhere, not even in a near spelling."""
    variants: dict[str, list[str]] = field(default_factory=dict)
    """Index term the documents lack -> index terms of their near spellings ('gandhi'
    for a question's 'ghandi'): a passage holding one may answer, with a caution."""
    aliases: dict[str, list[str]] = field(default_factory=dict)
    """Index term -> index terms of the documents' own way of writing that name: 'lgpl' ->
    ['lesser'] (the rarest word of 'Lesser General Public License'), 'gplv3' -> ['gpl'].
    A passage holding one names the thing, without caution: it is the same name."""
    titled: dict[str, list[int]] = field(default_factory=dict)
    """Document id -> indices of the groups its title names: any passage of that document
    holds them ('GPLv3' everywhere in the GPL's text, whose title is its name)."""
    unwritten: list[str] = field(default_factory=list)
    """Rare words of an English question the documents write in no spelling: 'encrypt' of
    'How do I encrypt files with ls?' (see rare_unwritten); a Japanese one's '暗号化' (see
    unheld_words). They name no thing, and a
    paraphrase may stand for them, so they refuse nothing; an answer is shown with a
    caution that it does not say them."""


def named_phrases(question: str) -> list[list[str]]:
    """The question's words that name something, by form (capitals, digits, quotes), grouped
    into the names they spell.

    'Which architect did Martin Luther meet in Bergen in 1512?' ->
    [['Martin', 'Luther'], ['Bergen'], ['1512']]. A passage naming one word of a group
    names that thing ('Luther' is Martin Luther); a number is its own group, since one
    digit tells 'Skarv 3' from 'Skarv 4'.
    """
    matches = list(_LATIN_WORD.finditer(question))
    words = [m.group() for m in matches]
    in_cjk = _HAS_CJK.search(question) is not None
    # Title case capitalizes the small words too ("What Is The Code For ..."): names never.
    small = [w for w in words[1:] if not tokens(w)]
    capitalized = [w for w in small if w[0].isupper()]
    title_case = len(small) > 1 and len(capitalized) > TITLE_CASE_SHARE * len(small)
    phrases: list[list[str]] = []
    joined = False  # whether the previous word was a capitalized name word
    for index, (match, word) in enumerate(zip(matches, words, strict=True)):
        if any(c.isdigit() for c in word) or in_cjk:
            phrases.append([word])
            joined = False
            continue
        acronym = word.isupper() and len(word) > 1  # even first: "HMR", "NFL"
        if acronym or (index > 0 and word[0].isupper() and not title_case):
            gap = question[matches[index - 1].end() : match.start()] if index else ""
            if joined and gap.strip() == "":
                phrases[-1].append(word)
            else:
                phrases.append([word])
            joined = True
        else:
            joined = False
    for match in _QUOTED.finditer(question):
        quoted = next(g for g in match.groups() if g)
        phrases.extend([m.group()] for m in _LATIN_WORD.finditer(quoted))
        phrases.extend([run] for run in _cjk_runs(quoted))
    return phrases


# 'Which British sculptor ...', 'In which Italian city ...': capitalized words between the
# question word (and its adjectives: 'Which famous ...') and the lowercase word after them,
# where the question word opens the question or follows a preposition (not a relative
# 'which': 'The treaty which France signed ...')
_ASKED_KIND_NAMES = re.compile(
    r"(?:^|[,;:]\s*|\b(?i:in|on|at|by|for|from|to|of|with|into|during|after|before|under)\s+)"
    r"(?:[Ww]hich|[Ww]hat)\s+(?P<before>(?:[a-z][\w-]*\s+){0,2}?)"
    r"(?P<names>(?:[A-Z][\w'’.&-]*\s+)+)(?P<after>[a-z][\w-]*)"
)
# The endings of the adjectives of peoples and places: 'British', 'American', 'Roman',
# 'Japanese', 'Baltic'; not names ('Beatles', 'Louisiana', 'Chopin').
_PEOPLES_ADJECTIVE = re.compile(r"\w+(?:an|ish|ese|ic)")


def describing_names(question: str) -> list[str]:
    """Capitalized words that describe the thing asked for rather than name a thing asked
    about: 'British' of 'Which British sculptor made the memorial?'. The answer is that
    sculptor, and the sentence naming him need not say he is British, so a passage lacking
    'British' may answer; documents that never write it still do not. Only a people's or
    place's adjective ('Ancient Roman'): 'Which Beatles album ...' asks about the Beatles.
    Not 'Tesla' of 'What did Tesla patent?', where a function word ('did') stands between."""
    found: list[str] = []
    for match in _ASKED_KIND_NAMES.finditer(question):
        before = match.group("before").split()
        names = [_POSSESSIVE.sub("", w) for w in match.group("names").split()]
        if not all(tokens(w) for w in before) or not tokens(match.group("after")):
            continue
        if _PEOPLES_ADJECTIVE.fullmatch(names[-1]):
            found += names
    return found


# A name joined by underscores, as code writes one: 'unused_must_use', 'MAX_PATH'; not the
# stem of a file's name ('my_data' of 'my_data.csv'). Or by hyphens (see hyphened_name).
_JOINED_NAME = re.compile(
    r"(?<![\w.$-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w-]|\.\w)"
    rf"|(?<![\w.$-]){HYPHENED_NAME.pattern}(?![\w-]|\.\w)"
)
MOST_NAMES = 8
"""Most joined names or Korean nouns of one question looked for in the documents' text: a
question of hundreds would cost a scan of the documents each."""


def joined_names(
    question: str, texts: list[str], written: Callable[[str], bool], known: Callable[[str], bool]
) -> list[str]:
    """The names the question joins with underscores ('What does the unused_must_use lint
    detect?'), each one thing: its words ('unused', 'must', 'use') are in its neighbours'
    names too ('unused_macros'). `written(name)`: the documents write it as it is;
    `known(word)`: they write the word (else they cannot write the name apart). Not one
    they write only another way, as a title, an anchor or Markdown does ('unused-must-use',
    'MAX_RETRIES' for 'max_retries', 'max\\_retries'): that is the same name. Nor the
    asker's own of a how-to ('How do I read a file like my_data?')."""
    if _HOW_TO.search(question):
        return []
    found: list[str] = []
    names = dict.fromkeys(m.group() for m in _JOINED_NAME.finditer(question))
    for name in [n for n in names if "_" in n or hyphened_name(n)][:MOST_NAMES]:
        parts = re.split("[_-]", name)
        if written(name) or not all(map(known, parts)) or not _written_otherwise(parts, texts):
            found.append(name)
    return found


def _written_otherwise(parts: list[str], texts: list[str]) -> bool:
    joined = r"(?:\\?_|[\s-])".join(re.escape(part) for part in parts)
    pattern = re.compile(rf"(?<![\w-]){joined}(?![\w-])", re.IGNORECASE)
    return any(pattern.search(text) for text in texts)


def _cjk_runs(text: str) -> list[str]:
    return [m.group() for m in re.finditer(f"[{CJK}]+", text)]


def unknown_cjk_words(
    question: str, terms: Iterable[str], present: set[str], used: Callable[[str], bool]
) -> list[str]:
    """Runs of CJK question characters no present bigram covers, holding a character the
    documents never use: the names a CJK question brings that the documents lack.

    With 山下倉庫 and 川村倉庫 in the documents, 芦田倉庫の入館コード leaves 芦田
    uncovered (芦田 and 田倉 occur nowhere; 倉庫 covers 倉 and 庫) and 芦 is unused.
    """
    folded = fold(question)
    covered = _positions(folded, [t for t in terms if is_cjk_term(t) and t in present])
    unknown: list[str] = []
    run: list[int] = []
    for index, char in enumerate(folded + " "):
        if _NAME_CHAR.match(char) and char not in QUESTION_CHARS and index not in covered:
            run.append(index)
            continue
        # A modifier of a word the documents know, in characters they never use; not one
        # of a particle ('昂贵精密的战舰': 精密 is said of the warship, 的 heads nothing).
        heads = index in covered and char not in FUNCTION_CHARS
        name = bool(run) and heads and _opens_word(folded, run)
        if name and not any(used(folded[i]) for i in run) and not _asks(folded, run):
            unknown.append(question[run[0] : run[-1] + 1])
        run = []
    return unknown


UNHELD_RUN = 3
"""Least characters of a run of a Japanese question the documents never write (see
unheld_words) for an answer to carry a caution: '暗号化' (encrypt) of
'ls でファイルを暗号化するには？'. Two-character runs cautioned 0.12 of JSQuAD dev's right
answers, three 0.007. Chinese questions are runs of ideographs end to end: at three, 0.15
of CMRC2018 dev's right answers and 0.43 of DRCD's were cautioned, so they get none."""


def unheld_words(question: str, terms: Iterable[str], present: set[str]) -> list[str]:
    """Runs of UNHELD_RUN or more characters of a Japanese question that its searched
    bigrams cover and no bigram the documents write does: words it asks with that the
    documents never write, though they may use each character ('暗号化' asked of a manual
    that writes neither 暗号 nor 号化). A caution, as rare_unwritten is for English."""
    if _KANA_CHAR.search(question) is None:
        return []  # Chinese or Korean (see UNHELD_RUN)
    folded = fold(question)
    grams = [t for t in terms if is_cjk_term(t) and len(t) > 1]
    searched = _positions(folded, grams)
    covered = _positions(folded, [g for g in grams if g in present])
    unheld: list[str] = []
    run: list[int] = []
    for index, char in enumerate(folded + " "):
        if index in searched and index not in covered and _NAME_CHAR.match(char):
            run.append(index)
            continue
        if len(run) >= UNHELD_RUN:
            unheld.append(question[run[0] : run[-1] + 1])
        run = []
    return unheld


# A Korean noun and what marks it one: a case particle ('서버의', '암호화를') or a form of
# 하다 (do) or 되다 (become) after it ('암호화하려면', '등록된'). Not 은/는 (a verb's ending
# too: '날아오는') nor a bare word, which may be a verb's stem.
_KOREAN_NOUN = re.compile(
    f"(?P<noun>[{HANGUL}]{{2,}}?)"
    "(?:을|를|이|가|의|에|에서|에게|로|으로|와|과|도|만"
    "|하려면|하는|하기|하고|하여|해서|합니까|합니다|하면|할|한|했|된|되는|되면|됩니까)"
)


_VERB_ENDINGS = frozenset("하되는인한된할")
"""Last syllables of a verb's or adjective's form before an ending that looks like a
particle: '정렬하는가' (does it sort?), '가능한가' (is it possible?), '무엇인가'."""
_ASKING = frozenset(w for w in KOREAN_QUESTION_WORDS if len(w) == 2)


def unheld_korean_nouns(question: str, texts: list[str]) -> list[str]:
    """The nouns of a Korean question (see _KOREAN_NOUN) that no document writes:
    '암호화' of 'killall로 파일을 암호화하려면?'. A caution, as unheld_words is for Japanese;
    a verb is asked and written in other forms ('세워졌습니까', '세웠다'), so it is none.
    On our Korean set, 1 of 82 right answers is cautioned ('봉우리'); with two syllables
    too, 5 were ('도시', '발견'), and with unheld_words' runs, 6 (verbs)."""
    nouns: list[str] = []
    for word in dict.fromkeys(re.findall(f"[{HANGUL}]+", question)):
        match = _KOREAN_NOUN.fullmatch(word)
        noun = match.group("noun") if match and word not in STOPWORDS_KOREAN else ""
        if len(noun) < UNHELD_RUN or noun in nouns:
            continue  # two syllables: many a common word ('도시', city) a text need not say
        if noun[-1] in _VERB_ENDINGS or noun[:2] in _ASKING:
            continue  # a verb's form, or a question word's ('무엇인가')
        nouns.append(noun)
    return [n for n in nouns[:MOST_NAMES] if not any(n in text for text in texts)]


def _positions(folded: str, grams: Iterable[str]) -> set[int]:
    """The positions of the folded question that `grams` cover where it writes them."""
    found: set[int] = set()
    for gram in grams:
        for match in re.finditer(re.escape(gram), folded):
            found.update(range(match.start(), match.end()))
    return found


def _asks(folded: str, run: list[int]) -> bool:
    """The run is a Korean question word, or one and its ending: '무엇' of 'pstree 는
    무엇입니까?' names nothing the documents must hold."""
    text = folded[run[0] : run[-1] + 1]
    return text in KOREAN_QUESTION_WORDS or any(
        text.startswith(word) for word in KOREAN_QUESTION_WORDS if len(word) > 1
    )


def _opens_word(folded: str, run: list[int]) -> bool:
    """Whether a run of unknown characters can be a name of its own: two or more, or one
    ideograph that opens a word (南港 of '南港造船厂...' beside the documents' 北港), not
    one after a question word or another word (些 of 哪些, 该 of '取代该战舰'), nor a
    function word (若, 'if'), nor one Hangul syllable (언 of 언제, 'when')."""
    if len(run) >= 2:
        return True
    char = folded[run[0]]
    if not _HAN_CHAR.match(char) or char in FUNCTION_CHARS:  # '若孩子...' (if)
        return False
    if run[0] == 0:
        return True
    before = folded[run[0] - 1]
    return not _NAME_CHAR.match(before) or before in _PARTICLES


_NUMBER_NAMES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    " fifteen sixteen seventeen eighteen nineteen twenty"
).split()
_TENS = {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty"}
_TENS |= {90: "ninety", 100: "hundred", 1000: "thousand"}
_DECADE = re.compile(r"(?:['’])?(\d0)['’]?s")
_FULL_DECADE = re.compile(r"(1\d\d|20\d)0['’]?s")
FAMILY_SUFFIXES = ("an", "ean", "ian", "ish", "ese", "es", "ic", "ical")
"""Endings that turn a name into its people, language or adjective, on stems: 'jew' +
'ish' (Jews, Jewish), 'europ' + 'ean' (Europe, European), 'bibl' + 'ic' (Bible,
biblical). Not 'side' (Riverside is not the river), nor the stemmer's 'i' ('imperi' of
'Imperialism' is not the 'imper' of 'imperative'; it cost 'Lev' for "Levi's" once in
1,520 SQuAD questions)."""
FAMILY_BASE = 3
"""Least letters of the shorter stem of a name family: 'jew'."""


def same_name(word: str, vocabulary: set[str], texts: list[str]) -> list[str]:
    """Index terms of the documents' own way of writing `word` when they never write it as
    the question does: a year inside a range written short ('1647' -> '1646' of '1646–7'),
    a number in words ('8' -> 'eight', '100' -> 'hundred'), a decade in full ('80s', "80's"
    -> '1980s') or by its years ('1880s' -> '1882'), a name of the same family ('Jewish'
    -> 'jew'); else []."""
    if _YEAR.fullmatch(word):  # '1647' of 'imprisoned ... in 1646–7': the range's first year
        ranges = _ranges_ending(word)
        firsts = {m.group(1) or m.group(2) for text in texts for m in ranges.finditer(text)}
        if firsts:
            return sorted(firsts)
    if word.isdigit():
        value = int(word)
        name = _NUMBER_NAMES[value] if value < len(_NUMBER_NAMES) else _TENS.get(value)
        return tokens(name) if name and name in vocabulary else []
    decade = _DECADE.fullmatch(word)
    if decade:
        pattern = re.compile(rf"(?<!\d)\d\d{decade.group(1)}s\b")
        return sorted({m.group() for text in texts for m in pattern.finditer(text)})
    decade = _FULL_DECADE.fullmatch(word)
    if decade:  # '1880s' -> '1882' of 'In 1882 Tesla began working for ...': a year of it
        first = decade.group(1)  # '188' of '1880s'; of '1900s' '19\d', as a century reads
        years = first[:2] + r"\d" if first.endswith("0") else first
        pattern = re.compile(rf"(?<![\d.,]){years}\d(?!\d|[.,]\d)")
        return sorted({m.group() for text in texts for m in pattern.finditer(text)})
    if not word.isalpha():
        return []
    own = stem(fold(word).lower())
    return sorted({stem(w) for w in vocabulary if _one_family(own, stem(w))})


_YEAR = re.compile(r"1\d\d\d|20\d\d")


def written_nowhere(word: str, texts: list[str]) -> bool:
    """Whether the documents write `word` in no spelling: not its own nor its family's
    (see same_name), nor one a typo away (see near_spellings), nor as two words (see
    written_apart). This reads all the documents' words, so the caller asks only when
    none of its index terms was found."""
    vocabulary = _latin_words(texts)
    if fold(word).lower() in vocabulary:
        return False
    if same_name(word, vocabulary, texts) or near_spellings(word, vocabulary):
        return False
    return not written_apart(word, texts)


LEAST_PART = 3
"""Least letters of each part of a compound written as two words: 'white space'."""


def written_apart(word: str, texts: list[str]) -> bool:
    """Whether the documents write the compound `word` as two words or hyphenated:
    'whitespace' as 'white space', 'timeout' as 'time-out'."""
    if not word.isalpha() or len(word) < 2 * LEAST_PART:
        return False
    parts = [(word[:k], word[k:]) for k in range(LEAST_PART, len(word) - LEAST_PART + 1)]
    pattern = "|".join(f"{re.escape(a)}[ \t-]{re.escape(b)}" for a, b in parts)
    apart = re.compile(rf"(?<![^\W\d_])(?:{pattern})(?![^\W\d_])", re.IGNORECASE)
    return any(apart.search(text) for text in texts)


def _ranges_ending(year: str) -> re.Pattern[str]:
    """A range of years written short that ends in `year`: '1646–7', '1646-47' for 1647."""
    short = rf"(?<!\d)({year[:3]}\d)\s?[–-]\s?{year[3]}(?!\d)"
    shorter = rf"(?<!\d)({year[:2]}\d\d)\s?[–-]\s?{year[2:]}(?!\d)"
    return re.compile(f"{short}|{shorter}")


def _one_family(a: str, b: str) -> bool:
    """Stems of one name family: the shorter (less a final vowel) plus a FAMILY_SUFFIXES
    ending is the longer ('jew'/'jewish', 'china'/'chines')."""
    short, long = sorted((a, b), key=len)
    if short == long:
        return False
    return any(
        len(base) >= FAMILY_BASE and long.startswith(base) and long[len(base) :] in FAMILY_SUFFIXES
        for base in {short, short.rstrip("aeiouy")}
    )


def near_spellings(word: str, candidates: Iterable[str]) -> list[str]:
    """Words of `candidates` one or two edits from `word` ('Gandhi' for 'Ghandi').

    One edit for words of up to 6 letters, two beyond, and a letter moved inside the word
    for any ('Ghandi' is 'Gandhi' with its 'h' two places on; the first and last letters
    stay, so 'Mary' is not 'army'); never for words holding digits, whose one changed
    digit is another number (a swapped '1646' is not '1647'), nor for words in capitals,
    which name an identifier or an acronym as written.
    """
    if any(c.isdigit() for c in word) or len(word) < 4 or word.isupper():
        return []  # a word in capitals is an identifier: 'RPROMPT' is not a typo of 'PROMPT'
    limit = 1 if len(word) <= 6 else 2
    target = fold(word).lower()
    near = {
        c
        for c in candidates
        if c != target
        and (
            (abs(len(c) - len(target)) <= limit and _within(target, c, limit))
            or _moved_letter(target, c)
        )
    }
    return sorted(near)


def _moved_letter(word: str, other: str) -> bool:
    """Whether `other` is `word` with one inner letter moved elsewhere inside it."""
    if len(word) != len(other) or word[0] != other[0] or word[-1] != other[-1]:
        return False
    if sorted(word) != sorted(other):
        return False
    inner = range(1, len(word) - 1)
    return any(
        word[:i] + word[i + 1 :] == other[:j] + other[j + 1 :]
        for i in inner
        for j in inner
        if word[i] == other[j] and i != j
    )


def _within(a: str, b: str, limit: int) -> bool:
    """Levenshtein distance of a and b is at most `limit` (banded, so cheap)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        low = max(1, i - limit)
        high = min(len(b), i + limit)
        if low > 1:
            current[low - 1] = limit + 1
        for j in range(low, high + 1):
            cost = 0 if ca == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        for j in range(high + 1, len(b) + 1):
            current[j] = limit + 1
        if min(current) > limit:
            return False
        previous = current
    return previous[len(b)] <= limit


def stems_of(words: Iterable[str]) -> list[str]:
    """Index terms of candidate spellings, in order: ['gandhi']."""
    return list(dict.fromkeys(stem(w) for w in words))


@dataclass
class Usage:
    """How the documents use the question's terms, gathered in build_query's one pass."""

    sentences: int = 0
    length: int = 0
    """Characters in all sentences, for the mean sentence length."""
    df: dict[str, int] = field(default_factory=dict)
    mid: dict[str, int] = field(default_factory=dict)
    """Term -> uses not at a sentence start."""
    capital: dict[str, int] = field(default_factory=dict)
    """Term -> those of them written capitalized."""
    uses: list[list[tuple[int, str]] | None] = field(default_factory=list)
    """Per text, (position, term) of each use in order if the text was too long to count
    exactly (the uses its counts are estimated from, where skim.py looks), else None."""


def decide(
    question: str,
    terms: list[str],
    usage: Usage,
    texts: list[str],
    ids: list[str] | None = None,
) -> Decisive:
    """The question's decisive terms, given how the documents use its terms (see module doc);
    `ids` name the documents of `texts`, for the groups each one's title names."""
    df = usage.df
    named = [(p, _terms_of(p, terms)) for p in named_phrases(question)]
    groups = [g for _, g in named if g]
    if question == question.lower():  # typed without capitals: words the documents write as
        # names, and still every number ('退出状态 127 表示什么？' has no capital to lose)
        numbers = [
            g
            for p, g in named
            if g and any(c.isdigit() for c in p[0]) and not _cjk_time(p[0], question)
        ]
        named_by_use = [[t] for t in _surface(question) if t in terms and _is_name(t, usage)]
        groups = numbers + [g for g in named_by_use if g not in numbers]
    # the key an option sets names one setting ('-C relocation-model'): its words alone
    # ('relocation', 'model') are in many
    keys = [[LITERAL + k] for k in option_keys(question) if LITERAL + k in terms]
    joined = joined_names(
        question,
        texts,
        written=lambda name: bool(df.get(LITERAL + name)),
        known=lambda word: all(df.get(t) for t in tokens(word)),
    )
    keys += [[LITERAL + n] for n in joined if LITERAL + n in terms]
    groups += [k for k in keys if k not in groups]
    surface = _surface(question) | {k: k.removeprefix(LITERAL) for [k] in keys}
    if _HOW_TO.search(question):  # 'How do I find files changed in the last 7 days?': the
        # number is the one the asker will give, not one the documents must state
        groups = [g for g in groups if not all(_NUMBER.fullmatch(surface.get(t, t)) for t in g)]
    # ... as is an option's ('What does -mtime +1 mean?' of an entry '-mtime n')
    given = set(option_values(question))
    groups = [g for g in groups if not all(surface.get(t, t) in given for t in g)]
    aliases = {t: a for g in groups for t in g if (a := _alias(_part(t, surface), texts))}
    missing = list(dict.fromkeys(t for g in groups for t in g if not df.get(t)))
    missing = [t for t in missing if t not in aliases]
    describing = {t for w in describing_names(question) for t in tokens(w)}
    variants: dict[str, list[str]] = {}
    absent: list[str] = []
    if missing:
        vocabulary = _latin_words(texts)
        for term in missing:
            word = surface.get(term, term)
            same = [] if is_cjk_term(term) else same_name(word, vocabulary, texts)
            if same:  # 'Jewish' where the text says 'Jews', '8' where it says 'eight'
                aliases[term] = same
                continue
            near = [] if is_cjk_term(term) else near_spellings(word, vocabulary)
            if near:
                variants[term] = stems_of(near)
            else:
                absent.append(surface.get(term, term))
    if any(is_cjk_term(t) for t in terms):
        present = {t for t in terms if df.get(t)}
        unknown = unknown_cjk_words(question, terms, present, functools.partial(uses, texts))
        absent += [w for w in unknown if w not in absent]
        unheld = [w for w in unheld_words(question, terms, present) if w not in absent]
        unheld += [w for w in unheld_korean_nouns(question, texts) if w not in absent]
    else:
        unheld = []
    # A name the documents use everywhere is their topic: a passage need not repeat it.
    topic = max(TOPIC_SHARE * usage.sentences, TOPIC_LEAST)
    required = [g for g in groups if all(df.get(t, 0) <= topic for t in g)]
    required = [g for g in required if not set(g) <= describing]
    # A version is also searched as written ('=v2.14.0'): its parts (v2, 0) are in every
    # release of a changelog, so the topic, and one of them names no release; the version
    # as written names one.
    versions = [LITERAL + p[0] for p, _ in named if len(p) == 1 and LITERAL + p[0] in terms]
    required += [[v] for v in versions if 0 < df.get(v, 0) <= topic and [v] not in required]
    if not _HAS_CJK.search(question):  # 'in 2015': when, not which thing (see _is_time)
        required = [g for g in required if not all(_is_time(surface.get(t, t)) for t in g)]
    words = {
        **{t: surface.get(t, t) for g in groups for t in g},
        **{v: v.removeprefix(LITERAL) for v in versions},
    }
    return Decisive(
        groups=required,
        words=words,
        absent=absent,
        variants=variants,
        aliases=aliases,
        titled=_titled(required, {**variants, **aliases}, texts, ids) if ids and required else {},
        unwritten=unheld
        + rare_unwritten(question, terms, usage, texts, {*absent, *words.values()}),
    )


def rare_unwritten(
    question: str, searched: Collection[str], usage: Usage, texts: list[str], named: set[str]
) -> list[str]:
    """The words of an English question rarer in English than RARE_WORD that the documents
    write in no spelling (see written_nowhere), other than the `named` ones (a name already
    tells). 'encrypt' (rarity 5.2) of 'How do I encrypt files with ls?' asked of ls's
    manual; not 'files' (3.2), which any text may say another way."""
    if not weighs(question):
        return []  # CJK: no word frequencies (see rarity.weighs); see unheld_words
    found: list[str] = []
    for match in _LATIN_WORD.finditer(question):
        word = _POSSESSIVE.sub("", match.group()) or match.group()
        index = tokens(word)
        if not index or any(c.isdigit() for c in word) or word in named or word in found:
            continue
        if any(t not in searched or usage.df.get(t) for t in index):
            continue  # written, or not searched (a frame word: 'mean')
        if word_rarity(word) < RARE_WORD:
            continue
        if written_nowhere(word, texts):
            found.append(word)
    return found


# A year, decade or century: '2015', '1880s', "70's", '17th' (of 'the 17th century').
_TIME = re.compile(r"(?:1\d\d\d|20\d\d)(?:['’]?s)?|\d0['’]?s|\d{1,2}(?:st|nd|rd|th)", re.IGNORECASE)


# A how-to question ('How do I ...', 'how to ...') and a bare number in it: the asker's
# value (decide drops it from the names the documents must hold).
_HOW_TO = re.compile(
    r"\bhow\s+(?:to|(?:do|can|could|should|would)\s+(?:i|you|we|one))\b", re.IGNORECASE
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _is_time(word: str) -> bool:
    """Whether a question's word sets a time ('Who did the Broncos beat in 2015?'), which
    an article states once for many paragraphs ('for the 2015 season'), rather than
    naming the thing asked about: a passage need not hold it, though the documents must.
    On the 1,303 held-out SQuAD questions requiring it cost 2 top-1 answers and 2 top-3
    (3 lost, 1 kept: 'What did Tesla patent in 1891?')."""
    return _TIME.fullmatch(word) is not None


# A number a CJK question counts time by: '16至18世紀', '2015年', '3時'.
_CJK_TIME_UNIT = re.compile(r"\s*(?:[至到~〜-]\s*\d+\s*)?[年月日世纪紀时時点點分秒代]")


def _cjk_time(number: str, question: str) -> bool:
    """Whether a CJK question's number sets a time (see _is_time): '於16至18世紀'."""
    at = question.find(number)
    return at >= 0 and _CJK_TIME_UNIT.match(question, at + len(number)) is not None


TITLE_CHARS = 2000
"""Characters read from a document's start to find its title: a title is its first lines."""
TITLE_MAX = 200
"""Most characters of a first block that is not marked as a heading to be read as the
title: 'NORTHWIND PUBLIC LICENSE / Version 3, 1 March 2020' (48), not an opening paragraph."""


def title(text: str) -> str:
    """A document's title: its first block when that is a heading, or short and not a
    sentence ('GNU GENERAL PUBLIC LICENSE / Version 3, 29 June 2007'); else ''. Only the
    start is read: it is cheap."""
    head = text[:TITLE_CHARS]
    first = next(iter(analyse(head)), None)
    if first is None or head[: first.start].strip():
        return ""
    block = head[first.start : first.end]
    if first.kind == Kind.HEADING:
        return block
    short = len(block) <= TITLE_MAX and not block.rstrip().endswith((".", "!", "?", ":", "。"))
    if first.kind == Kind.PARAGRAPH and short:
        return block
    return lead_subject(block) if first.kind == Kind.PARAGRAPH else ""


# A lead sentence opening with the name of what it defines: 'Super Bowl 50 was ...', 'The
# Normans (Norman: Nourmands; ...) were ...', 'Fresno (...), the county seat of Fresno
# County, is ...'. Only capitalized words and numbers before the verb (and an aside in
# brackets or commas): 'The access code for the Ashford warehouse is ...' names a fact.
_LEAD_SUBJECT = re.compile(
    r"(?:The\s+)?(?P<name>[A-Z0-9][\w'’.&-]*(?:\s+(?:(?:of|and|upon|on|de|the)\s+)?[A-Z0-9][\w'’.&-]*)*)"
    r"(?:\s*\([^()]*(?:\([^()]*\)[^()]*)*\))*(?:,[^,.;]{1,80},)?\s+(?:is|was|are|were)\s"
)


def lead_subject(block: str) -> str:
    """The name an untitled document's first sentence opens by defining, which it is about
    as a title would say: 'Super Bowl 50 was an American football game ...' -> 'Super Bowl
    50'; '' for a lead that opens otherwise ('One of the most famous people born in ...')."""
    match = _LEAD_SUBJECT.match(block)
    return match.group("name") if match and tokens(match.group("name")) else ""  # not 'There'


_LISTED = re.compile(r"\s+(?:and|or|vs\.?|versus)\s+|\s*[&;/]\s*", re.IGNORECASE)


def _titled(
    groups: list[list[str]], spellings: dict[str, list[str]], texts: list[str], ids: list[str]
) -> dict[str, list[int]]:
    """Document id -> indices of the `groups` its title holds a term (or spelling) of, in
    each of the things it lists: 'NORTHWIND DATA LICENCE AND HARBOUR DATA LICENCE' is
    about each of the two only where its text names it."""
    found: dict[str, list[int]] = {}
    for doc_id, text in zip(ids, texts, strict=True):
        parts = [set(tokens(fold(p))) for p in _LISTED.split(title(text))]
        hit = [
            i
            for i, group in enumerate(groups)
            if all(any(s in p for t in group for s in (t, *spellings.get(t, []))) for p in parts)
        ]
        if hit:
            found[doc_id] = hit
    return found


_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+(?:\.\d+)*")
_VERSION_MARK = re.compile(r"(?<=[A-Z])v(?=\d)")  # the 'v' of 'GPLv3': 'version'
_CAPITALIZED_RUN = re.compile(r"[A-Z][^\W\d_]*(?:(?:[ \t]+|[ \t]*\n[ \t]*)[A-Z][^\W\d_]*)+")
LEAST_ACRONYM = 2
"""Letters an acronym needs to be read as the initials of a phrase: 'EU', 'GPL'."""


def _part(term: str, surface: dict[str, str]) -> str:
    """The piece of the question's word that spells `term`: 'LGPL' of 'LGPL-2.1' for 'lgpl',
    not the whole word, whose number terms ('2', '1') are names of their own."""
    word = surface.get(term, term)
    return next((p for p in re.split(r"[-.'’]", word) if tokens(p) == [term]), word)


def _alias(word: str, texts: list[str]) -> list[str]:
    """Index terms of how the documents write the name `word`, when the question writes it
    another way (see module doc); empty when they don't, or write it as the question does.

    'GPLv3' in the GPL's own text, which writes 'GPL' and 'Version 3' but never 'GPLv3',
    -> ['gpl', 'general'] (the letters, and the rarest word of what they abbreviate).
    """
    if _HAS_CJK.search(word):
        return []
    parts = _PARTS.findall(_VERSION_MARK.sub(" ", word))
    letters = [p for p in parts if not p[0].isdigit() and len(p) >= LEAST_ACRONYM]
    numbers = [p for p in parts if p[0].isdigit()]
    if numbers and letters and len(parts) > 1:  # a compound: 'GPLv3', 'MPL2'
        if _count(word, texts):
            return []  # written as the question writes it: no alias needed
        if not all(_written(n, texts) for n in numbers):
            return []
        found: list[str] = []
        for part in letters:
            spelled = ([tokens(part)[0]] if tokens(part) and _count(part, texts) else []) + (
                _spelled_out(part, texts) if part.isupper() else []
            )
            if not spelled:
                return []
            found += spelled
        return list(dict.fromkeys(found))
    if len(parts) == 1 and word.isupper() and word.isalpha():
        numbered = _ROMAN_END.fullmatch(word)  # 'WWII': 'World War II'
        return _spelled_out(word, texts) or (
            _spelled_out(numbered.group(1), texts, numbered.group(2)) if numbered else []
        )
    return []


_ROMAN_END = re.compile(r"([A-Z]{2,}?)(I{1,3}|IV|VI{0,3}|IX|X)")
_ROMAN = re.compile(r"I{1,3}|IV|VI{0,3}|IX|X")


def _spelled_out(acronym: str, texts: list[str], numeral: str = "") -> list[str]:
    """The rarest word, as an index term, of the capitalized phrase the documents use most
    whose initials spell `acronym` (then `numeral`, if given: 'WW' then 'II' for 'World
    War II'): 'LGPL' -> 'lesser' in the LGPL ('GNU Lesser General Public License'); []
    when no phrase fits. The rarest word is what tells the phrase from its neighbours
    ('Lesser' from the 'General Public License' of the GPL)."""
    if len(acronym) < LEAST_ACRONYM:
        return []
    size = len(acronym) + bool(numeral)
    phrases: dict[tuple[str, ...], int] = {}
    for text in texts:
        for match in _CAPITALIZED_RUN.finditer(text):
            words = match.group().split()
            for i in range(len(words) - size + 1):
                window = words[i : i + size]
                letters = window[: len(acronym)]
                if any(_ROMAN.fullmatch(w) for w in letters):
                    continue  # 'World War II' is no 'WWI': its numeral is no initial
                if "".join(w[0] for w in letters) == acronym and window[len(acronym) :] in (
                    [numeral],
                    [],
                ):
                    key = tuple(w.lower() for w in letters)
                    phrases[key] = phrases.get(key, 0) + 1
    if not phrases:
        return []
    phrase = max(phrases, key=lambda k: phrases[k])
    indexed = [w for w in phrase if tokens(w)]
    if not indexed:
        return []
    rarest = min(indexed, key=lambda w: _count(w, texts))
    return tokens(rarest)[:1]


def _count(word: str, texts: list[str]) -> int:
    """Uses of `word` as a whole word in `texts`, ignoring case."""
    pattern = re.compile(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", re.IGNORECASE)
    return sum(len(pattern.findall(fold(text))) for text in texts)


def _written(number: str, texts: list[str]) -> bool:
    """Whether `texts` write `number` as a number of its own: '3' in 'Version 3', not in
    '2.3' or '30'."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(number)}(?![\w]|\.\d)")
    return any(pattern.search(text) for text in texts)


def _terms_of(words: list[str], terms: list[str]) -> list[str]:
    """The index terms of a name's words that the question searches for."""
    return [t for t in dict.fromkeys(t for w in words for t in tokens(w)) if t in terms]


_POSSESSIVE = re.compile(r"(?<!\d)['’]s?$")  # "the 70's" is a decade


def _surface(question: str) -> dict[str, str]:
    """Index term -> the question's own word for it: 'bergen' -> 'Bergen' (and 'Bergen'
    for "Bergen's": the possessive is no part of the name)."""
    found: dict[str, str] = {}
    for match in _LATIN_WORD.finditer(question):
        word = _POSSESSIVE.sub("", match.group()) or match.group()
        for term in tokens(word):
            found.setdefault(term, word)
    for run in _cjk_runs(question):
        for term in tokens(run):
            found.setdefault(term, term)
    return found


def _is_name(term: str, usage: Usage) -> bool:
    """Whether the documents write `term` capitalized in NAME_SHARE of its mid-sentence uses."""
    uses = usage.mid.get(term, 0)
    return not is_cjk_term(term) and uses > 0 and usage.capital.get(term, 0) >= NAME_SHARE * uses


_WORDS = re.compile(r"[^\W\d_]{3,}")


def _latin_words(texts: list[str]) -> set[str]:
    """Every distinct word of three letters or more, folded and lowercase: the spellings a
    missing name is compared with. Only built when a decisive word is missing."""
    return {w for text in texts for w in _WORDS.findall(fold(text).lower())}
