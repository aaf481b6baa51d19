"""chat: answer a turn from the summary, the recalled earlier turns and the kept messages."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from pipeline.engines.base import Engine
from pipeline.engines.llm.embeddings import Embedder
from pipeline.engines.meter import Meter
from pipeline.graph.nodes import NodeFn
from pipeline.graph.nodes.recall import remember, stamped
from pipeline.graph.state import State
from pipeline.memory.window import visible
from pipeline.progress import emit
from pipeline.results import Coverage, Usage
from pipeline.types import ChatPrompt, RecalledMessage


def make_chat(engine: Engine, embedder: Embedder | None = None) -> NodeFn:
    async def chat(state: State, config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = stamped(HumanMessage(state["question"]))
        assert isinstance(turn, HumanMessage)
        history = state.get("messages", [])
        prompt = ChatPrompt(
            message=turn,
            summary=state.get("summary", ""),
            recalled=[RecalledMessage.model_validate(h) for h in state.get("recall_hits", [])],
            kept=visible(history, state.get("summary_covers", [])),
        )
        meter = Meter("chat")
        reply = await engine.chat(prompt, meter)
        answer = stamped(AIMessage(reply))
        await remember(runtime, config, embedder, history, [turn, answer])
        emit("answer")
        return {
            "answer": reply,
            "mode": "chat",
            "citations": [],
            "coverage": Coverage().model_dump(),
            "conflicts": [],
            "missing_terms": [],
            "usage": Usage.total([*state.get("usage_log", []), *meter.records]).model_dump(),
            "usage_log": meter.records,
            "messages": [turn, answer],
        }

    return chat
