"""Documents stating the same fact for several named things: answers are about the one asked."""

from __future__ import annotations

import pytest

from pipeline import Settings, ask
from pipeline.prompts import NOT_FOUND
from tests.support.fakes import FakeChatModel

WAREHOUSES = "# Warehouse register\n\n" + "\n\n".join(
    f"The access code for the {name} warehouse is {code}. It opened in {year} and is "
    f"managed by {manager}."
    for name, code, year, manager in [
        ("Ashford", "4290-88", 1998, "Tom Becker"),
        ("Lakeside", "7315-02", 2006, "Ana Ruiz"),
        ("Millbrook", "5561-47", 2011, "Lars Holm"),
    ]
)

WAREHOUSES_JA = """倉庫の一覧

山下倉庫の入館コードは4290-88です。山下倉庫は1998年に開設されました。

川村倉庫の入館コードは7315-02です。川村倉庫は2006年に開設されました。

森本倉庫の入館コードは5561-47です。森本倉庫は2011年に開設されました。
"""


@pytest.mark.parametrize(
    "question",
    [
        "What is the access code for the Riverside warehouse?",
        "When did the Riverside warehouse open?",
        "Who manages the Stonegate warehouse?",
    ],
)
def test_question_about_an_entity_the_document_never_names_gets_not_found(question: str) -> None:
    result = ask(WAREHOUSES, question)
    assert result.answer == NOT_FOUND["en"]
    assert result.citations == []


@pytest.mark.parametrize(
    ("question", "fact", "others"),
    [
        ("What is the access code for the Lakeside warehouse?", "7315-02", ["4290-88", "5561-47"]),
        ("What is the access code for the Millbrook warehouse?", "5561-47", ["4290-88", "7315-02"]),
        ("When did the Ashford warehouse open?", "1998", ["2006", "2011"]),
        ("Who manages the Lakeside warehouse?", "Ana Ruiz", ["Tom Becker", "Lars Holm"]),
        # Typed without capitals: the document writes "Millbrook" as a name.
        ("who manages the millbrook warehouse?", "Lars Holm", ["Tom Becker", "Ana Ruiz"]),
    ],
)
def test_question_about_a_named_entity_gets_its_own_fact_not_a_twins(
    question: str, fact: str, others: list[str]
) -> None:
    result = ask(WAREHOUSES, question)
    assert fact in result.answer
    assert not any(other in result.answer for other in others)
    assert result.missing_terms == []


def test_japanese_question_about_an_absent_entity_gets_the_japanese_not_found() -> None:
    result = ask(WAREHOUSES_JA, "芦田倉庫の入館コードは何ですか？")
    assert result.answer == NOT_FOUND["ja"]
    assert result.citations == []


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("川村倉庫の入館コードは何ですか？", "7315-02"),
        ("森本倉庫は何年に開設されましたか？", "2011年"),
    ],
)
def test_japanese_question_about_a_named_entity_gets_its_own_fact(question: str, fact: str) -> None:
    result = ask(WAREHOUSES_JA, question)
    assert result.answer.startswith(
        next(line for line in WAREHOUSES_JA.splitlines() if fact in line)[:4]
    )
    assert fact in result.answer


def test_answer_found_only_under_a_near_spelling_carries_a_caution() -> None:
    result = ask(WAREHOUSES, "When did the Ashfort warehouse open?")
    assert "1998" in result.answer
    assert result.missing_terms == ["Ashfort"]


MANUAL = """# tidy(1)

tidy lists the files of a directory, sorted by name.

## Options

-s, --size
    Sort the listing by file size, largest first.

-r, --reverse
    Reverse the order of the listing.

-q, --quiet
    Print nothing but errors.

-w, --keep-space
    Keep the white space at the ends of names.
"""


def test_answer_that_never_says_a_rare_word_of_the_question_carries_a_caution() -> None:
    result = ask(MANUAL, "How do I encrypt files with tidy?")
    assert result.missing_terms == ["encrypt"]


@pytest.mark.parametrize(
    "question",
    [
        "How do I sort files by size?",
        # Common words said another way are no caution: 'opposite' for 'reverse'.
        "How do I list files in the opposite order?",
        # Nor a rare compound the documents write as two words: 'white space'.
        "How do I keep the whitespace at the ends of names?",
    ],
)
def test_answer_to_a_question_in_the_documents_words_carries_no_caution(question: str) -> None:
    result = ask(MANUAL, question)
    assert result.citations
    assert result.missing_terms == []


def test_number_the_document_never_states_gets_not_found() -> None:
    result = ask(WAREHOUSES, "Which warehouse opened in 2003?")
    assert result.answer == NOT_FOUND["en"]


def test_traditional_chinese_question_gets_the_traditional_not_found_text() -> None:
    result = ask("山下倉庫於1998年開設。", "這個城市的人口是多少？")
    assert result.answer == NOT_FOUND["zh-Hant"]
    simplified = ask("山下仓库于1998年开设。", "这个城市的人口是多少？")
    assert simplified.answer == NOT_FOUND["zh"]


def test_traditional_question_finds_its_answer_in_a_simplified_document() -> None:
    result = ask("山下仓库于1998年开设。它的入馆密码是4290。", "山下倉庫的入館密碼是什麼？")
    assert "4290" in result.answer


def test_full_width_digits_in_the_question_find_the_number() -> None:
    result = ask(WAREHOUSES_JA, "２００６年に開設された倉庫はどこですか？")
    assert "川村倉庫" in result.answer


# A made-up shipyard: its name and its neighbour's differ in one character (北港, 南港).
SHIPYARD_ZH = """北港造船厂是一家位于海边的造船厂。
北港造船厂在1960年代建造了三艘昂贵的巡逻舰。
这些巡逻舰后来被卖给了邻国。"""


def test_chinese_name_one_unknown_character_away_from_the_documents_gets_not_found() -> None:
    # 南 is used nowhere and opens the name; 港造船厂 is the documents' own yard.
    assert ask(SHIPYARD_ZH, "南港造船厂建造了几艘巡逻舰？").answer == NOT_FOUND["zh"]
    assert "三艘" in ask(SHIPYARD_ZH, "北港造船厂建造了几艘巡逻舰？").answer


def test_chinese_words_the_documents_never_use_before_a_particle_are_no_name() -> None:
    # 精密 is said of the patrol boats, through 的: a description, not another yard's name.
    result = ask(SHIPYARD_ZH, "北港造船厂建造的三艘精密的巡逻舰后来被卖给了谁？")
    assert "邻国" in result.answer


# ---- the LLM path: the map prompt tells the model to skip other entities


def _twin_chunks_settings() -> Settings:
    # Small chunks, so each is read on its own and holds one or two warehouses.
    return Settings(chunk_size=50, chunk_overlap=0)


def test_model_path_absent_entity_gets_not_found_without_an_answer_call() -> None:
    model = FakeChatModel()
    result = ask(
        WAREHOUSES,
        "What is the access code for the Riverside warehouse?",
        model=model,
        settings=_twin_chunks_settings(),
    )
    assert result.coverage.chunks >= 3
    assert result.answer == NOT_FOUND["en"]
    assert result.citations == []
    assert "reduce" not in result.usage.by_node


def test_model_path_present_entity_cites_only_its_own_chunk() -> None:
    model = FakeChatModel()
    result = ask(
        WAREHOUSES,
        "What is the access code for the Lakeside warehouse?",
        model=model,
        settings=_twin_chunks_settings(),
    )
    assert "7315-02" in result.answer
    assert "4290-88" not in result.answer
    assert "5561-47" not in result.answer
    assert all("Lakeside" in c.quote for c in result.citations)


LICENCES = """NORTHWIND DATA LICENCE AND HARBOUR DATA LICENCE
Version 4, March 2021

Under the Northwind Data Licence, a licensee who cures a violation within 45 days of
notice has the licence reinstated.

Under the Harbour Data Licence, a licensee who cures a violation within 30 days of
notice has the licence reinstated.
"""


@pytest.mark.parametrize(
    ("question", "fact", "other"),
    [
        # An acronym the text only spells out, and which of the two licences it names.
        ("Under the NDL, within how many days must a violation be cured?", "45 days", "30 days"),
        ("Under the HDL, within how many days must a violation be cured?", "30 days", "45 days"),
        # Letters and a version number run together: the text writes 'Version 4'.
        ("Under NDLv4, within how many days must a violation be cured?", "45 days", "30 days"),
    ],
)
def test_name_the_document_spells_another_way_is_answered(
    question: str, fact: str, other: str
) -> None:
    result = ask(LICENCES, question)
    assert fact in result.answer
    assert other not in result.answer
    assert result.missing_terms == []


@pytest.mark.parametrize(
    "question",
    [
        "Under the RDL, within how many days must a violation be cured?",  # no such initials
        "Under NDLv7, within how many days must a violation be cured?",  # no version 7
        "Under the Riverside Data Licence, within how many days must a violation be cured?",
    ],
)
def test_acronym_or_version_the_documents_never_spell_gets_not_found(question: str) -> None:
    result = ask(LICENCES, question)
    assert result.answer == NOT_FOUND["en"]
    assert result.citations == []


# Settings named as code names them, joined by underscores: their words ('max', 'retries')
# are in their neighbours' names too.
SETTINGS_REFERENCE = """# Settings

## max_retries

The max_retries setting limits how many times a failed upload is tried again. The default
is 5.

## max_upload_size

The max_upload_size setting limits the size of one uploaded file. The default is 10 MB.

## retry_delay

The retry_delay setting waits this many seconds between two tries. The default is 30.
"""


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("What does the max_retries setting limit?", "how many times a failed upload"),
        ("What is the default of max_upload_size?", "10 MB"),
        # ... written apart in the text, as a title or an anchor would: the same name
        ("What does the retry-delay setting do?", "waits this many seconds"),
    ],
)
def test_a_name_joined_by_underscores_gets_its_own_entry(question: str, fact: str) -> None:
    result = ask(SETTINGS_REFERENCE, question)
    assert fact in result.answer.split("\n")[0], result.answer
    assert result.missing_terms == []


@pytest.mark.parametrize(
    ("written", "question"),
    [
        ("MAX_RETRIES", "What does the max_retries setting limit?"),  # in other case
        ("max\\_retries", "What does the max_retries setting limit?"),  # Markdown's escape
        ("max-retries", "What does the max_retries setting limit?"),  # as an anchor writes it
    ],
)
def test_a_name_joined_by_underscores_the_documents_write_another_way_is_answered(
    written: str, question: str
) -> None:
    result = ask(SETTINGS_REFERENCE.replace("max_retries", written), question)
    assert "how many times a failed upload" in result.answer.split("\n")[0], result.answer


def test_the_name_a_how_to_gives_as_its_own_example_is_no_name_the_documents_must_hold() -> None:
    result = ask(SETTINGS_REFERENCE, "How do I set a limit on retries for a job like my_upload?")
    assert "max_retries" in result.answer, result.answer


@pytest.mark.parametrize(
    "question",
    ["What does the max_upload_count setting limit?", "What is the default of retry_backoff?"],
)
def test_a_name_joined_by_underscores_the_documents_never_write_gets_not_found(
    question: str,
) -> None:
    result = ask(SETTINGS_REFERENCE, question)
    assert result.answer == NOT_FOUND["en"], result.answer
    assert result.citations == []


# Targets named as compilers name them, three parts or more joined by hyphens: each part
# ('sparc', 'unknown', 'linux') is in many of them.
TARGET_TABLE = """# Platform support

| target | tier | notes |
|---|---|---|
| sparc-unknown-linux-gnu | 3 | 32-bit SPARC Linux |
| sparc-unknown-none-elf | 3 | Bare 32-bit SPARC V7+ |
| riscv-unknown-linux-musl | 2 | RISC-V Linux with musl |
"""


@pytest.mark.parametrize(
    "question", ["What tier is sparc-unknown-linux-musl?", "What tier is sparc-unknown-foobar?"]
)
def test_a_name_joined_by_hyphens_the_documents_never_write_gets_not_found(question: str) -> None:
    result = ask(TARGET_TABLE, question)
    assert result.answer == NOT_FOUND["en"], result.answer
    assert result.citations == []


def test_a_name_joined_by_hyphens_gets_its_own_row() -> None:
    result = ask(TARGET_TABLE, "What tier is sparc-unknown-none-elf?")
    assert "Bare 32-bit SPARC" in result.answer.split("\n")[0], result.answer


# One page per error code, as a compiler's error index is.
ERROR_PAGES = [
    {
        "id": "E0101.html",
        "text": "# Error code E0101\n\nA value was borrowed as mutable more than once.\n\n"
        "Borrow it once, or borrow it again only after the first borrow ends.\n",
    },
    {
        "id": "E0202.html",
        "text": "# Error code E0202\n\nThe crate was compiled for another target.\n\n"
        "This error can be fixed by recompiling either crate for one target.\n",
    },
]


def test_a_passage_lacking_the_asked_name_is_not_cited_beside_one_holding_it() -> None:
    result = ask(ERROR_PAGES, "How do I fix error E0101?")
    assert result.citations
    assert {c.document for c in result.citations} == {"E0101.html"}
    assert result.missing_terms == []


MANUAL_JA = """# tidy(1)

tidy はディレクトリのファイルを名前順に一覧表示する。

## オプション

-s, --size
    ファイルサイズ順にソートする。

-r, --reverse
    逆順にソートする。
"""


def test_a_japanese_answer_that_never_says_a_word_of_the_question_carries_a_caution() -> None:
    result = ask(MANUAL_JA, "tidy でファイルを暗号化するには？")
    assert result.citations
    assert result.missing_terms == ["暗号化"]


def test_a_japanese_answer_in_the_documents_words_carries_no_caution() -> None:
    result = ask(MANUAL_JA, "ファイルを逆順にソートするには？")
    assert "逆順にソートする" in result.answer
    assert result.missing_terms == []


MANUAL_KO = """# tidy(1)

tidy는 디렉터리의 파일을 이름순으로 나열합니다.

## 옵션

-s, --size
    파일 크기순으로 정렬합니다.

-r, --reverse
    역순으로 정렬합니다.
"""


def test_a_korean_answer_that_never_says_a_noun_of_the_question_carries_a_caution() -> None:
    result = ask(MANUAL_KO, "tidy로 파일을 암호화하려면?")
    assert result.citations
    assert result.missing_terms == ["암호화"]


@pytest.mark.parametrize(
    "question",
    [
        "파일을 역순으로 정렬하려면 어떻게 합니까?",
        # a verb asked in another form than the manual's ('정렬되었습니까', '정렬합니다')
        "파일은 역순으로 정렬되었습니까?",
        # ... or ending like a particle: '정렬하는가' (does it sort), '가능한가' (is it
        # possible), '무엇인가' (what is it); a conjunction ending like one ('그러므로')
        "tidy는 파일을 역순으로 정렬하는가?",
        "파일을 역순으로 정렬하는 것이 가능한가?",
        "그러므로 파일을 역순으로 정렬하려면?",
    ],
)
def test_a_korean_answer_in_the_documents_words_carries_no_caution(question: str) -> None:
    result = ask(MANUAL_KO, question)
    assert "역순으로 정렬합니다" in result.answer
    assert result.missing_terms == []


def test_a_korean_question_word_ending_like_a_particle_is_no_unwritten_noun() -> None:
    assert ask(MANUAL_KO, "tidy는 무엇인가?").missing_terms == []
