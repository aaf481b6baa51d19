"""A document's title names its topic, and definition questions get the defining sentence."""

from __future__ import annotations

import pytest

from pipeline import ask
from pipeline.prompts import NOT_FOUND


def licence(name: str, days: int) -> str:
    """A licence that names itself only in its title, like the GPL's text."""
    return f"""{name.upper()} PUBLIC LICENSE
Version 3, 1 March 2020

Preamble

This License lets you copy, change and share the covered work. The terms below say what
you may do and what you must do in return.

1. Termination.

You may not propagate the work except as this License allows. If you violate it, your
rights end. You may cure a violation within {days} days of the first notice, and your
rights are then reinstated permanently.

2. Warranty.

The work is provided as is, without warranty of any kind.
"""


def test_a_name_only_the_title_gives_is_held_by_the_whole_document() -> None:
    result = ask(licence("Northwind", 30), "Under Northwind, how many days do I have to cure?")
    assert "30 days" in result.answer
    assert result.missing_terms == []  # no caution: every passage of it is about Northwind


def test_a_title_names_only_its_own_document() -> None:
    documents = [
        {"id": "northwind", "text": licence("Northwind", 30)},
        {"id": "southgate", "text": licence("Southgate", 60)},
    ]
    result = ask(documents, "Under Southgate, how many days do I have to cure a violation?")
    assert "60 days" in result.answer
    assert "30 days" not in result.answer
    assert result.citations[0].document == "southgate"
    assert result.missing_terms == []
    absent = ask(documents, "Under Riverside, how many days do I have to cure a violation?")
    assert absent.answer == NOT_FOUND["en"]
    assert absent.citations == []


MANUAL = """Terms of the Manual

1. Copies.

You may make a Transparent copy of the Manual for your own use. If you hand out more than
one hundred copies, include a Transparent copy with each one, or say where a Transparent
copy can be downloaded. A Transparent copy made in a format that hides its markup is not
Transparent.

A "Transparent" copy of the Manual means a copy in a plain format that anyone can edit
with an ordinary text editor.

An "Opaque" copy is any copy that is not Transparent.

You may print the Source of a copy for your own use. The "Source" for a copy in printed form
means the files it was typeset from. Keep the Source with the printed copy where you can.

2. Translations.

A translation may be handed out with the original, Transparent or not.
"""


# A report with a byline under its title; its text writes of writing, and of authors.
TIDE_REPORT = """# Tide Tables for the Outer Harbour

by Ingrid Solberg and Tomas Havik, Harbour Survey Office

This report gives the tide tables the pilots use in the outer harbour. It was written
for pilots who know the harbour and want the times in one place. Tables are written in
local time. The authors of the older tables measured the tides at the north pier only.
"""


@pytest.mark.parametrize(
    "question",
    [
        "Who wrote this report?",
        "Who are the authors?",
        "Who is the author of the report?",
        "Who wrote Tide Tables for the Outer Harbour?",
    ],
)
def test_who_wrote_the_document_gets_the_byline_under_its_title(question: str) -> None:
    result = ask(TIDE_REPORT, question)
    assert result.answer.startswith("by Ingrid Solberg and Tomas Havik"), result.answer


def test_a_byline_answers_only_what_asks_who_wrote() -> None:
    # 'by' opens the byline; it says nothing of the tides
    assert "Ingrid" not in ask(TIDE_REPORT, "Where were the older tides measured?").answer


def test_what_is_question_gets_the_sentence_that_defines_the_term() -> None:
    result = ask(MANUAL, "What is a Transparent copy?")
    assert result.answer.startswith('A "Transparent" copy of the Manual means')
    opaque = ask(MANUAL, "What does 'Opaque' mean?")
    assert opaque.answer.startswith('An "Opaque" copy is any copy')
    source = ask(MANUAL, "What is the Source?")
    assert source.answer.startswith('The "Source" for a copy in printed form means')


HARBOUR_LICENCE = """Harbour Data Licence (HDL), version 2

0. Definitions.

As used herein, "this Licence" refers to version 2 of the Harbour Data Licence, and "the
Board" refers to the Tide Table Board.

"The Tables" refers to the tide tables published under this Licence, in print or online.

1. Copies.

You may copy the Tables under version 2 of this Licence if you name the Board.
"""


@pytest.mark.parametrize(
    "question",
    [
        "What does 'The Tables' refer to in the HDL?",
        "What does 'The Tables' stand for?",
    ],
)
def test_what_does_x_refer_to_gets_the_sentence_that_defines_x(question: str) -> None:
    # The first definition names the licence too, as the question does
    assert ask(HARBOUR_LICENCE, question).answer.startswith('"The Tables" refers to the tide')


SECTIONED_LICENCE = """Harbour Data Licence

  1. Copies.

  You may copy the Tables. Sections 2 and 3 of this Licence apply to every copy, and
section 4 of the Board's rules applies to their translations.

  2. Translations.

  You may translate the Tables into any language if you name the Board.

  3. Printed Tables.

  You may print the Tables on paper of any size.
"""


def test_which_section_question_gets_the_heading_of_the_section() -> None:
    # 'section' asks for a heading: the sentence naming 'sections' and 'translations' is not it
    result = ask(SECTIONED_LICENCE, "Which section of the licence is about translations?")
    assert result.answer.startswith("2. Translations")


# The definition gives the name last; the sentences before it use the name more often.
NAMED_LAST = """Tide tables may be handed out in any number. If you hand out Sealed tables,
include an open table with every Sealed table, or say where Sealed tables can be opened.
A table that cannot be read without a key is called "Sealed".
"""


def test_what_is_question_gets_the_sentence_that_names_the_term_last() -> None:
    result = ask(NAMED_LAST, "What is a Sealed table?")
    assert result.answer.startswith('A table that cannot be read without a key is called "Sealed".')


DEFINED_WITH_SHORT_NAME = """Every spring the Tide Table Board and its volunteers print the
Tide Table Board's tables for the harbour, as the Tide Table Board has done since 1950.
The Tide Table Board (TTB) is a charity that keeps the harbour's tide tables.
"""


def test_what_is_question_gets_the_definition_that_gives_a_short_name_in_brackets() -> None:
    result = ask(DEFINED_WITH_SHORT_NAME, "What is the Tide Table Board?")
    assert result.answer.startswith("The Tide Table Board (TTB) is a charity")


DEFINED_TWICE = """The Tide Table Board is a charity that keeps the harbour's tide tables and
prints them every spring for the pilots, the ferry crews and the fishing boats.
It was founded in 1950 by the harbour's pilots.
The Tide Table Board is one of three boards.
"""


def test_what_is_question_gets_the_first_sentence_defining_the_term() -> None:
    result = ask(DEFINED_TWICE, "What is the Tide Table Board?")
    assert result.answer.startswith("The Tide Table Board is a charity that keeps")


# Sentences opening with the subject and 'is', 'are' or 'means' that do not say what it is.
NOT_DEFINING_CLOSURES = [
    "Closures are represented by traits, so a function can take any closure that fits.",
    "A closure is unsafe when it outlives the values it borrows from its scope.",
    "A closure bound on a method means the method takes any closure of that shape.",
    "Closures are different from functions in one way: they capture their scope.",
]


@pytest.mark.parametrize("other", NOT_DEFINING_CLOSURES)
@pytest.mark.parametrize("question", ["What is a closure?", "What are closures?"])
def test_what_is_question_gets_what_the_thing_is_not_how_it_is(question: str, other: str) -> None:
    text = (
        f"# Closures\n\n{other} Rill's closures are anonymous functions you keep in a variable.\n"
    )
    result = ask(text, question)
    assert result.answer.startswith("Rill's closures are anonymous functions"), result.answer


DEFINED_PERSON = """Tide tables changed by the Harbour Master stay the Standard Tables, as the
Harbour Master wishes them to be read.
"Harbour Master" is whoever the council names to keep the tide tables.
"""


def test_who_is_question_about_a_defined_role_gets_its_definition() -> None:
    result = ask(DEFINED_PERSON, "Who is the Harbour Master?")
    assert result.answer.startswith('"Harbour Master" is whoever the council names')


GLOSSARY = """HARBOUR DATA LICENCE

1. Definitions

1.1. "Contributor"
    means each person who adds tide records to the Harbour Data.

1.2. "Larger Work"
    means a work that combines the Harbour Data with other material, in a separate
    file, that is not Harbour Data.

2. Grants

You may share a Larger Work under terms of your choice. A Larger Work that holds tide
records must still name each Contributor of those records, and a Larger Work sold for a
fee must say where the Harbour Data can be had free of charge.
"""


def test_what_is_question_gets_the_glossary_entry_whose_description_opens_with_means() -> None:
    result = ask(GLOSSARY, "What is a Larger Work?")
    assert result.answer.startswith(
        '1.2. "Larger Work": means a work that combines the Harbour Data with other material'
    )


COUNCIL = """Harbour council minutes

In 2019 the council approved the new footbridge over the harbour. The council also
approved a second ferry landing at the north quay, and it raised the mooring fees.

The footbridge opened in 2021 and carries about 4,000 people a day.
"""


def test_negated_question_is_not_answered_by_the_sentence_stating_the_opposite() -> None:
    result = ask(COUNCIL, "What did the council not approve in 2019?")
    assert result.answer == NOT_FOUND["en"]
    assert result.citations == []


def test_negated_question_is_answered_by_a_sentence_stating_the_negation() -> None:
    text = COUNCIL + "\nThe council did not approve the plan for a casino on the quay.\n"
    result = ask(text, "What did the council not approve?")
    assert result.answer != NOT_FOUND["en"]
    assert any("casino" in c.quote for c in result.citations)


# Names itself in its lead sentence only, as an encyclopedia article does; later paragraphs
# say "the race" and never repeat the number.
REGATTA = """Harbour Regatta 12 was a sailing race held off Calder Bay in the summer of 2019.
Forty crews from nine countries entered, and the race was watched by a large crowd.

The crews stayed at the Pier Hotel during the race week. A storm delayed the start by two
days, and the organisers moved the finish line closer to the harbour.

The winning crew came from Norway and finished in six hours and ten minutes.
"""


def test_the_name_a_lead_sentence_opens_with_is_held_by_the_whole_document() -> None:
    result = ask(REGATTA, "Where did the crews stay during Harbour Regatta 12?")
    assert "Pier Hotel" in result.answer
    assert result.missing_terms == []  # no caution: the article is about Regatta 12
    absent = ask(REGATTA, "Where did the crews stay during Harbour Regatta 14?")
    assert absent.answer == NOT_FOUND["en"]


SEASON = """The Harbour Rowing Club entered the 2019 league with a new coach and two new boats.

The club's captain, Mara Quist, led the first crew to nine wins. The second crew won four
races, and the junior crew came third in the regional cup.
"""


def test_a_year_the_question_sets_need_not_be_in_the_answering_paragraph() -> None:
    result = ask(SEASON, "Who was the club's captain in 2019?")
    assert "Mara Quist" in result.answer
    assert result.missing_terms == []  # the year is when, stated once for the season
    absent = ask(SEASON, "Who was the club's captain in 2021?")
    assert absent.answer == NOT_FOUND["en"]  # a year the text never states is still absent


README_NAMING_ITSELF = """<p align="center">Tide gauges, read right</p>

**Documentation**: [https://sluice.example.org](https://sluice.example.org)

Sluice is a small library for reading the tide gauges of harbours and rivers from Python,
with typed records, retries, and a command line tool for checking a gauge by hand.

## Installing

Install `sluice` with pip; the `sluice` command comes with it.

## Deploying

* `sluice-cli` - to provide the `sluice` command.
* `sluice-cloud` deploys your Sluice app to Sluice Cloud: `sluice deploy`.

Sluice Cloud is built by the team behind Sluice.
"""


def test_a_question_asking_only_what_a_thing_is_gets_its_first_definition() -> None:
    """'What is Sluice?' asks for the defining sentence, which names Sluice once; the
    sentences naming it three times say other things about it."""
    result = ask(README_NAMING_ITSELF, "What is Sluice?")
    assert result.answer.startswith("Sluice is a small library for reading the tide gauges")
    assert "Sluice is a small library" in result.citations[0].quote


@pytest.mark.parametrize("question", ["What is in Eldon Square?", "What is on the island?"])
def test_what_is_at_a_place_asks_no_definition(question: str) -> None:
    from pipeline.engines.extractive.retrieval import defined_terms

    assert defined_terms(question) == []
    assert defined_terms("What is Eldon Square?") == ["eldon", "squar"]


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("What does uniq do?", ["uniq"]),
        ("What does GNU stand for?", ["gnu"]),
        # an option's entry says what it does; env's name line would answer 'env'
        ("What does env -S do?", []),
        ("What does --quiet do?", []),
        ("What does the Rhine do at Basel?", []),
    ],
)
def test_what_a_thing_does_asks_to_define_it_but_not_an_option(
    question: str, subject: list[str]
) -> None:
    from pipeline.engines.extractive.retrieval import defined_terms

    assert defined_terms(question) == subject


def test_a_cjk_question_asks_to_define_only_when_it_asks_what_a_thing_is() -> None:
    from pipeline.engines.extractive.retrieval import defined_terms

    assert defined_terms("摂関政治とは何ですか？") == ["摂関", "関政", "政治"]
    assert defined_terms("tail 是什麼？") == ["tail"]
    assert defined_terms("grep 是做什么的？") == ["grep"]
    assert defined_terms("pstree 는 무엇입니까?") == ["pstree"]
    # a question about a topic ('...の天皇は', 'the emperor who ...') asks a fact, not a term
    assert defined_terms("後三条天皇の子の天皇は") == []
    assert defined_terms("この作品は何年に発表された？") == []


# Made-up tool: the sentences naming it more often say what it does or how it is used;
# one (not the first) says what it is.
CJK_TOOL_PAGES = {
    "ja": (
        "kelp は設定ファイルを kelp の書式で読み、kelp の警告を表示します。\n\n"
        "kelp は筆者が毎日使う道具ではありますが、注意すべき点があります。\n\n"
        "kelp コマンドは海藻の在庫を管理するためのツールです。\n\n"
        "ハルカ・ネットワークスはハルカ・ネットワークス通信というサイトを運営している。\n\n"
        "ハルカ・ネットワークスは東京の会社である。\n\n"
        "ハルカ・ネットワークスの社員は三十人である。",
        "kelp とは何ですか？",
        "kelp コマンドは海藻の在庫を管理するためのツールです。",
    ),
    "zh": (
        "kelp 可以用 kelp 格式读取 kelp 的配置文件。\n\n"
        "kelp 的选项是在配置文件里设定的。\n\n"
        "kelp 是管理海藻库存的命令。",
        "kelp 是什么？",
        "kelp 是管理海藻库存的命令。",
    ),
    "ko": (
        "kelp 는 kelp 형식으로 kelp 설정 파일을 읽습니다.\n\n"
        "kelp 는 해초 재고를 관리하는 도구입니다.",
        "kelp 는 무엇입니까?",
        "kelp 는 해초 재고를 관리하는 도구입니다.",
    ),
}


@pytest.mark.parametrize("language", CJK_TOOL_PAGES)
def test_a_cjk_what_is_question_gets_the_sentence_saying_what_the_thing_is(
    language: str,
) -> None:
    text, question, definition = CJK_TOOL_PAGES[language]
    assert ask(text, question).citations[0].quote == definition


def test_a_long_japanese_name_is_one_subject_to_define() -> None:
    text = CJK_TOOL_PAGES["ja"][0]
    result = ask(text, "ハルカ・ネットワークスとは何ですか？")
    # its eight bigrams are one name: the question asks what it is, answered alone
    assert result.answer == "ハルカ・ネットワークスは東京の会社である。"


def test_a_japanese_definition_with_a_reading_and_commas_defines_its_subject() -> None:
    # bash(1) in Japanese: the English name in brackets, and a predicate of two clauses
    text = (
        "起動\n"
        "       ログインシェルでない対話的シェルは ~/.bashrc を読み込みます。\n\n"
        "       ログインシェル(login  shell)とは、0 番目の引き数の最初の文字が - である\n"
        "       シェル、または --login オプション付きで起動されたシェルのことです。\n\n"
        "       ログインシェルはサスペンドできません。\n\n"
        "       logout ログインシェルを終了します。\n\n"
        "       ~/.bash_logout\n"
        "              個人用のログインシェル後処理ファイル。\n"
    )
    quote = ask(text, "ログインシェルとは何ですか？").citations[0].quote
    assert quote.startswith("ログインシェル(login  shell)とは、")


def test_the_chinese_question_word_what_is_no_content_to_match() -> None:
    text = (
        "常见问题\n\n"
        "- 什么是 XSLT？\n"
        "- 什么是 XML？\n\n"
        "testing 档案库收录准备进入下一个稳定版的软件包。\n"
    )
    result = ask(text, "什么是 testing？")
    assert result.citations[0].quote == "testing 档案库收录准备进入下一个稳定版的软件包。"


# A reference that names a thing after describing it, and names a compound of it later.
ROW_KEYS = """# Tables

Every table is stored as a tree of pages. Except for keyless tables, every row of a
table has a 64-bit integer key that identifies it within its table. This integer is
usually called the "row key". The row key can be read as a column named "key".

A table that declares no KEYLESS clause is called a "row key table". Row key tables are
the default, and most tables are row key tables.
"""


def test_a_definition_question_gets_the_sentence_naming_it_with_the_one_it_names() -> None:
    result = ask({"id": "doc", "text": ROW_KEYS}, "What is the row key?")
    assert result.answer.startswith(
        "Except for keyless tables, every row of a table has a 64-bit integer key that "
        'identifies it within its table. This integer is usually called the "row key".'
    ), result.answer


SHORTCUTS = """# Lookups

Tidekit finds most rows through an index. Row keys are often seen as a cheap way to find a
row without any index at all. This idea is called the key shortcut. Indexes cost space, and
row keys cost nothing.
"""


def test_a_naming_sentence_shown_with_the_one_it_names_keeps_its_name_in_the_answer() -> None:
    # The best match is the sentence the naming one names; shown together, the answer
    # holds both, not the best alone.
    question = "What idea is associated with row keys seen as a cheap way to find a row?"
    result = ask({"id": "doc", "text": SHORTCUTS}, question)
    assert "This idea is called the key shortcut." in result.answer, result.answer


# A made-up guide: the first sentence naming both words says 'mean' inside a clause.
RECORDS = """A record groups values under one name. Unlike with lists, in a record you name
each value so it's clear what the values mean.

The language also has records that look like lists, called list records. A list record
names its type but not its fields.
"""


def test_a_verb_inside_a_clause_that_asks_defines_nothing() -> None:
    result = ask(RECORDS, "What are list records?")
    assert result.answer.startswith("The language also has records that look like lists")
