"""Properties of the HTTP API: generated requests never get a 5xx; concurrent requests never mix."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from api import create_app
from pipeline import Settings
from tests.support.fakes import FakeChatModel

APP = create_app(
    Settings(
        chunk_size=100,
        chunk_overlap=0,
        retry_initial_s=0.0,
        max_concurrency=4,
        allowed_hosts="testserver",  # the Host schemathesis's in-process client sends
    ),
    model=FakeChatModel(),
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,  # the same examples every run: a failure here is reproducible
)
def test_generated_requests_never_get_a_server_error(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])


@pytest.mark.slow
async def test_hundred_concurrent_requests_each_get_their_own_answer(
    settings: Settings,
) -> None:
    app = create_app(settings, model=FakeChatModel(latency=0.01))
    names = [f"Founder{n:03d}" for n in range(100)]

    async def ask(index: int, http: httpx.AsyncClient) -> tuple[int, httpx.Response]:
        document = (
            f"Filler about harbours and boats, part {index}. " * 5
            + f"The company number {index} was founded by {names[index]}. "
            + "More filler about weather and tides. " * 5
        )
        response = await http.post(
            "/v1/ask",
            json={
                "question": "Who founded the company?",
                "documents": [{"id": f"d{index}", "text": document}],
            },
        )
        return index, response

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://localhost", timeout=60
    ) as http:
        results = await asyncio.gather(*(ask(i, http) for i in range(100)))
    for index, response in results:
        assert response.status_code == 200, response.text
        body = response.json()
        assert names[index] in body["answer"]
        others = [name for name in names if name != names[index] and name in body["answer"]]
        assert others == []
        assert {c["document"] for c in body["citations"]} == {f"d{index}"}
