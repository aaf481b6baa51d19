"""Settings: every tunable of longdoc, read from LONGDOC_* variables and a .env file."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """All longdoc settings. Build one and pass it in; nothing reads a global."""

    model_config = SettingsConfigDict(
        env_prefix="LONGDOC_", env_file=".env", extra="ignore", frozen=True
    )

    chunk_size: int = Field(
        2000, ge=50, le=200_000, description="Target chunk size in tokens for the map step."
    )
    chunk_overlap: int = Field(
        50, ge=0, description="Tokens shared by neighbouring chunks so no sentence is cut blind."
    )
    max_concurrency: int = Field(
        8, ge=1, le=1024, description="Most model calls (and map tasks) in flight at once."
    )
    reduce_token_budget: int = Field(
        6000,
        ge=200,
        description="Most tokens of findings the final answer may read; more is collapsed first.",
    )
    collapse_max_rounds: int = Field(
        4, ge=1, le=20, description="Most collapse rounds before findings are truncated to fit."
    )
    min_relevance: int = Field(
        2, ge=0, le=10, description="Findings rated below this (0-10) are dropped before reduce."
    )
    call_timeout_s: float = Field(
        60.0, gt=0, description="Seconds one model call may take before it counts as failed."
    )
    max_retries: int = Field(
        3, ge=0, le=10, description="Retries of a model call on 429, 5xx, timeouts and drops."
    )
    retry_initial_s: float = Field(
        0.5, ge=0, description="First retry delay in seconds; doubles each retry, with jitter."
    )
    retry_max_s: float = Field(
        30.0, ge=0, description="Longest wait between retries, Retry-After included."
    )
    max_document_mb: float = Field(
        20.0, gt=0, description="Largest total document size accepted, in megabytes."
    )
    max_chunks: int = Field(5000, ge=1, description="Most chunks one request may split into.")
    max_question_chars: int = Field(
        4000, ge=1, description="Longest question accepted, in characters."
    )
    recursion_limit: int = Field(
        50, ge=10, description="LangGraph step limit per run; the graph needs about a dozen."
    )
    summary_words: int = Field(
        250, ge=20, le=5000, description="Target length of a summary, in words."
    )
    answer_sentences: int = Field(
        2, ge=1, le=10, description="Sentences the built-in engine puts in an answer."
    )
    data_dir: Path = Field(
        Path(".longdoc"), description="Directory for chat threads and other local state."
    )

    @model_validator(mode="after")
    def _overlap_below_size(self) -> Settings:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("chunk_overlap must be smaller than chunk_size")
        return self

    @property
    def max_document_chars(self) -> int:
        """The size limit in characters (1 MB counted as 1,000,000 characters)."""
        return int(self.max_document_mb * 1_000_000)
