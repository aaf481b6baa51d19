"""Checking a question, a chat message or an imported history before anything runs or is stored."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from pipeline.config import Settings
from pipeline.errors import InputError, TooLargeError
from pipeline.text.clean import clean_text


def valid_question(question: Any, settings: Settings, *, summarizing: bool = False) -> str:
    """The question, stripped and cleaned; a summary needs none, any other task does."""
    if summarizing:
        return clean_text(question or "", "the question")
    if not isinstance(question, str) or not question.strip():
        raise InputError("the question is empty", hint="Ask a question in words.")
    _check_length(question, "question", settings)
    return clean_text(question.strip(), "the question")


def valid_message(message: Any, settings: Settings) -> str:
    """A chat message, stripped and cleaned; refused when empty or over the question limit."""
    if not isinstance(message, str) or not message.strip():
        raise InputError("the message is empty", hint="Send a message with words in it.")
    _check_length(message, "message", settings)
    return clean_text(message.strip(), "the message")


def _check_length(text: str, what: str, settings: Settings) -> None:
    if len(text) > settings.max_question_chars:
        raise TooLargeError(
            f"the {what} has {len(text):,} characters, over the limit of "
            f"{settings.max_question_chars:,}",
            hint="Ask a shorter question, or put long text in a document.",
        )


MAX_IMPORT_MESSAGES = 100_000
"""Most messages one history import may hold (10,000 import in about a second)."""
_IMPORT_FIELDS = {"role", "content", "name", "created_at"}
IMPORT_HINT = (
    'Each message is {"role": "user" or "assistant", "content": text, "name"?, '
    '"created_at"?: ISO-8601}; nothing was imported.'
)
_IMPORT_ROLES: dict[str, type[BaseMessage]] = {"user": HumanMessage, "assistant": AIMessage}


def valid_query(query: Any, settings: Settings) -> str:
    """A recall query, stripped and cleaned; refused when empty or over the question limit."""
    if not isinstance(query, str) or not query.strip():
        raise InputError("the query is empty", hint="Say what to recall, in words.")
    _check_length(query, "query", settings)
    return clean_text(query.strip(), "the query")


def valid_history(messages: Any, settings: Settings) -> list[BaseMessage]:
    """Messages to import, each `{"role", "content", "name"?, "created_at"?}`, checked whole.

    The first bad one raises InputError naming its index and what is wrong, so an
    import writes all of its messages or none. Each gets a fresh id; its name and
    date are kept (the date as given, once it parses as ISO-8601).
    """
    if not isinstance(messages, list):
        raise InputError("messages must be a list of {role, content} objects", hint=IMPORT_HINT)
    if not messages:
        raise InputError("messages is empty", hint="Send at least one message to import.")
    if len(messages) > MAX_IMPORT_MESSAGES:
        raise TooLargeError(
            f"{len(messages):,} messages is over the limit of {MAX_IMPORT_MESSAGES:,} per import",
            hint="Import the history in several parts, oldest first.",
        )
    parsed = [_imported(message, i) for i, message in enumerate(messages)]
    total = sum(len(str(m.content)) for m in parsed)
    if total > settings.max_document_chars:
        raise TooLargeError(
            f"the messages hold {total:,} characters, over the limit of "
            f"{settings.max_document_chars:,}",
            hint="Import the history in several parts, or raise LONGDOC_MAX_DOCUMENT_MB.",
        )
    return parsed


def _imported(message: Any, index: int) -> BaseMessage:
    where = f"message {index}"
    if not isinstance(message, dict):
        kind = type(message).__name__
        raise InputError(f"{where} is a {kind}, not an object", hint=IMPORT_HINT)
    unknown = sorted(set(message) - _IMPORT_FIELDS)
    if unknown:
        raise InputError(
            f"{where} has unknown fields {unknown}; allowed: role, content, name, created_at"
        )
    role = message.get("role")
    if role not in _IMPORT_ROLES:
        raise InputError(
            f"{where}: role must be 'user' or 'assistant', not {role!r}", hint=IMPORT_HINT
        )
    content = message.get("content")
    if not isinstance(content, str) or not content.strip():
        raise InputError(f"{where}: content must be a non-empty string", hint=IMPORT_HINT)
    name = message.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 200):
        raise InputError(
            f"{where}: name must be a non-empty string of at most 200 characters", hint=IMPORT_HINT
        )
    created = message.get("created_at")
    if created is not None:
        if not isinstance(created, str):
            raise InputError(f"{where}: created_at must be an ISO-8601 string", hint=IMPORT_HINT)
        try:
            datetime.fromisoformat(created)
        except ValueError:
            raise InputError(
                f"{where}: created_at {created[:40]!r} is not an ISO-8601 date and time",
                hint="e.g. 2024-05-01T09:30:00Z",
            ) from None
    kwargs = {"created_at": created} if created is not None else {}
    made: type[BaseMessage] = _IMPORT_ROLES[role]
    return made(
        clean_text(content, where),
        id=uuid.uuid4().hex,
        name=clean_text(name.strip(), f"{where}'s name") if name else None,
        additional_kwargs=kwargs,
    )
