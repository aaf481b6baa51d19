"""Document loaders shared by the API and the CLI: type told by content, PDF pages, hard limits."""

from __future__ import annotations

import asyncio
import codecs
import os
import time
from pathlib import Path

import pytest

from pipeline import InputError, Settings, TooLargeError, UnsupportedTypeError, aask, ask
from pipeline.documents import from_bytes, load_documents, pdf
from pipeline.documents.html import html_text
from pipeline.documents.sniff import sniff_type
from tests.support.documents import html_page, pdf_bytes
from tests.support.fakes import FakeChatModel
from tests.support.shaped import HTML_DOCS_PAGE


def test_pdf_text_keeps_page_starts_that_point_at_each_page() -> None:
    pages = ["First page text.", "Second page text.", "Third page text."]
    loaded = from_bytes(pdf_bytes(pages), "three.pdf", Settings())
    for number, (start, page) in enumerate(zip(loaded.page_starts, pages, strict=True)):
        assert loaded.text[start : start + len(page)] == page, number


def test_a_pdf_larger_than_a_pipe_loads_when_its_reader_starts_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 100 KB of PDF is more than a pipe holds; polling every millisecond, the reader has
    # never started by the first poll (as on a busy machine), and the rest must still arrive.
    monkeypatch.setattr(pdf, "POLL_S", 0.001)
    pages = [f"Page {n} says the harbour opens at {n} o'clock. " * 20 for n in range(100)]
    raw = pdf_bytes(pages)
    assert len(raw) > 100_000
    loaded = from_bytes(raw, "big.pdf", Settings(load_timeout_s=20))
    assert len(loaded.page_starts) == 100
    assert "harbour opens at 99" in loaded.text


def test_library_and_cli_read_a_pdf_path_and_cite_its_page(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf_bytes(["Nothing relevant here.", "Ada Lovelace founded Acme Shipping."]))
    result = ask(path, "Who founded Acme Shipping?", model=FakeChatModel())
    assert result.citations[0].page == 2
    assert result.citations[0].document == "report.pdf"


@pytest.mark.parametrize(
    ("raw", "name", "kind"),
    [
        (pdf_bytes(["x"]), "notes.txt", "pdf"),
        (html_page("<p>x</p>").encode(), "page.txt", "html"),
        (b"<p>fragment</p>", "page.html", "html"),
        (b"# Title\n\nMarkdown <b>inline</b> stays text.", "notes.md", "text"),
        (codecs.BOM_UTF8 + b"<!DOCTYPE html><html></html>", "x", "html"),
    ],
    ids=["pdf-named-txt", "html-named-txt", "html-by-suffix", "markdown", "html-with-bom"],
)
def test_type_is_told_from_content_first(raw: bytes, name: str, kind: str) -> None:
    assert sniff_type(raw, name) == kind


def test_utf16_with_bom_and_utf8_bom_decode(tmp_path: Path) -> None:
    text = "Tromsø — 北極 résumé"
    for encoding in ("utf-16-le", "utf-16-be"):
        bom = codecs.BOM_UTF16_LE if encoding.endswith("le") else codecs.BOM_UTF16_BE
        assert from_bytes(bom + text.encode(encoding), "t.txt", Settings()).text == text
    assert from_bytes(codecs.BOM_UTF8 + text.encode(), "t.txt", Settings()).text == text


def test_html_loses_scripts_styles_and_tags_but_keeps_blocks_on_lines() -> None:
    page = html_page("<h1>Title</h1><p>One <a href='#'>link</a>.</p><ul><li>a</li><li>b</li></ul>")
    text = from_bytes(page.encode(), "p.html", Settings()).text
    assert text == "# Title\n\nOne link.\n\n- a\n- b"


def test_html_heading_link_marks_are_left_out_and_a_mark_in_the_title_stays() -> None:
    page = (
        '<h2>Child process<span><a class="mark" href="#child-process">#</a></span></h2>'
        '<p>It spawns.</p><h2><a href="#c">§</a> Calling C#</h2><p>It calls.</p>'
        '<dl><dt><code>exec()</code><a class="headerlink" href="#exec">¶</a></dt>'
        "<dd>Runs it.</dd></dl>"
    )
    assert html_text(page) == (
        "## Child process\n\nIt spawns.\n\n## Calling C#\n\nIt calls.\n\nexec()\n    Runs it."
    )


def test_a_block_inside_an_html_heading_runs_on_in_the_heading() -> None:
    # rustdoc writes a signature's where clause in a <div> inside its heading
    page = (
        '<h4 class="code-header">pub fn retain&lt;F&gt;(&amp;mut self, f: F)'
        '<div class="where">where F: FnMut(&amp;T) -&gt; bool,</div></h4>'
        "<p>Retains only the elements the predicate keeps.</p><h3>One<br>Two</h3>"
    )
    assert html_text(page) == (
        "#### pub fn retain<F>(&mut self, f: F) where F: FnMut(&T) -> bool,\n\n"
        "Retains only the elements the predicate keeps.\n\n### One Two"
    )


@pytest.mark.parametrize(
    ("page", "text"),
    [
        (
            "<div class=hdr><h1>Tide tables</div><div class=content>"
            "<div>High water is at 06:40.</div><div>Low water is at 12:52.</div></div>",
            "# Tide tables\n\nHigh water is at 06:40.\n\nLow water is at 12:52.",
        ),
        (
            "<ul><li><h3>Tides</li><li>Ports</li></ul><p>High water.</p><h2>a</br>b</h2>",
            "- Tides\n- Ports\n\nHigh water.\n\n## a b",
        ),
    ],
)
def test_an_html_heading_never_closed_ends_with_the_block_around_it(page: str, text: str) -> None:
    assert html_text(page) == text


def test_html_structure_is_written_as_markdown_the_structure_pass_reads() -> None:
    page = (
        "<h2>Use ¶</h2><ol><li>Open<ul><li>a<li>b</ul><li>Close</ol>"
        "<dl><dt>--drain</dt><dd><p>Empties it.</p><p>Daily.</p></dd><dt>--rate</dt><dd>Sets it."
        "</dl><table><tr><th><p>Model</p><th>Flow</th></tr><tr><td>P|1</td><td>40</td></tr>"
        "</table><pre>\nrun()\n  stop()</pre><p>a<br>b</p>"
    )
    assert html_text(page) == (
        "## Use\n\n1. Open\n   - a\n   - b\n2. Close\n\n--drain\n    Empties it.\n\n"
        "    Daily.\n\n--rate\n    Sets it.\n\n| Model | Flow |\n|---|---|\n| P\\|1 | 40 |\n\n"
        "```\nrun()\n  stop()\n```\n\na\nb"
    )


def test_deeply_nested_html_lists_stay_linear() -> None:
    depth = 20_000  # a line per level at full depth would be 20,000 x 80,000 characters
    text = html_text("<ul><li>x" * depth + "</li></ul>" * depth)
    assert len(text) < 40 * depth


def test_pdf_over_the_character_cap_is_refused() -> None:
    small = Settings(max_document_mb=0.00002)  # 20 characters
    with pytest.raises(TooLargeError):
        from_bytes(pdf_bytes(["This page has far more than twenty characters."]), "b.pdf", small)


def test_pdf_parse_past_its_time_limit_is_refused() -> None:
    hurried = Settings(load_timeout_s=0.001)
    with pytest.raises(TooLargeError, match="took more than"):
        from_bytes(pdf_bytes(["slow"]), "slow.pdf", hurried)


def test_unknown_binary_and_undecodable_text_are_told_apart() -> None:
    with pytest.raises(UnsupportedTypeError):
        from_bytes(b"\x1f\x8b\x08\x00compressed", "a.txt", Settings())
    with pytest.raises(InputError, match="UTF-8") as caught:
        from_bytes("naïve".encode("latin-1"), "a.txt", Settings())
    assert not isinstance(caught.value, UnsupportedTypeError)


@pytest.mark.parametrize(
    ("head", "codec"),
    [
        ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<html>', "latin-1"),
        (
            '<html><head><meta http-equiv="Content-Type" content="text/html; charset=koi8-r">',
            "koi8-r",
        ),
        ('<!DOCTYPE html><html><head><meta charset="shift_jis">', "shift_jis"),
    ],
    ids=["xml-declaration", "http-equiv", "meta-charset"],
)
def test_a_page_that_is_not_utf8_is_read_in_the_charset_it_declares(head: str, codec: str) -> None:
    body = {"latin-1": "Fix typos (Jan Pokorný)", "koi8-r": "Привет", "shift_jis": "日本語の説明"}
    raw = f"{head}<title>News</title></head><body><p>{body[codec]}.</p></body></html>"
    document = from_bytes(raw.encode(codec), "news.html", Settings())
    assert f"{body[codec]}." in document.text


def test_a_latin1_page_reads_windows_1252_quotes_as_browsers_do() -> None:
    raw = b'<meta charset="iso-8859-1"><p>\x93Quoted\x94 \x96 caf\xe9.</p>'
    assert "\u201cQuoted\u201d \u2013 café." in from_bytes(raw, "q.html", Settings()).text


def test_a_page_whose_bytes_do_not_fit_its_declared_charset_says_so() -> None:
    with pytest.raises(InputError, match="not valid shift_jis, the charset it declares"):
        from_bytes(b'<meta charset="shift_jis"><p>\x82</p>', "bad.html", Settings())
    with pytest.raises(InputError, match="not valid UTF-8"):  # nothing declared
        from_bytes(b"<html><p>caf\xe9</p></html>", "plain.html", Settings())


def test_loaded_pdf_documents_pass_validation_with_pages_intact() -> None:
    loaded = from_bytes(pdf_bytes(["One.", "Two."]), "two.pdf", Settings())
    (document,) = load_documents([loaded], Settings())
    assert document.page_starts == loaded.page_starts
    assert document.text == loaded.text


@pytest.mark.parametrize(
    "raw",
    [
        codecs.BOM_UTF16_LE + "odd".encode("utf-16-le") + b"x",  # an odd byte count
        codecs.BOM_UTF16_LE + b"a\x00\x00\xd8b\x00",  # a lone surrogate
        codecs.BOM_UTF8 + b"ok \xff\xfe not UTF-8",  # invalid UTF-8 after the BOM
    ],
    ids=["utf16-odd-length", "utf16-lone-surrogate", "utf8-bom-then-invalid"],
)
def test_text_with_a_bom_that_does_not_decode_is_an_input_error_with_a_hint(raw: bytes) -> None:
    with pytest.raises(InputError, match="not valid") as caught:
        from_bytes(raw, "notes.txt", Settings())
    assert "UTF" in caught.value.hint


def test_an_html_page_over_its_cpu_budget_is_refused() -> None:
    page = ("<html><body>" + "<b>word</b> " * 500_000 + "</body></html>").encode()  # 6 MB
    with pytest.raises(TooLargeError, match="took more than"):
        from_bytes(page, "big.html", Settings(load_timeout_s=0.05))


def test_html_text_is_the_visible_text_for_awkward_markup() -> None:
    page = (
        "<p class='a>b' title=\"c>d\">quoted</p><!-- <p>hidden</p> --><p>x &lt; y &amp; z</p>"
        "<noscript><p>no</p></noscript><template><p>no</p></template>"
        "<script>if (a</b) {}</script><style>p{}</style><p>a < b</p><div>unclosed <a href='"
    )
    assert html_text(page) == "quoted\n\nx < y & z\n\na < b\n\nunclosed"


def test_html_navigation_sidebars_and_footers_are_not_content() -> None:
    assert html_text(HTML_DOCS_PAGE) == (
        "# Tidekit: tide predictions for harbours\n\n"
        "Tidekit predicts the high and low waters of a harbour from its station's harmonic "
        "constants.\n\n## Stations\n\n"
        "Each station is read from the station table when Tidekit starts. "
        "The table lists 1,200 harbours.\n\n## Units\n\n"
        "Heights are given in metres unless the --feet option is set.\n\n"
        "Station notes are kept by each harbour.\n\nWritten by the harbour office."
    )


def test_html_sidebar_by_id_is_furniture_and_an_aside_of_the_text_is_content() -> None:
    page = (
        "<div id='sidebar'><ul><li>predict</li><li>stations</li></ul></div>"
        "<p>Tidekit predicts tides.</p><aside class='sidebar'><p>Important: read the "
        "tutorial first.</p></aside>"
    )
    assert html_text(page) == "Tidekit predicts tides.\n\nImportant: read the tutorial first."


def test_html_docbook_table_of_contents_is_furniture_unless_it_is_the_whole_page() -> None:
    entries = ["Installing", "Purging a package", "Pinning", "Mirrors", "Keys", "Logs"]
    contents = (
        "<div class='toc'><p><b>Table of Contents</b></p><dl class='toc'>"
        + "".join(f"<dt><a href='#s{n}'>1.{n}. {title}</a></dt>" for n, title in enumerate(entries))
        + "</dl></div>"
    )
    chapter = (
        f"<h1>1. Packages</h1>{contents}"
        "<h2 id='install'>1.1. Installing</h2><p>Install a package with the install command, "
        "which fetches it and everything it depends on from the archive. " * 3 + "</p>"
        "<h2 id='purge'>1.2. Purging a package</h2><p>Purge removes a package and the "
        "configuration files it left behind.</p>"
    )
    text = html_text(chapter)
    assert "Table of Contents" not in text
    assert text.count("Purging a package") == 1  # the section's heading, not its entry
    # a manual's front page is its contents: read whole
    assert "1.1. Purging a package" in html_text(f"<h1>Manual</h1>{contents}")


def test_html_element_styled_not_to_display_is_not_content() -> None:
    # SQLite's pragma page: each entry's title again in a hidden pseudo-heading, which
    # would run on from the entry before it in the loaded text.
    page = (
        "<p>This pragma lists one row for each foreign key of the table."
        "<h style='display: none'> PRAGMA foreign_keys</h><hr>"
        "<p><b>PRAGMA foreign_keys;</b></p><p>Query or set the enforcement of foreign keys.</p>"
    )
    text = html_text(page)
    assert "of the table.\n\nPRAGMA foreign_keys;" in text
    assert text.count("PRAGMA foreign_keys") == 1


def test_html_furniture_that_never_closes_loses_nothing() -> None:
    # where the unclosed <nav> ends cannot be told: all the page is kept
    assert html_text("<p>Intro.</p><nav><p>Home</p><p>The pump runs.</p>") == (
        "Intro.\n\nHome\n\nThe pump runs."
    )
    # a browser closes what is left open at </body>: that ends the sidebar
    page = "<body><p>The pump runs.</p><div role='navigation'><div>Home</body></html>"
    assert html_text(page) == "The pump runs."


def test_html_page_with_main_content_is_read_from_there_only() -> None:
    # a book generator's frame: a help pop-up and a theme menu that only its stylesheet hides
    page = (
        "<body><div id='help-popup'><h2>Keyboard shortcuts</h2><p>Press S to search.</p></div>"
        "<ul class='theme-list'><li>Light</li><li>Coal</li></ul>"
        "<div class='page'><main><h1>Command-line Arguments</h1>"
        "<div><p>Here is a list of flags.</p></div><h2>-O: optimize</h2>"
        "<p>A synonym for -C opt-level=3.</p></main></div>"
        "<p>Previous chapter</p></body>"
    )
    assert html_text(page) == (
        "# Command-line Arguments\n\nHere is a list of flags.\n\n"
        "## -O: optimize\n\nA synonym for -C opt-level=3."
    )
    # Sphinx marks it with a role; the divs nested inside it do not end it early
    sphinx = (
        "<div class='sidebar'><p>Quick search</p></div><div class='body' role='main'>"
        "<div class='section'><h1>Logging</h1><div><p>Loggers emit records.</p></div>"
        "<p>Handlers send them on.</p></div></div><div><p>Page source</p></div>"
    )
    assert html_text(sphinx) == "# Logging\n\nLoggers emit records.\n\nHandlers send them on."


def test_html_main_element_with_no_text_leaves_the_page_whole() -> None:
    # a page whose script fills <main> later: its text is elsewhere, nothing is lost
    page = "<body><main></main><p>The pump runs at night.</p></body>"
    assert html_text(page) == "The pump runs at night."


async def test_cancelling_an_ask_stops_the_html_parse_it_started(tmp_path: Path) -> None:
    page = tmp_path / "big.html"
    page.write_text("<html><body>" + "<i></i>" * 1_200_000 + "<p>Acme was founded.</p>")
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(aask(page, "Who founded Acme?"), 0.3)
    started = time.process_time()  # CPU of every thread of this process
    await asyncio.sleep(0.5)
    assert time.process_time() - started < 0.1


def pdf_children() -> list[int]:
    """Our child processes that are parsing a PDF."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and b"pdf_worker" in cmdline:
            found.append(int(stat.parent.name))
    return found


async def test_cancelling_an_ask_kills_the_pdf_parser_it_started(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf_bytes(["Acme was founded in Bergen."] * 200))
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(aask(path, "Where was Acme founded?"), 0.1)
    assert pdf_children() == []


@pytest.mark.slow
def test_a_pdf_larger_than_a_pipe_buffer_loads() -> None:
    line = "Berth seven handled more cargo this week than in any week before it."
    raw = pdf_bytes([f"{line * 3} Page {n}." for n in range(600)])  # ~270 KB: 4 pipe buffers
    assert len(raw) > 4 * 65_536
    loaded = from_bytes(raw, "big.pdf", Settings(load_timeout_s=30))
    assert len(loaded.page_starts) == 600
    assert loaded.text.startswith(line)


def test_a_table_that_frames_preformatted_text_keeps_its_lines() -> None:
    # DocBook puts a program listing in a one-cell shaded table.
    page = (
        "<p>Each font has these properties:</p>"
        '<table border="0" bgcolor="#E0E0E0"><tr><td><pre class="programlisting">'
        "  Property   Type    Description\n"
        "  family     String  Font family names\n"
        "  antialias  Bool    Whether glyphs can be antialiased\n"
        "</pre></td></tr></table><p>Some properties are used for matching.</p>"
    )
    lines = html_text(page).splitlines()
    assert "  antialias  Bool    Whether glyphs can be antialiased" in lines
    assert "Some properties are used for matching." in lines
    assert not any(line.startswith("|") for line in lines)
    result = ask({"id": "fonts.html", "text": html_text(page)}, "What does antialias do?")
    assert "antialias  Bool    Whether glyphs can be antialiased" in result.answer


def test_a_data_table_with_code_in_a_later_cell_stays_a_table() -> None:
    page = (
        "<table><tr><th>Option</th><th>Example</th></tr>"
        "<tr><td>verbose</td><td><pre>run -v</pre></td></tr></table>"
    )
    assert html_text(page).splitlines()[:3] == [
        "| Option | Example |",
        "|---|---|",
        "| verbose | run -v |",
    ]


def test_a_long_text_loses_its_control_characters_and_keeps_everything_else() -> None:
    from pipeline.text.clean import ENCODE_BLOCK, clean_text

    text = "Ünïcode 國 😀 line\tone\r\n" * (ENCODE_BLOCK // 10)  # blocks of any script
    assert clean_text(text, "the document") is text  # nothing to remove: not copied
    dirty = text + "late\x00 bell\x07 form\x0c feed\x7f"
    assert clean_text(dirty, "the document") == text + "late bell form feed"


def test_a_lone_surrogate_past_the_first_block_is_refused() -> None:
    from pipeline.text.clean import ENCODE_BLOCK, clean_text

    with pytest.raises(InputError, match="lone surrogate"):
        clean_text("x" * (3 * ENCODE_BLOCK) + "\udce9", "the document")
