"""route: validate the request, reset per-run channels, and choose chat or document mode."""

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
        elif summarizing:
            mode = "document"
        else:
            mode = (await engine.route(question, documents, meter)).mode
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
