"""Shared fixtures: every test isolated from LONGDOC_* variables and the working directory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline import Settings
from pipeline.engines.llm.limiters import forget_limiters
from tests.support.fakes import FakeChatModel
from tests.support.openai_server import OpenAIServer, running_server

# Provider keys and URLs would point tests at real services, and tracing variables
# would send runs to LangSmith: tests never touch the network. The watsonx SDK also
# writes WX_CLIENT_* itself; AWS_* would hand boto3 a developer's real account.
_ISOLATED_PREFIXES = (
    "LONGDOC_",
    "OPENAI_",
    "DATABRICKS_",
    "WATSONX_",
    "WX_CLIENT_",
    "AWS_",
    "LANGSMITH_",
    "LANGCHAIN_",
)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No LONGDOC_*, provider or tracing variable or .env file leaks in; data under tmp_path."""
    for name in list(os.environ):
        if name.startswith(_ISOLATED_PREFIXES):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LONGDOC_DATA_DIR", str(tmp_path / "data"))
    forget_limiters()  # each test starts with no learned limit, as a fresh process does


@pytest.fixture
def model() -> FakeChatModel:
    return FakeChatModel()


@pytest.fixture
def settings() -> Settings:
    """Small chunks and instant retries, so tests fan out widely and run fast.

    The chunk cache is off, so a test counts the reads it causes (tests/graph/test_cache.py
    turns it on); sample texts repeat filler paragraphs that would be read once.
    """
    return Settings(
        chunk_size=100, chunk_overlap=0, retry_initial_s=0.0, max_concurrency=4, cache="off"
    )


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A real OpenAI-compatible chat-completions server on a loopback port."""
    with running_server() as server:
        yield server
