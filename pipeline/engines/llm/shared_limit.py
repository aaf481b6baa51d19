"""A model-call limit shared beyond this process (a Ray cluster's), when one is installed.

call_model holds one shared slot around each attempt, inside the per-process cap, so N
workers with `max_concurrency` each still send at most the shared limit to a provider.
Nothing is installed by default, and then a slot costs nothing. A batch executor installs
a provider in each worker process (pipeline/batch/ray_limiter.py: one actor holding the
cluster's slots).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

SlotProvider = Callable[[], AbstractAsyncContextManager[None]]
"""Returns a context manager that holds one shared slot for as long as it is entered."""

_provider: SlotProvider | None = None


def install(provider: SlotProvider | None) -> None:
    """Make every model call of this process hold a slot of `provider` (None: none)."""
    global _provider
    _provider = provider


@asynccontextmanager
async def shared_slot() -> AsyncIterator[None]:
    """One slot of the installed provider, or nothing when none is installed."""
    provider = _provider
    if provider is None:
        yield
        return
    async with provider():
        yield
