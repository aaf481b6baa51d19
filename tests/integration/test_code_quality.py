"""ruff and mypy run clean, so the one test command also guards lint, format and types."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO

pytestmark = pytest.mark.slow  # mypy over the whole tree takes seconds

BIN = Path(sys.executable).parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        ["mypy"],
    ],
    ids=["ruff-lint", "ruff-format", "mypy"],
)
def test_tool_reports_no_problems(command: list[str]) -> None:
    result = subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
