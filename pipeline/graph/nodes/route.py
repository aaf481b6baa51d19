"""route: validate the request, reset per-run channels, and choose chat or document mode.

Only a chat turn (a run that names no `task`) is routed; ask and summarize always read.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.types import Overwrite

from pipeline.config import Settings
from pipeline.documents import load_documents
from pipeline.engines.base import Engine
from pipeline.engines.meter import Meter
from pipeline.graph.nodes import NodeFn
from pipeline.graph.state import State
from pipeline.inputs import valid_question
from pipeline.memory.window import summary_message, visible
from pipeline.progress import emit


def make_route(engine: Engine, settings: Settings) -> NodeFn:
    async def route(state: State) -> dict[str, Any]:
        summarizing = state.get("task") == "summarize"
        question = valid_question(state.get("question", ""), settings, summarizing=summarizing)
        # Documents the service loaded are DocumentTexts already and pass straight through;
        # a parent graph's plain dicts are validated here.
        raw_documents = state.get("documents") or []
        documents = load_documents(raw_documents, settings) if raw_documents else []
        meter = Meter("route")
        if not documents:
            mode: Literal["chat", "document"] = "chat"  # nothing to read: no model call needed
        elif state.get("task") is not None:
            # ask and summarize name their task and always read the documents: routing is
            # for chat turns, and a document must not talk its way out of being read.
            mode = "document"
        else:
            history = [
                *summary_message(state.get("summary", "")),
                *visible(state.get("messages", []), state.get("summary_covers", [])),
            ]
            mode = (await engine.route(question, documents, meter, history)).mode
        emit("route", mode=mode)
        return {
            "question": question,
            "documents": documents,
            "mode": mode,
            "compressed": False,
            "recalled": [],
            "recall_hits": [],
            "findings": Overwrite([]),
            "usage_log": Overwrite(meter.records),
        }

    return route


def after_route(state: State) -> str:
    """Edge: document mode goes to split, chat mode through compress to chat."""
    return "split" if state["mode"] == "document" else "compress"
