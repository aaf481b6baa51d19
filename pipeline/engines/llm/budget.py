"""Bucket: a budget of requests or tokens per minute that refills continuously."""

from __future__ import annotations

from pipeline.engines.llm.signals import Window

MINUTE_S = 60.0
MIN_WAIT_S = 0.001
"""Shortest wait for a refill: a shortfall of a hair would otherwise wake the caller in a
loop of waits too short to move the clock."""


class Bucket:
    """Holds up to `capacity` units and refills at `rate` units a second.

    With capacity 30,000 tokens a minute the rate is 500 a second: a call that reserves
    2,000 tokens from an empty bucket waits 4 s. A cost above the capacity is charged as
    the capacity, so one huge prompt waits for a full bucket instead of forever.
    """

    def __init__(self, capacity: float, rate: float | None = None) -> None:
        self.capacity = max(1.0, capacity)
        self.rate = rate if rate is not None else self.capacity / MINUTE_S
        self.level = self.capacity
        # Set by the first use, on the clock of the loop that uses it: a bucket may be
        # built in a worker thread (build_graph), whose clock is not the loop's.
        self._at: float | None = None

    def wait_s(self, cost: float, now: float) -> float:
        """Seconds until `cost` units are there (0 when they are now)."""
        self._refill(now)
        missing = min(cost, self.capacity) - self.level
        return 0.0 if missing <= 0 else max(MIN_WAIT_S, missing / self.rate)

    def take(self, cost: float, now: float) -> None:
        self._refill(now)
        self.level -= min(cost, self.capacity)

    def give_back(self, cost: float, now: float) -> None:
        self._refill(now)
        self.level = min(self.capacity, self.level + min(cost, self.capacity))

    def calibrate(self, window: Window, now: float) -> None:
        """Trust the server's count: never more left than it says, refilling as it says.

        x-ratelimit-limit 30,000, remaining 12,000, reset 36 s: 18,000 come back in 36 s,
        500 a second. Replies arrive out of order, so a stale, higher count never raises
        the level; refilling does.
        """
        self._refill(now)
        if window.limit:
            self.capacity = float(window.limit)
            spent = window.limit - window.remaining
            if window.reset_s and spent > 0:
                self.rate = spent / window.reset_s
            else:
                self.rate = self.capacity / MINUTE_S
        self.level = min(self.level, float(window.remaining))

    def _refill(self, now: float) -> None:
        if self._at is not None and now > self._at:
            self.level = min(self.capacity, self.level + (now - self._at) * self.rate)
        self._at = now if self._at is None else max(self._at, now)
