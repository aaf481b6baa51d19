"""One place that owns model-call policy: the concurrency cap, the timeout and the retries.

Retries happen here and nowhere else (provider clients are built with their own
retries off), so `max_retries=3` means at most 4 attempts of one call.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections.abc import Awaitable, Callable
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from pipeline.config import Settings
from pipeline.engines.llm.shared_limit import shared_slot
from pipeline.errors import ModelError, ModelTimeoutError

T = TypeVar("T")

_RETRYABLE_STATUS = {408, 409, 425, 429}
_RETRYABLE_NAMES = {
    "APIConnectionError",
    "APITimeoutError",
    "ConnectError",
    "ReadTimeout",
    "RemoteProtocolError",
    "ServiceUnavailableError",
    "RateLimitError",
}

# Semaphores per event loop and limit: asyncio primitives cannot be shared across
# loops (the sync API runs each call in a fresh loop), and every request of one
# process (same settings, same limit) must share one cap.
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Semaphore]] = (
    weakref.WeakKeyDictionary()
)


def call_slots(limit: int) -> asyncio.Semaphore:
    """The process-wide cap of `limit` concurrent model calls, for the running loop."""
    by_limit = _slots.setdefault(asyncio.get_running_loop(), {})
    if limit not in by_limit:
        by_limit[limit] = asyncio.Semaphore(limit)
    return by_limit[limit]


def status_code(exc: BaseException) -> int | None:
    """The HTTP status behind a provider error, if it carries one."""
    code = getattr(exc, "status_code", None)
    if code is None:
        code = getattr(getattr(exc, "response", None), "status_code", None)
    return code if isinstance(code, int) else None


def is_retryable(exc: BaseException) -> bool:
    """Rate limits, timeouts, 5xx and dropped connections retry; other 4xx never do."""
    if isinstance(exc, TimeoutError | ConnectionError):
        return True
    code = status_code(exc)
    if code is not None:
        return code in _RETRYABLE_STATUS or code >= 500
    # By class name along the MRO: SDK errors get wrapped in subclasses (langchain-openai
    # raises OpenAIConnectionError(openai.APIConnectionError)), and langchain-core's model
    # errors say so themselves with `is_retryable`.
    if getattr(exc, "is_retryable", False) is True:
        return True
    return any(cls.__name__ in _RETRYABLE_NAMES for cls in type(exc).__mro__)


def retry_after_s(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (Retry-After as seconds or an HTTP date)."""
    headers: Any = getattr(getattr(exc, "response", None), "headers", None) or getattr(
        exc, "headers", None
    )
    value = headers.get("retry-after") if headers is not None else None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    from datetime import UTC, datetime

    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def backoff_s(attempt: int, settings: Settings, exc: BaseException) -> float:
    """Delay before retry `attempt` (1-based): Retry-After if given, else 2^n with full jitter.

    With retry_initial_s=0.5: attempt 1 waits up to 0.5 s, attempt 2 up to 1 s, 3 up to 2 s.
    """
    asked = retry_after_s(exc)
    if asked is not None:
        return min(asked, settings.retry_max_s)
    ceiling = min(settings.retry_initial_s * 2 ** (attempt - 1), settings.retry_max_s)
    return random.uniform(ceiling / 2, ceiling)


async def call_model(make_call: Callable[[], Awaitable[T]], settings: Settings) -> T:
    """Run one model call under the concurrency cap, the timeout and the retry policy."""
    attempt = 0
    while True:
        try:
            async with call_slots(settings.max_concurrency), shared_slot():
                # The timeout covers the call, not the wait for a slot.
                return await asyncio.wait_for(make_call(), settings.call_timeout_s)
        except Exception as exc:
            attempt += 1
            if not is_retryable(exc) or attempt > settings.max_retries:
                raise _as_model_error(exc, attempt) from exc
            await asyncio.sleep(backoff_s(attempt, settings, exc))


def _as_model_error(exc: Exception, attempts: int) -> ModelError:
    if isinstance(exc, ModelError):
        return exc
    tries = f"after {attempts} attempt{'s' if attempts > 1 else ''}"
    if isinstance(exc, TimeoutError):
        return ModelTimeoutError(f"model call timed out {tries}")
    detail = str(exc) or type(exc).__name__
    url = request_url(exc)
    where = f" to {url}" if url else ""  # "Connection error." alone hides a wrong base URL
    return ModelError(f"model call{where} failed {tries}: {type(exc).__name__}: {detail}"[:500])


def request_url(exc: BaseException) -> str | None:
    """The URL a failed provider request went to (openai and httpx errors carry it)."""
    try:
        url = getattr(getattr(exc, "request", None), "url", None)
    except RuntimeError:  # httpx raises when the request was never set
        return None
    return str(url) if url else None
