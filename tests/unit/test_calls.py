"""The model-call policy: what is retried, how long it waits, and the timeout."""

from __future__ import annotations

import asyncio

import pytest

from pipeline import ModelError, ModelTimeoutError, Settings
from pipeline.engines.llm.calls import backoff_s, call_model, is_retryable
from tests.support.fakes import ProviderError

FAST = Settings(retry_initial_s=0.0, max_retries=2, call_timeout_s=0.2)


@pytest.mark.parametrize(
    ("error", "retried"),
    [
        (ProviderError(429), True),
        (ProviderError(500), True),
        (ProviderError(503), True),
        (TimeoutError(), True),
        (ConnectionError(), True),
        (ProviderError(400), False),
        (ProviderError(401), False),
        (ProviderError(404), False),
        (ValueError("bad"), False),
    ],
)
def test_only_transient_errors_are_retried(error: Exception, retried: bool) -> None:
    assert is_retryable(error) is retried


def test_retry_after_header_sets_the_wait() -> None:
    settings = Settings(retry_initial_s=0.5, retry_max_s=30)
    assert backoff_s(1, settings, ProviderError(429, retry_after="7")) == 7
    assert backoff_s(1, settings, ProviderError(429, retry_after="999")) == 30


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
        await call_model(call, FAST)
    assert attempts == 1


async def test_server_error_is_retried_up_to_the_limit() -> None:
    attempts = 0

    async def call() -> str:
        nonlocal attempts
        attempts += 1
        raise ProviderError(502)

    with pytest.raises(ModelError, match="after 3 attempts"):
        await call_model(call, FAST)
    assert attempts == 3


async def test_slow_call_times_out_and_is_retried() -> None:
    attempts = 0

    async def call() -> str:
        nonlocal attempts
        attempts += 1
        if attempts < 3:
            await asyncio.sleep(5)
        return "ok"

    assert await call_model(call, FAST) == "ok"
    assert attempts == 3


async def test_call_that_always_times_out_is_a_timeout_error() -> None:
    async def call() -> str:
        await asyncio.sleep(5)
        return "never"

    with pytest.raises(ModelTimeoutError):
        await call_model(call, Settings(max_retries=0, call_timeout_s=0.05))
