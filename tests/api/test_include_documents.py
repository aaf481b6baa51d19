"""include_documents: results carry the loaded texts, so a page can show each citation in place."""

from __future__ import annotations

import json

import httpx

from pipeline import Settings
from pipeline.service import ask, summarize
from tests.support.documents import pdf_bytes
from tests.support.http import sse_events
from tests.support.texts import ACME_NOTE, ACME_QUESTION


def test_library_result_carries_loaded_texts_only_when_asked() -> None:
    plain = ask(ACME_NOTE, ACME_QUESTION)
    assert plain.documents is None
    assert "documents" not in plain.model_dump()  # absent, not null, unless asked for
    result = ask({"id": "r.txt", "text": ACME_NOTE}, ACME_QUESTION, include_documents=True)
    assert result.documents is not None
    [document] = result.documents
    assert (document.id, document.text, document.page_starts) == ("r.txt", ACME_NOTE, [])
    for citation in result.citations:
        assert document.text[citation.start : citation.end] == citation.quote
    summary = summarize(ACME_NOTE, include_documents=True, settings=Settings(summary_words=20))
    assert summary.documents is not None
    assert summary.documents[0].text == ACME_NOTE


async def test_uploaded_pdf_text_and_page_starts_locate_each_citation(
    client: httpx.AsyncClient,
) -> None:
    pdf = pdf_bytes(["The weather was calm.", "Ada Lovelace founded Acme Shipping."])
    response = await client.post(
        "/v1/ask",
        files=[("file", ("report.pdf", pdf, "application/octet-stream"))],
        data={"question": ACME_QUESTION, "include_documents": "true"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    [document] = body["documents"]
    assert document["id"] == "report.pdf"
    assert len(document["page_starts"]) == 2
    citation = body["citations"][0]
    assert document["text"][citation["start"] : citation["end"]] == citation["quote"]
    # The page is the last page that starts at or before the citation.
    page = sum(1 for start in document["page_starts"] if start <= citation["start"])
    assert page == citation["page"] == 2


async def test_streamed_result_carries_texts_when_asked_and_not_otherwise(
    client: httpx.AsyncClient,
) -> None:
    for include in (True, False):
        response = await client.post(
            "/v1/summarize",
            json={"document": ACME_NOTE, "include_documents": include},
            headers={"Accept": "text/event-stream"},
        )
        assert response.status_code == 200, response.text
        name, result = sse_events(response.text)[-1]
        assert name == "result"
        assert ("documents" in result) is include
        if include:
            assert result["documents"] == [{"id": "doc1", "text": ACME_NOTE, "page_starts": []}]


async def test_json_ask_without_the_flag_has_no_documents_key(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/ask", json={"question": ACME_QUESTION, "document": ACME_NOTE})
    assert response.status_code == 200, response.text
    assert "documents" not in response.json()


async def test_invalid_include_documents_field_is_a_readable_422(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        "/v1/ask",
        files=[("file", ("r.txt", ACME_NOTE.encode(), "text/plain"))],
        data={"question": ACME_QUESTION, "include_documents": "perhaps"},
    )
    assert response.status_code == 422, response.text
    assert "include_documents" in json.dumps(response.json()["error"])
