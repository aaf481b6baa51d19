"""The README stays true: the Quickstart runs, CI runs its test command, the settings table.

Regenerate the settings table with `python tests/test_readme.py --write`.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO

README = REPO / "README.md"
BIN = Path(sys.executable).parent
TABLE = re.compile(r"(<!-- settings-table -->\n)(.*?)(<!-- /settings-table -->)", re.DOTALL)


def quickstart_commands() -> list[str]:
    section = README.read_text().split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", section, flags=re.DOTALL)


# The settings most people change; the README points to .env.example for all of them.
README_SETTINGS = (
    "provider",
    "model",
    "map_model",
    "reduce_model",
    "base_url",
    "api_key",
    "watsonx_project_id",
    "chunk_size",
    "max_concurrency",
    "tokens_per_minute",
    "reduce_token_budget",
    "min_relevance",
    "call_timeout_s",
    "max_retries",
    "call_deadline_s",
    "summary_words",
    "answer_sentences",
    "checkpoint_url",
    "cache",
    "memory_token_budget",
    "embeddings",
    "embeddings_model",
    "data_dir",
    "max_document_mb",
    "reader_processes",
    "api_keys",
    "allowed_hosts",
    "ray_address",
)


def settings_table() -> str:
    from pipeline import Settings

    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for name in README_SETTINGS:
        field = Settings.model_fields[name]
        rows.append(f"| `LONGDOC_{name.upper()}` | `{field.default}` | {field.description} |")
    return "\n".join(rows) + "\n"


def test_quickstart_has_exactly_two_commands() -> None:
    commands = quickstart_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)


def test_ci_runs_the_readme_test_command() -> None:
    assert quickstart_commands()[1] in (REPO / ".ci" / "run").read_text()


@pytest.mark.slow
def test_quickstart_main_command_answers_with_citations() -> None:
    install, run = quickstart_commands()[0].rsplit(" && ", 1)
    assert "pip install" in install
    argv = shlex.split(run)
    assert argv[0] == ".venv/bin/longdoc"
    result = subprocess.run(
        [str(BIN / "longdoc"), *argv[1:]], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "Ingrid Halvorsen" in result.stdout
    assert "[1] annual_report.md" in result.stdout


def test_subgraph_example_runs_in_a_sync_parent(capsys: pytest.CaptureFixture[str]) -> None:
    section = README.read_text().split("**Subgraph.**", 1)[1].split("\n**", 1)[0]
    [example] = re.findall(r"```python\n(.+?)\n```", section, flags=re.DOTALL)
    exec(compile(example, "README.md", "exec"), {"__name__": "readme_example"})
    assert "Marta Lund keeps the lighthouse." in capsys.readouterr().out


def test_settings_table_matches_settings() -> None:
    match = TABLE.search(README.read_text())
    assert match is not None
    assert match.group(2) == settings_table(), "run: python tests/test_readme.py --write"


if __name__ == "__main__":
    if "--write" in sys.argv:
        sys.path.insert(0, str(REPO))
        text = README.read_text()
        README.write_text(TABLE.sub(lambda m: m.group(1) + settings_table() + m.group(3), text))
