"""Calling the API the way a client does: httpx against the app, SSE parsing, error bodies."""

from __future__ import annotations

import json
from typing import Any

import httpx

from api import create_app
from pipeline import Settings
from tests.support.fakes import FakeChatModel


async def client_for(settings: Settings, model: Any = None) -> httpx.AsyncClient:
    """An httpx client of the app (in process), reading with the fake model by default."""
    app = create_app(settings, model=model if model is not None else FakeChatModel())
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://localhost")


def sse_events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """(event name, data) of every event in a server-sent events body."""
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            events.append((lines["event"], json.loads(lines["data"])))
    return events


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, str]:
    """The response is the JSON error body with this status and code, message and hint set."""
    assert response.status_code == status, response.text
    error: dict[str, str] = response.json()["error"]
    assert error["code"] == code
    assert error["message"]
    assert error["hint"]
    return error
