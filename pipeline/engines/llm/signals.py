"""What a provider's reply says about its rate limits: Retry-After and x-ratelimit-* headers.

retry-after: 2  |  retry-after: Wed, 21 Oct 2026 07:28:00 GMT  |  retry-after-ms: 250
x-ratelimit-limit-requests: 500        x-ratelimit-limit-tokens: 30000
x-ratelimit-remaining-requests: 499    x-ratelimit-remaining-tokens: 29000
x-ratelimit-reset-requests: 120ms      x-ratelimit-reset-tokens: 2s   (or "6m0s", "1.5")
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_UNIT_S = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}


@dataclass(frozen=True)
class Window:
    """One x-ratelimit budget (requests or tokens) as the server last reported it."""

    limit: int | None
    remaining: int
    reset_s: float | None
    """Seconds until the budget is whole again."""


@dataclass(frozen=True)
class RateSignal:
    """The rate-limit facts one reply carried; every field may be missing."""

    retry_after_s: float | None = None
    requests: Window | None = None
    tokens: Window | None = None


def read_signal(headers: Mapping[str, Any] | None) -> RateSignal:
    """The signal in `headers` (any case); an empty RateSignal when there are none."""
    if not headers:
        return RateSignal()
    lower = {str(k).lower(): str(v) for k, v in headers.items()}
    return RateSignal(
        retry_after_s=_retry_after_s(lower),
        requests=_window(lower, "requests"),
        tokens=_window(lower, "tokens"),
    )


def headers_of(exc: BaseException) -> Mapping[str, Any] | None:
    """Response headers an SDK error carries (openai: `.response.headers`; some: `.headers`)."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        headers = getattr(exc, "headers", None)
    return headers if isinstance(headers, Mapping) or hasattr(headers, "items") else None


def parse_duration(text: str) -> float | None:
    """Seconds in "1.5", "120ms", "2s", "6m0s" or "1h2m3s"; None if it is none of these."""
    text = text.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    parts = _DURATION.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    return sum(float(number) * _UNIT_S[unit] for number, unit in parts)


def _retry_after_s(headers: dict[str, str]) -> float | None:
    if "retry-after-ms" in headers:
        try:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
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
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _window(headers: dict[str, str], kind: str) -> Window | None:
    remaining = _int(headers.get(f"x-ratelimit-remaining-{kind}"))
    if remaining is None:
        return None
    reset = headers.get(f"x-ratelimit-reset-{kind}")
    return Window(
        limit=_int(headers.get(f"x-ratelimit-limit-{kind}")),
        remaining=remaining,
        reset_s=parse_duration(reset) if reset is not None else None,
    )


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return max(0, int(float(value)))
    except ValueError:
        return None
