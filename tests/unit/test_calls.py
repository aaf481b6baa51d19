"""The model-call policy: what is retried, on which budget, how long it waits, and the timeout."""

from __future__ import annotations

import asyncio
import json

import pytest

from pipeline import ModelError, ModelTimeoutError, Settings
from pipeline.engines.llm.calls import backoff_s, call_model, failure_kind, is_retryable
from pipeline.engines.llm.limiter import Limiter
from pipeline.engines.meter import Meter
from pipeline.errors import ModelRateLimitError
from pipeline.types import LimitUsage
from tests.support.fakes import ProviderError
from tests.support.virtual_time import run_virtual

FAST = Settings(retry_initial_s=0.0, max_retries=2, call_timeout_s=0.2)


def limiter() -> Limiter:
    return Limiter(8)


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (ProviderError(429), "load"),
        (ProviderError(503), "load"),
        (ProviderError(529), "load"),
        (ProviderError(500), "transient"),
        (ProviderError(502), "transient"),
        (TimeoutError(), "transient"),
        (ConnectionError(), "transient"),
        (json.JSONDecodeError("Expecting value", '{"id": "x", "choi', 17), "transient"),
        (IndexError("list index out of range"), "transient"),
        (ProviderError(400), "fatal"),
        (ProviderError(401), "fatal"),
        (ProviderError(404), "fatal"),
        (ValueError("bad"), "fatal"),
        (RuntimeError("Event loop is closed"), "fatal"),
    ],
)
def test_errors_are_told_apart_by_what_they_say_about_the_server(
    error: Exception, kind: str
) -> None:
    assert failure_kind(error) == kind
    assert is_retryable(error) is (kind != "fatal")


def test_retry_after_is_a_floor_on_the_wait() -> None:
    settings = Settings(retry_initial_s=0.5, retry_max_s=30)
    assert backoff_s(1, settings, ProviderError(429, retry_after="7")) == 7
    assert backoff_s(1, settings, ProviderError(429, retry_after="999")) == 999
    instant = Settings(retry_initial_s=0.0)
    assert backoff_s(1, instant, ProviderError(429, headers={"retry-after-ms": "250"})) == 0.25


def test_backoff_doubles_with_jitter() -> None:
    settings = Settings(retry_initial_s=1.0, retry_max_s=30)
    for attempt, ceiling in [(1, 1.0), (2, 2.0), (3, 4.0)]:
        wait = backoff_s(attempt, settings, ProviderError(503))
        assert ceiling / 2 <= wait <= ceiling


async def test_client_error_is_not_retried() -> None:
    attempts = 0

    async def call() -> str:
        nonlocal attempts
        attempts += 1
        raise ProviderError(400)

    with pytest.raises(ModelError, match="HTTP 400"):
        await call_model(call, FAST, limiter())
    assert attempts == 1


async def test_server_error_is_retried_up_to_the_limit() -> None:
    attempts = 0

    async def call() -> str:
        nonlocal attempts
        attempts += 1
        raise ProviderError(502)

    with pytest.raises(ModelError, match="after 3 attempts"):
        await call_model(call, FAST, limiter())
    assert attempts == 3


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (json.JSONDecodeError("Expecting ','", '{"choices": [{"mess', 19), "not valid JSON"),
        (IndexError("list index out of range"), "no completion in it"),
    ],
)
async def test_malformed_reply_is_retried_and_then_named(fault: Exception, said: str) -> None:
    attempts = 0

    async def flaky() -> str:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise fault
        return "ok"

    assert await call_model(flaky, FAST, limiter()) == "ok"

    async def broken() -> str:
        raise fault

    with pytest.raises(ModelError, match=said) as caught:
        await call_model(broken, FAST, limiter())
    assert "IndexError" not in caught.value.message
    assert "after 3 attempts" in caught.value.message


async def test_slow_call_times_out_and_is_retried() -> None:
    attempts = 0

    async def call() -> str:
        nonlocal attempts
        attempts += 1
        if attempts < 3:
            await asyncio.sleep(5)
        return "ok"

    assert await call_model(call, FAST, limiter()) == "ok"
    assert attempts == 3


async def test_call_that_always_times_out_is_a_timeout_error() -> None:
    async def call() -> str:
        await asyncio.sleep(5)
        return "never"

    with pytest.raises(ModelTimeoutError):
        await call_model(call, Settings(max_retries=0, call_timeout_s=0.05), limiter())


def test_rate_limited_retries_do_not_use_the_error_budget() -> None:
    """Twelve 429s in a row with max_retries=0: the call still succeeds, and says so."""
    refusals = 0

    async def call() -> str:
        nonlocal refusals
        if refusals < 12:
            refusals += 1
            raise ProviderError(429, retry_after="2")
        return "ok"

    async def main() -> tuple[str, list[LimitUsage], float]:
        meter = Meter("map_chunk")
        start = asyncio.get_running_loop().time()
        reply = await call_model(call, Settings(max_retries=0), Limiter(8), meter=meter)
        waited = asyncio.get_running_loop().time() - start
        return reply, [r for r in meter.records if isinstance(r, LimitUsage)], waited

    reply, records, waited = run_virtual(main())
    assert reply == "ok"
    assert waited >= 24  # twelve Retry-After waits of 2 s, never shortened
    assert records[0].rate_limited == 12
    assert records[0].waited_s >= 24


def test_rate_limited_call_fails_when_its_deadline_passes() -> None:
    async def call() -> str:
        raise ProviderError(429, retry_after="10")

    async def main() -> float:
        start = asyncio.get_running_loop().time()
        with pytest.raises(ModelRateLimitError, match="LONGDOC_CALL_DEADLINE_S") as caught:
            await call_model(call, Settings(call_deadline_s=60), Limiter(8))
        assert "refused for load (429/503) 6 times" in caught.value.message
        return asyncio.get_running_loop().time() - start

    assert 50 <= run_virtual(main()) <= 60


def test_retry_after_past_the_deadline_fails_at_once() -> None:
    async def call() -> str:
        raise ProviderError(429, retry_after="3600")

    async def main() -> float:
        start = asyncio.get_running_loop().time()
        with pytest.raises(ModelRateLimitError):
            await call_model(call, Settings(call_deadline_s=300), Limiter(8))
        return asyncio.get_running_loop().time() - start

    assert run_virtual(main()) == 0


async def test_a_calls_slot_goes_back_with_the_reply_not_after_its_parse() -> None:
    """The provider is done when the reply is in: the next call starts while this one's
    reply is still being parsed, and the slot is given back once, not twice."""
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from pipeline.engines.llm.calls import REPLY_IN

    one_slot = Limiter(1)
    model = FakeListChatModel(responses=["first", "second"])
    parsing = asyncio.Event()
    second_started = asyncio.Event()

    async def first() -> str:
        reply = await model.ainvoke("first?", config={"callbacks": [REPLY_IN]})
        parsing.set()
        await asyncio.wait_for(second_started.wait(), 5)  # the parse, while the next call runs
        return str(reply.content)

    async def second() -> str:
        second_started.set()
        return str((await model.ainvoke("second?", config={"callbacks": [REPLY_IN]})).content)

    async def after_first_reply() -> str:
        await parsing.wait()
        return await call_model(second, FAST, one_slot)

    replies = await asyncio.gather(call_model(first, FAST, one_slot), after_first_reply())
    assert replies == ["first", "second"]
    assert one_slot.in_flight == 0
