"""Importing a history and recalling from it over HTTP, with every error the routes answer."""

from __future__ import annotations

import httpx

from tests.support.http import assert_error

FIELDS = {"message_id", "index", "role", "name", "content", "created_at", "score"}


async def new_thread(client: httpx.AsyncClient) -> str:
    thread_id: str = (await client.post("/v1/threads")).json()["thread_id"]
    return thread_id


async def test_imported_history_is_recalled_and_feeds_the_next_turn(
    client: httpx.AsyncClient,
) -> None:
    thread = await new_thread(client)
    messages = [
        {
            "role": "user",
            "content": "Our wifi password is heron-42.",
            "name": "Kai",
            "created_at": "2024-02-01T08:00:00Z",
        },
        {"role": "assistant", "content": "Saved."},
        # Long enough to pass the 2,000-token budget, so the next turn folds them.
        *({"role": "user", "content": f"Reminder {i}: water the plants. " * 12} for i in range(30)),
    ]
    imported = await client.post(f"/v1/threads/{thread}/history", json={"messages": messages})
    assert imported.status_code == 200, imported.text
    assert imported.json() == {"thread_id": thread, "imported": 32, "messages": 32}

    found = await client.get(f"/v1/threads/{thread}/recall", params={"q": "wifi password"})
    assert found.status_code == 200, found.text
    hits = found.json()
    assert set(hits[0]) == FIELDS
    assert hits[0]["content"] == "Our wifi password is heron-42."
    assert (hits[0]["name"], hits[0]["created_at"], hits[0]["index"]) == (
        "Kai",
        "2024-02-01T08:00:00Z",
        0,
    )

    turn = await client.post(
        f"/v1/threads/{thread}/messages", json={"message": "What is the wifi password?"}
    )
    assert turn.status_code == 200, turn.text
    assert turn.json()["compressed"], "the import's fold happens on this turn"
    assert hits[0]["message_id"] in turn.json()["recalled"]
    view = (await client.get(f"/v1/threads/{thread}")).json()
    assert view["history"][0]["name"] == "Kai"


async def test_k_limits_the_hits_and_out_of_range_k_is_422(client: httpx.AsyncClient) -> None:
    thread = await new_thread(client)
    messages = [{"role": "user", "content": f"Kettle note {i}."} for i in range(12)]
    await client.post(f"/v1/threads/{thread}/history", json={"messages": messages})
    two = await client.get(f"/v1/threads/{thread}/recall", params={"q": "kettle", "k": 2})
    assert len(two.json()) == 2
    for k in (0, 101, "many"):
        response = await client.get(f"/v1/threads/{thread}/recall", params={"q": "kettle", "k": k})
        assert_error(response, 422, "invalid_input")
    assert_error(await client.get(f"/v1/threads/{thread}/recall"), 422, "invalid_input")
    blank = await client.get(f"/v1/threads/{thread}/recall", params={"q": "  "})
    assert_error(blank, 422, "invalid_input")


async def test_unknown_thread_is_404_for_recall_and_import(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/v1/threads/nope/recall", params={"q": "x"}), 404, "not_found")
    body = {"messages": [{"role": "user", "content": "hi"}]}
    assert_error(await client.post("/v1/threads/nope/history", json=body), 404, "not_found")


async def test_a_malformed_import_is_422_naming_the_message_and_writes_nothing(
    client: httpx.AsyncClient,
) -> None:
    thread = await new_thread(client)
    good = {"role": "user", "content": "Penguins waddle."}
    for bad, where in [
        ({"role": "robot", "content": "beep"}, "messages.1.role"),
        ({"role": "user", "content": "x", "created_at": "soon"}, "message 1"),
        ({"role": "user"}, "messages.1.content"),
    ]:
        response = await client.post(
            f"/v1/threads/{thread}/history", json={"messages": [good, bad]}
        )
        error = assert_error(response, 422, "invalid_input")
        assert where in error["message"]
    view = (await client.get(f"/v1/threads/{thread}")).json()
    assert view["history"] == []
    recalled = await client.get(f"/v1/threads/{thread}/recall", params={"q": "penguins"})
    assert recalled.json() == []
    empty = await client.post(f"/v1/threads/{thread}/history", json={"messages": []})
    assert_error(empty, 422, "invalid_input")


async def test_deleted_thread_recalls_nothing_of_its_past(client: httpx.AsyncClient) -> None:
    thread = await new_thread(client)
    body = {"messages": [{"role": "user", "content": "The safe code is 7788."}]}
    await client.post(f"/v1/threads/{thread}/history", json=body)
    assert (await client.delete(f"/v1/threads/{thread}")).status_code == 204
    gone = await client.get(f"/v1/threads/{thread}/recall", params={"q": "safe code"})
    assert_error(gone, 404, "not_found")
