"""The Limiter on its own: AIMD bounds, one back-off per round, pauses, budgets, many loops."""

from __future__ import annotations

import asyncio
import math
import threading

import pytest
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from pipeline import Settings
from pipeline.engines.llm.limiter import DeadlineError, Limiter, Ticket
from pipeline.engines.llm.limiters import all_limiters, endpoint_key, limiter_for
from pipeline.engines.llm.signals import RateSignal, Window, parse_duration, read_signal
from tests.support.fakes import FakeChatModel
from tests.support.virtual_time import run_virtual

FAR = math.inf


def test_limit_grows_to_the_ceiling_and_backs_off_to_no_less_than_one() -> None:
    async def main() -> tuple[int, int]:
        limiter = Limiter(12)
        for _ in range(50):  # calls that always find every slot taken
            tickets = [await limiter.acquire(lambda: 0, FAR) for _ in range(limiter.current_limit)]
            for ticket in tickets:
                limiter.succeeded(ticket)
        grown = limiter.current_limit
        for _ in range(30):
            await asyncio.sleep(1)
            ticket = await limiter.acquire(lambda: 0, FAR)
            limiter.backpressure(ticket, RateSignal())
        return grown, limiter.current_limit

    assert run_virtual(main()) == (12, 1)


def test_before_any_refusal_the_limit_grows_half_again_each_round_trip() -> None:
    """40 calls at once on a server that refuses nothing, each 1 s: rounds of 8, 12, 18,
    and the rest. The replies of a round all arrive at one instant, while the calls they
    wake have not started yet: those still count as waiting, or the growth stops short."""

    async def main() -> list[int]:
        limiter = Limiter(64)
        starts: list[float] = []

        async def call() -> None:
            ticket = await limiter.acquire(lambda: 0, FAR)
            starts.append(ticket.started_at)
            await asyncio.sleep(1)
            limiter.succeeded(ticket)

        await asyncio.gather(*(call() for _ in range(40)))
        return [starts.count(float(second)) for second in range(4)]

    assert run_virtual(main()) == [8, 12, 18, 2]


def test_refusals_of_one_round_back_off_once_to_what_the_server_held() -> None:
    """Eight calls sent together, five refused: one back-off, and the limit ends at the
    three the server kept, not at 8 x 0.9^5."""

    async def main() -> tuple[int, int, int]:
        limiter = Limiter(64)
        tickets = [await limiter.acquire(lambda: 0, FAR) for _ in range(8)]
        for ticket in tickets[3:]:
            limiter.backpressure(ticket, RateSignal())
        first_round = (limiter.current_limit, limiter.backoffs)
        for ticket in tickets[:3]:
            limiter.succeeded(ticket)
        late = [await limiter.acquire(lambda: 0, FAR) for _ in range(3)]
        limiter.backpressure(late[0], RateSignal())  # sent after the back-off: a new round
        return *first_round, limiter.backoffs

    limit, backoffs_then, backoffs_later = run_virtual(main())
    assert (limit, backoffs_then) == (3, 1)
    assert backoffs_later == 2


def test_retry_after_pauses_every_new_call_to_the_endpoint() -> None:
    async def main() -> float:
        limiter = Limiter(8)
        loop = asyncio.get_running_loop()
        ticket = await limiter.acquire(lambda: 0, FAR)
        backoff = limiter.backpressure(ticket, RateSignal(retry_after_s=3.0))
        assert backoff is not None
        assert backoff.pause_s == 3.0
        start = loop.time()
        await limiter.acquire(lambda: 0, FAR)  # another call, not the refused one
        return loop.time() - start

    assert run_virtual(main()) == pytest.approx(3.0)


def test_a_call_that_cannot_start_before_its_deadline_says_how_long_it_waited() -> None:
    async def main() -> None:
        limiter = Limiter(1)
        await limiter.acquire(lambda: 0, FAR)  # holds the only slot
        with pytest.raises(DeadlineError) as caught:
            await limiter.acquire(lambda: 0, asyncio.get_running_loop().time() + 5)
        assert caught.value.waited_s == pytest.approx(5)

    run_virtual(main())


def test_tokens_per_minute_budget_spaces_calls_by_prompt_size() -> None:
    """60,000 tokens a minute is 1,000 a second: after the first minute's worth, a
    20,000-token prompt waits 20 s."""

    async def main() -> list[float]:
        limiter = Limiter(64, tokens_per_minute=60_000)
        loop = asyncio.get_running_loop()
        starts = []
        for _ in range(5):
            ticket = await limiter.acquire(lambda: 20_000, FAR)
            starts.append(loop.time())
            limiter.succeeded(ticket)
        return starts

    assert run_virtual(main()) == pytest.approx([0, 0, 0, 20, 40])


def test_remaining_headers_hold_calls_until_the_server_budget_refills() -> None:
    async def main() -> float:
        limiter = Limiter(64)
        loop = asyncio.get_running_loop()
        # 2 requests left of 100 a minute, whole again in 30 s: 98 come back in 30 s.
        limiter.observe(RateSignal(requests=Window(limit=100, remaining=2, reset_s=30.0)))
        for _ in range(2):
            await limiter.acquire(lambda: 0, FAR)
        start = loop.time()
        await limiter.acquire(lambda: 0, FAR)
        return loop.time() - start

    assert run_virtual(main()) == pytest.approx(30 / 98, rel=0.01)


def test_a_waiter_on_another_event_loop_is_woken_by_a_release() -> None:
    """The sync API runs each call in its own loop; one Limiter serves them all."""
    limiter = Limiter(1)
    held = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def holder() -> None:
        async def run() -> None:
            ticket = await limiter.acquire(lambda: 0, FAR)
            held.set()
            await asyncio.to_thread(release.wait, 5)
            order.append("released")
            limiter.succeeded(ticket)

        asyncio.run(run())

    thread = threading.Thread(target=holder)
    thread.start()
    assert held.wait(5)

    async def waiter() -> Ticket:
        asyncio.get_running_loop().call_later(0.2, release.set)
        ticket = await limiter.acquire(lambda: 0, asyncio.get_running_loop().time() + 5)
        order.append("admitted")
        return ticket

    asyncio.run(waiter())
    thread.join(5)
    assert order == ["released", "admitted"]


def test_a_cancelled_waiter_leaves_no_slot_taken() -> None:
    async def main() -> int:
        limiter = Limiter(1)
        ticket = await limiter.acquire(lambda: 0, FAR)
        waiting = asyncio.create_task(limiter.acquire(lambda: 0, FAR))
        await asyncio.sleep(1)
        waiting.cancel()
        limiter.succeeded(ticket)
        await asyncio.gather(waiting, return_exceptions=True)
        await limiter.acquire(lambda: 0, FAR)  # would hang if the slot had leaked
        return limiter.in_flight

    assert run_virtual(main()) == 1


def openai_model(url: str, name: str, key: str) -> ChatOpenAI:
    return ChatOpenAI(model=name, base_url=url, api_key=SecretStr(key), max_retries=0)


def test_one_limiter_per_endpoint_model_and_key_shared_by_every_request() -> None:
    settings = Settings(max_concurrency=32)
    a = limiter_for(openai_model("http://h/v1", "small", "k1"), settings)
    assert limiter_for(openai_model("http://h/v1/", "small", "k1"), settings) is a
    assert limiter_for(openai_model("http://h/v1", "large", "k1"), settings) is not a
    assert limiter_for(openai_model("http://h/v1", "small", "k2"), settings) is not a
    assert limiter_for(openai_model("http://other/v1", "small", "k1"), settings) is not a
    shown = repr([key for key, _ in all_limiters()])
    assert "k1" not in shown  # keys are hashed, never kept
    assert "k2" not in shown
    assert endpoint_key(FakeChatModel()) != endpoint_key(FakeChatModel())


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("1.5", 1.5), ("120ms", 0.12), ("2s", 2.0), ("6m0s", 360.0), ("1h2m3s", 3723.0)],
)
def test_reset_durations_in_every_form_providers_send(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)


def test_rate_limit_headers_are_read_in_any_case() -> None:
    signal = read_signal(
        {
            "Retry-After-Ms": "250",
            "Retry-After": "3",
            "X-RateLimit-Limit-Tokens": "30000",
            "X-RateLimit-Remaining-Tokens": "12000",
            "X-RateLimit-Reset-Tokens": "36s",
        }
    )
    assert signal.retry_after_s == 0.25  # the precise one wins
    assert signal.tokens == Window(limit=30000, remaining=12000, reset_s=36.0)
    assert signal.requests is None
    assert read_signal({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}).retry_after_s == 0
