"""Answers on loaded HTML pages and PDFs: the structure the loader keeps reaches the answer."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline import AskResult, Settings, ask, prompts, summarize
from pipeline.text.layout import analyse
from pipeline.text.structure import Kind
from tests.support.documents import pdf_drawn
from tests.support.fakes import FakeChatModel
from tests.support.shaped import (
    CUT_BY_PAGE_PAGES,
    HTML_DOCS_PAGE,
    HTML_REFERENCE,
    LIST_LED_PAST_PAGE,
    MANUAL_HEADER,
    ONE_COLUMN_PAGES,
    TWO_COLUMN_PAGES,
)


def _ask(path: Path, question: str) -> tuple[AskResult, str]:
    result = ask(path, question, include_documents=True)
    assert result.citations
    assert result.documents
    text = result.documents[0].text
    for citation in result.citations:
        assert text[citation.start : citation.end] == citation.quote  # still exact spans
    return result, text


def _page(tmp_path: Path) -> Path:
    path = tmp_path / "pumpkit.html"
    path.write_text(HTML_REFERENCE)
    return path


def test_an_html_definition_is_answered_with_its_term(tmp_path: Path) -> None:
    result, _ = _ask(_page(tmp_path), "What does the --drain option do?")
    assert result.answer.startswith("--drain: Empties the housing after the last run of the day.")


def test_an_html_table_row_is_shown_with_its_header_cells(tmp_path: Path) -> None:
    result, _ = _ask(_page(tmp_path), "What is the weight of the P-200?")
    assert result.answer.startswith("P-200 — Flow (l/min): 85; Weight (kg): 19")


def test_html_steps_come_whole_under_their_lead_in(tmp_path: Path) -> None:
    result, _ = _ask(_page(tmp_path), "How do I replace the filter?")
    assert result.answer.splitlines() == [
        "To replace the filter:",
        "1. Stop the pump.",
        "2. Unscrew the filter cap.",
        "3. Insert a new F7 cartridge.",
    ]


def test_html_pre_is_code_and_headings_are_headings(tmp_path: Path) -> None:
    _, text = _ask(_page(tmp_path), "How does a script run the pump at 60 litres a minute?")
    kinds = {text[b.start : b.end]: b.kind for b in analyse(text)}
    code = next(span for span, kind in kinds.items() if kind == Kind.CODE)
    assert "pump.run(rate=60)" in code
    assert code.startswith("```")
    assert kinds["## Models"] == Kind.HEADING
    assert kinds["# Pumpkit reference"] == Kind.HEADING


# A generated API reference (rustdoc's shape): each method's signature is a heading, its
# where clause a block inside it, its description the paragraphs under it.
RUST_REFERENCE = """<html><body><main><h1>Struct Stack</h1>
<p>A growable stack of values.</p>
<h4 class="code-header">pub fn retain&lt;F&gt;(&amp;mut self, f: F)<div class="where">where
F: FnMut(&amp;T) -&gt; bool,</div></h4>
<p>Retains only the values the predicate keeps.</p>
<h4 class="code-header">pub fn swap_remove(&amp;mut self, index: usize) -&gt; T</h4>
<p>Removes a value from the stack and returns it.</p>
<p>The removed value is replaced by the last value of the stack.</p>
<h4 class="code-header">pub fn pop(&amp;mut self) -&gt; Option&lt;T&gt;</h4>
<p>Removes the last value from a stack and returns it, or None if it is empty.</p>
</main></body></html>"""


def test_a_signature_heading_reads_as_the_call_its_description_says_it_does(
    tmp_path: Path,
) -> None:
    path = tmp_path / "stack.html"
    path.write_text(RUST_REFERENCE)
    result, _ = _ask(path, "What does retain do?")
    assert result.answer.startswith(
        "pub fn retain<F>(&mut self, f: F) where F: FnMut(&T) -> bool: Retains only the values"
    )
    # the description that does what is asked, under the call's name
    result, _ = _ask(path, "How do I remove the last value?")
    assert result.answer.startswith(
        "pub fn pop(&mut self) -> Option<T>: Removes the last value from a stack"
    )


def test_a_two_column_pdf_page_is_read_column_by_column(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    path.write_bytes(pdf_drawn(TWO_COLUMN_PAGES))
    result, _ = _ask(path, "How often is the filter replaced?")
    assert result.answer.startswith("The filter is replaced every 400 hours of use.")
    assert "primed" not in result.answer


def test_a_pdf_running_header_stays_out_of_the_answer(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    path.write_bytes(pdf_drawn(ONE_COLUMN_PAGES))
    result, _ = _ask(path, "When must the pump be primed?")
    assert result.answer.startswith("The pump must be primed before the first start.")
    assert MANUAL_HEADER not in result.answer
    result, _ = _ask(path, "How long does the warranty last?")
    assert result.answer.startswith("The warranty lasts five years from purchase.")


def test_a_sentence_a_page_break_cuts_reads_whole(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    path.write_bytes(pdf_drawn(CUT_BY_PAGE_PAGES))
    whole = "A pump left full in frost may crack its housing when the water in it freezes."
    for question in ("What happens to a pump left full in frost?", "When can the housing crack?"):
        result, _ = _ask(path, question)
        assert result.answer.startswith(whole)
        assert MANUAL_HEADER not in result.answer
        assert MANUAL_HEADER in result.citations[0].quote  # the span it reads across


def test_a_lead_in_a_page_break_cuts_reads_whole_with_its_list(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    path.write_bytes(pdf_drawn(LIST_LED_PAST_PAGE))
    lead = "Before the first start, the checks to perform are:"
    result, _ = _ask(path, "What are the checks before the first start?")
    assert result.answer.splitlines()[:4] == [
        lead,
        "- Open the bleed valve.",
        "- Fill the housing with clean water.",
        "- Close the bleed valve.",
    ]
    result, _ = _ask(path, "When is the housing filled with clean water?")
    assert result.answer.startswith(f"{lead} Fill the housing with clean water.")
    assert MANUAL_HEADER not in result.answer


def test_a_models_map_prompt_names_the_section_each_chunk_sits_in() -> None:
    parts = "\n\n".join(
        f"## Berth {p}\n\n" + " ".join(f"Ship {p}.{s} unloaded {s} tonnes." for s in range(40))
        for p in range(6)
    )
    model = FakeChatModel()
    ask(
        "# Harbour log\n\n" + parts,
        "How much did ship 4.7 unload?",
        model=model,
        settings=Settings(chunk_size=120, chunk_overlap=0),
    )
    maps = [p for p in model.prompts if prompts.EXCERPT_LABEL in p]
    assert len(maps) > 6
    sections = {m.group(1) for p in maps for m in [re.search(r'section="([^"]*)"', p)] if m}
    assert {"Harbour log > Berth 2", "Harbour log > Berth 5"} <= sections


def test_a_docs_page_summary_opens_with_the_page_not_its_navigation(tmp_path: Path) -> None:
    path = tmp_path / "tidekit.html"
    path.write_text(HTML_DOCS_PAGE)
    result = summarize(path, words=60, settings=Settings(cache="off"), include_documents=True)
    assert result.summary.startswith("Tidekit: tide predictions for harbours")
    for furniture in ("Navigation", "Table of Contents", "Previous topic", "Sphinx", "cookies"):
        assert furniture not in result.summary
    assert result.documents
    text = result.documents[0].text
    assert result.citations
    for citation in result.citations:
        assert text[citation.start : citation.end] == citation.quote


# A hand-made library page: its name only in <title> and in a sidebar linking every function.
LIBRARY_PAGE = """<html><head><title>Tidekit.js</title></head><body>
<div id="sidebar"><a class="toc_title" href="#">Tidekit.js (2.1)</a>
<ul><li>- <a href="#predict">predict</a></li><li>- <a href="#stations">stations</a></li></ul>
</div>
<div class="container">
<p>Tidekit is a JavaScript library that predicts the tides of a harbour.</p>
<p>There is a modular version with clickable import references as well.</p>
<h2 id="predict">predict</h2><p>Returns the next high and low waters of a station.</p>
</div></body></html>"""


def test_a_page_named_only_by_its_title_and_sidebar_opens_with_its_title(tmp_path: Path) -> None:
    path = tmp_path / "tidekit.html"
    path.write_text(LIBRARY_PAGE)
    result = summarize(path, words=40, settings=Settings(cache="off"), include_documents=True)
    assert result.summary.startswith(
        "Tidekit.js. Tidekit is a JavaScript library that predicts the tides of a harbour."
    )
    assert result.documents
    assert "- predict" not in result.documents[0].text  # the sidebar is furniture


def test_a_long_list_of_br_lines_is_read_line_by_line_not_cut_mid_line(tmp_path: Path) -> None:
    # An old-style NEWS page: one <li> per category, its entries on lines of their own.
    fixes = [f"Fix overflow number {n} in the date module (Ann Berg),<br />" for n in range(30)]
    fixes[17] = "Fix double free in the hash functions (Nick Wellnhofer),<br />"
    page = (
        '<html><head><meta charset="iso-8859-1"></head><body><h1>News</h1>'
        "<h3>1.1.29: May 24 2016</h3><ul><li>Bug Fixes:<br />\n"
        + "\n".join(fixes)
        + "</li></ul></body></html>"
    )
    path = tmp_path / "news.html"
    path.write_bytes(page.encode("latin-1"))
    result, text = _ask(path, "Which fix removed the double free in the hash functions?")
    assert "Fix double free in the hash functions" in result.answer
    lines = {line.strip() for line in text.splitlines()}
    for citation in result.citations:  # each one opens where a line of the page does
        assert any(line.startswith(citation.quote.split("\n")[0]) for line in lines)


# A FAQ set as a PDF: its questions in a larger type, no blank line anywhere.
FAQ_PDF_PAGES = [
    [
        (72, 720, "7.30 How do I load a package?", 14),
        (72, 700, "Load a package with library(), after installing it once."),
        (72, 686, "See Section 7.31 for more details."),
        (72, 660, "7.31 Why are these numbers not equal?", 14),
        (72, 640, "Numbers are rounded to 53 binary digits, so two sums that look"),
        (72, 626, "alike may differ in their last digit."),
        (72, 600, "7.32 How can I capture or ignore errors in a long", 14),
        (72, 584, "simulation?", 14),
        (72, 564, "Use try(), which returns an object of class try-error."),
    ]
]


def test_a_pdf_s_titles_set_in_larger_type_head_their_sections(tmp_path: Path) -> None:
    path = tmp_path / "faq.pdf"
    path.write_bytes(pdf_drawn(FAQ_PDF_PAGES))
    result, text = _ask(path, "Why are these numbers not equal?")
    assert result.answer.startswith(
        "7.31 Why are these numbers not equal? Numbers are rounded to 53 binary digits"
    ), result.answer
    headings = [text[b.start : b.end] for b in analyse(text) if b.kind == Kind.HEADING]
    assert headings[-1] == "7.32 How can I capture or ignore errors in a long simulation?"
