"""Chat memory arithmetic: which messages the model sees, which to fold, how to render them."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage

from pipeline import prompts
from pipeline.config import Settings
from pipeline.text.messages import message_text
from pipeline.text.tokens import count_tokens


def visible(messages: Sequence[BaseMessage], covered: Sequence[str]) -> list[BaseMessage]:
    """Messages not yet folded into the summary, in order."""
    folded = set(covered)
    return [m for m in messages if m.id not in folded]


def summary_message(summary: str) -> list[BaseMessage]:
    """The system message carrying the running summary, or nothing before the first fold."""
    return [SystemMessage(prompts.MEMORY_PREFIX + summary)] if summary else []


def prompt_tokens(summary: str, kept: Sequence[BaseMessage], incoming: str) -> int:
    """Tokens a chat prompt would hold: system prompt, summary, kept messages, new message."""
    fixed = prompts.CHAT_SYSTEM + (prompts.MEMORY_PREFIX if summary else "")
    texts = [fixed, summary, incoming, *(message_text(m) for m in kept)]
    return sum(count_tokens(t) for t in texts)


def needs_fold(
    summary: str, kept: Sequence[BaseMessage], incoming: str, settings: Settings
) -> bool:
    """Whether this turn must fold history, by the configured trigger."""
    if len(kept) <= settings.memory_keep_messages:
        return False  # nothing foldable: only the verbatim tail is left
    if settings.memory_trigger == "messages":
        return len(kept) + 1 > settings.memory_max_messages
    return prompt_tokens(summary, kept, incoming) > settings.memory_token_budget


def split_for_fold(
    kept: Sequence[BaseMessage], keep_last: int
) -> tuple[list[BaseMessage], list[BaseMessage]]:
    """(to fold, to keep): the last `keep_last` messages stay, and no tool pair is split.

    A tool result must stay with the AI message that called the tool: with
    keep_last=2 and [..., AI(tool_calls), Tool, AI], the cut moves back to keep all three.
    """
    cut = max(0, len(kept) - keep_last)
    while 0 < cut < len(kept) and _is_tool_result(kept[cut]):
        cut -= 1
    while cut > 0 and _calls_tools(kept[cut - 1]):
        cut -= 1
    return list(kept[:cut]), list(kept[cut:])


def _is_tool_result(message: BaseMessage) -> bool:
    return isinstance(message, ToolMessage)


def _calls_tools(message: BaseMessage) -> bool:
    return isinstance(message, AIMessage) and bool(message.tool_calls)
