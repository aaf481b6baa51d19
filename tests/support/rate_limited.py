"""A fake provider with limits: the FakeChatModel behind a server that refuses calls for load.

What it refuses is a pure function of the time and the calls in flight, never of the
order calls arrive in: with `capacity=lambda t: 6`, a call that would be the 7th in
flight gets a 429 (with Retry-After, when `retry_after_s` is set) and the others are
served after `latency` seconds. An optional tokens-per-minute window (continuously
refilled, as OpenAI's) refuses a prompt bigger than what is left, and every reply can
carry OpenAI's x-ratelimit-* headers. Time is the running loop's, so on a
VirtualTimeLoop (tests/support/virtual_time.py) a run of minutes takes milliseconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import PrivateAttr

from pipeline.text.tokens import count_tokens
from tests.support.fakes import FakeChatModel, ProviderError

MINUTE_S = 60.0


class RateLimitedModel(FakeChatModel):
    """FakeChatModel replies, `latency` s each, within `capacity(t)` calls at once."""

    capacity: Callable[[float], int] = lambda t: 1_000_000
    retry_after_s: float | None = 1.0
    tokens_per_minute: int | None = None
    send_headers: bool = False
    """Send x-ratelimit-limit/remaining/reset-tokens and -requests headers on every reply."""

    refused: int = 0
    served: int = 0
    _busy: int = PrivateAttr(0)
    _level: float | None = PrivateAttr(None)
    _at: float = PrivateAttr(0.0)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        now = asyncio.get_running_loop().time()
        cost = sum(count_tokens(str(m.content)) for m in messages)
        if self._busy + 1 > self.capacity(now):
            self._refuse(self.retry_after_s, now)
        tokens_wait = self._tokens_wait(cost, now)
        if tokens_wait > 0:
            self._refuse(max(tokens_wait, self.retry_after_s or 0.0), now)
        if self._level is not None:
            self._level -= cost
        self._busy += 1
        try:
            await asyncio.sleep(self.latency)
            result = self._reply(messages, kwargs.get("tool_names"))
        finally:
            self._busy -= 1
        self.served += 1
        result.generations[0].message.response_metadata["headers"] = self._headers(now)
        return result

    def _refuse(self, retry_after_s: float | None, now: float) -> None:
        self.refused += 1
        headers = self._headers(now)
        if retry_after_s is not None:
            headers["retry-after-ms"] = str(round(retry_after_s * 1000))
        raise ProviderError(429, headers=headers)

    def _tokens_wait(self, cost: int, now: float) -> float:
        """Seconds until the window holds `cost` tokens (0: now), refilling it first."""
        if self.tokens_per_minute is None:
            return 0.0
        rate = self.tokens_per_minute / MINUTE_S
        if self._level is None:
            self._level = float(self.tokens_per_minute)
        self._level = min(self.tokens_per_minute, self._level + (now - self._at) * rate)
        self._at = now
        missing = min(cost, self.tokens_per_minute) - self._level
        return 0.0 if missing <= 0 else missing / rate

    def _headers(self, now: float) -> dict[str, str]:
        if not self.send_headers or self.tokens_per_minute is None or self._level is None:
            return {}
        level = max(0, int(self._level))
        reset = (self.tokens_per_minute - level) / (self.tokens_per_minute / MINUTE_S)
        return {
            "x-ratelimit-limit-tokens": str(self.tokens_per_minute),
            "x-ratelimit-remaining-tokens": str(level),
            "x-ratelimit-reset-tokens": f"{reset:.3f}s",
        }
