"""Chunking: exact offsets, token sizes, CJK sentence ends, document ids, edits stay local."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from pipeline import Settings
from pipeline.graph.chunking import quantised_chars_per_token, split_documents
from pipeline.text.boundaries import Break, Sizes, candidate_breaks, content_defined_cuts
from pipeline.text.layout import analyse
from pipeline.text.structure import Kind
from pipeline.text.tokens import count_tokens
from pipeline.types import DocumentText


def test_chunks_slice_back_exactly_even_when_text_repeats() -> None:
    text = "The same sentence again. " * 400
    chunks = split_documents([DocumentText(id="d", text=text)], Settings(chunk_size=100))
    assert len(chunks) > 5
    for chunk in chunks:
        assert text[chunk["start"] : chunk["end"]] == chunk["text"]
    starts = [c["start"] for c in chunks]
    assert starts == sorted(set(starts)), "each chunk should sit at its own offset"


def test_chunks_stay_within_the_token_size() -> None:
    text = "\n\n".join(f"Paragraph {i} describes cargo flows at berth {i}." * 5 for i in range(200))
    settings = Settings(chunk_size=120, chunk_overlap=10)
    chunks = split_documents([DocumentText(id="d", text=text)], settings)
    assert max(count_tokens(c["text"]) for c in chunks) <= 120


def test_japanese_text_is_cut_at_sentence_ends() -> None:
    text = "".join(f"第{i}章では茶畑の歴史を説明します。" for i in range(300))
    chunks = split_documents([DocumentText(id="ja", text=text)], Settings(chunk_size=100))
    assert len(chunks) > 5
    assert all(c["text"].rstrip().endswith("。") for c in chunks[:-1])
    assert max(count_tokens(c["text"]) for c in chunks) <= 100


def test_chunks_keep_their_document_and_number_across_documents() -> None:
    documents = [
        DocumentText(id="a", text="Alpha text. " * 200),
        DocumentText(id="b", text="Beta text. " * 200),
    ]
    chunks = split_documents(documents, Settings(chunk_size=100))
    assert [c["id"] for c in chunks] == list(range(len(chunks)))
    assert {c["document"] for c in chunks} == {"a", "b"}
    first_b = next(c for c in chunks if c["document"] == "b")
    assert first_b["start"] == 0


def test_overlap_repeats_text_between_neighbours() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(400))
    chunks = split_documents(
        [DocumentText(id="d", text=text)], Settings(chunk_size=100, chunk_overlap=20)
    )
    assert any(b["start"] < a["end"] for a, b in itertools.pairwise(chunks))


def paragraphs(count: int, *, sentences: int = 4) -> str:
    return "\n\n".join(
        " ".join(
            f"Berth {p} handled {p * 7 + s} tonnes of cargo in week {s}." for s in range(sentences)
        )
        for p in range(count)
    )


def chunk_texts(text: str, settings: Settings) -> list[str]:
    return [c["text"] for c in split_documents([DocumentText(id="d", text=text)], settings)]


def test_a_paragraph_inserted_anywhere_changes_only_the_chunks_around_it() -> None:
    """At the default size; a greedy splitter re-cuts every chunk after such an edit here."""
    settings = Settings()
    inserted = "A new paragraph about the harbour master was added. It has two sentences.\n\n"
    for text in (paragraphs(1200), paragraphs(1200).replace("\n\n", " ")):  # with and without
        before = set(chunk_texts(text, settings))
        assert len(before) > 40
        starts = [m.end() for m in re.finditer(r"\n\n|\. ", text)]
        changed = []
        for at in starts[10 :: len(starts) // 30]:
            after = chunk_texts(text[:at] + inserted + text[at:], settings)
            changed.append(len(set(after) - before))
        assert min(changed) >= 1
        assert sum(changed) / len(changed) <= 1.5, changed
        assert max(changed) <= 8, changed


def test_the_overlap_starts_on_a_sentence_and_repeats_the_text_before() -> None:
    text = paragraphs(100)
    chunks = split_documents([DocumentText(id="d", text=text)], Settings(chunk_size=150))
    for before, after in itertools.pairwise(chunks):
        assert after["start"] < before["end"] <= after["end"]
        assert text[after["start"]].isupper(), "the repeated text begins a sentence"


def test_the_breaks_fed_in_decide_where_cuts_may_fall() -> None:
    """The hook structure-aware chunking uses: drop breaks inside tables, add headings."""
    table = "".join(f"| berth {i} | {i * 7} tonnes |\n" for i in range(30))
    text = "".join(f"## Part {i}\n" + paragraphs(3) + "\n\n" + table + "\n" for i in range(40))
    rows = [(m.start(), m.end()) for m in re.finditer(r"(?:\|[^\n]*\n)+", text)]
    headings = [m.start() for m in re.finditer("## Part", text)][1:]

    def outside_tables(text: str, start: int, stop: int) -> Iterator[Break]:
        for offset, level in candidate_breaks(text, start, stop):
            if not any(a < offset < b for a, b in rows):
                yield offset, level

    cuts = content_defined_cuts(text, Sizes.up_to(3000), outside_tables)
    assert len(cuts) > 10
    assert not [cut for cut in cuts if any(a < cut < b for a, b in rows)]
    inside = [c for c, _ in candidate_breaks(text, 0, len(text)) if any(a < c < b for a, b in rows)]
    assert inside, "row ends are line breaks, which the filter had to drop"

    def only_headings(text: str, start: int, stop: int) -> Iterator[Break]:
        yield from ((h, 3) for h in headings if h >= start)

    assert set(content_defined_cuts(text, Sizes.up_to(3000), only_headings)) <= set(headings)


def test_text_without_any_break_is_cut_at_words_then_hard() -> None:
    words = "cargo " * 3000
    cuts = content_defined_cuts(words, Sizes.up_to(1000))
    assert cuts
    assert all(words[cut - 1] == " " for cut in cuts)
    solid = "x" * 3000
    assert content_defined_cuts(solid, Sizes.up_to(1000)) == [1000, 2000]


def test_a_small_edit_does_not_change_the_chunk_size() -> None:
    text = paragraphs(50)
    assert quantised_chars_per_token(text) == quantised_chars_per_token(text + " One more.") == 4
    japanese = "港の貨物は週ごとに増えた。" * 50
    assert quantised_chars_per_token(japanese) == quantised_chars_per_token(japanese + "新しい文。")


def structured_report(parts: int) -> str:
    """Sections of prose, hard-wrapped list items of two sentences and rows holding '. '."""
    sections = []
    for p in range(parts):
        items = "".join(
            f"- Crane {p}.{i} lifts {i * 3} tonnes. It was serviced in\n  week {i} of the year.\n"
            for i in range(6)
        )
        rows = "".join(
            f"| Berth {p}.{i} | Cargo fell. Then rose to {i * 9} t. |\n" for i in range(6)
        )
        sections.append(
            f"## Part {p}\n\n{paragraphs(2)}\n\nThe cranes:\n\n{items}\n"
            f"| Berth | Note |\n|---|---|\n{rows}"
        )
    return "# Harbour report\n\n" + "\n".join(sections)


def _inside_units(text: str, offsets: list[int]) -> list[int]:
    units = [(b.start, b.end) for b in analyse(text) if b.kind in (Kind.ITEM, Kind.ROW)]
    return [at for at in offsets if any(start < at < end for start, end in units)]


def test_a_models_chunks_never_cut_a_row_or_item_and_carry_their_heading_path() -> None:
    text = structured_report(30)
    document = [DocumentText(id="d", text=text)]
    settings = Settings(chunk_size=120, chunk_overlap=20)
    plain = split_documents(document, settings)
    assert _inside_units(text, [c["end"] for c in plain]), "a plain split does cut them"
    chunks = split_documents(document, settings, structured=True)
    assert len(chunks) > 20
    assert not _inside_units(text, [c["end"] for c in chunks] + [c["start"] for c in chunks])
    for chunk in chunks:
        part = text.rfind("## Part ", 0, chunk["start"] + 1)
        if part < 0:
            assert chunk["section"] == []
            continue
        heading = text[part + 3 : text.index("\n", part)]
        own_first_line = part == chunk["start"]
        assert chunk["section"] == (
            ["Harbour report"] if own_first_line else ["Harbour report", heading]
        )


def test_a_models_chunks_stay_content_defined_after_an_edit() -> None:
    text = structured_report(60)
    settings = Settings(chunk_size=300, chunk_overlap=0)

    def texts(text: str) -> set[str]:
        document = [DocumentText(id="d", text=text)]
        return {c["text"] for c in split_documents(document, settings, structured=True)}

    before = texts(text)
    assert len(before) > 30
    inserted = "A new paragraph about the harbour master. It has two sentences.\n\n"
    changed = []
    for at in [m.start() for m in re.finditer("The cranes:", text)][5::9]:
        changed.append(len(texts(text[:at] + inserted + text[at:]) - before))
    assert max(changed) <= 3, changed


def test_a_pdfs_chunks_carry_the_page_starts_inside_them() -> None:
    pages = [paragraphs(8) for _ in range(6)]
    text = "\n\n".join(pages)
    starts = [sum(len(p) + 2 for p in pages[:i]) for i in range(6)]
    document = DocumentText(id="d.pdf", text=text, page_starts=starts)
    chunks = split_documents([document], Settings(chunk_size=300))
    assert len(chunks) > 3
    for chunk in chunks:
        inside = [s - chunk["start"] for s in starts if chunk["start"] < s < chunk["end"]]
        assert chunk["page_starts"] == [0, *inside]
    assert "page_starts" not in split_documents([DocumentText(id="t", text=text)], Settings())[0]


def _markdown_with_code(blocks: int) -> str:
    """A README's shape: prose, then a long example in a fence, block after block."""
    parts = []
    for i in range(blocks):
        code = "\n".join(
            f"client.send(request_{i}_{j});  // step {j} of the example" for j in range(12)
        )
        parts.append(
            f"## Example {i}\n\nThe client sends request {i} in order.\n\n```js\n{code}\n```"
        )
    return "\n\n".join(parts)


def test_no_chunk_starts_inside_a_fenced_code_block() -> None:
    text = _markdown_with_code(30)
    settings = Settings(chunk_size=400, chunk_overlap=60)
    chunks = split_documents([DocumentText(id="d", text=text)], settings, 400)
    assert len(chunks) > 10
    fences = [m.start() for m in re.finditer(r"^```", text, re.MULTILINE)]
    blocks = list(zip(fences[::2], fences[1::2], strict=True))
    for chunk in chunks:
        assert not any(start < chunk["start"] <= end for start, end in blocks), chunk["start"]
        # so each chunk's own reading of its fences is the document's: code stays code
        kinds = {
            chunk["text"][b.start : b.end].split("\n")[0]: b.kind for b in analyse(chunk["text"])
        }
        assert all(
            kind != Kind.CODE for line, kind in kinds.items() if line.startswith("The client")
        )


def test_breaks_searched_up_to_a_stop_are_those_of_the_whole_text() -> None:
    text = paragraphs(40) + "\n\nno break here " * 50 + "Mr. Smith said so.  \n\n\nEnd"
    whole = list(candidate_breaks(text, 0, len(text)))
    for stop in range(0, len(text) + 1, 7):
        found = [b for b in candidate_breaks(text, 0, stop) if b[0] < stop]
        assert found == [b for b in whole if b[0] < stop]


def test_a_code_block_longer_than_a_chunk_is_cut_at_a_line_end() -> None:
    lines = [f"    const value{i} = compute(input, {i}, options);" for i in range(200)]
    text = "The whole client:\n\n```js\n" + "\n".join(lines) + "\n```\n\nThat is all."
    settings = Settings(chunk_size=400, chunk_overlap=0)
    chunks = split_documents([DocumentText(id="d", text=text)], settings, 400)
    assert len(chunks) > 3
    for chunk in chunks[1:]:  # each one opens on a whole line of the code
        assert text[chunk["start"] - 1] == "\n", chunk["text"][:40]
