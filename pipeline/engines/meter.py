"""Meter: a callback handler that records the token usage of every model call a node makes.

It also keeps, per call, how that call fared against its endpoint's rate limits.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.runnables import RunnableConfig, ensure_config
from langchain_core.runnables.config import merge_configs

from pipeline.text.messages import message_text_with_tools
from pipeline.text.tokens import count_tokens
from pipeline.types import CallUsage, LimitUsage


class Meter(BaseCallbackHandler):
    """Usage records for one node run; the node returns `records` into `usage_log`.

    Attached as a callback, it sees every call a runnable makes, whatever the
    structured-output method wraps around the model. Providers that report no usage
    get an estimate from the prompt and reply text.
    """

    run_inline = True  # record in the caller's task, not on a thread pool

    def __init__(self, node: str) -> None:
        self.node = node
        self.records: list[CallUsage | LimitUsage] = []
        self._prompts: dict[UUID, list[BaseMessage]] = {}

    def note(self, record: LimitUsage) -> None:
        """Add how one call fared against its endpoint's limits (from calls.py)."""
        self.records.append(record)

    def config(self) -> RunnableConfig:
        """The current run's config (so tracing still nests) with this meter added."""
        return merge_configs(ensure_config(), {"callbacks": [self]})

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        **kwargs: Any,
    ) -> None:
        self._prompts[run_id] = messages[0]  # counted only if the provider reports no usage

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        prompt = self._prompts.pop(run_id, [])
        generation = response.generations[0][0] if response.generations else None
        message = generation.message if isinstance(generation, ChatGeneration) else None
        usage = message.usage_metadata if isinstance(message, AIMessage) else None
        if usage:
            self.records.append(
                CallUsage(
                    node=self.node,
                    input_tokens=usage["input_tokens"],
                    output_tokens=usage["output_tokens"],
                )
            )
            return
        output = message_text_with_tools(message) if message is not None else ""
        estimate = sum(count_tokens(message_text_with_tools(m)) for m in prompt)
        self.records.append(
            CallUsage(node=self.node, input_tokens=estimate, output_tokens=count_tokens(output))
        )

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._prompts.pop(run_id, None)
