"""The shared (cluster-wide) call slot each model call holds: given back with the reply."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from pipeline import Settings, aask
from pipeline.engines.llm import shared_limit
from tests.support.fakes import FakeChatModel


class Slots:
    """A slot provider that counts slots taken, and those given back by the reply."""

    def __init__(self) -> None:
        self.taken = 0
        self.freed_with_reply = 0
        self.held = 0
        self.peak = 0

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[shared_limit.Free]:
        self.taken += 1
        self.held += 1
        self.peak = max(self.peak, self.held)
        held = True

        def free() -> None:
            nonlocal held
            if held:
                held = False
                self.held -= 1
                self.freed_with_reply += 1

        try:
            yield free
        finally:
            if held:
                self.held -= 1


@pytest.fixture
def slots() -> Iterator[Slots]:
    provider = Slots()
    shared_limit.install(provider.slot)
    try:
        yield provider
    finally:
        shared_limit.install(None)


DOCUMENT = "\n\n".join(
    f"Crane {n} lifted {n * 7} boxes in Bergen while the harbour was closed. " * 6
    for n in range(12)
)


async def test_every_model_call_gives_its_shared_slot_back_with_the_reply(
    slots: Slots, tmp_path: Path
) -> None:
    """Not after LangChain has parsed the reply: the provider is done with the call."""
    model = FakeChatModel()
    settings = Settings(cache="off", data_dir=tmp_path, chunk_size=60, chunk_overlap=0)
    result = await aask(
        DOCUMENT, "How many boxes did crane 3 lift?", model=model, settings=settings
    )
    assert result.coverage.chunks > 3
    assert slots.taken == model.calls > 3
    assert slots.freed_with_reply == model.calls
    assert slots.held == 0


async def test_without_a_shared_limit_calls_run_as_before(tmp_path: Path) -> None:
    model = FakeChatModel()
    settings = Settings(cache="off", data_dir=tmp_path)
    result = await aask(
        DOCUMENT, "How many boxes did crane 3 lift?", model=model, settings=settings
    )
    assert result.answer
