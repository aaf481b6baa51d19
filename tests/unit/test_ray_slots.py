"""A Ray worker's call slots (batch/ray_slots.py) against the cluster's real Limiter class.

The Limiter runs in this process, behind a handle shaped like a Ray actor's: `.remote()`
returns something to await, as an actor call does, and a release is sent, not awaited.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("ray")

from pipeline.batch.ray_limiter import LEASE_USES, Limiter
from pipeline.batch.ray_slots import SlotKeeper


class Method:
    def __init__(self, handle: Handle, name: str) -> None:
        self.handle = handle
        self.name = name

    def remote(self, *args: Any) -> asyncio.Task[Any]:
        self.handle.messages.append(self.name)
        task = asyncio.ensure_future(self.handle.answer(self.name, args))
        self.handle.sent.add(task)
        return task


class Handle:
    """A Limiter behind actor-like methods, counting the messages each worker sends it."""

    def __init__(self, limiter: Limiter, fail: bool = False) -> None:
        self.limiter = limiter
        self.fail = fail
        self.messages: list[str] = []
        self.sent: set[asyncio.Task[Any]] = set()
        self.acquire = Method(self, "acquire")
        self.release = Method(self, "release")

    async def answer(self, name: str, args: tuple[Any, ...]) -> Any:
        await asyncio.sleep(0.001)  # the message travels
        if self.fail:
            raise ConnectionError("the limiter actor is gone")
        result = await getattr(self.limiter, name)(*args)
        await asyncio.sleep(0.001)  # and so does the reply
        return result


class Calls:
    """Model calls run through keepers, recording what a provider would see."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.peak = 0
        self.log: list[str] = []

    async def call(self, keeper: SlotKeeper, name: str, seconds: float = 0.005) -> None:
        async with keeper.slot():
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            self.log.append(name)
            await asyncio.sleep(seconds)
            self.in_flight -= 1


async def settled(limiter: Limiter, handles: list[Handle]) -> None:
    """Every message delivered; then the cluster holds no lease."""
    for handle in handles:
        while handle.sent:
            await asyncio.gather(*handle.sent, return_exceptions=True)
            handle.sent = {t for t in handle.sent if not t.done()}
    if limiter.reaper is not None:
        limiter.reaper.cancel()


def cluster(slots: int) -> Limiter:
    return Limiter(slots, lease_s=60.0)


async def test_a_finished_call_hands_its_slot_to_a_call_waiting_on_the_same_worker() -> None:
    limiter = cluster(1)
    handle = Handle(limiter)
    keeper = SlotKeeper(handle)
    leases: list[str] = []

    async def call() -> None:
        async with keeper.slot():
            (lease,) = limiter.leases  # one slot in the cluster: the lease this call holds
            leases.append(lease)
            await asyncio.sleep(0.005)

    await asyncio.gather(*(call() for _ in range(LEASE_USES + 1)))
    await settled(limiter, [handle])
    # One lease served the first LEASE_USES calls in a row, with no message to the actor
    # between them (a lease per call would go back and forth once per call); then it went
    # back to the actor's queue and the next call got a new one.
    assert len(set(leases[:LEASE_USES])) == 1
    assert leases[LEASE_USES] != leases[0]
    assert handle.messages.count("release") == handle.messages.count("acquire")
    assert limiter.leases == {}


async def test_the_cluster_limit_holds_across_workers_passing_slots_on() -> None:
    limiter = cluster(3)
    handles = [Handle(limiter) for _ in range(3)]
    keepers = [SlotKeeper(handle) for handle in handles]
    calls = Calls()
    await asyncio.gather(
        *(calls.call(keepers[n % 3], f"call {n}", seconds=0.001 * (n % 7)) for n in range(60))
    )
    await settled(limiter, handles)
    assert calls.peak == 3
    assert len(calls.log) == 60
    assert limiter.leases == {}  # every lease went back


async def test_a_worker_waiting_elsewhere_gets_a_slot_within_lease_uses_calls() -> None:
    """Worker A always has a call waiting; worker B's one call still gets the only slot
    once A's lease has served LEASE_USES calls."""
    limiter = cluster(1)
    a, b = Handle(limiter), Handle(limiter)
    keeper_a, keeper_b = SlotKeeper(a), SlotKeeper(b)
    calls = Calls()
    stop = asyncio.Event()

    async def busy_worker() -> None:
        while not stop.is_set():
            await calls.call(keeper_a, "A")

    async def other_worker() -> None:
        await asyncio.sleep(0.002)  # A holds the slot by now
        await calls.call(keeper_b, "B")
        stop.set()

    await asyncio.wait_for(asyncio.gather(busy_worker(), busy_worker(), other_worker()), 5)
    await settled(limiter, [a, b])
    assert calls.log.index("B") <= 2 * LEASE_USES  # A's two waiting calls were ahead of B
    assert calls.peak == 1


async def test_a_slot_freed_with_the_reply_serves_the_next_call_and_goes_back_once() -> None:
    limiter = cluster(1)
    handle = Handle(limiter)
    keeper = SlotKeeper(handle, uses=1)  # each lease straight back to the actor
    order: list[str] = []

    async def first() -> None:
        async with keeper.slot() as free:
            order.append("first replied")
            free()  # the reply is in: parsing it needs no slot
            await asyncio.sleep(0.05)
            order.append("first parsed")

    async def second() -> None:
        await asyncio.sleep(0.001)
        async with keeper.slot():
            order.append("second called")

    await asyncio.gather(first(), second())
    await settled(limiter, [handle])
    assert order == ["first replied", "second called", "first parsed"]
    assert handle.messages.count("release") == handle.messages.count("acquire") == 2
    assert limiter.leases == {}
    assert limiter.slots._value == 1


async def test_a_call_cancelled_while_waiting_leaves_no_slot_held() -> None:
    limiter = cluster(1)
    handle = Handle(limiter)
    keeper = SlotKeeper(handle)
    calls = Calls()
    running = asyncio.ensure_future(calls.call(keeper, "long", seconds=0.05))
    waiting = [asyncio.ensure_future(calls.call(keeper, f"w{n}")) for n in range(3)]
    await asyncio.sleep(0.01)
    for task in waiting[:2]:
        task.cancel()
    await asyncio.gather(running, *waiting, return_exceptions=True)
    await settled(limiter, [handle])
    assert calls.log == ["long", "w2"]
    assert limiter.leases == {}
    assert limiter.slots._value == 1  # the slot is the cluster's again


async def test_a_limiter_that_cannot_be_reached_fails_the_waiting_call() -> None:
    limiter = cluster(1)
    handle = Handle(limiter, fail=True)
    keeper = SlotKeeper(handle)
    calls = Calls()
    with pytest.raises(ConnectionError, match="limiter actor is gone"):
        await asyncio.wait_for(calls.call(keeper, "x"), 5)
    assert calls.log == []
