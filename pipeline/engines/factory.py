"""Choosing the engine: a chat model when one is configured, else the built-in extractive one."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from pipeline.config import Settings
from pipeline.engines.base import Engine
from pipeline.engines.extractive.engine import ExtractiveEngine
from pipeline.engines.llm.engine import LLMEngine
from pipeline.engines.llm.providers import chat_models


def make_engine(model: BaseChatModel | None, settings: Settings) -> Engine:
    """LLMEngine on `model` (or the configured one); ExtractiveEngine when none is configured.

    Raises ConfigError, naming the setting, when the configured provider cannot work.
    """
    models = chat_models(settings, model)
    return ExtractiveEngine(settings) if models is None else LLMEngine(models, settings)
