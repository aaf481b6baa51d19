"""Every HTTP error status the API promises, each with the JSON error body and a hint."""

from __future__ import annotations

import asyncio
import io
import zipfile
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from api import create_app
from api.limits import DRAIN_BYTES, max_body_bytes
from pipeline import Settings
from tests.support.documents import encrypted_pdf_bytes, pdf_bytes
from tests.support.fakes import FakeChatModel
from tests.support.http import assert_error, client_for
from tests.support.texts import ACME_NOTE, ACME_QUESTION


async def ask_file(client: httpx.AsyncClient, name: str, data: bytes) -> httpx.Response:
    return await client.post(
        "/v1/ask",
        files=[("file", (name, data, "application/octet-stream"))],
        data={"question": ACME_QUESTION},
    )


# ---- 401 ----


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Bearer wrong"}, 401),
        ({"X-API-Key": "wrong"}, 401),
        ({"Authorization": "Bearer key-2"}, 200),
        ({"X-API-Key": "key-1"}, 200),
    ],
    ids=["none", "bad-bearer", "bad-x-api-key", "good-bearer", "good-x-api-key"],
)
async def test_api_keys_gate_v1_routes(
    settings: Settings, headers: dict[str, str], status: int
) -> None:
    async with await client_for(settings.model_copy(update={"api_keys": "key-1, key-2"})) as http:
        response = await http.post(
            "/v1/ask", json={"question": ACME_QUESTION, "document": ACME_NOTE}, headers=headers
        )
    assert response.status_code == status, response.text
    if status == 401:
        assert_error(response, 401, "unauthorized")
        assert response.headers["www-authenticate"] == "Bearer"


# ---- 413 ----


async def test_declared_oversized_body_is_refused_before_reading(settings: Settings) -> None:
    small = settings.model_copy(update={"max_document_mb": 0.01})  # 10 KB + 64 KiB slack
    async with await client_for(small) as http:
        response = await http.post(
            "/v1/ask", content=b"x" * 200_000, headers={"content-type": "application/json"}
        )
    assert_error(response, 413, "too_large")


async def test_chunked_oversized_body_is_refused_and_read_no_further_than_the_drain_cap(
    settings: Settings,
) -> None:
    small = settings.model_copy(update={"max_document_mb": 0.01})
    sent = 0

    async def body() -> AsyncIterator[bytes]:
        nonlocal sent
        for _ in range(3000):  # 196 MB if nobody stops it
            sent += 65536
            yield b"a" * 65536

    async with await client_for(small) as http:
        response = await http.post(
            "/v1/ask", content=body(), headers={"content-type": "application/json"}
        )
    assert_error(response, 413, "too_large")
    # Read and thrown away (never held) up to the drain cap, so a client can read the 413.
    assert sent < max_body_bytes(small) + DRAIN_BYTES + 65536 * 2


async def test_document_over_the_character_limit_is_413(settings: Settings) -> None:
    small = settings.model_copy(update={"max_document_mb": 0.01})
    async with await client_for(small) as http:
        response = await http.post(
            "/v1/ask", json={"question": ACME_QUESTION, "document": "a " * 20_000}
        )
    assert_error(response, 413, "too_large")


async def test_question_over_the_limit_is_413(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/ask", json={"question": "why " * 2000, "document": ACME_NOTE})
    assert_error(response, 413, "too_large")


async def test_too_many_chunks_is_413(settings: Settings) -> None:
    few = settings.model_copy(update={"max_chunks": 2})
    async with await client_for(few) as http:
        response = await http.post(
            "/v1/ask", json={"question": ACME_QUESTION, "document": ACME_NOTE * 30}
        )
    assert_error(response, 413, "too_large")


async def test_pdf_over_the_page_cap_is_413(settings: Settings) -> None:
    capped = settings.model_copy(update={"pdf_max_pages": 2})
    async with await client_for(capped) as http:
        response = await ask_file(http, "long.pdf", pdf_bytes(["a", "b", "c"]))
    assert_error(response, 413, "too_large")


# ---- 415 ----


async def test_body_that_is_neither_json_nor_multipart_is_415(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/ask", content=ACME_NOTE, headers={"content-type": "text/plain"}
    )
    assert_error(response, 415, "unsupported_type")


def _workbook() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    return buffer.getvalue()


@pytest.mark.parametrize(
    "data",
    [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", _workbook(), b"abc\x00\x01\x02def"],
    ids=["png", "xlsx-zip", "nul-bytes"],
)
async def test_binary_upload_is_415_whatever_its_name(
    client: httpx.AsyncClient, data: bytes
) -> None:
    assert_error(await ask_file(client, "notes.txt", data), 415, "unsupported_type")


# ---- 422 ----


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("empty.txt", b"   \n ", "empty"),
        ("latin1.txt", "café crème".encode("latin-1"), "UTF-8"),
        ("locked.pdf", encrypted_pdf_bytes(["Ada founded Acme."]), "encrypted"),
        ("broken.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog", "not a readable PDF"),
        ("scan.pdf", pdf_bytes(["", ""]), "no extractable text"),
        ("cut.docx", b"PK\x03\x04\x14\x00\x06\x00", "damaged ZIP archive"),
    ],
    ids=["empty", "not-utf8", "encrypted-pdf", "malformed-pdf", "no-text-pdf", "damaged-docx"],
)
async def test_unusable_document_is_422_saying_why(
    client: httpx.AsyncClient, name: str, data: bytes, words: str
) -> None:
    error = assert_error(await ask_file(client, name, data), 422, "invalid_input")
    assert words in error["message"]


@pytest.mark.parametrize(
    "body",
    [
        {"question": ACME_QUESTION},
        {"question": ACME_QUESTION, "document": ACME_NOTE, "documents": [{"text": ACME_NOTE}]},
        {"question": 42, "document": ACME_NOTE},
        {"question": ACME_QUESTION, "documents": []},
        {"question": ACME_QUESTION, "document": ACME_NOTE, "options": {"chunk_size": -1}},
        {
            "question": ACME_QUESTION,
            "document": ACME_NOTE,
            "options": {"chunk_size": 60, "chunk_overlap": 60},
        },
        {"question": ACME_QUESTION, "document": ACME_NOTE, "surprise": True},
        {"question": "", "document": ACME_NOTE},
        [1, 2, 3],
    ],
    ids=[
        "no-document",
        "two-sources",
        "question-not-text",
        "no-documents",
        "bad-option",
        "options-conflict",
        "unknown-field",
        "empty-question",
        "not-an-object",
    ],
)
async def test_invalid_fields_are_422(client: httpx.AsyncClient, body: Any) -> None:
    assert_error(await client.post("/v1/ask", json=body), 422, "invalid_input")


async def test_options_that_conflict_say_which_fields(client: httpx.AsyncClient) -> None:
    options = {"chunk_size": 60, "chunk_overlap": 60}
    body = {"question": ACME_QUESTION, "document": ACME_NOTE, "options": options}
    error = assert_error(await client.post("/v1/ask", json=body), 422, "invalid_input")
    assert (
        error["message"]
        == "invalid options: chunk_overlap (60) must be smaller than chunk_size (60)"
    )


@pytest.mark.parametrize(
    "raw",
    [
        b'{"question": "who?", "document": "\\ud800 lone surrogate"}',
        b'{"question": "\\udfff", "document": "text"}',
        b'{"question": "who?", "document": ',
        b"\xff\xfe not json",
    ],
    ids=["surrogate-in-document", "surrogate-in-question", "truncated-json", "bad-bytes"],
)
async def test_broken_json_and_lone_surrogates_are_422(
    client: httpx.AsyncClient, raw: bytes
) -> None:
    response = await client.post(
        "/v1/ask", content=raw, headers={"content-type": "application/json"}
    )
    assert_error(response, 422, "invalid_input")


async def test_nul_and_control_characters_are_stripped_not_fatal(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/ask",
        json={"question": ACME_QUESTION, "document": "Ada\x00 Lovelace\x07 founded Acme."},
    )
    assert response.status_code == 200, response.text
    assert "\x00" not in response.json()["citations"][0]["quote"]


async def test_malformed_multipart_is_422(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/ask",
        content=b"--xyz\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--xyz--\r\n",
        headers={"content-type": "multipart/form-data; boundary=xyz"},
    )
    assert_error(response, 422, "invalid_input")


async def test_summary_instructions_over_the_limit_are_422_as_json_and_as_multipart(
    client: httpx.AsyncClient,
) -> None:
    instructions = "Focus on the money. " * 201  # 4,020 characters; the limit is 4,000
    as_json = await client.post(
        "/v1/summarize", json={"document": ACME_NOTE, "instructions": instructions}
    )
    as_form = await client.post(
        "/v1/summarize",
        files=[("file", ("report.txt", ACME_NOTE.encode(), "text/plain"))],
        data={"instructions": instructions},
    )
    for response in (as_json, as_form):
        assert "instructions" in assert_error(response, 422, "invalid_input")["message"]


# ---- 404 / 405 ----


async def test_unknown_route_and_wrong_method_use_the_error_body(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/v2/nothing"), 404, "not_found")
    assert_error(await client.get("/v1/ask"), 405, "method_not_allowed")


# ---- 429 ----


async def test_requests_past_the_queue_limit_get_429_with_retry_after(settings: Settings) -> None:
    one = settings.model_copy(update={"max_queued_requests": 1})
    async with await client_for(one, FakeChatModel(latency=0.3)) as http:
        body = {"question": ACME_QUESTION, "document": ACME_NOTE}
        first = asyncio.create_task(http.post("/v1/ask", json=body))
        await asyncio.sleep(0.1)
        second = await http.post("/v1/ask", json=body)
        assert (await first).status_code == 200
        third = await http.post("/v1/ask", json=body)
    assert_error(second, 429, "busy")
    assert int(second.headers["retry-after"]) >= 1
    assert third.status_code == 200  # the slot came back


# ---- 500 (server configuration) ----


async def test_server_misconfiguration_is_500_config_error(settings: Settings) -> None:
    broken = settings.model_copy(update={"provider": "openai", "model": ""})
    app = create_app(broken, model=None)  # no model, and the provider has no model name
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://localhost"
    ) as http:
        response = await http.post(
            "/v1/ask", json={"question": ACME_QUESTION, "document": ACME_NOTE}
        )
    assert_error(response, 500, "config_error")


# ---- 502 / 504 ----


async def test_model_failing_on_every_chunk_is_502(settings: Settings) -> None:
    async with await client_for(settings.model_copy(update={"max_retries": 0})) as http:
        response = await http.post(
            "/v1/ask", json={"question": ACME_QUESTION, "document": "FAIL_ALWAYS here. " * 30}
        )
    assert_error(response, 502, "model_error")


async def test_model_call_timeout_is_504(settings: Settings) -> None:
    slow = settings.model_copy(update={"call_timeout_s": 0.05, "max_retries": 0})
    async with await client_for(slow, FakeChatModel(latency=1.0)) as http:
        response = await http.post(
            "/v1/ask", json={"question": ACME_QUESTION, "document": ACME_NOTE}
        )
    assert response.status_code == 504, response.text
    assert response.json()["error"]["code"] in {"model_timeout", "model_error"}


async def test_request_past_its_time_limit_is_504(settings: Settings) -> None:
    slow = settings.model_copy(update={"request_timeout_s": 0.2})
    async with await client_for(slow, FakeChatModel(latency=0.5)) as http:
        response = await http.post(
            "/v1/ask", json={"question": ACME_QUESTION, "document": ACME_NOTE}
        )
    assert_error(response, 504, "request_timeout")
