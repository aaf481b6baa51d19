"""chat: answer a conversation turn directly from the summary and the kept messages."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from pipeline.engines.base import Engine
from pipeline.engines.meter import Meter
from pipeline.graph.nodes import NodeFn
from pipeline.graph.state import State, turn_reset
from pipeline.memory.window import summary_message, visible
from pipeline.progress import emit
from pipeline.results import Coverage, Usage


def make_chat(engine: Engine) -> NodeFn:
    async def chat(state: State) -> dict[str, Any]:
        turn = HumanMessage(state["question"])
        kept = visible(state.get("messages", []), state.get("summary_covers", []))
        prompt = [*summary_message(state.get("summary", "")), *kept, turn]
        meter = Meter("chat")
        reply = await engine.chat(prompt, meter)
        emit("answer")
        return {
            "answer": reply,
            "mode": "chat",
            "citations": [],
            "coverage": Coverage().model_dump(),
            "conflicts": [],
            "usage": Usage.total([*state.get("usage_log", []), *meter.records]).model_dump(),
            "messages": [turn, AIMessage(reply)],
            **turn_reset(),
        }

    return chat
