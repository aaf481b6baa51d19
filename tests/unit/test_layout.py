"""A text's structure read from its lines, and hard-wrapped text read as prose."""

from __future__ import annotations

import pytest

from pipeline.engines.extractive.passages import Passages
from pipeline.text.layout import analyse
from pipeline.text.reflow import known_in, reflow
from pipeline.text.structure import Kind, Structure
from tests.graph.test_shaped_documents import BULLETED_OPTIONS
from tests.support.shaped import LICENCE, MAN_PAGE, REPORT, RST_README


def _blocks(text: str, structure: Structure) -> list[tuple[str, str]]:
    return [(b.kind.name, " ".join(text[b.start : b.end].split())) for b in structure]


def _kinds(text: str) -> list[str]:
    """The kinds of the text's blocks, in order."""
    return [kind for kind, _ in _blocks(text, analyse(text))]


def _find(text: str, structure: Structure, kind: Kind, starts: str) -> int:
    for index, block in enumerate(structure):
        if block.kind == kind and text[block.start : block.end].startswith(starts):
            return index
    raise AssertionError(f"no {kind.name} starting {starts!r} in {_blocks(text, structure)}")


def _describes(text: str, structure: Structure, paragraph: str, term: str) -> bool:
    """The paragraph starting `paragraph` is the description of the term starting `term`."""
    described = _find(text, structure, Kind.PARAGRAPH, paragraph)
    return structure.parent(described) == _find(text, structure, Kind.TERM, term)


def test_a_bullet_before_an_option_alone_opens_an_entry_and_one_before_prose_an_item() -> None:
    text = BULLETED_OPTIONS
    s = analyse(text)
    tab = _find(text, s, Kind.TERM, "--tab:")  # the term starts after its bullet
    assert s.parent(_find(text, s, Kind.PARAGRAPH, "Use a tab")) == tab
    assert _find(text, s, Kind.ITEM, "○   A record")


def test_lines_of_one_margin_and_unlike_lengths_are_no_centred_title() -> None:
    # bash(1)'s key bindings: lines of unlike lengths indented past the title margin.
    text = (
        "       keyname is the name of a key spelled out in English.  For example:\n\n"
        "              Control-u: universal-argument\n"
        "              Meta-Rubout: backward-kill-word\n"
        '              Control-o: "> output"\n\n'
        "       A keyname may also be written in its octal form.\n"
    )
    assert Kind.HEADING.name not in _kinds(text)


def test_a_line_told_a_heading_by_its_shape_nests_under_the_marked_heading_above() -> None:
    text = "## 1. Copyright\n\n2019-2024, the Tidepool project\n\nSee the licence.\n"
    s = analyse(text)
    holder = _find(text, s, Kind.HEADING, "2019-2024")
    assert s.parent(holder) == _find(text, s, Kind.HEADING, "## 1. Copyright")


@pytest.mark.parametrize(
    "example", ["fetch -r -l 2 http://<site>/1.html", "{foo: .bar}", "ls > list 2>&1"]
)
def test_an_example_line_indented_alone_is_no_centred_title(example: str) -> None:
    text = f"       With this command:\n\n                   {example}\n\n       it runs.\n"
    assert Kind.HEADING.name not in _kinds(text)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "The full documentation for ls is a Texinfo manual.  If the info and ls\n"
            "       programs are installed at your site, the command",
            "should give you access to the complete manual.",
        ),
        ("もし info および ls がインストールされているならば、コマン\n       ド", "を使用する。"),
    ],
    ids=["en", "ja"],
)
def test_a_command_a_sentence_runs_past_is_no_centred_title(before: str, after: str) -> None:
    # coreutils' SEE ALSO: a word alone would be a title ('info ls' reads as one)
    text = f"       {before}\n\n              info ls\n\n       {after}\n"
    assert Kind.HEADING.name not in _kinds(text)


def test_a_table_aligned_with_spaces_is_rows_under_its_header() -> None:
    from tests.graph.test_shaped_documents import ALIGNED_TABLES as text

    s = analyse(text)
    header = _find(text, s, Kind.ROW, "field")
    assert s.parent(_find(text, s, Kind.ROW, "day of week")) == header
    codes = _find(text, s, Kind.ROW, "Code")
    assert s.parent(_find(text, s, Kind.ROW, "2      the crontab")) == codes
    assert _find(text, s, Kind.PARAGRAPH, "A field may contain")  # the table ends at a blank


def test_an_aligned_tables_cells_are_cut_at_its_rules_columns_wide_characters_twice() -> None:
    from pipeline.text.layout import aligned_cells

    rule = "       ---------- --------------"
    assert aligned_cells("       フィールド 指定可能な値", rule) == ["フィールド", "指定可能な値"]
    assert aligned_cells("       曜日       0-7 (0 と 7 は日曜日)", rule) == [
        "曜日",
        "0-7 (0 と 7 は日曜日)",
    ]
    assert aligned_cells("       day of     week", "       ------  ----") == ["day of", "week"]


def test_justified_japanese_lines_are_a_paragraph_not_a_list_of_terms() -> None:
    # chmod(1) in Japanese: nroff spaces the words out, so two lines look like
    # 'term  description' at one column; the second 'term' ends a sentence
    text = (
        "       chmod    はシンボリックリンクのアクセス許可を変更することはありません。\n"
        "       chmod  システムコールがシンボリックリンクのアクセス許可を変更できないか\n"
        "       らです。   シンボリックリンクのアクセス許可が使われることは決してないた\n"
        "       め、 これは問題にはなりません。\n"
    )
    assert _kinds(text) == ["PARAGRAPH"]


def test_an_option_opening_a_justified_japanese_line_is_no_term_when_the_sentence_goes_on() -> None:
    # xargs(1) in Japanese: '-L' starts a line of -l's description, set '-L  オプション...';
    # the next line, at its column, opens with a particle: the sentence goes on
    text = (
        "       -l[max-lines], --max-lines[=max-lines]\n"
        "              -L  オプションの同義語です。-L とは違って、 max-lines という引数\n"
        "              を指定するかどうかは任意です。\n"
    )
    s = analyse(text)
    assert [t for kind, t in _blocks(text, s) if kind == "TERM"] == [
        "-l[max-lines], --max-lines[=max-lines]"
    ]
    assert _find(text, s, Kind.PARAGRAPH, "-L  オプションの同義語です。")


def test_an_option_over_justified_japanese_naming_another_option_is_no_term() -> None:
    # passwd(1) in Japanese: the sentence 'the -l flag and the -u flag ...' opens a line
    # with '-l', its words spaced out to the margin around '-u'
    text = (
        "   アカウントの保守\n"
        "       -l               フラグと              -u              フラグを用いると、\n"
        "       ユーザアカウントをロックしたり、そのロックを外したりできる。           -l\n"
        "       オプションを用いると、アカウントは使用不能になる。\n\n"
        "       -S                     オプションを用いるとアカウントの状態が表示される。\n"
    )
    terms = [t for kind, t in _blocks(text, analyse(text)) if kind == "TERM"]
    assert "-l" not in terms
    assert "-S" in terms  # its description names no other option


def _item_read(text: str, starts: str) -> str:
    """The text of the list item starting with `starts`."""
    s = analyse(text)
    item = s[_find(text, s, Kind.ITEM, starts)]
    return text[item.start : item.end]


def test_letters_doubled_after_z_number_items_as_bash_news_does() -> None:
    text = (
        "z.  The last single letter.\n\n"
        "aa. New prompt string: PS0.  Expanded and displayed by interactive shells after\n"
        "    reading a complete command but before executing it.\n"
    )
    assert _item_read(text, "aa. New prompt string").endswith("before executing it.")


def test_one_line_entries_a_blank_line_apart_are_terms_with_their_descriptions() -> None:
    text = (
        "       fetch exits with the following status:\n\n"
        "              0      if it succeeds\n\n"
        "              125    if the download is killed by a signal\n\n"
        "              127    if the address is not found\n"
    )
    s = analyse(text)
    status = _find(text, s, Kind.TERM, "125")
    assert s.parent(_find(text, s, Kind.PARAGRAPH, "if the download is killed")) == status
    assert Kind.HEADING.name not in [kind for kind, _ in _blocks(text, s)]


def test_man_page_options_are_terms_with_their_descriptions_under_their_section() -> None:
    s = analyse(MAN_PAGE)
    options = _find(MAN_PAGE, s, Kind.HEADING, "OPTIONS")
    e = _find(MAN_PAGE, s, Kind.TERM, "-e")
    description = _find(MAN_PAGE, s, Kind.PARAGRAPH, "Exit  immediately")
    assert s.parent(e) == options
    assert s.parent(description) == e
    # The description runs on over its wrapped lines, up to the next option.
    assert MAN_PAGE[s[description].start : s[description].end].endswith("mand list.")
    histsize = _find(MAN_PAGE, s, Kind.TERM, "HISTSIZE")
    assert s.parent(_find(MAN_PAGE, s, Kind.PARAGRAPH, "The  number")) == histsize
    assert s.heading_path(histsize) == [_find(MAN_PAGE, s, Kind.HEADING, "ENVIRONMENT")]


@pytest.mark.parametrize(
    ("term", "description"),
    [
        ("-mtime n", "File's data was last modified n*24 hours ago."),  # one word: its argument
        ("-size n[cwbkMG]", "File uses n units of space."),
        ("--help", "Display a usage message and exit."),  # words: its description
        ("-unzip", "Decompress."),  # ... or a sentence of one word
        ("-force", "強制的に上書きする。"),  # ... or CJK, with no spaces
    ],
)
def test_an_option_line_as_wide_as_the_indent_is_read_by_what_follows_its_name(
    term: str, description: str
) -> None:
    # each line runs one column past the description's indent, after one space
    text = (
        "       -mtime n\n              File's data was last modified n*24 hours ago.\n\n"
        "       -size n[cwbkMG]\n              File uses n units of space.\n\n"
        "       --help Display a usage message and exit.\n              It exits 0.\n\n"
        "       -unzip Decompress.\n              Same as gunzip.\n\n"
        "       -force 強制的に上書きする。\n              既存のファイルは削除される。\n"
    )
    s = analyse(text)
    assert (Kind.TERM.name, term) in _blocks(text, s)
    assert _describes(text, s, description, term)


def test_a_python_session_is_code_and_a_quoted_email_is_not() -> None:
    readme = (
        "It can fix several layers of mojibake at once:\n\n"
        "    >>> ftfy.fix_text('doesnÃ¢â‚¬â„¢t')\n    \"doesn't\"\n\nIt never guesses.\n"
    )
    assert _kinds(readme) == ["PARAGRAPH", "CODE", "PARAGRAPH"]
    loop = "Print them:\n\n    >>> for line in lines:\n    ...     print(line)\n\nDone.\n"
    assert _kinds(loop) == ["PARAGRAPH", "CODE", "PARAGRAPH"]  # a statement going on
    email = ">>> Hi Ann,\n>>> the meeting moved to Friday.\nThanks, noted. I will come.\n"
    assert "CODE" not in _kinds(email)


def test_man_page_title_lines_are_furniture_and_subsections_nest() -> None:
    s = analyse(MAN_PAGE)
    furniture = [MAN_PAGE[b.start : b.end] for b in s if b.kind == Kind.FURNITURE]
    assert [f.split()[0] for f in furniture] == ["DEMO(1)", "DEMO"]
    reading = _find(MAN_PAGE, s, Kind.HEADING, "Reading input")
    assert s.parent(reading) == _find(MAN_PAGE, s, Kind.HEADING, "OPTIONS")
    read = _find(MAN_PAGE, s, Kind.TERM, "read [-e] name")
    assert s.section(read) == reading


def test_licence_titles_are_headings_and_wrapped_paragraphs_are_one_block() -> None:
    s = analyse(LICENCE)
    kinds = _blocks(LICENCE, s)
    assert kinds[0] == ("HEADING", "THE DEMO PUBLIC LICENSE Version 1, June 2024")
    assert ("HEADING", "1. Conveying Copies.") in kinds
    paragraph = _find(LICENCE, s, Kind.PARAGRAPH, "You may convey verbatim")
    assert LICENCE[s[paragraph].start : s[paragraph].end].endswith("Program.")
    assert s.parent(paragraph) == _find(LICENCE, s, Kind.HEADING, "1. Conveying")


def test_rst_underlines_are_headings_nested_in_the_order_the_text_uses_them() -> None:
    s = analyse(RST_README)
    usage = _find(RST_README, s, Kind.HEADING, "Usage")
    context = _find(RST_README, s, Kind.HEADING, "Context manager")
    callbacks = _find(RST_README, s, Kind.HEADING, "Callbacks")
    assert s.parent(usage) == _find(RST_README, s, Kind.HEADING, "Quickmock")
    assert s.parent(context) == usage
    assert s.parent(callbacks) == usage
    assert s.parent(_find(RST_README, s, Kind.PARAGRAPH, "A callback")) == callbacks
    assert not any("^^^" in RST_README[b.start : b.end] for b in s)


def test_rst_code_blocks_are_code_and_directives_are_no_blocks() -> None:
    s = analyse(RST_README)
    blocks = _blocks(RST_README, s)
    assert ("CODE", "pip install quickmock") in blocks  # after 'with pip::'
    code = _find(RST_README, s, Kind.CODE, "# Start the mock")
    assert RST_README[s[code].start : s[code].end].endswith('mock.add("GET", "/")')
    assert not any(text.startswith(("..", ":target:")) for _, text in blocks)
    assert ("PARAGRAPH", "``pip install -U quickmock``") in blocks  # alone, yet no title
    assert ("PARAGRAPH", "The mock stops when the block ends.") in blocks


def test_an_extension_directive_around_python_is_code_and_one_around_prose_is_not() -> None:
    # Click's documentation: its own directives hold an example and a run of it
    text = (
        "Click also supports hidden prompts. This is useful for password input:\n\n"
        ".. click:example::\n\n    import codecs\n\n    @click.command()\n"
        '    @click.option(\n        "--password", prompt=True, hide_input=True\n    )\n'
        "    def encode(password):\n        click.echo(password)\n\n"
        ".. click:run::\n\n    invoke(encode, input=['secret'])\n\n"
        ".. note::\n\n    Prompts read from the terminal, not from standard input.\n\n"
        ".. deprecated:: 8.0\n\n    Deprecated\n"
    )
    assert _kinds(text) == ["PARAGRAPH", "CODE", "CODE", "PARAGRAPH", "PARAGRAPH"]


def test_html_tags_alone_are_no_block_and_html_with_words_is_code() -> None:
    text = (
        'Add it to your project:\n\n<div class="termy">\n\n```console\n$ uv add tidekit\n```\n\n'
        '</div>\n\n<p align="center"><em>Fast to learn</em></p>\n'
    )
    blocks = _blocks(text, analyse(text))
    assert [kind for kind, _ in blocks] == ["PARAGRAPH", "CODE", "CODE"]
    assert blocks[1][1].startswith("```console")
    assert blocks[2][1].startswith("<p align")


def test_markdown_table_rows_point_at_their_header_row() -> None:
    s = analyse(REPORT)
    header = _find(REPORT, s, Kind.ROW, "| Metric")
    backlog = _find(REPORT, s, Kind.ROW, "| Order backlog")
    assert s[header].level == 1
    assert s.parent(backlog) == header
    assert not any("---" in REPORT[b.start : b.end] for b in s if b.kind == Kind.ROW)
    assert s.heading_path(backlog) == [0, _find(REPORT, s, Kind.HEADING, "## Results")]


def test_list_items_point_at_their_lead_in() -> None:
    s = analyse(REPORT)
    lead = _find(REPORT, s, Kind.PARAGRAPH, "To restore factory settings:")
    steps = [i for i, b in enumerate(s) if b.kind == Kind.ITEM and s.parent(i) == lead]
    assert [REPORT[s[i].start : s[i].end][:2] for i in steps] == ["1.", "2.", "3."]
    bullet = _find(REPORT, s, Kind.ITEM, "- Default web")
    # A paragraph that does not end in ':' leads into nothing: the list is the section's.
    assert s.parent(bullet) == _find(REPORT, s, Kind.HEADING, "## Support")


@pytest.mark.parametrize(
    "lead",
    [
        "The fields of each line are as follows.",
        "各行には次の情報がこの順序で表示されます。",
        "每行的字段如下。",
        "각 줄의 필드는 다음과 같습니다.",
        "输出的每一行依次包含下面这些字段，从左到右排列：",
    ],
)
def test_a_lead_in_pointing_ahead_without_a_colon_leads_into_its_list(lead: str) -> None:
    text = f"# Output\n\n{lead}\n\n- the file type\n- the file size\n"
    s = analyse(text)
    items = [i for i, b in enumerate(s) if b.kind == Kind.ITEM]
    assert [s.parent(i) for i in items] == [_find(text, s, Kind.PARAGRAPH, lead[:6])] * 2


def test_a_number_or_less_is_no_lead_in() -> None:
    text = "# Limits\n\nA name holds 8 以下。\n\n- one\n- two\n"
    s = analyse(text)
    assert s.parent(_find(text, s, Kind.ITEM, "- one")) == _find(text, s, Kind.HEADING, "# Limits")


def test_a_numbered_item_wrapped_back_to_the_margin_stays_one_item() -> None:
    text = (
        "  4. Copying is allowed under these terms.\n\n"
        "  5. A program that contains no derivative of any portion of the\n"
        "Library, but is designed to work with it, is a work that uses it.  Such a\n"
        "work falls outside this License.\n\n"
        "  6. As an exception, you may combine the two.\n"
    )
    s = analyse(text)
    item = _find(text, s, Kind.ITEM, "5. A program")
    assert text[s[item].start : s[item].end].endswith("falls outside this License.")
    assert not any(text[b.start : b.end].startswith(("Library, but", "work falls")) for b in s)


def test_an_item_wrapped_to_the_margin_after_a_comma_goes_on_in_lowercase() -> None:
    text = (
        "  3. You may copy and distribute the Program (or a work based on it,\n"
        "under Section 2) in object code provided that you also do one of the following:\n\n"
        "    a) Accompany it with the source code; or,\n"
    )
    assert _item_read(text, "3. You may").endswith("one of the following:")
    s = analyse(text)
    assert s.parent(_find(text, s, Kind.ITEM, "a) Accompany")) == _find(text, s, Kind.ITEM, "3.")


def test_an_item_that_closes_its_sentence_ends_at_the_margin() -> None:
    text = "Steps:\n  1. Open the lid.\nThe lid opens to the left.\n"
    s = analyse(text)
    item = _find(text, s, Kind.ITEM, "1. Open")
    assert text[s[item].start : s[item].end] == "1. Open the lid."
    _find(text, s, Kind.PARAGRAPH, "The lid opens")


def test_pdf_running_headers_and_page_numbers_are_furniture() -> None:
    pages = [
        f"Demo Manual\n\nPage {n} says the sensor reads {n * 10} lux.\nIt goes on.\n\n{n}\n"
        for n in range(1, 5)
    ]
    text = "".join(pages)
    starts = [sum(len(p) for p in pages[:n]) for n in range(len(pages))]
    s = analyse(text, starts)
    furniture = {text[b.start : b.end] for b in s if b.kind == Kind.FURNITURE}
    assert furniture == {"Demo Manual", "1", "2", "3", "4"}
    assert not any(b.kind == Kind.FURNITURE for b in analyse(text))  # no pages, no furniture


def test_reflow_joins_wrapped_lines_and_undoes_line_end_hyphens() -> None:
    assert reflow("By  default,  the\n       number  of  com\u2010\n   mands") == (
        "By default, the number of commands"
    )
    text = "a non-zero exit and an identifier"
    assert reflow("a non-\n  zero exit and an iden-\n  tifier", known_in(text)) == text
    assert reflow("'tabstop' 'ts'\tnumber\t(default 8)") == "'tabstop' 'ts' number (default 8)"


@pytest.mark.parametrize(
    ("wrapped", "shown"),
    [
        (
            "一行も見\n       つからなければ 1 です。\n       次の文。",
            "一行も見つからなければ 1 です。次の文。",
        ),
        ("輸出總行\n   數，以及「字\n   元數」", "輸出總行數，以及「字元數」"),
        (
            "한국어는 단어\n   사이를 띄어 씁니다",
            "한국어는 단어 사이를 띄어 씁니다",
        ),  # Korean: a space
        ("値は 1 バ\n  イト", "値は 1 バイト"),
        ("sudo はユーザ\n\u00a0\u00a0\u00a0 ーの通常パスワード", "sudo はユーザーの通常パスワード"),
    ],
    ids=["japanese", "chinese", "korean", "katakana", "no-break-indent"],
)
def test_reflow_joins_chinese_and_japanese_lines_without_a_space(wrapped: str, shown: str) -> None:
    assert reflow(wrapped) == shown


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("to [RFC 3339](https://tools.ietf.org/html/rfc3339) format", "to RFC 3339 format"),
        ("[![PyPI](https://img.shields.io/p.svg)](https://pypi.org/p/x) badge", "PyPI badge"),
        ("see [the docs][docs].", "see the docs."),
        ("link [a (b)](http://x.org/a_(b)) end", "link a (b) end"),
        ("code x[0](y) stays", "code x[0](y) stays"),
        ('"simple\\_grid", but `a\\_b` and \\< stay', '"simple_grid", but `a\\_b` and \\< stay'),
        ("add **Typer** to **your project**", "add Typer to your project"),
        (
            'for <abbr title="command line interface">CLI</abbr> apps, <dfn>Completion</dfn>',
            "for CLI apps, Completion",
        ),
        ("cp <source> <dest>, and `<b>` as code", "cp <source> <dest>, and `<b>` as code"),
        ("if <T> awaits <I>, and <I> fails", "if <T> awaits <I>, and <I> fails"),  # no </I>
        (
            "basicConfig(**kwargs), f(**a, **b), `**x**` and __init__",
            "basicConfig(**kwargs), f(**a, **b), `**x**` and __init__",
        ),
        # Sphinx's roles, as its pages show them: code as code, a reference as its title
        ("use the :func:`clear` function", "use the `clear` function"),
        (
            "the :class:`~click.Choice` type and :py:meth:`Context.invoke`",
            "the `Choice` type and `Context.invoke`",
        ),
        (
            "see :ref:`the options <options>` or :ref:`multiple-options`.",
            "see the options or multiple-options.",
        ),
        ("a dict literal {'a':`b`} and ::`x` stay", "a dict literal {'a':`b`} and ::`x` stay"),
        (  # gitignore(5) as HTML: a glob's asterisks, no emphasis
            'A leading "**" followed by a slash means match in all directories. "**/foo" matches',
            'A leading "**" followed by a slash means match in all directories. "**/foo" matches',
        ),
    ],
)
def test_reflow_reads_markdown_links_and_escapes_as_a_reader_sees_them(
    source: str, shown: str
) -> None:
    assert reflow(source) == shown


def test_a_lean_reading_slicing_each_line_reads_the_same_structure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pipeline.text import layout

    monkeypatch.setattr(layout, "LEAN_PIECE", 50)  # lines split a few at a time
    for text in (MAN_PAGE, LICENCE, REPORT, "one line " * 100, "", "\n\n"):
        assert list(analyse(text, lean=True)) == list(analyse(text))
    assert len(analyse(MAN_PAGE, lean=True)) > 10


# A formula's subscripts on lines of their own, as a wiki's text export writes them.
SUBSCRIPTS = (
    "Water is made of hydrogen and oxygen, and it covers most of the planet's surface.\n\n"
    "Reactive forms of oxygen, such as superoxide (O−\n2) and hydrogen peroxide (H\n2O\n2),"
    " are dangerous by-products of oxygen use in organisms. Cells break them down.\n"
)


def test_a_formula_wrapped_inside_brackets_stays_one_sentence() -> None:
    passages = Passages.read(SUBSCRIPTS)
    sentences = [" ".join(SUBSCRIPTS[a:b].split()) for a, b in passages.spans]
    assert sentences[1] == (
        "Reactive forms of oxygen, such as superoxide (O− 2) and hydrogen peroxide (H 2O 2),"
        " are dangerous by-products of oxygen use in organisms."
    )
    assert [b.kind for b in analyse(SUBSCRIPTS)] == [Kind.PARAGRAPH, Kind.PARAGRAPH]


@pytest.mark.parametrize(
    "sentence",
    [
        "Search with find . -name core from the top of the tree.",
        "Such files are not executable for anybody (! -perm /111 or ! -perm /a+x).",
    ],
)
def test_a_stop_standing_as_an_operand_ends_no_sentence(sentence: str) -> None:
    text = f"{sentence} The next sentence follows."
    assert [text[a:b] for a, b in Passages.read(text).spans] == [
        sentence,
        "The next sentence follows.",
    ]


def test_a_short_line_going_on_in_a_markdown_link_is_one_sentence() -> None:
    text = (
        "If you use version 1, look at the\n"
        "[version 1 documentation](https://docs.example.org/validation/1.10/overview/) or,\n"
        "[its fixes branch](https://git.example.org/sluice/tree/1.10.X-fixes). It is kept up.\n"
    )
    sentences = [text[a:b] for a, b in Passages.read(text).spans]
    assert sentences[0].endswith(
        "or,\n[its fixes branch](https://git.example.org/sluice/tree/1.10.X-fixes)."
    )


def test_badges_are_links_only_and_a_title_reads_past_them() -> None:
    text = (
        "# Sluice\n\n"
        "[![CI](https://img.example/ci.svg)](https://ci.example/sluice)\n"
        "[![pypi](https://img.example/v/sluice.svg)](https://pypi.example/sluice)\n\n"
        "Data pipelines for tide gauges.\n"
    )
    passages = Passages.read(text)
    assert passages.links_only(1)
    assert text[slice(*passages.spans[passages.reads_as(0)])] == "Data pipelines for tide gauges."


def test_a_term_line_over_a_shallower_description_holds_all_its_paragraphs() -> None:
    """top(1)'s fields: '%CPU  --  CPU Usage' is the term's line, not '%CPU' with the
    description '-- CPU Usage'; the paragraphs under it are its own, not the next field's."""
    text = (
        "FIELDS\n"
        "       %CPU  --  CPU Usage\n"
        "           The task's share of the elapsed CPU time since the last screen\n"
        "           update.\n\n"
        "           In a true SMP environment, amounts greater than 100% may be reported.\n\n"
        "       %MEM  --  Memory Usage\n"
        "           A task's currently resident share of available physical memory.\n"
    )
    s = analyse(text)
    assert _describes(text, s, "In a true SMP", "%CPU")
    assert _describes(text, s, "A task's currently", "%MEM")


@pytest.mark.parametrize(
    "paragraph",
    [
        # bash(1): justified lines whose first gap falls at one column
        "       This  variable  can  be  used  with BASH_LINENO and BASH_SOURCE.\n"
        "       Each  element  of  FUNCNAME  has   corresponding   elements   in\n"
        "       BASH_LINENO and BASH_SOURCE to describe the call stack.\n",
        # fuser(1) in Korean
        "       fuser 는  지정  파일  또는  파일  시스템을  사용하는  프로세스의  PID를\n"
        "       나타냅니다.   기본  표시  모드에서,  각  파일 이름 다음에는 접근 형식을\n"
        "       나타내는 문자가 따라옵니다.\n",
    ],
)
def test_a_justified_paragraph_is_no_list_of_one_line_entries(paragraph: str) -> None:
    text = f"DESCRIPTION\n{paragraph}"
    assert [b.kind for b in analyse(text)] == [Kind.HEADING, Kind.PARAGRAPH]


def test_an_option_a_blank_line_above_its_description_is_a_term_with_it() -> None:
    text = (
        "OPTIONS\n"
        "       -n, --quiet\n\n"
        "              print nothing unless a command asks to print\n\n"
        "       -w N, --wrap=N\n\n"
        "              wrap output lines at column N\n"
    )
    s = analyse(text)
    assert _describes(text, s, "wrap output lines", "-w N, --wrap=N")
    assert _describes(text, s, "print nothing", "-n, --quiet")
    assert [kind for kind, _ in _blocks(text, s)].count(Kind.HEADING.name) == 1


@pytest.mark.parametrize(
    "wrapped",
    [
        # a full line of 36 two-column characters, wrapped inside a word
        "       下列選項決定程式輸出哪些統計資料。輸出的順序固定是行數、單詞數、字\n"
        "       元數、位元組數，最後是最長一行的長度。\n",
        "       通常は、一致する行があれば終了ステータスは 0 であり、一行も見\n"
        "       つからなければ 1 であり、エラーが起きた場合は 2 です。\n",
    ],
    ids=["chinese", "japanese"],
)
def test_a_full_cjk_line_wrapped_inside_a_word_goes_on(wrapped: str) -> None:
    sentences = [wrapped[a:b] for a, b in Passages.read(wrapped).spans]
    assert not any(s.endswith(("字", "見")) for s in sentences), sentences


def test_a_japanese_particle_after_an_ellipsis_goes_on_with_the_sentence() -> None:
    text = "入力を OUTaa, OUTab, ... という名前の部品に分けます。既定の大きさは 1000 行です。"
    assert [text[a:b] for a, b in Passages.read(text).spans] == [
        "入力を OUTaa, OUTab, ... という名前の部品に分けます。",
        "既定の大きさは 1000 行です。",
    ]


def test_a_blank_line_inside_a_descriptions_sentence_does_not_end_it() -> None:
    # help2man writes an option's --help text with its blank lines: timeout(1)
    text = (
        "       --keep-status\n\n"
        "              exit with the status of COMMAND, even when the\n\n"
        "              command runs out of time\n\n"
        "       --quiet\n"
        "              print nothing.\n\n"
        "              Warnings still go to standard error.\n"
    )
    s = analyse(text)
    assert _describes(text, s, "exit with the status", "--keep-status")
    description = s[_find(text, s, Kind.PARAGRAPH, "exit with the status")]
    assert text[description.start : description.end].endswith("runs out of time")
    # a description's next paragraph, opening a sentence of its own, stays apart
    assert _describes(text, s, "Warnings still", "--quiet")


def test_a_term_naming_a_range_of_options_is_one_term() -> None:
    # '-9' falls at the description's column, but it names the last of the presets
    text = (
        "       -0 ... -9\n"
        "              Select a compression preset level.  The default is -6.\n"
        "       -e, --extreme\n"
        "              Use a slower variant of the selected preset level.\n"
    )
    s = analyse(text)
    presets = s[_find(text, s, Kind.TERM, "-0 ... -9")]
    assert text[presets.start : presets.end] == "-0 ... -9"
    assert _describes(text, s, "Select a compression", "-0 ... -9")


def test_a_question_alone_over_its_answer_is_a_heading_and_a_run_of_questions_is_not() -> None:
    text = (
        "Contents\n\n"
        "1. Is it fast?\n2. Why is my insert slow?\n\n"
        "(2) Why is my insert slow?\n\n"
        "Each transaction waits for the disk.\n\n"
        "Why?\n\n"
        "Because the disk is slow.\n\n"
        "Does it matter at all?\n\n"
        "Is it worth the wait?\n"
    )
    s = analyse(text)
    title = _find(text, s, Kind.HEADING, "(2) Why is my insert slow?")
    assert s.parent(_find(text, s, Kind.PARAGRAPH, "Each transaction")) == title
    assert _find(text, s, Kind.ITEM, "2. Why is my insert slow?")  # the contents' item
    assert _find(text, s, Kind.PARAGRAPH, "Why?")  # too short to title anything
    assert _find(text, s, Kind.PARAGRAPH, "Does it matter")  # a question over a question


def test_a_pdf_s_code_comment_is_no_heading() -> None:
    # A PDF's text, as its extraction writes it: no Markdown.
    text = (
        "To rotate axis labels, draw them with text().\n\n"
        "## Plot the x axis label at line 6\n"
        'mtext(1, text = "X Axis Label", line = 6)\n'
    )
    assert not any(block.kind == Kind.HEADING for block in analyse(text, page_starts=[0]))
    assert _find(text, analyse(text), Kind.HEADING, "## Plot")  # a Markdown text's heading


def test_a_call_over_a_paragraph_at_its_margin_describes_that_paragraph_only() -> None:
    text = (
        'mtext(1, text = "X Axis Label", line = 6)\n'
        "When plotting the labels, srt = 45 sets the angle of the text.\n\n"
        "The offset of 0.25 moves the labels up or down from the axis.\n\n"
        "Use try(), which returns an object of class try-error instead of an error.\n"
    )
    s = analyse(text)
    term = _find(text, s, Kind.TERM, "mtext(1")
    assert s.parent(_find(text, s, Kind.PARAGRAPH, "When plotting")) == term
    assert s.parent(_find(text, s, Kind.PARAGRAPH, "The offset")) != term
    assert s.parent(_find(text, s, Kind.PARAGRAPH, "Use try()")) != term


@pytest.mark.parametrize(
    ("code", "settings"),
    [
        # A settings file: each setting under the section line above it.
        (
            "[profile.release]\nopt-level = 3\n\n[build]\njobs = 4",
            {"opt-level = 3": "[profile.release]", "jobs = 4": "[build]"},
        ),
        # A comment reads with the setting under it.
        ("# a comment\ncolor = auto", {"# a comment\ncolor = auto": ""}),
        # A program is no settings file, though a line of it assigns a value.
        ("const client = axios.create({\n  timeout: 1000,\n});", {}),
        ("x = 1\nprint(x)", {}),
    ],
)
def test_a_settings_blocks_lines_are_settings_under_their_sections(
    code: str, settings: dict[str, str]
) -> None:
    text = f"The defaults are:\n\n```\n{code}\n```\n"
    passages = Passages.read(text)
    found = {
        text[slice(*passages.spans[unit])]: (
            text[slice(*passages.spans[section])] if section >= 0 else ""
        )
        for unit, section in passages.settings.items()
    }
    assert found == settings


def test_an_info_files_chapters_hold_its_sections_whatever_markdown_ranks_first() -> None:
    # Texinfo underlines a chapter with '*' and a section with '='; Markdown ranks '=' first.
    text = (
        "1 Overview\n**********\n\nFetch downloads files.\n\n"
        "1.1 Download Options\n====================\n\nFetch retries.\n\n"
        "2 Startup File\n**************\n\nFetch reads .fetchrc upon startup.\n"
    )
    s = analyse(text)
    startup = _find(text, s, Kind.PARAGRAPH, "Fetch reads")
    assert [text[s[h].start : s[h].end] for h in s.heading_path(startup)] == ["2 Startup File"]


def test_an_option_opening_a_japanese_line_that_wraps_at_its_own_column_is_no_term() -> None:
    # passwd(1) in Japanese, set without justification: 'the -l flag and the -u flag ...'
    # opens a line with '-l' and a gap, and the sentence goes on at the same column below
    text = (
        "   アカウントの保守\n"
        "       -l  フラグと -u フラグを用いると、 ユーザアカウントをロックしたり、その\n"
        "       ロックを外したりできる。 -l オプションを用いると、 アカウントは使用不能\n"
        "       になる。\n"
    )
    blocks = _blocks(text, analyse(text))
    assert ("TERM", "-l") not in blocks
    assert blocks[-1] == (
        "PARAGRAPH",
        "-l フラグと -u フラグを用いると、 ユーザアカウントをロックしたり、その"
        " ロックを外したりできる。 -l オプションを用いると、 アカウントは使用不能 になる。",
    )


def test_one_line_entries_at_one_column_stay_a_list_of_terms() -> None:
    text = "OPTIONS\n       -a  show all entries\n       -l  use a long listing format\n"
    terms = [t for kind, t in _blocks(text, analyse(text)) if kind == "TERM"]
    assert terms == ["-a", "-l"]


def test_a_japanese_subsection_title_of_a_man_page_is_a_heading() -> None:
    # the subsection titles of passwd(1) in Japanese sit where English ones do, just inside
    # the margin over the indented text; they are no terms with the text as description
    text = (
        "説明\n"
        "       passwd はユーザアカウントのパスワードを変更する。\n\n"
        "   パスワードの有効期限情報\n"
        "       スーパーユーザは、パスワードの有効期限に関する情報を変更できる。\n"
    )
    kinds = _blocks(text, analyse(text))
    assert ("HEADING", "パスワードの有効期限情報") in kinds
    assert not [t for kind, t in kinds if kind == "TERM"]


VIM_HELP = (
    "*usr_09.txt*\tFor Vim version 9.0.  Last change: 2021 Feb 22\n\n"
    "==============================================================================\n"
    "*09.2*\tMarking places\n\n"
    "A mark remembers a position in the file.  To set mark a at the cursor: >\n\n"
    "\tma\n\n"
    "To jump back to it later: >\n\n"
    "\t'a\n"
    "\t`a\n\n"
    "Marks are kept in the viminfo file.\n"
)


def test_a_rule_above_a_title_is_no_text_and_the_title_a_heading() -> None:
    # Vim's help files: a line of '=' opens each section, over its tagged title
    blocks = _blocks(VIM_HELP, analyse(VIM_HELP))
    assert ("HEADING", "*09.2* Marking places") in blocks
    assert [k for k, t in blocks if t.startswith("====")] == ["FURNITURE"]


def test_a_line_ending_in_a_vim_example_marker_leads_in_to_its_code() -> None:
    # ' >' closing a line opens an example, indented, in Vim's help files
    blocks = _blocks(VIM_HELP, analyse(VIM_HELP))
    assert ("CODE", "ma") in blocks
    assert ("CODE", "'a `a") in blocks


VIM_OPTIONS = (
    "\t\t\t\t\t\t*'tabstop'* *'ts'*\n"
    "'tabstop' 'ts'\t\tnumber\t(default 8)\n"
    "\t\t\tlocal to buffer\n"
    "\tNumber of spaces that a <Tab> in the file counts for.  Also see\n"
    "\tthe |:retab| command.\n\n"
    "\tThe value must be more than 0 and less than 10000.\n\n"
    "*Note* the value is read when a file is opened.\n"
)


def test_vims_option_entry_is_a_term_qualified_on_its_second_line_over_its_description() -> None:
    # options.txt: right-set tags anchor the entry; 'local to buffer', deeper than the
    # description, says where the option applies
    blocks = _blocks(VIM_OPTIONS, analyse(VIM_OPTIONS))
    assert blocks[:3] == [
        ("FURNITURE", "*'tabstop'* *'ts'*"),
        ("TERM", "'tabstop' 'ts' number (default 8) local to buffer"),
        (
            "PARAGRAPH",
            "Number of spaces that a <Tab> in the file counts for. Also see the |:retab| command.",
        ),
    ]
    s = analyse(VIM_OPTIONS)
    description = _find(VIM_OPTIONS, s, Kind.PARAGRAPH, "The value must")
    assert s.parent(description) == 1  # the second paragraph is the entry's too
    assert blocks[-1] == ("PARAGRAPH", "*Note* the value is read when a file is opened.")


@pytest.mark.parametrize(
    ("text", "block"),
    [
        # a --help list's one-line entries, then a sentence at their column
        (
            "Options:\n  -a  show all entries\n  -v  be verbose\n  Exit status is 0 if OK.\n",
            ("TERM", "-v"),
        ),
        # a description whose first line is indented further is no qualifier of its term
        (
            "Term\n            First line with a first-line indent\n"
            "        of the definition goes on here.\n",
            ("TERM", "Term"),
        ),
        # a word emphasized on a line of its own, centred, is a title, not a Vim tag
        (
            "Read this first.\n\n                    *Note*\n\nIt matters.\n",
            ("HEADING", "*Note*"),
        ),
    ],
)
def test_the_vim_and_cjk_man_page_rules_leave_ordinary_text_as_it_was(
    text: str, block: tuple[str, str]
) -> None:
    assert block in _blocks(text, analyse(text))


@pytest.mark.parametrize(
    ("item", "alone"),
    [
        ("- [Stabilize `let else`](https://github.com/rust-lang/rust/pull/93628/)", False),
        ("- [Fix a leak](https://gitlab.example/a/b/-/merge_requests/12)", False),
        ("- [Report a bug](https://github.com/x/y/issues/new)", True),
        (
            "- [![GitHub issues](https://img.shields.io/github/issues/psf/requests)]"
            "(https://github.com/psf/requests/issues)",
            True,
        ),
    ],
)
def test_a_link_to_a_numbered_change_is_content_other_links_alone_are_not(
    item: str, alone: bool
) -> None:
    passages = Passages.read(f"Changes:\n\n{item}\n")
    assert passages.links_only(len(passages.spans) - 1) is alone


def test_an_unwrapped_man_page_keeps_its_capitalised_terms_and_long_synopses() -> None:
    # a man page written as Markdown (from its roff source, or an HTML <dl>): the margin
    # holds terms, and '#' marks the headings, so 'MAILCHECK' is an entry, not a section;
    # a command's synopsis is one line however long, and its options are inside it
    synopsis = "read [-ers] [-a aname] [-d delim] [-i text] [-n nchars] [-p prompt] [name ...]"
    text = (
        "# Shell Variables\n\nMAILCHECK\n    Specifies how often bash checks for mail.\n\n"
        f"# SHELL BUILTIN COMMANDS\n\n{synopsis}\n    One line is read.\n\n"
        "    -a aname\n        The words are assigned to an array.\n"
    )
    s = analyse(text)
    assert _describes(text, s, "Specifies how often", "MAILCHECK")
    option = _find(text, s, Kind.TERM, "-a aname")
    assert _find(text, s, Kind.TERM, "read [-ers]") in s.ancestors(option)
    # a man page as `man` shows it keeps its section titles
    shown = "SHELL VARIABLES\n       MAILCHECK\n              Specifies how often.\n"
    assert _kinds(shown)[0] == "HEADING"


def test_a_setext_title_over_a_man_style_readme_keeps_its_section_titles() -> None:
    text = "My Tool\n=======\n\nSYNOPSIS\n    mytool [options]\n\nDESCRIPTION\n    Frobs.\n"
    assert _kinds(text)[:3] == ["HEADING", "HEADING", "PARAGRAPH"]


@pytest.mark.parametrize("line", ["/usr/local/toolkit-#.#", "~/.config/tool/settings", "and"])
def test_a_path_or_a_joining_word_alone_is_no_title(line: str) -> None:
    text = f"Linux platform:\n\n{line}\n\nThe toolkit provides compilers and libraries.\n"
    assert Kind.HEADING.name not in _kinds(text)


def test_a_path_titling_its_own_section_is_still_a_title() -> None:
    text = (
        "API reference\n\n/health\n\nReturns 200 when the service is up.\n\n"
        "/metrics\n\nReturns the counters in Prometheus format.\n"
    )
    assert _kinds(text) == ["HEADING", "HEADING", "PARAGRAPH", "HEADING", "PARAGRAPH"]


def test_a_title_over_its_rule_keeps_the_rule_out_of_its_text() -> None:
    # NVIDIA's licence: a numbered title of two lines, and one of one line, each over a rule
    text = (
        "1. License Agreement for the SDK\n--------------------------------\n\n"
        "The SDK is licensed, not sold.\n\n"
        "2. Toolkit Supplement to the License Agreement for\nSoftware Development Kits\n"
        "--------------------------------------------------\n\n"
        "This supplement is an exhibit to the Agreement.\n"
    )
    assert _blocks(text, analyse(text)) == [
        ("ITEM", "1. License Agreement for the SDK"),
        ("FURNITURE", "--------------------------------"),
        ("PARAGRAPH", "The SDK is licensed, not sold."),
        ("HEADING", "2. Toolkit Supplement to the License Agreement for Software Development Kits"),
        ("PARAGRAPH", "This supplement is an exhibit to the Agreement."),
    ]


@pytest.mark.parametrize(
    ("text", "blocks"),
    [
        # a list over a rule is no title, nor an item with a line under it
        ("- alpha\n- beta\n--------\n", ["ITEM", "ITEM", "FURNITURE"]),
        ("* Foo bar\n  baz qux\n  ----------\n", ["ITEM"]),
        # reStructuredText's overline and underline are no text of the title
        ("=====\nUsage\n=====\n\nRun it.\n", ["HEADING", "PARAGRAPH"]),
    ],
)
def test_a_rule_under_a_list_or_over_a_title_makes_no_two_line_title(
    text: str, blocks: list[str]
) -> None:
    assert _kinds(text) == blocks
    headings = [t for kind, t in _blocks(text, analyse(text)) if kind == "HEADING"]
    assert all(t == "Usage" for t in headings), headings


def test_only_a_directive_that_runs_code_is_tried_as_python_however_many_come_first() -> None:
    images = ".. image:: map.png\n   :alt: a map\n\n" * 1_200  # each spends no try
    text = (
        images
        + ".. math::\n\n    a = b + c\n\n"
        + ".. note::\n\n    - foo()\n    - bar()\n\n"
        + ".. click:example::\n\n    x = run(1)\n"
    )
    blocks = _blocks(text, analyse(text))
    assert blocks[-1] == ("CODE", "x = run(1)")
    assert ("PARAGRAPH", "a = b + c") in blocks
    assert ("ITEM", "- foo()") in blocks
