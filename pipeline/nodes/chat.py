"""chat: answer a conversation turn directly, with no documents to read."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from pipeline.engines.base import Engine
from pipeline.nodes import NodeFn
from pipeline.progress import emit
from pipeline.schemas import Coverage, Usage
from pipeline.state import State
from pipeline.usage import Meter


def make_chat(engine: Engine) -> NodeFn:
    async def chat(state: State) -> dict[str, Any]:
        turn = HumanMessage(state["question"])
        history: list[BaseMessage] = list(state.get("messages", []))
        meter = Meter("chat")
        reply = await engine.chat([*history, turn], meter)
        emit("answer")
        return {
            "answer": reply,
            "mode": "chat",
            "citations": [],
            "coverage": Coverage().model_dump(),
            "conflicts": [],
            "usage": Usage.total([*state.get("usage_log", []), *meter.records]).model_dump(),
            "usage_log": meter.records,
            "messages": [turn, AIMessage(reply)],
        }

    return chat
