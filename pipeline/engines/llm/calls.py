"""One place that owns model-call policy: admission by the endpoint's Limiter, timeout, retries.

Retries happen here and nowhere else (provider clients are built with their own
retries off). Two budgets bound one call:

- `max_retries` counts failures that say nothing about load: 5xx, timeouts, dropped
  connections and malformed 200 replies (truncated JSON, no `choices`). max_retries=3
  means at most 4 such attempts; other 4xx are never retried.
- Refusals for load (429, 503, 529 overloaded) are not counted: the Limiter backs off,
  the call waits (at least the Retry-After) and tries again, for as long as the call's
  deadline (`call_deadline_s`, counted from its first attempt) allows. Only then is the
  call failed. Waiting for a first attempt is queueing behind calls that progress (a
  100-chunk document on a 50,000 tokens-a-minute budget takes minutes), not a failure.

A call's limiter slot goes back as soon as the model's reply is in (`ReplyIn`, a callback
on every chat model call), not when LangChain has parsed it and the attempt returns: the
provider is done with the call, and holding the slot through the parse left it idle
for part of every call (a batch of 100 files on a 0.2 s fake model ran 1.14-1.16x its
critical-path bound in one process).
"""

from __future__ import annotations

import asyncio
import json
import math
import random
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Literal, TypeVar

from langchain_core.callbacks import BaseCallbackHandler

from pipeline.config import Settings
from pipeline.engines.llm.limiter import Backoff, DeadlineError, Limiter, Ticket
from pipeline.engines.llm.shared_limit import shared_slot
from pipeline.engines.llm.signals import RateSignal, headers_of, read_signal
from pipeline.engines.meter import Meter
from pipeline.errors import ModelError, ModelRateLimitError, ModelTimeoutError
from pipeline.progress import emit
from pipeline.types import LimitUsage

T = TypeVar("T")
Failure = Literal["load", "transient", "fatal"]

_LOAD_STATUS = {429, 503, 529}
_RETRYABLE_STATUS = {408, 409, 425}
_LOAD_NAMES = {"RateLimitError", "ServiceUnavailableError", "OverloadedError"}
_RETRYABLE_NAMES = {
    "APIConnectionError",
    "APITimeoutError",
    "ConnectError",
    "ReadTimeout",
    "RemoteProtocolError",
}


def status_code(exc: BaseException) -> int | None:
    """The HTTP status behind a provider error, if it carries one."""
    code = getattr(exc, "status_code", None)
    if code is None:
        code = getattr(getattr(exc, "response", None), "status_code", None)
    return code if isinstance(code, int) else None


def failure_kind(exc: BaseException) -> Failure:
    """`load`: refused for load; `transient`: worth another try; `fatal`: never retried."""
    code = status_code(exc)
    names = {cls.__name__ for cls in type(exc).__mro__}
    if code in _LOAD_STATUS or (code is None and names & _LOAD_NAMES):
        return "load"
    if isinstance(exc, TimeoutError | ConnectionError) or malformed_reply(exc):
        return "transient"
    if code is not None:
        return "transient" if code in _RETRYABLE_STATUS or code >= 500 else "fatal"
    # By class name along the MRO: SDK errors get wrapped in subclasses (langchain-openai
    # raises OpenAIConnectionError(openai.APIConnectionError)), and langchain-core's model
    # errors say so themselves with `is_retryable`.
    if getattr(exc, "is_retryable", False) is True or names & _RETRYABLE_NAMES:
        return "transient"
    return "fatal"


def is_retryable(exc: BaseException) -> bool:
    """Rate limits, timeouts, 5xx, drops and malformed replies retry; other 4xx never do."""
    return failure_kind(exc) != "fatal"


def malformed_reply(exc: BaseException) -> str | None:
    """What was wrong with a 200 reply the SDK could not read, or None if `exc` is not that.

    Only errors raised inside the provider call reach here (the engine validates typed
    replies after it): json.JSONDecodeError is a truncated or invalid body, and the
    IndexError/KeyError/TypeError LangChain raises is an empty, missing or null `choices`.
    """
    if isinstance(exc, json.JSONDecodeError):
        return f"a reply that is not valid JSON (truncated?): {exc}"
    if type(exc).__name__ == "APIResponseValidationError":
        return f"a reply that is not a chat completion: {exc}"
    if isinstance(exc, IndexError | KeyError) or (
        isinstance(exc, TypeError) and "choices" in str(exc)
    ):
        return "a reply with no completion in it (empty or missing `choices`)"
    return None


def retry_after_s(exc: BaseException) -> float | None:
    """Seconds a provider error asks to wait (Retry-After, retry-after-ms), if it says."""
    return read_signal(headers_of(exc)).retry_after_s


def backoff_s(attempt: int, settings: Settings, exc: BaseException) -> float:
    """Delay before retry `attempt` (1-based): at least Retry-After, else 2^n with jitter.

    With retry_initial_s=0.5: attempt 1 waits 0.25-0.5 s, attempt 2 0.5-1 s, 3 1-2 s,
    never more than retry_max_s; a Retry-After of 7 s waits 7 s, whatever retry_max_s.
    """
    asked = retry_after_s(exc)
    ceiling = min(settings.retry_initial_s * 2 ** (attempt - 1), settings.retry_max_s)
    jittered = random.uniform(ceiling / 2, ceiling)
    return max(asked, jittered) if asked is not None else jittered


class _Attempts:
    """What one call went through, for its error message and its usage record."""

    def __init__(self) -> None:
        self.errors = 0
        self.refused = 0
        self.waits = 0
        self.waited_s = 0.0

    def admitted(self, ticket: Ticket) -> None:
        if ticket.waited_s > 0:
            self.waits += 1
            self.waited_s += ticket.waited_s

    def slept(self, seconds: float) -> None:
        if seconds > 0:
            self.waits += 1
            self.waited_s += seconds

    @property
    def total(self) -> int:
        return self.errors + self.refused


async def call_model(
    make_call: Callable[[], Awaitable[T]],
    settings: Settings,
    limiter: Limiter,
    *,
    tokens: Callable[[], int] = lambda: 0,
    meter: Meter | None = None,
) -> T:
    """Run one model call under `limiter` (its endpoint's), the timeout and the retry policy.

    `tokens` is the prompt's size, reserved from token budgets; `meter` gets a LimitUsage.
    """
    clock = limiter.clock
    deadline = math.inf  # until the first attempt starts
    attempts = _Attempts()
    try:
        while True:
            try:
                ticket = await limiter.acquire(tokens, deadline)
            except DeadlineError as exc:
                attempts.slept(exc.waited_s)
                raise _deadline_error(attempts, settings, None) from None
            attempts.admitted(ticket)
            held = _Held(limiter, ticket)
            if deadline == math.inf:
                deadline = ticket.started_at + settings.call_deadline_s
            timeout = min(settings.call_timeout_s, deadline - clock())
            if timeout <= 0:
                held.failed()
                raise _deadline_error(attempts, settings, None)
            try:
                # A batch on a cluster shares one limit across its workers (shared_limit.py);
                # the timeout covers the call, not the wait for that slot. asyncio.timeout,
                # not wait_for: on Python 3.11 wait_for drops a cancellation (Ctrl-C) that
                # arrives as the call completes, and the run goes on.
                async with shared_slot() as free_shared:
                    replied = _reply_in.set(_both(held.succeeded, free_shared))
                    try:
                        async with asyncio.timeout(timeout):
                            result = await make_call()
                    finally:
                        _reply_in.reset(replied)
            except Exception as exc:
                wait = _after_failure(exc, held, attempts, settings)
                if clock() + wait >= deadline:
                    raise _deadline_error(attempts, settings, exc) from exc
                await asyncio.sleep(wait)
                attempts.slept(wait)
                continue
            except BaseException:  # cancelled: the slot goes to another call
                held.failed()
                raise
            held.succeeded()
            return result
    finally:
        if meter is not None:
            meter.note(
                LimitUsage(
                    model=limiter.name,
                    rate_limited=attempts.refused,
                    waits=attempts.waits,
                    waited_s=round(attempts.waited_s, 3),
                    limit=limiter.current_limit,
                )
            )


class _Held:
    """An admitted attempt's limiter slot, given back once: with the model's reply, or
    when the attempt ends (a failure, a refusal for load, a cancellation)."""

    def __init__(self, limiter: Limiter, ticket: Ticket) -> None:
        self.limiter = limiter
        self.ticket = ticket
        self.open = True

    def succeeded(self) -> None:
        if self.open:
            self.open = False
            self.limiter.succeeded(self.ticket)

    def failed(self) -> None:
        if self.open:
            self.open = False
            self.limiter.failed(self.ticket)

    def backpressure(self, signal: RateSignal) -> Backoff | None:
        if not self.open:  # replied, then failed to parse: the reply said nothing of load
            return None
        self.open = False
        return self.limiter.backpressure(self.ticket, signal)


_reply_in: ContextVar[Callable[[], None] | None] = ContextVar("longdoc_reply_in", default=None)


def _both(first: Callable[[], None], second: Callable[[], None]) -> Callable[[], None]:
    """One call of both."""

    def call() -> None:
        first()
        second()

    return call


class ReplyIn(BaseCallbackHandler):
    """Gives an attempt's slots back (its limiter's, and on a cluster the shared one) when
    its chat model call replies. A failed call has no parse to wait for: leaving the
    attempt gives them back, and a refusal for load reaches the limiter's back-off."""

    run_inline = True  # in the caller's task, where the attempt's slot is known

    def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        given_back = _reply_in.get()
        if given_back is not None:
            given_back()


REPLY_IN = ReplyIn()


def _after_failure(exc: Exception, held: _Held, attempts: _Attempts, settings: Settings) -> float:
    """Tell the limiter, then raise if the call is done for, else the seconds to wait."""
    kind = failure_kind(exc)
    limiter = held.limiter
    if kind == "load":
        attempts.refused += 1
        signal = read_signal(headers_of(exc))
        backoff = held.backpressure(signal)
        if backoff is not None:
            emit(
                "rate_limited",
                model=limiter.name,
                status=status_code(exc) or 429,
                limit=backoff.limit,
                pause_s=round(backoff.pause_s, 3),
            )
        if signal.retry_after_s is not None:
            return signal.retry_after_s  # the floor; the limiter pauses other calls as long
        return backoff_s(attempts.refused, settings, exc)
    held.failed()
    attempts.errors += 1
    if kind == "fatal" or attempts.errors > settings.max_retries:
        raise _as_model_error(exc, attempts.total) from exc
    return backoff_s(attempts.errors, settings, exc)


def _deadline_error(attempts: _Attempts, settings: Settings, exc: Exception | None) -> ModelError:
    deadline = f"its {settings.call_deadline_s:g} s deadline (LONGDOC_CALL_DEADLINE_S)"
    if attempts.refused:
        return ModelRateLimitError(
            f"model call refused for load (429/503) {attempts.refused} times and waited "
            f"{attempts.waited_s:.1f} s in all; gave up at {deadline}"
        )
    if exc is not None and not isinstance(exc, TimeoutError):
        return _as_model_error(exc, attempts.total)
    return ModelTimeoutError(f"model call timed out after {attempts.total} attempts, at {deadline}")


def _as_model_error(exc: Exception, attempts: int) -> ModelError:
    if isinstance(exc, ModelError):
        return exc
    tries = f"after {attempts} attempt{'s' if attempts > 1 else ''}"
    if isinstance(exc, TimeoutError):
        return ModelTimeoutError(f"model call timed out {tries}")
    url = request_url(exc)
    where = f" to {url}" if url else ""  # "Connection error." alone hides a wrong base URL
    malformed = malformed_reply(exc)
    if malformed is not None:
        return ModelError(f"model server{where} sent {malformed}, {tries}"[:500])
    detail = str(exc) or type(exc).__name__
    return ModelError(f"model call{where} failed {tries}: {type(exc).__name__}: {detail}"[:500])


def request_url(exc: BaseException) -> str | None:
    """The URL a failed provider request went to (openai and httpx errors carry it)."""
    try:
        url = getattr(getattr(exc, "request", None), "url", None)
    except RuntimeError:  # httpx raises when the request was never set
        return None
    return str(url) if url else None
