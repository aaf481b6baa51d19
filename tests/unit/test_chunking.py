"""Chunking: exact offsets, token sizes, CJK sentence ends, document ids kept."""

from __future__ import annotations

import itertools

from pipeline import Settings
from pipeline.graph.chunking import split_documents
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
