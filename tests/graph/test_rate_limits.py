"""Reading a long document through a provider of unknown capacity, as a user runs it.

The server is tests/support/rate_limited.py: it refuses calls for load as a pure function
of the time and the calls in flight. Most tests run on a virtual clock, so minutes of
Retry-After and per-minute budgets take milliseconds and never depend on machine speed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pipeline import AskResult, ModelError, Settings, aask, ask, stream_ask
from tests.support.rate_limited import RateLimitedModel
from tests.support.virtual_time import run_virtual

QUESTION = "Where did the harbour crane go?"


def document(chunks: int) -> str:
    """About `chunks` chunks at chunk_size=100: one 100-token paragraph each."""
    return "\n\n".join(
        " ".join([f"Section {i} says the harbour crane moved to berth {i} at dawn."] * 8)
        for i in range(chunks)
    )


def settings(ceiling: int = 64, **extra: Any) -> Settings:
    return Settings(
        chunk_size=100,
        chunk_overlap=0,
        max_concurrency=ceiling,
        reduce_token_budget=200_000,
        retry_initial_s=0.5,
        cache="off",  # every run must meet the provider: a cached chunk makes no call
        **extra,
    )


def read(model: RateLimitedModel, config: Settings, chunks: int = 92) -> AskResult:
    return run_virtual(aask(document(chunks), QUESTION, model=model, settings=config))


def share_refused(model: RateLimitedModel) -> float:
    return model.refused / (model.refused + model.served)


def test_ceiling_far_above_the_server_capacity_loses_no_chunk() -> None:
    """The case that used to fail a quarter of the document: 6 at once, ceiling 64."""
    server = RateLimitedModel(latency=2.0, capacity=lambda t: 6, retry_after_s=1.0)
    result = read(server, settings(64))
    assert result.coverage.chunks >= 90
    assert result.coverage.failed == []
    assert share_refused(server) < 0.10
    usage = result.usage.by_model["RateLimitedModel"]
    assert 1 <= usage.limit <= 6
    assert usage.rate_limited == server.refused
    assert usage.waits > 0


def test_a_limit_that_halves_mid_run_is_followed() -> None:
    def capacity(t: float) -> int:
        return 12 if t < 10 else 6

    server = RateLimitedModel(latency=2.0, capacity=capacity, retry_after_s=1.0)
    result = read(server, settings(64))
    assert result.coverage.failed == []
    assert result.usage.by_model["RateLimitedModel"].limit <= 6
    assert share_refused(server) < 0.15


def test_rate_limited_retries_do_not_spend_the_error_retries() -> None:
    """max_retries=0 and a server that refuses everything for 40 s: nothing fails."""
    server = RateLimitedModel(
        latency=1.0, capacity=lambda t: 0 if 1 <= t < 40 else 8, retry_after_s=5.0
    )
    result = read(server, settings(8, max_retries=0), chunks=20)
    assert result.coverage.failed == []
    assert server.refused > 0


def test_chunk_fails_only_when_the_call_deadline_passes_and_says_why() -> None:
    server = RateLimitedModel(latency=1.0, capacity=lambda t: 0, retry_after_s=5.0)
    with pytest.raises(ModelError) as caught:
        read(server, settings(8, call_deadline_s=30), chunks=10)
    assert "every chunk failed" in caught.value.message
    assert "refused for load" in caught.value.message
    assert "LONGDOC_CALL_DEADLINE_S" in caught.value.message


def tpm_server(headers: bool) -> RateLimitedModel:
    return RateLimitedModel(
        latency=1.0, tokens_per_minute=6_000, send_headers=headers, retry_after_s=1.0
    )


def test_rate_limit_headers_slow_calls_down_before_the_429() -> None:
    blind, told = tpm_server(headers=False), tpm_server(headers=True)
    assert read(blind, settings(), chunks=40).coverage.failed == []
    assert read(told, settings(), chunks=40).coverage.failed == []
    assert blind.refused >= 10
    assert told.refused <= 2  # at most the calls sent before the first reply's headers


def test_tokens_per_minute_budget_paces_calls_without_a_429() -> None:
    server = tpm_server(headers=False)
    result = read(server, settings(tokens_per_minute=6_000), chunks=40)
    assert result.coverage.failed == []
    assert server.refused == 0


def test_backing_off_shows_in_the_progress_events() -> None:
    server = RateLimitedModel(latency=2.0, capacity=lambda t: 4, retry_after_s=1.0)

    async def events() -> list[dict[str, Any]]:
        seen = []
        async for item in stream_ask(document(30), QUESTION, model=server, settings=settings()):
            if isinstance(item, dict):
                seen.append(item)
        return seen

    backoffs = [e for e in run_virtual(events()) if e["event"] == "rate_limited"]
    assert backoffs
    assert backoffs[0]["model"] == "RateLimitedModel"
    assert backoffs[0]["status"] == 429
    assert 1 <= backoffs[-1]["limit"] <= 4
    assert backoffs[0]["pause_s"] == pytest.approx(1.0)


def test_map_and_reduce_models_are_limited_and_reported_separately() -> None:
    class MapServer(RateLimitedModel):
        pass

    small = MapServer(latency=1.0, capacity=lambda t: 3, retry_after_s=1.0)
    large = RateLimitedModel(latency=1.0, capacity=lambda t: 1)
    from pipeline.engines.llm.providers import Models
    from pipeline.graph.build import build_graph

    factory: Callable[..., Any] = build_graph
    del factory  # the public way: a Models pair through the engine
    from pipeline.engines.llm.engine import LLMEngine

    engine = LLMEngine(Models(map=small, reduce=large, structured_method=None), settings())
    assert engine._limiters[id(small)] is not engine._limiters[id(large)]


def test_the_learned_limit_outlives_one_sync_call() -> None:
    """`ask` runs each call in a fresh event loop; the second starts where the first ended."""
    server = RateLimitedModel(latency=0.02, capacity=lambda t: 3, retry_after_s=0.05)
    ask(document(24), QUESTION, model=server, settings=settings())
    first = server.refused
    second = ask(document(24), QUESTION, model=server, settings=settings())
    assert first > 0
    assert second.coverage.failed == []
    assert server.refused - first < first
