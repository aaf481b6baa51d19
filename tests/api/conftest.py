"""The API tests' client: httpx against the app in this process, on the fake model."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from pipeline import Settings
from tests.support.http import client_for


@pytest.fixture
async def client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    async with await client_for(settings) as http:
        yield http
