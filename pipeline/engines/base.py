"""The Engine protocol: the six things a node may ask of whatever reads the documents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from langchain_core.messages import BaseMessage

from pipeline.engines.meter import Meter
from pipeline.types import ChatPrompt, ChunkTask, DocumentText, Draft, Finding, Route, Task


class Engine(Protocol):
    """Nodes call only these methods, so every graph test runs on either engine."""

    chunk_size: int | None
    """Chunk size in tokens this engine reads best at; None means Settings.chunk_size."""

    chars_per_token: float | None
    """Characters a token of the chunk size stands for; None: each document's own ratio (a
    model's window is tokens, so a Japanese chunk holds fewer characters than an English one)."""

    cache_identity: str | None
    """What the chunk cache keys this engine's readings by (its kind and model, and how it
    asks); None: its readings are never cached."""

    async def route(
        self,
        question: str,
        documents: list[DocumentText],
        meter: Meter,
        history: Sequence[BaseMessage] = (),
    ) -> Route:
        """Decide chat or document mode for a chat turn that has documents attached;
        `history` is what the turn could be answered from without them (the running
        summary, then the messages not folded into it)."""
        ...

    def prepare(self, documents: list[DocumentText], question: str, task: Task) -> dict[str, Any]:
        """Small per-run data every map task receives (JSON-ready; `{}` when none).

        Called before the documents are cut into chunks, so what it reads of them whole is
        freed before the chunks' copies of their text exist."""
        ...

    async def read_chunk(self, task: ChunkTask, meter: Meter) -> Finding:
        """Read one chunk; raise on failure (the map node turns it into a failed Finding)."""
        ...

    async def combine(self, findings: list[Finding], goal: str, meter: Meter) -> Finding:
        """Collapse a group of findings into one shorter finding."""
        ...

    async def answer(self, findings: list[Finding], question: str, meter: Meter) -> Draft:
        """Write the final answer from relevant findings, with the evidence it rests on."""
        ...

    async def summarize(
        self,
        findings: list[Finding],
        instructions: str,
        words: int,
        meter: Meter,
        *,
        task: Task = "summarize",
    ) -> Draft:
        """Write the final summary from per-chunk findings (`task="remember"`: chat memory)."""
        ...

    async def chat(self, prompt: ChatPrompt, meter: Meter) -> str:
        """Reply to a conversation turn directly, without documents."""
        ...
