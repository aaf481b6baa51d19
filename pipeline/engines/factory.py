"""Choosing the engine: a chat model when one is given, the built-in extractive engine otherwise."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from pipeline.config import Settings
from pipeline.engines.base import Engine
from pipeline.engines.extractive import ExtractiveEngine
from pipeline.engines.llm import LLMEngine
from pipeline.models import build_models, load_model_factory


def make_engine(model: BaseChatModel | None, settings: Settings) -> Engine:
    method = None if settings.structured_method == "auto" else settings.structured_method
    if model is None and settings.model_factory:
        model = load_model_factory(settings.model_factory)
    if model is not None:
        return LLMEngine(model, settings, structured_method=method)
    if settings.provider != "extractive":
        models = build_models(settings)
        return LLMEngine(
            models.map,
            settings,
            structured_method=models.structured_method,
            reduce_model=models.reduce,
        )
    return ExtractiveEngine(settings)
