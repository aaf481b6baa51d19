"""route: validate the request, reset per-run channels, and choose chat or document mode."""

from __future__ import annotations

from typing import Any, Literal

from pipeline.config import Settings
from pipeline.documents import clean_text, load_documents
from pipeline.engines.base import Engine
from pipeline.errors import InputError, TooLargeError
from pipeline.nodes import NodeFn
from pipeline.progress import emit
from pipeline.state import RESET, State
from pipeline.usage import Meter


def make_route(engine: Engine, settings: Settings) -> NodeFn:
    async def route(state: State) -> dict[str, Any]:
        question = _valid_question(state, settings)
        raw_documents = state.get("documents") or []
        documents = load_documents(raw_documents, settings) if raw_documents else []
        meter = Meter("route")
        if not documents:
            mode: Literal["chat", "document"] = "chat"  # nothing to read: no model call needed
        elif state.get("task") == "summarize":
            mode = "document"
        else:
            mode = (await engine.route(question, documents, meter)).mode
        emit("route", mode=mode)
        return {
            "question": question,
            "documents": documents,
            "mode": mode,
            "compressed": False,
            "findings": [RESET],
            "usage_log": [RESET, *meter.records],
        }

    return route


def after_route(state: State) -> str:
    """Edge: document mode goes to split, chat mode through compress to chat."""
    return "split" if state["mode"] == "document" else "compress"


def _valid_question(state: State, settings: Settings) -> str:
    question = state.get("question", "")
    if state.get("task") == "summarize":
        return clean_text(question or "", "the question")
    if not isinstance(question, str) or not question.strip():
        raise InputError("the question is empty", hint="Ask a question in words.")
    if len(question) > settings.max_question_chars:
        raise TooLargeError(
            f"the question has {len(question):,} characters, over the limit of "
            f"{settings.max_question_chars:,}",
            hint="Ask a shorter question, or put long text in a document.",
        )
    return clean_text(question.strip(), "the question")
