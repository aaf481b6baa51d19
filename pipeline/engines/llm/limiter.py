"""Limiter: how many calls one provider endpoint may have in flight, and when the next may start.

The limit is found, not configured (AIMD, as TCP finds a link's capacity):

- It starts at min(ceiling, 8) and, until the first back-off, grows by half a slot per
  call that ends while calls wait for a slot: 1.5x a round trip, 8, 12, 18, 27, 40, 60.
  Not TCP's doubling: the round that first overshoots a server of 16 sends 18 (2
  refused), where doubling sends 32 (16 refused, 14% of a 100-chunk document's calls).
- After that it grows by one per round trip (1/limit per call), and more slowly at or
  above the level of the last back-off: one slot per 2^k round trips after k back-offs
  at that level, so a limit that holds is probed ever more rarely.
- A 429, 503 or overload reply backs off: the limit becomes 0.9 x itself, and no more
  than the calls still in flight (the server held those), never below 1. That is once
  per round: a refusal of a call sent before the last back-off only lowers the limit to
  the calls still in flight. Limit 8, 8 sent, 4 refused: 7.2, then 6, 5, 4.
- Retry-After pauses every new call to the endpoint that long.
- x-ratelimit-remaining-/reset- headers, and LONGDOC_TOKENS_PER_MINUTE, are budgets a
  call reserves from before it starts (one request, its prompt's tokens), so calls wait
  for the budget instead of meeting the 429.

One Limiter serves every request and every event loop of the process (the sync API runs
each call in a fresh loop), so its state is plain numbers under a threading lock, never
a loop-bound primitive; a waiting call sleeps on a future of its own loop, which a
release wakes with call_soon_threadsafe.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.engines.llm.budget import Bucket
from pipeline.engines.llm.signals import RateSignal, Window

INITIAL_LIMIT = 8
"""The first burst, like TCP's initial window: most providers take 8 calls at once."""
SLOW_START_GROWTH = 0.5
"""Slots per call ended until the first back-off: the limit grows 1.5x a round trip."""
BACKOFF_FACTOR = 0.9
MAX_PROBE_DOUBLINGS = 4
"""At most 16 round trips between probes above the last back-off level."""
NEAR_LEVEL = 0.8
"""A back-off at 80% or more of the last level counts as meeting the same level again."""


def loop_time() -> float:
    """The running loop's clock (time.monotonic, or a test's virtual time); monotonic outside."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


@dataclass(frozen=True)
class Ticket:
    """One admitted call: when it started and what it reserved."""

    started_at: float
    round: int
    """The limiter's back-off count when the call started: its round."""
    tokens: int
    waited_s: float
    """Seconds it waited for a slot, a pause or a budget before it could start."""


@dataclass(frozen=True)
class Backoff:
    """What a back-off decided, for progress events: the new limit and the pause."""

    limit: int
    pause_s: float


@dataclass(frozen=True)
class LimiterStats:
    """A Limiter's state and counts since the process started, for /metrics."""

    limit: int
    ceiling: int
    in_flight: int
    waiting: int
    calls: int
    rate_limited: int
    backoffs: int
    waits: int
    waited_s: float
    paused_s: float
    tokens_per_minute: int | None


class DeadlineError(Exception):
    """A call's deadline passed while it waited to start; `waited_s` says how long it waited."""

    def __init__(self, waited_s: float) -> None:
        super().__init__(f"waited {waited_s:.1f} s for the rate limit")
        self.waited_s = waited_s


class Limiter:
    """The concurrency limit, pause and budgets of one endpoint (see the module docstring)."""

    def __init__(
        self,
        ceiling: int,
        *,
        name: str = "model",
        tokens_per_minute: int | None = None,
        clock: Callable[[], float] = loop_time,
    ) -> None:
        self.name = name
        """The model's name, as usage and metrics show it."""
        self.clock = clock
        self._lock = threading.Lock()
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()
        self.ceiling = ceiling
        self.limit = float(min(ceiling, INITIAL_LIMIT))
        self._starting = True  # 1.5x per round trip until the first back-off
        self._level = 0.0  # limit before the last back-off: probing slows down at it
        self._doublings = 0
        self._paused_until = -math.inf
        self.in_flight = 0
        self._blocked = 0
        """Calls in acquire that had to wait, woken ones not yet admitted included."""
        self._tokens_per_minute = tokens_per_minute
        self._budget = Bucket(tokens_per_minute) if tokens_per_minute else None
        self._server_requests: Bucket | None = None
        self._server_tokens: Bucket | None = None
        self.calls = self.rate_limited = self.backoffs = self.waits = 0
        self.waited_s = 0.0

    def configure(self, ceiling: int, tokens_per_minute: int | None) -> None:
        """Take a (new) ceiling and token budget; the limit found so far is kept under it."""
        with self._lock:
            self.ceiling = ceiling
            self.limit = min(self.limit, float(ceiling))
            if tokens_per_minute != self._tokens_per_minute:
                self._tokens_per_minute = tokens_per_minute
                self._budget = Bucket(tokens_per_minute) if tokens_per_minute else None

    # ---- admission ----

    async def acquire(self, tokens: Callable[[], int], deadline: float) -> Ticket:
        """Wait for a slot, the end of any pause and the budgets; DeadlineError past `deadline`.

        `tokens` (the prompt's size) is only computed when a token budget is known.
        """
        began = self.clock()
        cost: int | None = None
        blocked = False
        try:
            while True:
                with self._lock:
                    now = self.clock()
                    if cost is None and (self._budget or self._server_tokens):
                        cost = tokens()
                    wait = self._admit(now, cost or 0)
                    if wait == 0.0:
                        waited = now - began if blocked else 0.0
                        if blocked:
                            self.waits += 1
                            self.waited_s += waited
                        return Ticket(
                            started_at=now, round=self.backoffs, tokens=cost or 0, waited_s=waited
                        )
                    if now >= deadline:
                        raise DeadlineError(now - began)
                    timeout = min(wait, deadline - now)
                    if not blocked:
                        blocked = True
                        self._blocked += 1
                    loop = asyncio.get_running_loop()
                    future: asyncio.Future[None] = loop.create_future()
                    self._waiters.append((loop, future))
                try:
                    # Not wait_for, which on Python 3.11 can drop a cancellation.
                    async with asyncio.timeout(None if timeout == math.inf else timeout):
                        await future
                except TimeoutError:
                    pass  # a pause or a budget's wait is over: check again
                except asyncio.CancelledError:
                    with self._lock:
                        if future.done() and not future.cancelled():
                            self._wake_locked()  # it was woken: let another caller have the slot
                    raise
                finally:
                    with self._lock:
                        if (loop, future) in self._waiters:
                            self._waiters.remove((loop, future))
        finally:
            if blocked:
                with self._lock:
                    self._blocked -= 1

    def _admit(self, now: float, cost: int) -> float:
        """0 and the call is counted in, or the seconds to wait (inf: until a release)."""
        if now < self._paused_until:
            return self._paused_until - now
        if self.in_flight >= max(1, math.floor(self.limit)):
            return math.inf
        buckets = [(b, cost) for b in (self._budget, self._server_tokens) if b is not None]
        if self._server_requests is not None:
            buckets.append((self._server_requests, 1))
        wait = max((bucket.wait_s(c, now) for bucket, c in buckets), default=0.0)
        if wait > 0:
            return wait
        for bucket, c in buckets:
            bucket.take(c, now)
        self.in_flight += 1
        self.calls += 1
        return 0.0

    # ---- outcomes ----

    def succeeded(self, ticket: Ticket) -> None:
        """The call got a reply: grow the limit if it is what holds calls back.

        That is, calls wait for a slot (woken ones count until they start, or 8 replies
        arriving at once would stop growing once the first few woke the rest) or every slot is
        taken; a limit nobody reaches (the last calls of a run) shows nothing and stays.
        """
        with self._lock:
            if self._blocked or self.in_flight >= math.floor(self.limit):
                self.limit = min(float(self.ceiling), self.limit + self._growth())
            self._release_locked()

    def failed(self, ticket: Ticket) -> None:
        """The call failed for a reason that says nothing about load: the limit stays."""
        with self._lock:
            self._give_back_locked(ticket)
            self._release_locked()

    def backpressure(self, ticket: Ticket, signal: RateSignal) -> Backoff | None:
        """The server refused the call for load (429, 503, overloaded): back off and pause.

        Returns what changed (for a progress event), or None when this reply changed
        nothing: it belongs to a round that already backed off, and pauses no longer.
        """
        with self._lock:
            now = self.clock()
            self.rate_limited += 1
            self._give_back_locked(ticket)
            self.in_flight -= 1
            before = math.floor(self.limit)
            new_round = ticket.round == self.backoffs  # no back-off since it started
            if new_round:
                self._back_off()
            else:  # sent under an older limit: only what it says about capacity counts
                self._clamp_to_in_flight()
            changed = new_round or math.floor(self.limit) != before
            pause = signal.retry_after_s or 0.0
            if now + pause > self._paused_until:
                self._paused_until = now + pause
                changed = changed or pause > 0
            self.observe_locked(signal, now)
            self._wake_locked()
            if not changed:
                return None
            return Backoff(limit=math.floor(self.limit), pause_s=max(0.0, self._paused_until - now))

    def observe(self, signal: RateSignal) -> None:
        """Take the x-ratelimit budgets a reply reported."""
        with self._lock:
            self.observe_locked(signal, self.clock())

    def observe_locked(self, signal: RateSignal, now: float) -> None:
        if signal.requests is not None:
            self._server_requests = _calibrated(self._server_requests, signal.requests, now)
        if signal.tokens is not None:
            self._server_tokens = _calibrated(self._server_tokens, signal.tokens, now)

    def stats(self) -> LimiterStats:
        with self._lock:
            return LimiterStats(
                limit=math.floor(self.limit),
                ceiling=self.ceiling,
                in_flight=self.in_flight,
                waiting=self._blocked,
                calls=self.calls,
                rate_limited=self.rate_limited,
                backoffs=self.backoffs,
                waits=self.waits,
                waited_s=self.waited_s,
                paused_s=max(0.0, self._paused_until - self.clock()),
                tokens_per_minute=self._tokens_per_minute,
            )

    @property
    def current_limit(self) -> int:
        return max(1, math.floor(self.limit))

    # ---- inside the lock ----

    def _growth(self) -> float:
        if self._starting:
            return SLOW_START_GROWTH
        per_round = 1.0 / self.limit
        if self.limit + 1 >= self._level:  # the next slot would probe the last back-off level
            return per_round / float(2**self._doublings)
        return per_round

    def _back_off(self) -> None:
        # The refused call is out already: in_flight counts the others, which got in.
        level = float(self.in_flight + 1)
        if self._level and level >= NEAR_LEVEL * self._level:
            self._doublings = min(MAX_PROBE_DOUBLINGS, self._doublings + 1)
        else:
            self._doublings = 1  # back at this level: wait 2 round trips before probing it
        self._level = level
        self.limit = max(1.0, min(BACKOFF_FACTOR * self.limit, float(self.in_flight)))
        self._starting = False
        self.backoffs += 1

    def _clamp_to_in_flight(self) -> None:
        """A later refusal of an already-counted round: the server held no more than the
        calls still in flight. 8 sent, 4 refused one by one: the limit ends at 4."""
        self._level = min(self._level, float(self.in_flight + 1))
        self.limit = max(1.0, min(self.limit, float(self.in_flight)))

    def _give_back_locked(self, ticket: Ticket) -> None:
        now = self.clock()
        if self._budget is not None:
            self._budget.give_back(ticket.tokens, now)

    def _release_locked(self) -> None:
        self.in_flight -= 1
        self._wake_locked()

    def _wake_locked(self) -> None:
        """Wake as many waiters as there are free slots (each re-checks when it runs)."""
        free = max(1, math.floor(self.limit)) - self.in_flight
        while free > 0 and self._waiters:
            loop, future = self._waiters.popleft()
            try:
                loop.call_soon_threadsafe(_wake, future)
            except RuntimeError:  # that loop is closed: its caller is gone
                continue
            free -= 1


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _calibrated(bucket: Bucket | None, window: Window, now: float) -> Bucket:
    if bucket is None:
        bucket = Bucket(window.limit or max(1, window.remaining))
    bucket.calibrate(window, now)
    return bucket
