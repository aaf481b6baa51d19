"""Index terms: stemmed English words and CJK character bigrams, and finding them in text."""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Collection, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache

import numpy as np
import Stemmer
from bm25s.stopwords import STOPWORDS_CHINESE, STOPWORDS_EN_PLUS, STOPWORDS_KOREAN
from hanziconv.charmap import simplified_charmap, traditional_charmap

from pipeline.text.scripts import CJK, CJK_RUN, HAN, HANGUL, HANGUL_CHAR, HIRAGANA, KANA

# Scripts written without spaces between words (Korean has spaces, but particles stick to
# nouns) are indexed as bigrams; other letters and digits as stemmed words.
_WORD_CHAR = rf"[^\W_{CJK}]"
_TOKEN = re.compile(rf"([{CJK}]+)|({_WORD_CHAR}+)")
WORD = re.compile(rf"{_WORD_CHAR}+")
"""A word of letters or digits as written, outside CJK runs: what tokens() stems."""
_HIRAGANA = re.compile(f"[{HIRAGANA}]")
_HAN = re.compile(f"[{HAN}]")
# A line wrap inside Chinese or Japanese text, which wraps anywhere, inside a word too: a
# man page's 'ファ' / 'イル' is one word, 'ファイル' (Korean wraps at its spaces).
_WRAP = re.compile(r"[ \t\u00a0]*\n[ \t\u00a0]*")
_UNSPACED_CHAR = re.compile(f"[{HAN}{KANA}]")

# 'total' and 'overall' too: a figure is the total unless it says otherwise, so "What was
# the Group's total revenue?" is answered by "Group revenue was NOK 4,812 million", and the
# rare word would favour "Total assets were ..." (SQuAD dev answers unchanged).
_STOPWORDS = frozenset(STOPWORDS_EN_PLUS) | frozenset(
    (
        *("whose", "would", "could", "also", "many", "much", "may", "might", "must", "shall"),
        *("yes", "total", "overall"),
        # 'Where is a teacher most likely to be teaching?' hedges; stemmed, 'likely' would
        # find every 'like' ('Teachers, like other professionals, ...')
        *("likely", "unlikely"),
    )
)
# Question words carry no content ("何年", "谁", "누구"); bigrams holding them are dropped.
QUESTION_CHARS = frozenset("何誰谁哪吗呢么什啥怎幾几")
# The particles and question endings a Korean question's words close with, longest first:
# '무엇입니까' -> '무엇', '의미합니까' -> '의미', '코드는' -> '코드'.
KOREAN_ENDINGS = tuple(
    sorted(
        "입니까 습니까 합니까 니까 인가요 나요 까요 하려면 으려면 려면 이에요 예요 에요 인지"
        " 에서 으로 은 는 이 가 을 를 의 에 도 로 와 과 만 요".split(),
        key=len,
        reverse=True,
    )
)
# ... and Korean's question words: 무엇 (what), 누구 (who), 언제 (when), 어디 (where) ...
KOREAN_QUESTION_WORDS = frozenset(
    "무엇 누구 언제 어디 어떤 얼마 어느 어떻게 무슨 뭐 뭔 몇 왜".split()
)
_CJK_STOP_BIGRAMS = frozenset(
    w for w in (*STOPWORDS_CHINESE, *STOPWORDS_KOREAN, *KOREAN_QUESTION_WORDS) if len(w) == 2
)

# Light lemmatization: irregular forms a suffix stemmer cannot join to their base word
# ('kept' -> 'keep', 'men' -> 'man'), so "Who keeps the lighthouse?" finds "is kept by".
# Forms that are also common words of another meaning ('left', 'lay', 'bound', 'ground',
# 'rose', 'bore', 'lie', 'wound') are left out: a wrong join costs more than a miss. 'found'
# is in: 'Where can I find ...?' is answered by 'can be found in', and the other 'found' is
# mostly written 'founded' or 'founding', whose stem stays 'found' (SQuAD dev: 2 fewer
# questions answered on an unrelated article, 'Who founded the Ming dynasty?' among them).
# Ordinals written in digits join their words: "the 3rd greatest show" answers "third".
_IRREGULAR_TABLE = """
arise arose arisen|awake awoke awoken|beat beaten|become became|begin began begun|bend bent
bleed bled|blow blew blown|break broke broken|breed bred|bring brought|build built|burn burnt
buy bought|catch caught|choose chose chosen|cling clung|come came|creep crept|deal dealt
dig dug|draw drew drawn|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen
feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden
forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|get got gotten
give gave given|go went gone|grow grew grown|hang hung|hear heard|hide hid hidden|hold held
keep kept|kneel knelt|know knew known|lead led|leap leapt|lend lent|lose lost|make made
mean meant|meet met|pay paid|ride rode ridden|ring rang rung|rise risen|run ran|say said
see saw seen|seek sought|sell sold|send sent|shake shook shaken|shine shone|shoot shot
show shown|shrink shrank shrunk|sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid
speak spoke spoken|spend spent|spin spun|spring sprang sprung|stand stood|steal stole stolen
stick stuck|sting stung|strike struck stricken|strive strove striven|swear swore sworn
sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told
think thought|throw threw thrown|understand understood|wake woke woken|wear wore worn
weave wove woven|weep wept|win won|write wrote written|withdraw withdrew withdrawn
first 1st|second 2nd|third 3rd|fourth 4th|fifth 5th|sixth 6th|seventh 7th|eighth 8th
ninth 9th|tenth 10th
man men|woman women|child children|foot feet|tooth teeth|mouse mice|goose geese
"""
_IRREGULAR = {
    form: group.split()[0]
    for group in _IRREGULAR_TABLE.replace("\n", "|").split("|")
    for form in group.split()[1:]
}

_local = threading.local()


def _latin_folds() -> dict[int, str]:
    """Accented Latin letters -> their base letter: 'Ö' -> 'O', 'é' -> 'e', 'ł' -> 'l'.

    One character for one, so offsets found in folded text hold in the original.
    Only Latin: NFD would also strip the voicing marks of kana ('が' -> 'か').
    """
    table = {ord(a): b for a, b in zip("ŁłØøĐđıŦŧ", "LlOoDdiTt", strict=True)}
    for code in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00)):
        base = "".join(
            c for c in unicodedata.normalize("NFD", chr(code)) if not unicodedata.combining(c)
        )
        if len(base) == 1 and base != chr(code):
            table[code] = base
    return table


def _cjk_folds() -> dict[int, str]:
    """Full-width forms -> ASCII ('２０２４' -> '2024', 'ＮＨＫ' -> 'NHK') and Traditional
    Chinese characters -> Simplified ones ('國' -> '国', '麼' -> '么'), one for one.

    A question typed in either script then finds a document in either, and the stopword
    lists (Simplified) apply to Traditional text. The 2,704 pairs are hanziconv's
    character map; a Traditional character Japanese also writes folds the same way in
    the question and the text, so it still matches itself.
    """
    table = {code: chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)}
    table[0x3000] = " "
    table.update(
        (ord(t), s) for t, s in zip(traditional_charmap, simplified_charmap, strict=True) if t != s
    )
    return table


_FOLDS = _latin_folds() | _cjk_folds()
_BMP = 0x10000
_FOLD_TABLE = np.arange(_BMP, dtype=np.uint32)
"""Code point -> its fold, for the Basic Multilingual Plane (every folded character is in it)."""
_FOLD_TABLE[list(_FOLDS)] = [ord(base) for base in _FOLDS.values()]
_FOLD_UNITS = _FOLD_TABLE.astype(np.uint16)
"""The same as UTF-16 code units: surrogate units map to themselves."""
SHORT_FOLD_CHARS = 128
"""Longest text folded by str.translate: numpy's fixed cost per call (~10 us) is more than
translate's per character below ~150 characters, as a sentence or a token is."""
FOLD_BLOCK = 1 << 16
"""Characters folded at a time: 65,536 code points take 256 KB per array, so folding a
10 MB text adds ~1.5 MB of temporaries, not the 4 bytes a character of a whole copy."""


def fold(text: str) -> str:
    """`text` with accents, full-width forms and Traditional characters folded, same length:
    users type 'Ogedei' for 'Ögedei', '2024' for '２０２４', '国' for '國'.

    A table lookup over the text's code points: a quarter of the characters of Chinese
    text fold (full-width punctuation, Traditional characters), which a regex
    substitution with a Python callback per match did at ~1 us each.
    """
    if text.isascii():
        return text
    if len(text) <= SHORT_FOLD_CHARS:
        return _hyphen_wraps_joined(text.translate(_FOLDS))  # code point -> character
    return _hyphen_wraps_joined(_folded_blocks(text))


# A line-end hyphen by groff (U+2010) or a soft hyphen, and the word going on below: '‐' /
# 'cover' of 're‐' / 'cover'. (The word before is found by stepping back from the hyphen: a
# pattern opening with it, '(\w+)‐', is tried inside every word of the text, 0.5 s for a
# 10 MB man page.)
_HYPHEN_WRAP = re.compile(r"[\u2010\u00ad](\n[ \t>]*)(\w+)")


def _hyphen_wraps_joined(folded: str) -> str:
    """`folded` with each word hyphenated at a line end written whole before the break, same
    length ('re‐\\n   cover' -> 'recover‐\\n   '): rm(1)'s 'possible to re‐' / 'cover some of
    its contents' answers 'Can a removed file be recovered?'."""
    if "\u2010" not in folded and "\u00ad" not in folded:
        return folded
    pieces: list[str] = []
    done = 0  # where the text not yet copied starts
    for match in _HYPHEN_WRAP.finditer(folded):
        start = hyphen = match.start()
        while start > done and (folded[start - 1].isalnum() or folded[start - 1] == "_"):
            start -= 1  # back over the word before the hyphen (what \w matches)
        if start == hyphen:
            continue  # no word before it: a dash, not a hyphen
        pieces += [folded[done:hyphen], match.group(2), "\u2010", match.group(1)]
        done = match.end()
    pieces.append(folded[done:])
    return "".join(pieces)


def _folded_blocks(text: str) -> str:
    """fold() of a text longer than SHORT_FOLD_CHARS, by table lookup."""
    pieces: list[str] = []
    for start in range(0, len(text), FOLD_BLOCK):
        piece = text[start : start + FOLD_BLOCK]
        # UTF-16 units: a character beyond the plane is a pair of surrogate units, which
        # fold to themselves (every folded character is in the plane); half the bytes of
        # UTF-32 and one table lookup. surrogatepass: a lone surrogate (a file decoded with
        # surrogateescape) stays as is, unless it meets another to decode as one character.
        raw = piece.encode("utf-16-le", "surrogatepass")
        folded = _FOLD_UNITS[np.frombuffer(raw, np.uint16)].tobytes()
        pieces.append(folded.decode("utf-16-le", "surrogatepass"))
        if len(pieces[-1]) != len(piece):  # two lone surrogates that make a pair
            codes = np.frombuffer(piece.encode("utf-32-le", "surrogatepass"), np.uint32)
            kept = np.where(codes < _BMP, _FOLD_TABLE[np.minimum(codes, _BMP - 1)], codes)
            pieces[-1] = kept.tobytes().decode("utf-32-le", "surrogatepass")
    return "".join(pieces)


@lru_cache(maxsize=1)
def _spellings() -> dict[str, str]:
    found: dict[str, str] = {}
    for code, base in _FOLDS.items():
        found[base] = found.get(base, "" if ord(base) in _FOLDS else base) + chr(code)
    return found


def spellings(char: str) -> str:
    """Every character fold() turns into `char`: '国' -> '国國', '1' -> '1１'."""
    return _spellings().get(char, "" if ord(char) in _FOLDS else char)


def uses(texts: list[str], char: str) -> bool:
    """Whether any of `texts` holds `char` (a folded character) in any spelling.

    Asked of the few characters of a question's unknown words: a search of 3.5 million
    characters for one absent character takes 0.5 ms, where listing every character
    the texts use took 14 ms whatever the question.
    """
    return any(spelling in text for text in texts for spelling in spellings(char))


def _stemmer() -> Stemmer.Stemmer:
    # PyStemmer objects are not safe to share between threads; map tasks may run in several.
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english", 50_000)
    return stemmer


# British spellings -> American ones, so "colour" finds "color" and "centre" finds "center".
# Both the question and the text go through this, so a rule only has to be consistent; its
# one risk is joining two different words, which these endings rarely do.
_BRITISH = [
    (re.compile(r"(?<=[a-z]{2})our(s|ed|ing|ite|ites|able|ful|hood|al|ist|er|ers)?$"), r"or\1"),
    (re.compile(r"(?<=[a-z]{3})is(e|es|ed|ing|ation|ations|er|ers)$"), r"iz\1"),
    (re.compile(r"(?<=[a-z]{2}l)ys(e|es|ed|ing)$"), r"yz\1"),
    (re.compile(r"(?<=[a-z]{2}[bt])re(s?)$"), r"er\1"),
    (re.compile(r"(?<=[a-z]{2}[bt])red$"), r"ered"),
]
_BRITISH_WORDS = {
    "defence": "defense",
    "offence": "offense",
    "licence": "license",
    "pretence": "pretense",
    "programme": "program",
    "programmes": "programs",
    "catalogue": "catalog",
    "dialogue": "dialog",
    "analogue": "analog",
    "grey": "gray",
    "aluminium": "aluminum",
}


def american(word: str) -> str:
    """'colour' -> 'color', 'organised' -> 'organized', 'centre' -> 'center'."""
    if word in _BRITISH_WORDS:
        return _BRITISH_WORDS[word]
    for pattern, replacement in _BRITISH:
        word = pattern.sub(replacement, word)
    return word


@lru_cache(maxsize=100_000)
def stem(word: str) -> str:
    """English stem of a lowercase word: 'played' -> 'play', 'kept' -> 'keep'.

    Cached: a document repeats its words, and the spelling rules cost more than the stemmer.
    """
    word = american(fold(word))
    result: str = _stemmer().stemWord(_IRREGULAR.get(word, word))
    return result


@lru_cache(maxsize=1)
def _irregular_forms() -> dict[str, tuple[str, ...]]:
    """Stem -> the irregular forms that stem to it: 'keep' -> ('kept',)."""
    forms: dict[str, list[str]] = {}
    for form, base in _IRREGULAR.items():
        forms.setdefault(stem(base), []).append(form)
    return {key: tuple(value) for key, value in forms.items()}


def is_cjk_term(term: str) -> bool:
    """True for a CJK bigram (or single character), False for a stemmed word."""
    return CJK_RUN.fullmatch(term) is not None


def tokens(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Index terms of `text` in order: stems of words, bigrams of CJK runs.

    'The Skarv 3 was launched' -> ['skarv', '3', 'launch'];
    '澄川製茶の創業' -> ['澄川', '川製', '製茶', '創業'] (bigrams holding kana particles
    such as 'の' are dropped: they mark grammar, not content).
    """
    return list(iter_tokens(text, keep_stopwords=keep_stopwords))


def iter_tokens(text: str, *, keep_stopwords: bool = False) -> Iterator[str]:
    """tokens() one at a time, for a caller that may stop at the first it looks for."""
    for match in _TOKEN.finditer(text):
        cjk, word = match.groups()
        if word:
            lower = word.lower()
            if keep_stopwords or lower not in _STOPWORDS:
                yield stem(lower)
        else:
            yield from _bigrams(fold(cjk), keep_stopwords)


# Names a question quotes literally: options ('-e', '--login'), escapes ('\\j', '~.'),
# format directives ('%y', '%-d'), parameters ('${parameter:-word}'), identifiers
# ('ERR_CANCELED') and names of three or more hyphen-joined parts with a digit and a letter
# ('aarch64-apple-darwin', whose parts name other targets too; not a date) or lowercase
# (see hyphened_name), and operators written alone between words ('What does the ?
# operator do?', 'What does && mean?', jq's '//') or quoted ("What does nargs='+'
# mean?"), which hold no word at all. Stemming reads '-N' as 'n', which '-n' and every
# 'n' in the text also give; the literal is searched as written.
HYPHENED_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}")
"""A lowercase name joined by hyphens: a name, if hyphened_name says so."""
_OPTION = r"(?<![\w\-])(?:--?[A-Za-z0-9][\w-]*|%[-_0^#]?[A-Za-z])"
_SPECIAL_PARAMETER = re.compile(r"\$[?#@*!$0-9-]")
"""A shell's special parameter, as a question writes it: '$?', '$#', '$0'."""
"""An option ('-e', '--login') or a format directive ('%y'): what a program's entry names."""
# A key chord ('Alt-/', 'M-C-e', 'Ctrl+Shift+P', whose last key may be a sign) or a
# sequence of them ('C-x C-e'), named by its modifiers as editors' manuals write them.
# A modifier's key is one character or a key's name: not 'Meta-analysis', 'Command-line'.
_KEY_NAME = (
    r"(?:[A-Za-z0-9]|[^\s\w]|F\d{1,2}|Tab|Enter|Return|Esc|Escape|Space|Backspace|Delete|Del"
    r"|Insert|Home|End|PageUp|PageDown|PgUp|PgDn|Up|Down|Left|Right|Plus|Minus)"
)
_KEY = (
    rf"(?:(?:Ctrl|Control|Alt|Shift|Meta|Cmd|Command|Option|Super)[-+])+{_KEY_NAME}(?![\w-])"
    r"|(?:[CMS]-)+\S(?!\w)"  # Emacs' one-letter modifiers take one key: not 'C-SPAN', 'M-16'
)
_CHORD = rf"(?<![\w\-+])(?:{_KEY})(?:\s(?:{_KEY}))*"
_CHORDS = re.compile(_CHORD)
_LITERAL = re.compile(
    rf"{_CHORD}|{_OPTION}|(?<![\w\-])(?:\\[A-Za-z@#$!\[\]]|~[.^#&?A-Za-z]"
    r"|\$\{[^}\s]+\}|(?=[\w-]*\d)(?=[\w-]*[A-Za-z])\w+(?:-\w+){2,}(?![\w-])"
    r"|[A-Za-z][A-Za-z0-9]*_\w+"
    rf"|{HYPHENED_NAME.pattern}(?![\w-])"  # 'sparc-unknown-none-elf' (see hyphened_name)
    # a dotted name opening with a letter, a part of it two characters or more:
    # 'server.listen', 'setup.py'; not 'U.S', 'e.g', 'v1.2' or underscore's '_.stall'
    r"|(?=[\w.$]*[A-Za-z_$][\w$]+(?![\w$]))[A-Za-z][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?![\w$]))"
    rf"|(?<![\w$]){_SPECIAL_PARAMETER.pattern}(?!\w)"
    r"|(?<=\s)[?!&|+*^<>=/%~]{1,3}(?=\s+\w)"
    r"|(?<=['\"‘“`])[?!&|+*^<>=/%~]{1,3}(?=['\"’”`])"  # quoted: nargs='+'
)
_NAMES_OPTION = re.compile(_OPTION)
_OPTION_VALUE = re.compile(
    rf"(?P<option>{_OPTION})(?:[ \t]+|=)[+-]?(?P<value>\d+(?:\.\d+)?)(?![\w.-])"
)
"""An option and the number given to it: '-mtime +1', '--jobs=4', '-n 5'."""
_OPTION_KEY = re.compile(r"(?<![\w-])-[A-Z]\s+(?P<key>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?![\w-])")
"""The hyphenated key a capital one-letter option sets, a name of its own: rustc's '-C
opt-level', '-Z stack-protector' (searched as written, not as the words 'opt' and 'level');
not the word after a lowercase one ('Is -i case-insensitive?')."""


def option_values(question: str) -> list[str]:
    """The numbers the question gives its options: '-mtime +1' -> ['1'] (see _OPTION_VALUE)."""
    return [m.group("value") for m in _OPTION_VALUE.finditer(question)]


def option_keys(question: str) -> list[str]:
    """The hyphenated keys the question's one-letter options set (see _OPTION_KEY)."""
    return [m.group("key") for m in _OPTION_KEY.finditer(question)]


def names_option(text: str) -> bool:
    """Whether `text` names an option or a format directive ('env -S', '--quiet', '%y')."""
    return _NAMES_OPTION.search(text) is not None


LITERAL = "="
"""Prefix of a literal term ('=-N'): no stem or bigram starts with it."""

# A version as written: 'v2.14.1', '3.11.2', '1.0.0rc1' ('2.5' is a decimal).
_VERSION = re.compile(r"(?<![\w\-])(?:v\d+(?:\.\d+)+|\d+(?:\.\d+){2,})(?:[a-z]+\d*)?(?![\w.-]*\d)")


def version_literals(question: str) -> list[str]:
    """The versions a question names, as literal terms: 'When was v2.14.1 released?' asks
    of one release, whose numbers ('14', '1') are in most releases' headings."""
    return [LITERAL + m.group() for m in _VERSION.finditer(question)]


# A verb and its particle, which documents often write as one word: 'times out' (timeout),
# 'set up' (setup), 'back up' (backup), 'shut down' (shutdown), 'take over' (takeover).
# Not 'in' or 'on' ('log in'): nearly every question has one ('born in'), and each
# candidate is one more search of the documents. A lookahead, so that the particle of one
# can be the verb of the next: 'and back up'.
_PHRASAL = re.compile(r"\b(?=([A-Za-z]{2,})\s+(up|out|down|off|over|back)\b)", re.IGNORECASE)
# A word written with a hyphen that documents also write as one: 'half-time' (halftime),
# 'e-mail' (email), 'co-operate' (cooperate), 'on-line' (online).
_HYPHENATED = re.compile(r"(?<![\w-])([A-Za-z]+)-([A-Za-z]+)(?![\w-])")


# A symbol a question writes alone ('What does the & symbol mean?'), which prose names.
_SYMBOL_NAMES = {
    "&": "ampersand",
    "*": "asterisk",
    "|": "pipe",
    "~": "tilde",
    "^": "caret",
    "#": "hash",
    "%": "percent",
    "$": "dollar",
    "\\": "backslash",
    "/": "slash",
    "`": "backtick",
    ";": "semicolon",
}
# ... as the thing asked about, bare or quoted ('the & symbol', "the '&' sign", 'does *
# match'), not inside a name ('Standard & Poor'); `kind` is the word naming what it is
LONE_SYMBOL = re.compile(
    r"\b(?:the|does|is|an?)\s+['\"`‘“]?"
    rf"(?P<symbol>[{re.escape(''.join(_SYMBOL_NAMES))}])['\"`’”]?(?=\s)"
    r"(?:\s+(?P<kind>(?:symbol|sign|character|char)s?\b))?",
    re.IGNORECASE,
)


def compound_terms(question: str) -> list[str]:
    """Terms of the one-word forms of a question's verbs with particles and hyphenated
    words: 'How long does ssh wait before a connection attempt times out?' -> ['timeout'],
    'Who played at half-time?' -> ['halftim']; and of the names of a symbol it writes alone
    ('What does the & symbol mean?' -> ['ampersand'], which prose says of '&s1'). Searched
    beside the question's words, and kept only where the documents use them."""
    found = [stem(_SYMBOL_NAMES[m.group("symbol")]) for m in LONE_SYMBOL.finditer(question)]
    found += [
        stem(stem(verb.lower()) + particle.lower())
        for verb, particle in (m.groups() for m in _PHRASAL.finditer(question))
        if verb.lower() not in _STOPWORDS
    ]
    hyphenated = _HYPHENATED.findall(_CHORDS.sub(" ", question))  # not 'C-x' (a chord)
    found += [stem(f"{left}{right}".lower()) for left, right in hyphenated]
    return list(dict.fromkeys(found))


# The words of a question's grammar, never a name it asks about.
_GRAMMAR = frozenset(
    "what which who whom whose when where why how do does did doing is are was were be been "
    "being have had having can could should would will shall may might must the and but for "
    "with from into than that this these those they them their you your has its his her our "
    "there here now".split()
)


def code_named_stopwords(question: str, texts: Sequence[str]) -> list[str]:
    """The question's stopwords that the documents write as the name of a call or of code:
    'How do I add a listener that runs only once?' asks for Node's `emitter.once()`, 'What
    does any do?' for Rust's `fn any`, 'How do I check if a map has a key?' for `map.has()`.
    Written so in a text, such a word names what is asked, as a content word does."""
    words = [
        w
        for w in dict.fromkeys(WORD.findall(question.lower()))
        if len(w) >= 3 and w in _STOPWORDS and w not in _GRAMMAR
    ]
    # a plain substring test first: a regex scan of a 10 MB text costs ~0.4 s a question
    words = [w for w in words if any(_written_as_code(w, text) for text in texts)]
    if not words:
        return []
    names = "|".join(words)
    pattern = re.compile(
        rf"(?<![\w$])(?P<call>{names})\(|`(?P<code>{names})(?:\(\))?`|\bfn\s+(?P<fn>{names})\b"
    )
    found: set[str] = set()
    for text in texts:
        for match in pattern.finditer(text):
            found.add(match.group("call") or match.group("code") or match.group("fn"))
            if len(found) == len(words):
                return words
    return [w for w in words if w in found]


def _written_as_code(word: str, text: str) -> bool:
    """Whether `text` may write `word` as code (see code_named_stopwords): a quick test."""
    if f"{word}(" in text or f"`{word}" in text:
        return True
    return re.search(rf"fn\s+{word}\b", text) is not None  # opens with a literal: quick


def query_terms(question: str, code_words: Collection[str] = ()) -> list[str]:
    """Distinct content terms of a question, in order; all its words if none is content.
    `code_words` are stopwords of it that count as content (see code_named_stopwords).

    A Japanese question's one-kanji words count too ('妻' in '信長の妻は'; see _lone_kanji).
    A Korean word's particles and endings are no terms: 'pstree 는 무엇입니까?' ->
    ['pstree'], not '는', '입니' and '니까', which every verb of the text ends with.

    Literal names come after the words: 'What does ssh -N do?' -> ['ssh', 'n', '=-N'].
    """
    # a chord's keys are no words: 'C-x C-e' is searched as written, not as 'c', 'x', 'e'
    words = _CHORDS.sub(" ", question)
    terms = list(dict.fromkeys(tokens(words) + lone_kanji(question)))
    terms += [t for t in (stem(w) for w in code_words) if t not in terms]
    if HANGUL_CHAR.search(question):
        stems = _korean_stems(fold(question))
        terms = [t for t in terms if not HANGUL_CHAR.match(t) or t in stems]
    literals = [LITERAL + m.group() for m in _LITERAL.finditer(question) if _named(m.group())]
    literals += [LITERAL + key for key in option_keys(question)]
    if not terms and not literals:  # 'What does -T do?' asks about '-T', not 'what' or 'do'
        terms = list(dict.fromkeys(tokens(question, keep_stopwords=True)))
    return terms + [t for t in dict.fromkeys(literals) if t not in terms]


def hyphened_name(word: str) -> bool:
    """A lowercase name of three parts or more joined by hyphens, none a small word, as
    code and configuration write names: 'sparc-unknown-none-elf', 'max-line-length'; not
    the phrases English joins so ('state-of-the-art', 'play-by-play')."""
    return HYPHENED_NAME.fullmatch(word) is not None and all(
        tokens(part) for part in word.split("-")
    )


def _named(literal: str) -> bool:
    """A literal _LITERAL finds is a name, unless it is hyphened words English joins
    ('play-by-play'): a lowercase one with no digit must be a hyphened_name."""
    if HYPHENED_NAME.fullmatch(literal) and not any(c.isdigit() for c in literal):
        return hyphened_name(literal)
    return True


def _korean_stems(folded: str) -> set[str]:
    """The bigrams (or single syllables) of a question's Hangul words without the particle
    or ending they close with ('코드는' -> '코드', '의미합니까' -> '의미', '숨기려면' ->
    '숨기'); a word that is a particle alone ('는' after 'pstree ') has none."""
    found: set[str] = set()
    for run in re.finditer(f"[{HANGUL}]+", folded):
        word = run.group()
        ending = next((e for e in KOREAN_ENDINGS if word.endswith(e)), "")
        stem = word[: len(word) - len(ending)]
        if len(ending) == 1 and len(stem) == 1:
            stem = word  # '국가' (country) is a word, not '국' and the particle '가'
        if stem in KOREAN_QUESTION_WORDS:
            continue  # '어떻게' (how) asks, as '무엇' does: '어떻', '떻게' are no content
        found.update(_bigrams(stem, True) if len(stem) > 1 else [stem] if stem else [])
    return found


def is_literal(term: str) -> bool:
    """True for a literal term (see query_terms)."""
    return term.startswith(LITERAL)


def _bigrams(run: str, keep_all: bool) -> list[str]:
    if len(run) == 1:
        return [run] if keep_all or not _HIRAGANA.match(run) else []
    grams = [run[i : i + 2] for i in range(len(run) - 1)]
    if keep_all:
        return grams
    # Chinese and Korean function words are no Japanese ones: '所有' (all; in Japanese,
    # ownership) and '保持' (to keep) are content in '所有者を保持するには'.
    stop = frozenset() if _HIRAGANA.search(run) else _CJK_STOP_BIGRAMS
    return [
        g
        for g in grams
        if not _HIRAGANA.search(g) and not (QUESTION_CHARS & set(g)) and g not in stop
    ]


# Particles that follow a noun: a kanji before other kana is a verb's or adjective's stem
# ('開' of '開いた', '売' of '売る'), which matches many other words of a text.
_NOUN_PARTICLES = frozenset("のはがをにへとでもや")


def _lone_kanji(run: str, *, stems: bool = True) -> list[str]:
    """Ideographs standing alone between kana, which no bigram keeps: '子' in
    '後三条天皇の子の天皇は' (the emperor's child), '妻' in '信長の妻は', '売' in '薬を売る';
    with `stems` False only nouns (a kanji before a particle), not verb or adjective stems."""
    if not _HIRAGANA.search(run):
        return []
    lone = []
    for index, char in enumerate(run):
        if _HAN.match(char) and char not in QUESTION_CHARS:
            before = run[index - 1] if index else ""
            after = run[index + 1] if index + 1 < len(run) else ""
            ends = not after or (_HIRAGANA.match(after) and (stems or after in _NOUN_PARTICLES))
            if (not before or _HIRAGANA.match(before)) and ends:
                lone.append(char)
    return lone


def lone_kanji(question: str, *, stems: bool = True) -> list[str]:
    """The one-kanji words of a Japanese question, in order (see _lone_kanji); with
    `stems` False only its nouns."""
    found = (
        _lone_kanji(fold(m.group(1)), stems=stems) for m in _TOKEN.finditer(question) if m.group(1)
    )
    return list(dict.fromkeys(k for run in found for k in run))


def lone_nouns(question: str) -> frozenset[str]:
    """The one-kanji nouns of a Japanese question ('空' of '空のファイル', empty), which
    TermFinder finds only where they stand alone: '空白' (a blank) is another word. A verb
    stem is found in any word: '作' of '作るには' (to make) in '作成する' (to create)."""
    return frozenset(lone_kanji(question, stems=False))


def lone_stems(question: str) -> set[str]:
    """The one-kanji verb and adjective stems of a Japanese question ('開' of '支店を開いた'):
    they rank sentences, but count for nothing in the not-found threshold, where a stem
    found in some other word of the text would answer a question about what is not there."""
    return set(lone_kanji(question)) - lone_nouns(question)


class TermFinder:
    """Finds where given terms occur in text, without tokenizing all of it.

    A regex looks for words starting with each stem's prefix ('happ' for 'happi', so
    'happy' is found) and each candidate word is stemmed to confirm it; CJK bigrams are
    found by a zero-width lookahead so overlapping ones ('澄川', '川製') all count.
    One pass per script over the text keeps scoring linear in its length.
    """

    def __init__(self, terms: Iterable[str], alone: AbstractSet[str] = frozenset()) -> None:
        terms = list(terms)
        self.alone = alone
        self.literals = frozenset(t for t in terms if is_literal(t))
        self.words = frozenset(t for t in terms if not is_cjk_term(t) and not is_literal(t))
        self.grams = frozenset(t for t in terms if is_cjk_term(t))
        self._word_re = _word_pattern(tuple(sorted(self.words)))
        # The grams starting with each character, in the order _gram_re tries them.
        self._grams_by_first: dict[str, tuple[str, ...]] = {}
        for gram in sorted(self.grams):
            self._grams_by_first[gram[0]] = (*self._grams_by_first.get(gram[0], ()), gram)
        self._gram_re = _gram_pattern(tuple(sorted(self.grams)))
        self._literal_re = _literal_pattern(tuple(sorted(self.literals)))
        self._listed_re = _listed_pattern(tuple(sorted(self.literals)))

    def find(self, text: str) -> list[tuple[int, str]]:
        """(position, term) of every occurrence, in no particular order.

        `text` must have been through fold(): callers fold a chunk once for every finder.
        """
        hits: list[tuple[int, str]] = []
        if self._word_re is not None:
            words = self.words
            for start, word in word_starts(self._word_re, text):
                term = stem(word)
                if term in words and not _section_number(text, start, word):
                    hits.append((start, term))
        if self._gram_re is not None:
            for match in self._gram_re.finditer(text):
                hits.extend(self._grams_at(text, match.start()))
        if self._literal_re is not None:
            hits.extend((m.start(), LITERAL + m.group()) for m in self._literal_re.finditer(text))
        if self._listed_re is not None:  # '?' listing '$?' (see _listed_pattern)
            hits.extend(
                (m.start(1), f"{LITERAL}${m.group(1)}") for m in self._listed_re.finditer(text)
            )
        return hits

    def find_unfolded(self, text: str) -> Iterator[tuple[int, str]]:
        """find() over a text not yet folded, a piece of FIND_PIECE characters at a time:
        a whole document's folded and lowercased copies would be 4x its size at once for a
        10 MB text with a few non-ASCII characters (2 bytes a character, twice).

        Each piece ends just after whitespace that follows a word or mark (not inside a
        word hyphenated at a line end, which fold() joins), which no term, literal or
        lookaround of the patterns spans, so the hits are find()'s over the whole folded
        text. A text holding 'İ' (which lowercases to two characters) is lowercased another
        way as a whole (see word_starts), so it is searched whole.
        """
        if len(text) <= FIND_PIECE or "\u0130" in text:
            yield from self.find(fold(text))
            return
        start = 0
        while start < len(text):
            space = _SPACE.search(text, start + FIND_PIECE)
            end = space.end() if space else len(text)
            for position, term in self.find(fold(text[start:end])):
                yield start + position, term
            start = end

    def _grams_at(self, text: str, position: int) -> list[tuple[int, str]]:
        """The grams written at `position`, where _gram_re matched: a bigram (its two
        characters maybe either side of a line wrap), and the one character it starts with
        when that is a term too ('利' beside '利义'); a one-kanji noun of a Japanese question
        (`alone`, see lone_nouns) only where it stands alone, no ideograph after it."""
        found = []
        for gram in self._grams_by_first[text[position]]:
            if len(gram) == 1:  # past a wrap only when it must stand alone
                held = gram not in self.alone or not _HAN.match(
                    text, _next_character(text, position)
                )
            else:  # past a wrap only when not written together: a wrap is rare
                held = text.startswith(gram[1], position + 1) or text.startswith(
                    gram[1], _next_character(text, position)
                )
            if held:
                found.append((position, gram))
        return found


def _next_character(text: str, position: int) -> int:
    """Where the character after `position` is, past a line wrap between two Chinese or
    Japanese characters: those wrap anywhere, inside a word too."""
    wrap = _WRAP.match(text, position + 1)
    if wrap and _UNSPACED_CHAR.match(text, position) and _UNSPACED_CHAR.match(text, wrap.end()):
        return wrap.end()
    return position + 1


def _section_number(text: str, start: int, word: str) -> bool:
    """'7' of 'regex(7)': the manual section a cross-reference names (a SEE ALSO line lists
    a dozen), not the number a question asks about ('in the last 7 days')."""
    end = start + len(word)
    return (
        word.isdigit()
        and start >= 2
        and text[start - 1] == "("
        and text[end : end + 1] == ")"
        and text[start - 2].isalnum()
    )


# No word character, '-', '\\', '$' or '~' before a literal's first character (the '.').
_AFTER_LITERAL_START = r"(?<![\w\-\\$~].)"


# ... nor, before a key chord, a one-letter Emacs chord and a space or two (a justified man
# page): 'C-r' is not the last key of 'C-x C-r' (a longer chord before it is not seen).
_AFTER_KEY = r"(?<![CMS]-\S\s.)(?<![CMS]-\S\s\s.)"


def _after_start(literal: str) -> str:
    """What may not come before the literal's first character (see _literal_pattern)."""
    return _AFTER_LITERAL_START + (_AFTER_KEY if _CHORDS.fullmatch(literal) else "")


@lru_cache(maxsize=256)
def _literal_pattern(literals: tuple[str, ...]) -> re.Pattern[str] | None:
    """Literals as written (case and all), not inside a longer word or option.

    Each alternative tests what comes before it only after its first character
    ('-(?<!W.)e'): the regex engine then skips to the literals' first characters, where an
    opening lookbehind is tried at every offset (200x slower on a man page for '-e').
    """
    if not literals:
        return None
    names = sorted((t[len(LITERAL) :] for t in literals), key=len, reverse=True)
    alternatives = [re.escape(n[0]) + _after_start(n) + re.escape(n[1:]) for n in names]
    return re.compile(rf"(?:{'|'.join(alternatives)})(?![\w\-])")


@lru_cache(maxsize=256)
def _listed_pattern(literals: tuple[str, ...]) -> re.Pattern[str] | None:
    """A shell's special parameters ('$?') where a manual lists them by bare name, as the
    term of an entry: '       ?      Expands to the exit status of ...' (a line opening with
    the name alone, then its description after two spaces or on the lines below)."""
    names = [
        t[len(LITERAL) + 1 :] for t in literals if _SPECIAL_PARAMETER.fullmatch(t[len(LITERAL) :])
    ]
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(rf"\n[ \t]+({alternatives})(?=[ \t]{{2,}}\S|[ \t]*\n)")


@lru_cache(maxsize=256)
def _word_pattern(words: tuple[str, ...]) -> Prefixes | None:
    if not words:
        return None
    # Stems can end differently from the word ('happy' -> 'happi'), so words are matched
    # by a shorter prefix (see _search_prefix) and stemmed to confirm.
    # Irregular forms ('kept' for 'keep') do not share the prefix, so they are added whole.
    # A number or a single letter is only ever its own stem ('1990s' stems to '1990s', and
    # of the words stemming to 'e' only 'e' is one), so it is matched as a whole word: an
    # option's letter ('-e') would otherwise be confirmed against every word starting 'e'.
    whole = {w for w in words if len(w) == 1 or w.isdigit()}
    irregular = _irregular_forms()
    prefixes = {_search_prefix(w) for w in words if w not in whole}
    prefixes |= {form for w in words for form in irregular.get(w, ())}
    return _prefix_pattern(prefixes, whole)


Prefixes = tuple[re.Pattern[str], ...]
"""The patterns of a _prefix_pattern, one per prefix."""


def _prefix_pattern(prefixes: Iterable[str], whole: Iterable[str] = ()) -> Prefixes:
    """Words starting with any of the lowercase `prefixes`, and the `whole` words, searched
    by word_starts: one pattern per prefix or word, a prefix that extends another left out
    ('taken' beside 'tak'), as is a whole word a prefix starts.

    Each pattern opens with its whole prefix and only then tests that no word character
    comes before it ('plac(?<!W.{4})'), so the regex engine skips from one occurrence of
    the prefix to the next. An opening lookbehind is tried at every offset, and one
    pattern of alternatives lets the engine skip only to their first letters: searching 7
    prefixes one at a time takes half the time of their alternatives on Wikipedia text.
    """
    lower = sorted({prefix.lower() for prefix in prefixes}, key=len)
    kept: list[str] = []
    for prefix in lower:  # shortest first: a prefix's own prefixes are already kept
        if not any(prefix.startswith(shorter) for shorter in kept):
            kept.append(prefix)
    words = [w for w in sorted(set(whole)) if not any(w.startswith(p) for p in kept)]
    return tuple(
        re.compile(rf"{re.escape(p)}(?<!{_WORD_CHAR}.{{{len(p)}}}){_WORD_CHAR}*") for p in kept
    ) + tuple(
        re.compile(rf"{re.escape(w)}(?<!{_WORD_CHAR}.{{{len(w)}}})(?!{_WORD_CHAR})") for w in words
    )


def word_starts(patterns: Prefixes, text: str) -> Iterator[tuple[int, str]]:
    """(offset, lowercase word) of each word of `text` matched by a _prefix_pattern, in no
    particular order. A word is found once: no kept prefix extends another, so at most
    one of them starts a given word, and each match is the whole word.

    The search runs over the lowercased text: a case-insensitive pattern cannot skip
    ahead to its first letters.
    """
    lower = _lower(text)
    if len(lower) != len(text):  # 'İ' lowercases to two characters: keep offsets exact
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    for pattern in patterns:
        for match in pattern.finditer(lower):
            yield match.start(), match.group()


FIND_PIECE = 1 << 18
"""Characters searched at a time by TermFinder.find_unfolded (~0.5 MB a copy)."""
LOWER_BLOCK = 1 << 16
"""Characters lowercased at a time (see _lower)."""
# Not inside a hyphenated wrap (see fold), nor a wrap inside a CJK word (see _WRAP).
_SPACE = re.compile(rf"(?<=[^\s\u2010\u00ad{CJK}])\s")


def _lower(text: str) -> str:
    """`text.lower()`, in pieces cut after whitespace: for non-ASCII text CPython's lower()
    takes 12 bytes a character of scratch space (a character may lower to three), which
    for a 10 MB document is 14x its size at once. Whitespace is neither cased nor
    case-ignorable, so a cut after it leaves context rules (final sigma) unchanged."""
    if text.isascii() or len(text) <= LOWER_BLOCK:
        return text.lower()
    pieces: list[str] = []
    start = 0
    while start < len(text):
        space = _SPACE.search(text, start + LOWER_BLOCK)
        end = space.end() if space else len(text)
        pieces.append(text[start:end].lower())
        start = end
    return "".join(pieces)


# Where a British spelling can part from the American stem: centre, colour, organis, analys, grey.
_VARIANT_PART = re.compile(r"er|or|iz|yz|ay")


def _search_prefix(term: str) -> str:
    """The start of every word that may stem to `term`: 'happi' -> 'happ', 'center' -> 'cent'.

    'happy' stems to 'happi' and 'centre' to 'center', so neither starts with its stem.
    Candidates are stemmed to confirm, so a short prefix costs time, never a wrong match.
    """
    # ... as 'any' does not start with 'ani': a short stem's 'i' may be a 'y' too
    prefix = term[:-1] if len(term) >= 4 or (len(term) == 3 and term.endswith("i")) else term
    variant = _VARIANT_PART.search(term, max(2, len(term) - 5))
    return prefix[: variant.start()] if variant else prefix


def _after_first(gram: str) -> str:
    """The pattern a bigram's first character looks ahead for: its second, or in Chinese
    and Japanese, which wrap inside words, its second after a line wrap (tried second: a
    wrap is rare)."""
    second = re.escape(gram[1])
    if all(_UNSPACED_CHAR.match(char) for char in gram):
        return f"(?={second}|{_WRAP.pattern}{second})"
    return f"(?={second})"


@lru_cache(maxsize=256)
def _gram_pattern(grams: tuple[str, ...]) -> re.Pattern[str] | None:
    if not grams:
        return None
    # Each gram is its first character, then the rest looked ahead at, so overlapping grams
    # ('澄川', '川製') are all found. Every alternative starting with a bare literal (no group,
    # no lookahead) lets the regex engine skip to candidate characters: 40x faster on CJK
    # text than capturing each first character to tell the grams apart (TermFinder._gram_at).
    return re.compile(
        "|".join(f"{re.escape(g[0])}{_after_first(g)}" if g[1:] else re.escape(g) for g in grams)
    )


SOFT_PREFIX = 6
"""Least letters of the shorter stem for two stems to be one word family (see related);
on held-out SQuAD questions 5 joins too many unrelated words, 7 too few."""


def related(a: str, b: str) -> bool:
    """Different stems of one word family, which a suffix stemmer leaves apart.

    One stem, of at least SOFT_PREFIX letters, starts the other: 'german'/'germani'
    (German/Germany), 'religi'/'religion' (religious/religion), 'luther'/'lutheran';
    not 'construct'/'constitut' nor 'complet'/'complex'. A few joins are wrong
    ('second'/'secondari'), so such matches count only SOFT_WEIGHT of a real one.
    """
    short, long = sorted((a, b), key=len)
    return len(short) >= SOFT_PREFIX and short != long and long.startswith(short)


MEASURED_AS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "last": (frozenset({"duration"}), ("life", "lifetim", "lifespan", "durat")),
    "weigh": (frozenset({"number"}), ("weight",)),
    "cost": (frozenset({"money", "number"}), ("price",)),
}
"""Stems of verbs of measure -> the answer kinds of the questions that ask what they
measure, and the nouns that name it: 'How long do the batteries last?' is answered by a
specification's 'Battery life: up to 18 months', 'How much does it weigh?' by 'Weight:
1.1 kilograms'; 'Which son was born last?' asks no duration, and 'life' is no answer."""


# Verbs manuals write for one action, in groups: 'How do I delete a file?' is answered by
# Node's 'fs.unlink(path): Asynchronously removes a file or symbolic link.', 'How do I make
# cp ask before overwriting?' by '-i, --interactive: prompt before overwrite'. Only the
# action a how-to question asks (see retrieval.asked_action) is looked for in these other
# words, found at SOFT_WEIGHT as words of one family are: 'show' is a verb there, never
# the noun of 'Who hosted the show?'. (Left out of the share of the question a passage
# holds, they cost more than they saved: cp's -i was refused, os.cpus() and path.extname()
# lost to sentences naming the question's own words.)
_SAME_ACTIONS = """
delete remove erase|ask prompt|show display print|stop terminate halt
start launch begin|run execute launch|copy duplicate|find search locate
change modify alter|decompress uncompress extract unpack|check verify
add append insert|join merge combine concatenate|replace substitute|exit quit
ignore skip|save store|limit restrict|undo revert
"""
# ... and one way: 'How do I get the hostname?' is answered by 'os.hostname(): Returns the
# host name of the operating system as a string.', but what a text 'gets' returns nothing.
_ACTIONS_AS = {"get": ("return", "retrieve", "obtain", "fetch")}


@lru_cache(maxsize=1)
def same_actions() -> dict[str, frozenset[str]]:
    """Stem of an action verb -> stems of the other verbs written for it (_SAME_ACTIONS)."""
    found: dict[str, set[str]] = {}
    for group in _SAME_ACTIONS.replace("\n", "|").split("|"):
        stems = {stem(word) for word in group.split()}
        for each in stems:
            found.setdefault(each, set()).update(stems - {each})
    for verb, others in _ACTIONS_AS.items():
        found.setdefault(stem(verb), set()).update(stem(w) for w in others)
    return {verb: frozenset(others) for verb, others in found.items()}


class SoftFinder:
    """Finds words of the same family as given stems that stemming did not join; for
    a question asking for an answer of `kind`, the nouns naming what a verb of measure
    among them measures (MEASURED_AS); for a how-to question's `action`, the verbs written
    for it (same_actions); and with `parts`, the parts of camel-case names (see
    _CAMEL_CASE)."""

    def __init__(
        self,
        terms: Iterable[str],
        kind: str | None = None,
        *,
        parts: bool = True,
        action: str | None = None,
    ) -> None:
        terms = list(terms)
        self.by_prefix: dict[str, list[str]] = {}
        stand_ins: dict[str, str] = {}  # a word found -> the term it stands for
        for term in terms:
            if not is_cjk_term(term) and len(term) >= SOFT_PREFIX and term.isalpha():
                self.by_prefix.setdefault(term[:SOFT_PREFIX], []).append(term)
            kinds, nouns = MEASURED_AS.get(term, (frozenset(), ()))
            if kind in kinds:
                stand_ins |= dict.fromkeys(nouns, term)
        if action in terms:
            stand_ins |= dict.fromkeys(same_actions().get(action, ()), action)
        self._re = _soft_pattern(tuple(sorted(self.by_prefix)))
        self.stand_ins = stand_ins
        self._stand_in_finder = TermFinder(stand_ins) if stand_ins else None
        words = {t for t in terms if not is_cjk_term(t) and len(t) > 1 and t.isalpha()}
        self._camel_words = frozenset(words)
        self._camel = _camel_patterns(tuple(sorted(words))) if parts else None

    def find(self, text: str) -> list[tuple[int, str]]:
        """(position, query term) of each related word; `text` folded as for TermFinder."""
        hits: list[tuple[int, str]] = []
        if self._stand_in_finder is not None:
            hits += [(p, self.stand_ins[w]) for p, w in self._stand_in_finder.find(text)]
        if self._camel is not None:
            hits += [(p, t) for p, t in _camel_parts(self._camel, text) if t in self._camel_words]
        if self._re is not None:
            for start, word in word_starts(self._re, text):
                found = stem(word)
                for term in self.by_prefix.get(word[:SOFT_PREFIX], ()):
                    if related(found, term):
                        hits.append((start, term))
        # once each: 'registerHandler' is a word of the family of 'regist' and opens
        # with its part 'register' at the same place
        return list(dict.fromkeys(hits))


# An identifier in lower camel case, as an API's reference names a method or a property:
# 'removeListener', 'setHeader', 'getElementById'. Its parts are the words a question asks
# in ('How do I remove a listener?'), as words of one family are: found, at SOFT_WEIGHT
# (code is full of such names, and there a whole word says more). A name in upper camel
# case is a person's or a product's ('McDonald', 'PlayStation'), whose parts are not, as
# is one opening with a single letter ('iTunes', 'eBay': 'tuning' is not asked of iTunes).
_CAMEL_CASE = re.compile(r"[a-z][a-z\d]+(?:[A-Z][a-z\d]+)+")
_CAMEL_WORD = re.compile(rf"(?<!\w){_CAMEL_CASE.pattern}(?!\w)")  # 'options.maxBuffer' too


def writes_camel_case(question: str) -> bool:
    """The question names something by its camel-case name ('What is the default
    maxBuffer of exec?'): it asks in the API's names, so its other words are names too,
    and 'exec' is not the first part of 'execFile', another call."""
    return _CAMEL_WORD.search(question) is not None


@lru_cache(maxsize=256)
def _camel_patterns(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """The parts of camel-case words that may stem to one of `words` (see _search_prefix):
    'remove' opening 'removeListener' and 'Listener' after it, for 'remov' and 'listen'."""
    if not words:
        return None
    # Each alternative opens with its letters, then looks behind (as _prefix_pattern's do)
    parts = []
    for prefix in sorted({_search_prefix(w) for w in words}):
        hump, n = re.escape(prefix[0].upper() + prefix[1:]), len(prefix)
        parts.append(rf"{re.escape(prefix)}(?<![A-Za-z\d].{{{n}}})[a-z\d]*(?=[A-Z])")
        parts.append(rf"{hump}(?<=[a-z\d].{{{n}}})[a-z\d]*(?![a-z\d])")
    return re.compile("|".join(parts))


def _camel_parts(pattern: re.Pattern[str], text: str) -> list[tuple[int, str]]:
    """(position, stem) of each part of a lower camel-case word `pattern` finds in `text`.
    Each word is bounded and tested once, however many parts of it are found: a long
    run of letters costs its length, not its length times its parts."""
    found = []
    word_end, camel = -1, False
    for match in pattern.finditer(text):
        if match.start() >= word_end:  # a word not tested yet
            start, word_end = match.span()
            while start > 0 and text[start - 1].isalnum():
                start -= 1
            while word_end < len(text) and text[word_end].isalnum():
                word_end += 1
            camel = _CAMEL_CASE.fullmatch(text, start, word_end) is not None
        if camel:
            found.append((match.start(), stem(match.group().lower())))
    return found


@lru_cache(maxsize=256)
def _soft_pattern(prefixes: tuple[str, ...]) -> Prefixes | None:
    if not prefixes:
        return None
    return _prefix_pattern(prefixes)
