"""LLMEngine: the Engine protocol on any LangChain chat model (prompts, structured output)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import partial
from typing import Any, TypeVar

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import merge_configs
from langchain_core.utils.function_calling import convert_to_json_schema
from pydantic import BaseModel, ValidationError

from pipeline import prompts
from pipeline.config import Settings
from pipeline.engines.llm.calls import REPLY_IN, call_model
from pipeline.engines.llm.limiter import Limiter
from pipeline.engines.llm.limiters import HeaderWatch, limiter_for
from pipeline.engines.llm.providers import Models
from pipeline.engines.llm.replies import ChunkReading, DraftAnswer
from pipeline.engines.meter import Meter
from pipeline.errors import ModelError
from pipeline.text.messages import message_text_with_tools, render
from pipeline.text.spans import locate
from pipeline.text.tokens import count_tokens
from pipeline.types import (
    ChatPrompt,
    ChunkTask,
    DocumentText,
    Draft,
    Finding,
    Route,
    Task,
)

S = TypeVar("S", bound=BaseModel)

# A collapsed note keeps at most this many quotes, so merging always shrinks the notes.
MAX_QUOTES_PER_NOTE = 4
ROUTE_PREVIEW_CHARS = 300
ROUTE_HISTORY_CHARS = 1_500
"""The end of the conversation the router sees (~400 tokens): enough for the summary's
last lines and the last few turns, so 'What is my flat number?' after 'My flat is 14B'
can be told from a question about the documents, without paying for the whole history."""


class LLMEngine:
    """Reads chunks and writes answers with a chat model; every call goes through call_model.

    `models.map` routes and reads chunks; `models.reduce` (often the same model) collapses, answers,
    summarizes and chats, so a cheap model can do the many map calls and a strong one the few
    final ones. Each model's calls are admitted by its endpoint's process-wide Limiter. Each
    call's trace run is named `<node>:<task>`, e.g. `map_chunk:read`.
    """

    def __init__(self, models: Models, settings: Settings) -> None:
        self.model = models.map
        self.reduce_model = models.reduce
        self.chunk_size: int | None = None  # a model's context: Settings.chunk_size decides
        self.chars_per_token: float | None = None  # a model counts tokens
        self.cache_identity: str | None = _json(
            {"engine": "llm", "model": model_identity(self.model), "reply": _READING_SCHEMA}
        )
        self.settings = settings
        self._limiters = {id(m): limiter_for(m, settings) for m in (models.map, models.reduce)}
        method = models.structured_method
        self._method: dict[str, Any] = {"method": method} if method else {}
        # Building a structured-output runnable converts the schema each time (~0.5 ms),
        # so each (model, schema) runnable is built once per engine.
        self._runnables: dict[tuple[int, type[BaseModel]], Runnable[Any, Any]] = {}

    async def route(
        self,
        question: str,
        documents: list[DocumentText],
        meter: Meter,
        history: Sequence[BaseMessage] = (),
    ) -> Route:
        previews = "\n".join(
            prompts.fence(doc.text[:ROUTE_PREVIEW_CHARS], doc.id) for doc in documents
        )
        user = prompts.ROUTE_USER.format(
            conversation=_conversation_tail(history), documents=previews, question=question
        )
        messages = [SystemMessage(prompts.ROUTE_SYSTEM), HumanMessage(user)]
        route = await self._structured(Route, messages, meter, self.model, "route")
        # Two unparsable replies: a request with documents is about the documents.
        return route or Route(mode="document", reason="router reply unparsable; fallback")

    def prepare(self, documents: list[DocumentText], question: str, task: Task) -> dict[str, Any]:
        return {}

    async def read_chunk(self, task: ChunkTask, meter: Meter) -> Finding:
        chunk = task["chunk"]
        fields = {
            "chunk_id": chunk["id"] + 1,
            "total": task["total"],
            "excerpt": prompts.fence(
                chunk["text"], f"{chunk['document']}#{chunk['id']}", chunk.get("section", ())
            ),
        }
        if task["task"] in ("summarize", "remember"):
            system = prompts.MAP_SUMMARIZE_SYSTEM
            user = prompts.MAP_SUMMARIZE_USER.format(
                instructions=task["instructions"] or prompts.SUMMARY_DEFAULT_INSTRUCTIONS, **fields
            )
        else:
            system = prompts.MAP_ASK_SYSTEM
            user = prompts.MAP_ASK_USER.format(question=task["question"], **fields)
        reading = await self._structured(
            ChunkReading, [SystemMessage(system), HumanMessage(user)], meter, self.model, "read"
        )
        if reading is None:
            raise ModelError("the model's reply for this chunk could not be parsed, twice")
        evidence = [e for q in reading.quotes if (e := locate(q, chunk)) is not None]
        return Finding(
            chunk=chunk["id"],
            chunks=[chunk["id"]],
            relevance=reading.relevance,
            answer=reading.answer,
            evidence=evidence,
            rationale=reading.rationale,
            confidence=reading.confidence,
        )

    async def combine(self, findings: list[Finding], goal: str, meter: Meter) -> Finding:
        messages = [
            SystemMessage(prompts.COLLAPSE_SYSTEM),
            HumanMessage(
                prompts.COLLAPSE_USER.format(
                    task=goal, notes=prompts.fence(render_notes(findings), "notes")
                )
            ),
        ]
        draft = await self._structured(DraftAnswer, messages, meter, self.reduce_model, "collapse")
        if draft is None:
            raise ModelError("the model's merged note could not be parsed, twice")
        used = _cited(findings, draft.cited)
        evidence = sorted((e for f in used for e in f.evidence), key=lambda e: (-e.score, e.start))[
            :MAX_QUOTES_PER_NOTE
        ]
        return Finding(
            chunk=min(f.chunk for f in findings),
            chunks=sorted({c for f in findings for c in (f.chunks or [f.chunk])}),
            relevance=max(f.relevance for f in used),
            answer=draft.answer,
            evidence=evidence,
            rationale="; ".join(draft.conflicts),
            confidence=max(f.confidence for f in used),
        )

    async def answer(self, findings: list[Finding], question: str, meter: Meter) -> Draft:
        user = prompts.ANSWER_USER.format(
            question=question, notes=prompts.fence(render_notes(findings), "notes")
        )
        return await self._final(prompts.ANSWER_SYSTEM, user, findings, meter, "answer")

    async def summarize(
        self,
        findings: list[Finding],
        instructions: str,
        words: int,
        meter: Meter,
        *,
        task: Task = "summarize",
    ) -> Draft:
        user = prompts.SUMMARY_USER.format(
            instructions=instructions or prompts.SUMMARY_DEFAULT_INSTRUCTIONS,
            words=words,
            notes=prompts.fence(render_notes(findings), "notes"),
        )
        return await self._final(prompts.SUMMARY_SYSTEM, user, findings, meter, "summary")

    async def chat(self, turn: ChatPrompt, meter: Meter) -> str:
        prompt: list[BaseMessage] = [SystemMessage(prompts.CHAT_SYSTEM), *turn.messages()]
        limiter = self._limiters[id(self.reduce_model)]
        config = _named(meter, "chat", limiter)
        reply = await call_model(
            lambda: self.reduce_model.ainvoke(prompt, config),
            self.settings,
            limiter,
            tokens=lambda: _prompt_tokens(prompt),
            meter=meter,
        )
        return reply.text if isinstance(reply, AIMessage) else str(reply.content)

    async def _final(
        self, system: str, user: str, findings: list[Finding], meter: Meter, task: str
    ) -> Draft:
        draft = await self._structured(
            DraftAnswer, [SystemMessage(system), HumanMessage(user)], meter, self.reduce_model, task
        )
        if draft is None:
            raise ModelError("the model's final answer could not be parsed, twice")
        evidence = [e for f in _cited(findings, draft.cited) for e in f.evidence]
        return Draft(text=draft.answer, evidence=evidence, conflicts=draft.conflicts)

    async def _structured(
        self,
        schema: type[S],
        messages: list[BaseMessage],
        meter: Meter,
        model: BaseChatModel,
        task: str,
    ) -> S | None:
        """Ask for `schema`; on a None or invalid reply ask once more with the error, then None."""
        key = (id(model), schema)
        if key not in self._runnables:
            # A JSON-schema dict, not the class: LangChain re-derives a class's schema for
            # tracing on every call (~0.7 ms), and we validate the dict ourselves below.
            self._runnables[key] = model.with_structured_output(
                convert_to_json_schema(schema), **self._method
            )
        runnable = self._runnables[key]
        limiter = self._limiters[id(model)]
        config = _named(meter, task, limiter)
        for _ in range(2):

            async def attempt(prompt: list[BaseMessage] = messages) -> Any:
                try:
                    return await runnable.ainvoke(prompt, config)
                except (ValidationError, OutputParserException) as exc:
                    return exc  # json_schema mode raises here; other methods return None

            parsed = await call_model(
                attempt,
                self.settings,
                limiter,
                tokens=partial(_prompt_tokens, messages),
                meter=meter,
            )
            error: object = parsed if isinstance(parsed, Exception) else None
            if parsed is not None and error is None:
                try:
                    return schema.model_validate(parsed)
                except ValidationError as exc:
                    error = exc
            reason = str(error or "the reply held no structured output")[:300]
            messages = [
                *messages,
                HumanMessage(
                    f"Your previous reply could not be used ({reason}). "
                    "Reply again in exactly the required format."
                ),
            ]
        return None


def model_identity(model: BaseChatModel) -> str:
    """What tells one chat model from another: its class, model name, temperature, server
    and so on (secrets masked), as LangChain keys its own response cache."""
    return f"{type(model).__module__}.{type(model).__qualname__}:{model._get_llm_string()}"


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


# The reply schema is part of how a chunk is asked about: a new field is a new reading.
_READING_SCHEMA = hashlib.sha256(_json(ChunkReading.model_json_schema()).encode()).hexdigest()[:16]


def _named(meter: Meter, task: str, limiter: Limiter) -> RunnableConfig:
    """The meter's config, the limiter's header watch, the release of the call's slots with
    its reply, and the run named `<node>:<task>`."""
    watches = [HeaderWatch(limiter), REPLY_IN]
    config = merge_configs(meter.config(), {"callbacks": watches})
    return {**config, "run_name": f"{meter.node}:{task}"}


def _prompt_tokens(messages: list[BaseMessage]) -> int:
    return sum(count_tokens(message_text_with_tools(m)) for m in messages)


def render_notes(findings: list[Finding]) -> str:
    """Numbered notes for the reduce prompts: answer, confidence and quotes of each finding."""
    lines = []
    for number, finding in enumerate(findings, start=1):
        quotes = " | ".join(f'"{e.quote}"' for e in finding.evidence[:MAX_QUOTES_PER_NOTE])
        lines.append(
            f"[{number}] (confidence {finding.confidence}/5) {finding.answer}"
            + (f"\n    quotes: {quotes}" if quotes else "")
        )
    return "\n".join(lines)


def _cited(findings: list[Finding], numbers: list[int]) -> list[Finding]:
    """The findings a model cited by 1-based number; all of them if it cited none validly."""
    picked = [findings[n - 1] for n in dict.fromkeys(numbers) if 1 <= n <= len(findings)]
    return picked or findings


def _conversation_tail(history: Sequence[BaseMessage]) -> str:
    """The last ROUTE_HISTORY_CHARS of the conversation, fenced, for the router."""
    if not history:
        return prompts.ROUTE_NO_CONVERSATION
    return prompts.fence(render(history)[-ROUTE_HISTORY_CHARS:], "conversation")
