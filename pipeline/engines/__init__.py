"""The two ways to read documents: a chat model (LLMEngine) or the built-in ExtractiveEngine."""

from pipeline.engines.base import Engine

__all__ = ["Engine"]
