"""Chat threads over HTTP: create, talk with and without documents, read back, delete."""

from __future__ import annotations

import asyncio

import httpx

from pipeline import Settings
from tests.support.fakes import FakeChatModel
from tests.support.http import assert_error, client_for
from tests.support.texts import ACME_NOTE, ACME_QUESTION


async def test_thread_lifecycle_keeps_history_and_then_is_gone(client: httpx.AsyncClient) -> None:
    created = await client.post("/v1/threads")
    assert created.status_code == 201, created.text
    thread_id = created.json()["thread_id"]

    hello = await client.post(f"/v1/threads/{thread_id}/messages", json={"message": "hello there"})
    assert hello.status_code == 200, hello.text
    assert hello.json()["mode"] == "chat"

    turn = await client.post(
        f"/v1/threads/{thread_id}/messages",
        files=[("file", ("report.txt", ACME_NOTE.encode(), "text/plain"))],
        data={"message": ACME_QUESTION},
    )
    assert turn.status_code == 200, turn.text
    assert turn.json()["citations"][0]["document"] == "report.txt"

    view = (await client.get(f"/v1/threads/{thread_id}")).json()
    contents = [m["content"] for m in view["history"]]
    assert contents[0] == "hello there"
    assert ACME_QUESTION in contents
    assert len(view["history"]) == 4

    assert (await client.delete(f"/v1/threads/{thread_id}")).status_code == 204
    assert_error(await client.get(f"/v1/threads/{thread_id}"), 404, "not_found")


async def test_reading_deleting_or_messaging_an_unknown_thread_is_404(
    client: httpx.AsyncClient,
) -> None:
    assert_error(await client.get("/v1/threads/nope"), 404, "not_found")
    assert_error(await client.delete("/v1/threads/nope"), 404, "not_found")
    turn = await client.post("/v1/threads/nope/messages", json={"message": "hello"})
    assert_error(turn, 404, "not_found")


async def test_empty_message_is_422(client: httpx.AsyncClient) -> None:
    thread_id = (await client.post("/v1/threads")).json()["thread_id"]
    response = await client.post(f"/v1/threads/{thread_id}/messages", json={"message": " "})
    assert_error(response, 422, "invalid_input")


async def test_concurrent_turns_on_one_thread_are_not_interleaved(settings: Settings) -> None:
    async with await client_for(settings, FakeChatModel(latency=0.05)) as http:
        thread_id = (await http.post("/v1/threads")).json()["thread_id"]
        replies = await asyncio.gather(
            *(
                http.post(f"/v1/threads/{thread_id}/messages", json={"message": f"hi number {i}"})
                for i in range(5)
            )
        )
        assert all(r.status_code == 200 for r in replies)
        history = (await http.get(f"/v1/threads/{thread_id}")).json()["history"]
    roles = [m["role"] for m in history]
    assert roles == ["user", "assistant"] * 5  # each question followed by its own answer
    for question, answer in zip(history[::2], history[1::2], strict=True):
        assert question["content"] in answer["content"]


async def test_threads_are_listed_a_page_at_a_time(client: httpx.AsyncClient) -> None:
    made = sorted([(await client.post("/v1/threads")).json()["thread_id"] for _ in range(3)])
    first = await client.get("/v1/threads", params={"limit": 2})
    assert first.status_code == 200, first.text
    assert first.json() == {"threads": made[:2], "next_after": made[1]}
    rest = (await client.get("/v1/threads", params={"after": made[1]})).json()
    assert rest == {"threads": made[2:], "next_after": None}
    assert_error(await client.get("/v1/threads", params={"limit": 0}), 422, "invalid_input")
    assert_error(await client.get("/v1/threads", params={"after": "../x"}), 422, "invalid_input")
