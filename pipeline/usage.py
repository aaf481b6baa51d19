"""Meter: collects the token usage of each model call a node makes."""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_core.messages import AIMessage, BaseMessage

from pipeline.schemas import CallUsage
from pipeline.tokens import count_tokens


@dataclass
class Meter:
    """Usage records for one node run; the node returns `records` into `usage_log`."""

    node: str
    records: list[CallUsage] = field(default_factory=list)

    def record(self, prompt: list[BaseMessage], reply: BaseMessage | None) -> None:
        """Record one call, from the provider's usage figures or, without them, an estimate."""
        usage = reply.usage_metadata if isinstance(reply, AIMessage) else None
        if usage:
            self.records.append(
                CallUsage(
                    node=self.node,
                    input_tokens=usage["input_tokens"],
                    output_tokens=usage["output_tokens"],
                )
            )
            return
        self.records.append(
            CallUsage(
                node=self.node,
                input_tokens=sum(count_tokens(_text(m)) for m in prompt),
                output_tokens=count_tokens(_text(reply)) if reply is not None else 0,
            )
        )


def _text(message: BaseMessage) -> str:
    return message.content if isinstance(message.content, str) else str(message.content)
