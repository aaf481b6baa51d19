"""Shared fixtures: every test isolated from LONGDOC_* variables and the working directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline import Settings
from tests.fakes import FakeChatModel

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No LONGDOC_* variable or .env file leaks in; data lives under tmp_path."""
    for name in list(os.environ):
        if name.startswith("LONGDOC_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LONGDOC_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def model() -> FakeChatModel:
    return FakeChatModel()


@pytest.fixture
def settings() -> Settings:
    """Small chunks and instant retries, so tests fan out widely and run fast."""
    return Settings(chunk_size=100, chunk_overlap=0, retry_initial_s=0.0, max_concurrency=4)
