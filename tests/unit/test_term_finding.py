"""Finding terms fast must find what a plain reading finds: folds, word starts, bigrams."""

from __future__ import annotations

import pytest

from pipeline.engines.extractive.passages import Passages
from pipeline.engines.extractive.retrieval import build_query
from pipeline.engines.extractive.sentences import sentence_spans
from pipeline.engines.extractive.terms import (
    SoftFinder,
    TermFinder,
    compound_terms,
    fold,
    lone_nouns,
    query_terms,
    spellings,
    uses,
)
from pipeline.text.tokens import count_tokens


def test_fold_keeps_length_and_folds_accents_full_width_and_traditional() -> None:
    text = "Ögedei ２０２４ 國 𠀀 café"
    assert fold(text) == "Ogedei 2024 国 𠀀 cafe"
    assert len(fold(text)) == len(text)


def test_fold_keeps_a_lone_surrogate_from_a_badly_decoded_file() -> None:
    text = "caf\udce9 é"
    assert fold(text) == "caf\udce9 e"


def test_fold_keeps_two_lone_surrogates_apart_in_a_long_text() -> None:
    # A high and a low surrogate side by side are two characters, not one beyond the plane.
    text = "國 \ud83d\ude00 😀 é " * 100
    assert fold(text) == "国 \ud83d\ude00 😀 e " * 100


def test_fold_of_a_long_text_matches_character_by_character() -> None:
    text = "Ça va, 國家. " * 200_000  # longer than one fold block
    assert fold(text) == "Ca va, 国家. " * 200_000


def test_a_short_text_folds_as_the_same_characters_in_a_long_one() -> None:
    from pipeline.engines.extractive.terms import _FOLDS, SHORT_FOLD_CHARS

    folded = [chr(code) for code in _FOLDS] + ["\udce9", "𠀀", "a"]
    long = fold("".join(folded))  # over SHORT_FOLD_CHARS: the table of code points
    assert len(folded) > SHORT_FOLD_CHARS
    assert [fold(char) for char in folded] == list(long)


def test_a_character_is_used_in_any_spelling_that_folds_to_it() -> None:
    texts = ["國家 café", "", "\udce9 𠀀", "x" * 70_000 + "語"]
    for char in "国家cafe𠀀语\udce9":  # as a folded question writes them
        assert uses(texts, fold(char)), char
    for char in "芦蘆一ü":
        assert not uses(texts, fold(char)), char
    assert uses(["２０２４年"], "2")  # a full-width digit is the digit


def test_every_folded_character_lists_the_characters_folding_to_it() -> None:
    from pipeline.engines.extractive.terms import _FOLDS

    for code in _FOLDS:
        assert chr(code) in spellings(fold(chr(code)))
    assert set(spellings("国")) == {"国", "國"}


def _found(question: str, text: str) -> list[tuple[str, str]]:
    """(term, the text at the hit) for every hit, in text order."""
    hits = sorted(TermFinder(query_terms(question)).find(fold(text)))
    return [(term, text[position : position + 6]) for position, term in hits]


def test_words_are_found_at_their_start_only_and_in_any_case() -> None:
    text = "Happily, the HAPPY ones were unhappy; happiness kept."
    assert _found("Who was happy?", text) == [("happi", "HAPPY "), ("happi", "happin")]


def test_the_words_of_a_lower_camel_case_name_are_related_words() -> None:
    # an API names its calls in camel case; a question asks in plain words
    text = "emitter.removeListener(name, fn) and setListenerCount(n) remove"
    hits = sorted(SoftFinder(query_terms("How do I remove a listener?")).find(fold(text)))
    assert [(term, text[p : p + 6]) for p, term in hits] == [
        ("remov", "remove"),
        ("listen", "Listen"),
        ("listen", "Listen"),
    ]
    # the whole name is a word of its own, as before
    assert _found("What does removeListener do?", text) == [("removelisten", "remove")]


def test_a_question_asking_in_camel_case_names_finds_no_parts_of_other_names() -> None:
    # 'maxBuffer' names an option: the question asks in the API's names, so its 'exec' is
    # exec, not the first part of execFile, another call
    text = "proc.execFile() runs a file as proc.exec() runs a command."
    named = build_query("What is the default maxBuffer of exec?", [text])
    assert [term for _, term in named.soft.find(fold(text))] == []
    worded = build_query("How do I exec a file?", [text])
    assert sorted(term for _, term in worded.soft.find(fold(text))) == ["exec", "file"]


def test_the_parts_of_a_name_in_upper_camel_case_are_not_words() -> None:
    text = "McDonald sold a PlayStation and iStations at the station."
    assert SoftFinder(query_terms("Which station did Donald visit?")).find(fold(text)) == []


def test_a_one_letter_term_matches_the_word_not_every_letter() -> None:
    text = "set -e exits; e is a letter, else not."
    hits = TermFinder(query_terms("What does -e do?")).find(fold(text))
    assert sorted(hits) == [(4, "=-e"), (5, "e"), (14, "e")]


def test_a_letter_or_a_number_is_found_as_a_whole_word_beside_words_it_starts() -> None:
    text = "e exits 1990s 1990 19901 e's eerie"
    assert _found("Did e exit in 1990?", text) == [
        ("e", "e exit"),
        ("exit", "exits "),
        ("1990", "1990 1"),
        ("e", "e's ee"),
    ]


def test_a_literal_is_found_as_written_and_not_inside_a_longer_name() -> None:
    text = "-e first\n-e, x-e --e -ex \\-e $-e ~-e (-e) --login -l"
    hits = TermFinder(query_terms("What do -e, --login and -l do?")).find(fold(text))
    literals = sorted((p, t) for p, t in hits if t.startswith("="))
    assert literals == [(0, "=-e"), (9, "=-e"), (38, "=-e"), (42, "=--login"), (50, "=-l")]


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("What does C-x C-e do?", ["=C-x C-e"]),  # a sequence, and no words 'c', 'x', 'e'
        ("What does Alt-/ do in IDLE?", ["idl", "=Alt-/"]),
        ("What does Ctrl+Shift+P open?", ["open", "=Ctrl+Shift+P"]),
        ("What does M-C-e do?", ["=M-C-e"]),
        ("What is C-SPAN?", ["c", "span"]),  # a name, no chord: one-letter modifiers take one key
        ("What is Meta-analysis?", ["meta", "analysi"]),  # ... and others one key or a key name
        ("What does Shift-Tab do?", ["=Shift-Tab"]),
    ],
)
def test_a_key_chord_is_a_literal_and_its_keys_are_no_words(
    question: str, terms: list[str]
) -> None:
    assert query_terms(question) == terms


def test_a_key_chord_is_not_found_as_the_last_key_of_a_sequence() -> None:
    text = "C-x  C-r rereads. C-x C-r too. (C-r) searches. Non-x C-r too."
    hits = TermFinder(query_terms("What does C-r do?")).find(fold(text))
    alone = [text.index("(C-r)") + 1, text.rindex("C-r")]
    assert sorted(p for p, t in hits if t == "=C-r") == alone


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What does the & symbol mean?", ["ampersand"]),
        ("What does * match in a pattern?", ["asterisk"]),
        ("What does the '&' sign do?", ["ampersand"]),  # quoted
        ("What did Standard & Poor recommend?", []),  # inside a name: no symbol asked about
    ],
)
def test_a_symbol_asked_about_is_searched_by_its_name_too(question: str, named: list[str]) -> None:
    assert [t for t in compound_terms(question) if t in ("ampersand", "asterisk")] == named


def test_a_hyphen_joined_name_with_a_digit_is_a_literal_and_a_date_is_not() -> None:
    assert "=aarch64-apple-darwin" in query_terms("What tier is aarch64-apple-darwin?")
    assert not any(t.startswith("=") for t in query_terms("What happened on 2016-02-07?"))
    assert not any(t.startswith("=") for t in query_terms("Is x86-64 state-of-the-art?"))
    assert "=server.listen" in query_terms("What does server.listen() do?")
    assert "=setup.py" in query_terms("What is in setup.py?")
    assert not any(t.startswith("=") for t in query_terms("Who ruled the U.S. before 1950?"))


def test_a_lowercase_name_of_three_hyphened_parts_is_a_literal_and_a_phrase_is_not() -> None:
    assert "=sparc-unknown-none" in query_terms("What tier is sparc-unknown-none?")
    assert not any(t.startswith("=") for t in query_terms("Who did the play-by-play?"))
    assert not any(t.startswith("=") for t in query_terms("Is it up-to-date?"))
    assert not any(t.startswith("=") for t in query_terms("Who is Zia-ul-Haq?"))


def test_offsets_hold_after_a_letter_that_lowercases_to_two() -> None:
    text = "İstanbul and the harbour of Istanbul"  # fold() would make it 'I': not folded here
    hits = sorted(TermFinder(query_terms("Where is the harbour?")).find(text))
    assert [text[p : p + 7] for p, _ in hits] == ["harbour"]


def test_overlapping_cjk_bigrams_are_all_found() -> None:
    text = "澄川製茶の創業は澄川"
    hits = sorted(TermFinder(["澄川", "川製", "製茶"]).find(text))
    assert hits == [(0, "澄川"), (1, "川製"), (2, "製茶"), (8, "澄川")]


def test_token_estimate_counts_cjk_characters_one_each() -> None:
    assert count_tokens("日本語 and 中文") == 5 + 2  # 5 CJK, then ' and ' 5 chars -> 2


@pytest.mark.parametrize(
    "text",
    [
        "It ended. Then 「another」。次の文！ Done?! yes. No.",
        'He said "stop." She left.\nNext line\n  indented lowercase\nUpper line',
        "e.g. this goes on. Mr. Smith left.",
    ],
)
def test_sentence_ends_are_found_where_they_were(text: str) -> None:
    spans = sentence_spans(text)
    assert [text[a:b] for a, b in spans] == _reference_sentences(text)


@pytest.mark.parametrize("operator", ["+", "=", "×", "÷", "−"])
def test_sentence_goes_on_past_a_mark_that_an_operator_follows(operator: str) -> None:
    # 'the factorial (p − 1)! + 1': a formula's '!' is no sentence end
    text = f"An integer p is prime if the factorial (p − 1)! {operator} 1 is divisible by p. Next."
    assert [text[a:b] for a, b in sentence_spans(text)] == [text[:-6], "Next."]


@pytest.mark.parametrize("mark", ["c.", "b.", "d.", "fl."])
def test_a_dates_abbreviation_ends_no_sentence(mark: str) -> None:
    text = f"The statue is by Benvenuto Cellini ({mark} 1547), a goldsmith. Next."
    assert [text[a:b] for a, b in sentence_spans(text)] == [text[:-6], "Next."]


def _reference_sentences(text: str) -> list[str]:
    """The same cuts written with the original alternation of three patterns."""
    import re

    from pipeline.engines.extractive import sentences

    original = re.compile(
        r"""[.!?]+['"”’)\]]*(?=\s+[^\sa-z])|[。！？]+[」』”’）)]*|\n(?![ \t]*[a-z])"""
    )
    saved = sentences._END
    sentences._END = original
    try:
        return [text[a:b] for a, b in sentences.sentence_spans(text)]
    finally:
        sentences._END = saved


def test_a_text_read_twice_is_read_once() -> None:
    text = "One paragraph here.\n\nAnother one there."
    assert Passages.read(text) is Passages.read(text)
    assert Passages.read(text).spans == [(0, 19), (21, 39)]


def test_a_cjk_gram_and_a_one_character_term_at_the_same_place_are_both_found() -> None:
    # '澄' and '澄川' both start at 0 and 8: a sentence holding the name holds both terms.
    hits = sorted(TermFinder(["澄川", "澄", "創業"]).find("澄川製茶の創業は澄川"))
    assert hits == [(0, "澄"), (0, "澄川"), (5, "創業"), (8, "澄"), (8, "澄川")]


def test_a_cjk_word_wrapped_at_a_line_end_is_found_where_it_starts() -> None:
    # Chinese and Japanese wrap inside words; Korean wraps at the spaces between them.
    text = "所有者を保\n      持し、通常ファ\n  イル。한국\n어"
    hits = sorted(TermFinder(["保持", "ファ", "ァイ", "イル", "한국", "국어"]).find(fold(text)))
    at = text.index
    expected = [(at("保"), "保持"), (at("フ"), "ファ"), (at("ァ"), "ァイ"), (at("イ"), "イル")]
    assert hits == [*expected, (at("한"), "한국")]


def test_a_one_kanji_noun_is_found_only_where_it_stands_alone() -> None:
    # '空' (empty) is not the '空' of '空白' (a blank) nor of '空\n文字列' wrapped; a verb
    # stem is found in any word: '作' of '作る' in '作成'.
    question = "空のファイルを作るには？"
    text = "空白と空\n   文字列と、空であるファイルを作成する。"
    finder = TermFinder(query_terms(question), lone_nouns(question))
    hits = sorted((p, t) for p, t in finder.find(fold(text)) if len(t) == 1)
    assert hits == [(text.index("空で"), "空"), (text.index("作"), "作")]


def test_a_special_parameter_is_a_literal_found_as_written_or_listed_by_its_bare_name() -> None:
    assert query_terms("What does $? mean?") == ["mean", "=$?"]
    text = "Use $? or $?x.\n       ?      Expands to the exit status.\n   ? is a glob"
    hits = sorted(TermFinder(["=$?"]).find(text))
    assert hits == [(4, "=$?"), (text.index("?      Exp"), "=$?")]


def test_a_japanese_question_keeps_words_that_are_chinese_function_words() -> None:
    # '所有' (all) and '保持' (to keep) are Chinese stopwords; in Japanese ownership and keeping
    assert query_terms("所有者を保持するには？") == ["所有", "有者", "保持"]
    assert "所有" not in query_terms("所有的文件")


@pytest.mark.parametrize(
    "question",
    ["Who founded the café in Zürich?", "澄川製茶の創業は？", "What does -e do in Straße?"],
)
def test_a_long_text_searched_in_pieces_finds_what_one_search_finds(
    question: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipeline.engines.extractive import terms

    text = (
        "Le café fut fondé à Zürich; CAFÉ founders said -e. 澄川製茶の創業は澄\n    川。\n"
        "Straße\tfounding\u00a0Founded -e-e café\n\n"
    ) * 40
    finder = TermFinder(query_terms(question))
    whole = sorted(finder.find(fold(text)))
    monkeypatch.setattr(terms, "FIND_PIECE", 7)  # a piece ends after every few words
    assert sorted(finder.find_unfolded(text)) == whole
    assert whole


def test_a_long_text_holding_a_letter_that_lowercases_to_two_is_searched_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pipeline.engines.extractive import terms

    text = "İstanbul harbour. " * 50
    monkeypatch.setattr(terms, "FIND_PIECE", 7)
    hits = sorted(TermFinder(query_terms("Where is the harbour?")).find_unfolded(text))
    assert [text[p : p + 7] for p, _ in hits] == ["harbour"] * 50


def test_the_unit_bounds_of_a_long_text_are_its_passages(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.engines.extractive import passages
    from tests.support.shaped import LICENCE, MAN_PAGE, REPORT

    framed = "\n".join(
        ["*" * 30, "*  Provided as is, without   *", "*  warranty of any kind.     *", "*" * 30]
    )
    text = "\n\n".join(
        [MAN_PAGE, LICENCE, framed, REPORT, "澄川製茶の創業は1950年。創業者は澄川。"]
    )
    spans = Passages.read(text).spans
    monkeypatch.setattr(passages, "CACHED_CHARS", 100)  # read as a document too long to cache
    starts, ends = passages.unit_bounds(text)
    assert list(zip(starts, ends, strict=True)) == spans


def test_a_long_text_counts_its_cjk_characters_as_a_short_one_does() -> None:
    from pipeline.text.tokens import TABLE_CHARS

    piece = "Ça va?\u2010日本語のテキスト、한국어 \U00020000 \udce9 words\n"  # beyond the plane too
    copies = 2 * TABLE_CHARS // len(piece) + 1
    text = piece * copies  # over TABLE_CHARS: counted by the table
    cjk = 3 + 5 + 3  # 日本語, のテキスト, 한국어: not the comma, nor the ideograph beyond the plane
    assert count_tokens(piece) == cjk + -(-(len(piece) - cjk) // 4)
    assert count_tokens(text) == cjk * copies + -(-(len(text) - cjk * copies) // 4)


def test_a_verb_of_measure_finds_its_noun_only_when_the_question_asks_for_the_measure() -> None:
    from pipeline.engines.extractive.terms import SoftFinder

    text = fold("Battery life: up to 18 months, a long lifetime")
    assert [t for _, t in SoftFinder(["last"], "duration").find(text)] == ["last", "last"]
    assert SoftFinder(["last"]).find(text) == []  # 'Which son was born last?': no duration


def test_a_verb_with_its_particle_gives_the_one_word_compound() -> None:
    from pipeline.engines.extractive.terms import compound_terms

    assert compound_terms("What happens when the request times out?") == ["timeout"]
    assert compound_terms("How do I set up and back up the disk?") == ["setup", "backup"]
    assert compound_terms("Who won the final in 1990?") == []


def test_a_hyphenated_word_gives_its_one_word_form() -> None:
    from pipeline.engines.extractive.terms import compound_terms

    assert compound_terms("Who played at half-time?") == ["halftim"]
    assert compound_terms("Can I send it by e-mail?") == ["email"]
    assert compound_terms("Is aarch64-apple-darwin tier 1?") == []  # a literal name, not a word


def test_the_kind_a_japanese_question_asks_for_is_read_from_its_ending() -> None:
    from pipeline.engines.extractive.units import asked_kind_terms

    assert asked_kind_terms("田尾安志を獲得した球団は") == {"球団", "球", "団"}
    assert asked_kind_terms("首都はどの都市か") == {"都市", "都", "市"}
    assert asked_kind_terms("関白とはなにか？") == set()  # what 関白 is: the subject, no kind
    assert asked_kind_terms("哪一種戰艦?") == set()  # Chinese keeps its kind words


def test_a_korean_questions_particles_and_endings_are_no_terms() -> None:
    # every verb of a Korean text ends '...입니다' or '...합니다': '입니', '니까' find them all
    assert query_terms("pstree 는 무엇입니까?") == ["pstree"]
    assert query_terms("종료 상태 0은 무엇을 의미합니까?") == ["종료", "상태", "0", "의미"]
    assert set(query_terms("리버사이드 창고의 출입 코드는 무엇입니까?")) >= {"창고", "출입", "코드"}
    assert query_terms("국가 이름은?") == ["국가", "이름"]  # '가' of 국가 is no particle
    # '어떻게' (how) asks as '무엇' does: its '어떻' and '떻게' are in every 'how' of a text
    assert query_terms("입력 파일을 유지하려면 어떻게 합니까?") == ["입력", "파일", "유지"]


def test_a_stopword_counts_as_a_term_only_where_the_documents_write_it_as_code() -> None:
    from pipeline.engines.extractive.terms import code_named_stopwords

    question = "How do I add a listener that runs only once?"
    assert code_named_stopwords(question, ["Use `emitter.once(name, fn)` for that."]) == ["once"]
    assert code_named_stopwords(question, ["fn once(self)"]) == ["once"]
    assert code_named_stopwords(question, ["Run it once (or twice) a day."]) == []
    assert code_named_stopwords("What does `is` do?", ["The `is` operator"]) == []  # grammar


def test_an_auxiliary_is_no_call_name_even_where_the_documents_have_such_a_call() -> None:
    from pipeline.engines.extractive.terms import code_named_stopwords

    assert code_named_stopwords("What has changed after version 2?", ["map.has(key)"]) == []


def test_a_rust_signature_names_its_call_however_it_is_spaced() -> None:
    from pipeline.engines.extractive.terms import code_named_stopwords

    for text in ["pub fn\nany<F>(&mut self)", "fn\tany<F>(&mut self)", "fn  any<F>"]:
        assert code_named_stopwords("What does any do?", [text]) == ["any"], text
