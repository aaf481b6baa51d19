"""A chat message's content as plain text, however the provider shaped it; a transcript of them."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage

from pipeline import prompts


def message_text(message: BaseMessage) -> str:
    """The message's text; list-shaped content (text and image parts) as its string form."""
    content = message.content
    return content if isinstance(content, str) else str(content)


def message_text_with_tools(message: BaseMessage) -> str:
    """The text plus any tool-call arguments: what a model was sent or wrote, for token counts."""
    text = message_text(message)
    if isinstance(message, AIMessage) and message.tool_calls:
        text += str([call["args"] for call in message.tool_calls])
    return text


def render(messages: Sequence[BaseMessage]) -> str:
    """A transcript to summarize: one paragraph per message, labelled by speaker."""
    return "\n\n".join(f"{_speaker(m)}: {message_text(m)}" for m in messages)


def _speaker(message: BaseMessage) -> str:
    labels = {
        "human": prompts.USER_LABEL,
        "ai": prompts.ASSISTANT_LABEL,
        "tool": "Tool",
        "system": "System",
    }
    return labels.get(message.type, message.type)
