"""What the recall index holds: one entry per message and per fold summary, and its store form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import BaseMessage

from pipeline.engines.extractive.terms import tokens
from pipeline.text.messages import message_text

Kind = Literal["message", "summary"]
ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}
SUMMARY_ROLE = "summary"

TERMS_VERSION = 1
"""Bumped when the tokenizer changes what it makes of a text: stored terms are then remade."""


@dataclass(frozen=True)
class Entry:
    """One recallable text: a message at `index` in the history, or a fold summary.

    A summary's `index` is the history index of the last message it folds in.
    """

    kind: Kind
    message_id: str
    index: int
    role: str
    content: str
    name: str | None = None
    created_at: str | None = None
    terms: tuple[str, ...] = ()
    vector: tuple[float, ...] | None = field(default=None, compare=False)
    embedder: str | None = None

    @property
    def key(self) -> str:
        """The store key: zero-padded so keys sort in history order ('m000000042')."""
        return key_of(self.kind, self.index)

    def to_value(self) -> dict[str, Any]:
        value: dict[str, Any] = {
            "kind": self.kind,
            "id": self.message_id,
            "index": self.index,
            "role": self.role,
            "content": self.content,
            "name": self.name,
            "created_at": self.created_at,
            "terms": " ".join(self.terms),
            "terms_version": TERMS_VERSION,
        }
        if self.vector is not None:
            value["vector"] = list(self.vector)
            value["embedder"] = self.embedder
        return value

    @classmethod
    def from_value(cls, value: dict[str, Any]) -> Entry:
        content = str(value["content"])
        stored = value.get("terms_version") == TERMS_VERSION
        vector = value.get("vector")
        return cls(
            kind=value["kind"],
            message_id=str(value["id"]),
            index=int(value["index"]),
            role=str(value["role"]),
            content=content,
            name=value.get("name"),
            created_at=value.get("created_at"),
            terms=tuple(str(value["terms"]).split()) if stored else tuple(tokens(content)),
            vector=tuple(vector) if vector is not None else None,
            embedder=value.get("embedder"),
        )

    def with_vector(self, vector: list[float], embedder: str) -> Entry:
        return Entry(
            self.kind,
            self.message_id,
            self.index,
            self.role,
            self.content,
            self.name,
            self.created_at,
            self.terms,
            tuple(vector),
            embedder,
        )


def key_of(kind: Kind, index: int) -> str:
    return f"{'m' if kind == 'message' else 's'}{index:09d}"


def message_entry(message: BaseMessage, index: int) -> Entry:
    """The entry of the message at `index` in the history."""
    text = message_text(message)
    return Entry(
        kind="message",
        message_id=message.id or "",
        index=index,
        role=ROLES.get(message.type, "user"),
        content=text,
        name=message.name,
        created_at=created_at(message),
        terms=tuple(tokens(text)),
    )


def summary_entry(summary: str, last_index: int) -> Entry:
    """The entry of a fold's summary, which folds in messages up to `last_index`.

    Keyed by that index, so a fold retried after a crash replaces its first attempt.
    """
    return Entry(
        kind="summary",
        message_id=f"summary-{last_index}",
        index=last_index,
        role=SUMMARY_ROLE,
        content=summary,
        terms=tuple(tokens(summary)),
    )


def created_at(message: BaseMessage) -> str | None:
    """When the message was written (ISO-8601), if known: kept in additional_kwargs."""
    value = message.additional_kwargs.get("created_at")
    return value if isinstance(value, str) else None
