"""GET /metrics in Prometheus text format: each model endpoint's limit, calls, 429s and waits.

A few lines of the text format (version 0.0.4) rather than prometheus_client: the
values already live in the process's Limiters, and nothing else here is a metric.
"""

from __future__ import annotations

from pipeline.engines.llm.limiter import LimiterStats
from pipeline.engines.llm.limiters import EndpointKey, all_limiters

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# name, type, help, value
_METRICS: list[tuple[str, str, str, str]] = [
    ("concurrency_limit", "gauge", "Calls the endpoint may have in flight now.", "limit"),
    ("concurrency_ceiling", "gauge", "LONGDOC_MAX_CONCURRENCY for the endpoint.", "ceiling"),
    ("calls_in_flight", "gauge", "Calls in flight now.", "in_flight"),
    ("calls_waiting", "gauge", "Calls waiting for a slot, a pause or a budget.", "waiting"),
    ("paused_seconds", "gauge", "Seconds left of a Retry-After pause.", "paused_s"),
    ("calls_total", "counter", "Attempts started.", "calls"),
    ("rate_limited_total", "counter", "Attempts refused for load (429, 503).", "rate_limited"),
    ("backoffs_total", "counter", "Times the limit was lowered.", "backoffs"),
    ("waits_total", "counter", "Attempts that waited before they could start.", "waits"),
    ("wait_seconds_total", "counter", "Seconds attempts waited before starting.", "waited_s"),
]


def render() -> str:
    """Every metric, one sample per endpoint the process has called."""
    entries = all_limiters()
    lines: list[str] = []
    for name, kind, help_text, field in _METRICS:
        full = f"longdoc_model_{name}"
        lines += [f"# HELP {full} {help_text}", f"# TYPE {full} {kind}"]
        lines += [f"{full}{{{_labels(key)}}} {_value(stats, field)}" for key, stats in entries]
    return "\n".join(lines) + "\n"


def _labels(key: EndpointKey) -> str:
    endpoint = key.url if "#" not in key.url else "in-process"
    return f'model="{_escape(key.model)}",endpoint="{_escape(endpoint)}",key="{key.key_hash}"'


def _value(stats: LimiterStats, field: str) -> str:
    value = getattr(stats, field)
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
