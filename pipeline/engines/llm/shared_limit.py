"""A model-call limit shared beyond this process (a Ray cluster's), when one is installed.

call_model holds one shared slot around each attempt, inside the per-process cap, so N
workers with `max_concurrency` each still send at most the shared limit to a provider.
Nothing is installed by default, and then a slot costs nothing. A batch executor installs
a provider in each worker process (pipeline/batch/ray_slots.py: leases of one actor
holding the cluster's slots).

The slot goes back as soon as the model's reply is in (`SlotRelease`, a callback on every
model call), not when LangChain has parsed it and the attempt returns: the provider is
done with the call, and on a worker whose two cores are busy the parse and LangChain's
bookkeeping after it held the slot 7-20 ms (mean) of each ~210 ms call: capacity no other
call could use.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler

Free = Callable[[], None]
"""Gives a held slot back now; calling it again, or leaving the slot, does nothing more."""

SlotProvider = Callable[[], AbstractAsyncContextManager[Free]]
"""Returns a context manager that holds one shared slot until it is left or freed early."""

_provider: SlotProvider | None = None
_held: ContextVar[Free | None] = ContextVar("longdoc_shared_slot", default=None)


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
    async with provider() as free:
        token = _held.set(free)
        try:
            yield
        finally:
            _held.reset(token)


def callbacks() -> list[BaseCallbackHandler]:
    """What a model call's config carries so its slot goes back with the reply: nothing
    when no provider is installed (one process, the per-process cap alone)."""
    return [_RELEASE] if _provider is not None else []


def reply_received() -> None:
    """The model call of this attempt has its reply: its shared slot goes back now.

    One attempt makes one model call (each call_model caller's `make_call` does), so
    the reply that ends it is the attempt's own.
    """
    free = _held.get()
    if free is not None:
        free()


class SlotRelease(BaseCallbackHandler):
    """Gives an attempt's shared slot back when its model call ends, replied or failed."""

    run_inline = True  # in the caller's task and thread, where the slot is held

    def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        reply_received()

    def on_llm_error(self, error: BaseException, **kwargs: Any) -> None:
        reply_received()


_RELEASE = SlotRelease()
