"""A model-call limit shared beyond this process (a Ray cluster's), when one is installed.

call_model holds one shared slot around each attempt, inside the per-process cap, so N
workers with `max_concurrency` each still send at most the shared limit to a provider.
Nothing is installed by default, and then a slot costs nothing. A batch executor installs
a provider in each worker process (pipeline/batch/ray_slots.py: leases of one actor
holding the cluster's slots).

The slot goes back as soon as the model's reply is in: `shared_slot()` yields the function
that frees it, and call_model calls it from the reply (calls.ReplyIn), as it does for the
process's own limiter slot. On a worker whose two cores are busy the parse and LangChain's
bookkeeping after the reply held the slot 7-20 ms (mean) of each ~210 ms call: capacity no
other call could use.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

Free = Callable[[], None]
"""Gives a held slot back now; calling it again, or leaving the slot, does nothing more."""

SlotProvider = Callable[[], AbstractAsyncContextManager[Free]]
"""Returns a context manager that holds one shared slot until it is left or freed early."""

_provider: SlotProvider | None = None


def install(provider: SlotProvider | None) -> None:
    """Make every model call of this process hold a slot of `provider` (None: none)."""
    global _provider
    _provider = provider


@asynccontextmanager
async def shared_slot() -> AsyncIterator[Free]:
    """One slot of the installed provider, and what gives it back early; nothing when none
    is installed."""
    provider = _provider
    if provider is None:
        yield _nothing
        return
    async with provider() as free:
        yield free


def _nothing() -> None:
    """No shared slot to give back."""
