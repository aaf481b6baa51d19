"""Chat memory benchmark: input tokens per turn over a 50-turn conversation, three policies.

    python tests/bench/bench_chat_memory.py

A fake model with realistic lengths (user messages of 20-60 words, replies of 80-160
words) replays the same conversation with: the full history every turn, compression
triggered by message count, and compression triggered by tokens (the default). It prints
each policy's largest per-turn prompt and total input tokens (chat and compression
calls together), and checks the token-triggered prompt never passes its budget.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult

from pipeline import Settings, achat, acreate_thread
from tests.support.fakes import FakeChatModel

TURNS = 50
WORDS = (
    "berth crane vessel cargo tide schedule invoice customs pilot weather container "
    "manifest engine harbour captain delay route quay freight budget report"
).split()


class TalkativeModel(FakeChatModel):
    """Chat replies of 80-160 words, a pure function of the prompt."""

    def _reply(self, messages: list[BaseMessage], tool_names: list[str] | None) -> ChatResult:
        result = super()._reply(messages, tool_names)
        if not tool_names:
            rng = random.Random(str(messages[-1].content))
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(80, 160)))
            message = result.generations[0].message
            message.content = f"{words}."
            usage = message.usage_metadata or {}  # type: ignore[attr-defined]
            usage["output_tokens"] = len(words) // 4
        return result


def conversation() -> list[str]:
    rng = random.Random(50)
    lines = ["My name is Aiko Tanaka and I run the night shift at berth 7."]
    for turn in range(1, TURNS):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60)))
        lines.append(f"Question {turn}: what about the {words}?")
    return lines


async def replay(settings: Settings) -> tuple[list[int], int, int]:
    """(chat prompt tokens per turn, total input tokens, turns that compressed)."""
    model = TalkativeModel()
    thread = (await acreate_thread(settings=settings)).thread_id
    per_turn: list[int] = []
    total = 0
    folds = 0
    for line in conversation():
        result = await achat(thread, line, model=model, settings=settings)
        usage: Any = result.usage.by_node
        per_turn.append(usage["chat"].input_tokens)
        total += result.usage.input_tokens
        folds += result.compressed
    return per_turn, total, folds


async def main() -> None:
    budget = Settings().memory_token_budget
    with tempfile.TemporaryDirectory() as data:
        policies = {
            "full history": Settings(data_dir=Path(data) / "a", memory_token_budget=10**9),
            "count-triggered (20 msgs)": Settings(
                data_dir=Path(data) / "b", memory_trigger="messages", memory_max_messages=20
            ),
            f"token-triggered ({budget} tok)": Settings(data_dir=Path(data) / "c"),
        }
        results = {name: await replay(settings) for name, settings in policies.items()}
    full_total = results["full history"][1]
    print(f"{TURNS} turns; keep last {Settings().memory_keep_messages} messages verbatim")
    print(f"{'policy':<28}{'max/turn':>10}{'turn 50':>10}{'total':>10}{'vs full':>9}{'folds':>7}")
    for name, (per_turn, total, folds) in results.items():
        print(
            f"{name:<28}{max(per_turn):>10,}{per_turn[-1]:>10,}{total:>10,}"
            f"{total / full_total:>9.2f}{folds:>7}"
        )
    token_turns = results[f"token-triggered ({budget} tok)"][0]
    over = [i + 1 for i, tokens in enumerate(token_turns) if tokens > budget]
    print(f"token-triggered turns over the {budget}-token budget: {over or 'none'}")
    print("per-turn chat prompt tokens (token-triggered):", ", ".join(map(str, token_turns)))


if __name__ == "__main__":
    asyncio.run(main())
