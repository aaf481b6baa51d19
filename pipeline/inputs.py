"""Checking a question or a chat message before anything runs or is stored."""

from __future__ import annotations

from typing import Any

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
