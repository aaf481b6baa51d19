"""Real providers from settings: the whole pipeline through ChatOpenAI against a local server.

No network: the server is tests/openai_server.py on a loopback port, speaking the
OpenAI chat-completions protocol the way vLLM, Ollama or Databricks endpoints do.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import AsyncCallbackHandler

from pipeline import ConfigError, ModelError, ModelTimeoutError, Settings, ask, build_graph, chat
from pipeline import summarize as summarize_documents
from pipeline.engines.llm.providers import build_models, resolve_endpoint
from tests.support.openai_server import RETRY_AFTER_S, OpenAIServer
from tests.support.texts import ROBOTICS_REPORT

QUESTION = "Who is the chief executive?"


def openai_settings(url: str, **overrides: Any) -> Settings:
    """The openai provider at `url`, with small chunks so the map step fans out.

    The chunk cache is off: these tests count the calls each chunk makes (the sample's
    repeated filler paragraphs would be read once).
    """
    values: dict[str, Any] = {
        "provider": "openai",
        "model": "local-model",
        "base_url": url,
        "chunk_size": 100,
        "chunk_overlap": 0,
        "retry_initial_s": 0.0,
        "max_concurrency": 4,
        "call_timeout_s": 10.0,
        "cache": "off",
    }
    return Settings(**(values | overrides))


# ---- settings and the factory ----


def test_provider_without_a_model_name_is_a_config_error_before_reading(tmp_path: Path) -> None:
    # The document does not exist: reading it first would raise NotFoundError instead.
    with pytest.raises(ConfigError, match="LONGDOC_MODEL"):
        ask(tmp_path / "missing.md", QUESTION, settings=Settings(provider="openai"))


def test_openai_provider_without_key_or_url_names_the_key_setting() -> None:
    with pytest.raises(ConfigError, match="LONGDOC_API_KEY") as caught:
        build_graph(settings=Settings(provider="openai", model="gpt-4o-mini"))
    assert "OPENAI_API_KEY" in caught.value.message


def test_cli_prints_the_missing_setting_and_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from pipeline.cli.app import app

    monkeypatch.setenv("LONGDOC_PROVIDER", "databricks")
    result = CliRunner().invoke(app, ["ask", "missing.md", QUESTION])
    assert result.exit_code == 1
    assert "LONGDOC_MODEL is not set" in result.output


def test_base_url_without_a_scheme_is_a_config_error() -> None:
    settings = Settings(provider="openai", model="m", base_url="localhost:11434/v1")
    with pytest.raises(ConfigError, match="http://"):
        build_graph(settings=settings)


def test_key_and_url_fall_back_to_the_usual_provider_variables() -> None:
    environ = {
        "OPENAI_API_KEY": "sk-openai",
        "OPENAI_BASE_URL": "http://openai.local/v1",
        "DATABRICKS_HOST": "https://example.cloud.databricks.com/",
        "DATABRICKS_TOKEN": "dapi-token",
    }
    openai = resolve_endpoint(Settings(provider="openai", model="m"), environ)
    assert (openai.base_url, openai.api_key) == ("http://openai.local/v1", "sk-openai")
    databricks = resolve_endpoint(Settings(provider="databricks", model="m"), environ)
    assert databricks.base_url == "https://example.cloud.databricks.com"
    assert databricks.api_key == "dapi-token"
    own = Settings(provider="openai", model="m", base_url="http://own/v1", api_key="own-key")
    assert resolve_endpoint(own, environ).api_key == "own-key"
    assert resolve_endpoint(own, environ).base_url == "http://own/v1"


def test_local_server_needs_no_key() -> None:
    endpoint = resolve_endpoint(Settings(provider="openai", model="m", base_url="http://x/v1"), {})
    assert endpoint.api_key  # a placeholder the OpenAI client insists on; servers ignore it


@pytest.mark.slow
def test_clients_leave_retries_to_longdoc_and_share_its_timeout() -> None:
    settings = Settings(
        provider="openai",
        model="big",
        map_model="small",
        base_url="http://127.0.0.1:9/v1",
        call_timeout_s=12.5,
        max_output_tokens=300,
    )
    models = build_models(settings, environ={})
    assert models.map.model_name == "small"  # type: ignore[attr-defined]
    assert models.reduce.model_name == "big"  # type: ignore[attr-defined]
    for model in (models.map, models.reduce):
        assert model.max_retries == 0  # type: ignore[attr-defined]
        assert model.request_timeout == 12.5  # type: ignore[attr-defined]
        assert model.max_tokens == 300  # type: ignore[attr-defined]
    assert models.structured_method == "json_schema"


def test_one_model_serves_both_roles_when_only_model_is_set() -> None:
    models = build_models(Settings(provider="openai", model="m", base_url="http://x/v1"), {})
    assert models.map is models.reduce


def test_databricks_without_its_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "databricks_langchain", None)  # import now fails
    settings = Settings(provider="databricks", model="databricks-meta-llama-3-3-70b-instruct")
    with pytest.raises(ConfigError) as caught:
        build_models(settings, {"DATABRICKS_HOST": "https://x", "DATABRICKS_TOKEN": "t"})
    assert "longdoc[databricks]" in caught.value.hint
    assert "serving-endpoints" not in caught.value.message


WATSONX_ENV = {
    "WATSONX_URL": "https://eu-de.ml.cloud.ibm.com/",
    "WATSONX_API_KEY": "wx-key",
    "WATSONX_PROJECT_ID": "p-123",
}


def test_watsonx_falls_back_to_the_usual_watsonx_variables() -> None:
    endpoint = resolve_endpoint(Settings(provider="watsonx", model="ibm/granite"), WATSONX_ENV)
    assert (endpoint.base_url, endpoint.api_key) == ("https://eu-de.ml.cloud.ibm.com", "wx-key")
    assert endpoint.watsonx is not None
    assert endpoint.watsonx.project_id == "p-123"
    older = {**WATSONX_ENV, "WATSONX_API_KEY": "", "WATSONX_APIKEY": "old-spelling"}
    assert (
        resolve_endpoint(Settings(provider="watsonx", model="m"), older).api_key == "old-spelling"
    )
    own = Settings(provider="watsonx", model="m", api_key="own", watsonx_project_id="own-p")
    endpoint = resolve_endpoint(own, WATSONX_ENV)
    assert endpoint.api_key == "own"
    assert endpoint.watsonx is not None
    assert endpoint.watsonx.project_id == "own-p"


@pytest.mark.parametrize(
    ("unset", "named"),
    [
        ("WATSONX_URL", "LONGDOC_BASE_URL"),
        ("WATSONX_API_KEY", "LONGDOC_API_KEY"),
        ("WATSONX_PROJECT_ID", "LONGDOC_WATSONX_PROJECT_ID"),
    ],
)
def test_watsonx_without_url_key_or_project_names_the_setting_before_reading(
    unset: str, named: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in WATSONX_ENV.items():
        if name != unset:
            monkeypatch.setenv(name, value)
    settings = Settings(provider="watsonx", model="ibm/granite-3-3-8b-instruct")
    with pytest.raises(ConfigError, match=named) as caught:
        ask(tmp_path / "missing.md", QUESTION, settings=settings)  # read first: NotFoundError
    assert unset in caught.value.message


def test_watsonx_without_a_model_id_names_the_model_setting() -> None:
    with pytest.raises(ConfigError, match=r"LONGDOC_MODEL is not set.*model id"):
        resolve_endpoint(Settings(provider="watsonx"), WATSONX_ENV)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"base_url": "http://eu-de.ml.cloud.ibm.com"}, "https://"),
        ({"watsonx_space_id": "s-1"}, "only one"),
        ({"watsonx_auth_url": "http://iam.local/identity/token"}, "AUTH_URL"),
    ],
)
def test_watsonx_settings_that_cannot_work_are_refused(
    overrides: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        resolve_endpoint(Settings(provider="watsonx", model="m", **overrides), WATSONX_ENV)


def test_watsonx_without_its_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "langchain_ibm", None)  # import now fails
    with pytest.raises(ConfigError, match="watsonx extra") as caught:
        build_models(Settings(provider="watsonx", model="ibm/granite"), WATSONX_ENV)
    assert "longdoc[watsonx]" in caught.value.hint


# ---- the whole pipeline through ChatOpenAI against the local server ----


@pytest.mark.parametrize("method", ["json_schema", "function_calling"])
def test_question_is_answered_through_an_openai_compatible_server(
    openai_server: OpenAIServer, method: str
) -> None:
    settings = openai_settings(openai_server.url, structured_method=method)
    result = ask(ROBOTICS_REPORT, QUESTION, settings=settings)

    assert result.mode == "document"
    assert "Ingrid Halvorsen" in result.answer
    assert result.citations
    for citation in result.citations:
        assert ROBOTICS_REPORT[citation.start : citation.end] == citation.quote
    assert result.coverage.chunks == result.coverage.read > 4
    assert result.coverage.failed == []
    requests = openai_server.answered()
    asked_with = "tools" if method == "function_calling" else "response_format"
    assert all(asked_with in r.body for r in requests)
    assert all(r.body["model"] == "local-model" for r in requests)


def test_token_usage_is_what_the_server_reported(openai_server: OpenAIServer) -> None:
    result = ask(ROBOTICS_REPORT, QUESTION, settings=openai_settings(openai_server.url))
    served = openai_server.answered()
    assert result.usage.calls == len(served)
    assert result.usage.input_tokens == sum(r.usage["prompt_tokens"] for r in served)
    assert result.usage.output_tokens == sum(r.usage["completion_tokens"] for r in served)
    assert result.usage.by_node["map_chunk"].calls == result.coverage.chunks
    assert set(result.usage.by_node) == {"map_chunk", "reduce"}  # ask reads without routing


def test_greeting_in_a_chat_turn_is_routed_to_chat_by_the_server_model(
    openai_server: OpenAIServer,
) -> None:
    settings = openai_settings(openai_server.url)
    result = chat("greeting", "Hello there", documents=ROBOTICS_REPORT, settings=settings)
    assert result.mode == "chat"
    assert result.reply.startswith("You said:")
    assert "map_chunk" not in result.usage.by_node


def test_summary_is_written_through_the_server(openai_server: OpenAIServer) -> None:
    result = summarize_documents(ROBOTICS_REPORT, settings=openai_settings(openai_server.url))
    assert "Halvorsen Robotics was founded in 1987 in Bergen." in result.summary
    assert result.citations


def test_map_and_reduce_run_on_their_own_models(openai_server: OpenAIServer) -> None:
    settings = openai_settings(openai_server.url, map_model="small", reduce_model="large")
    result = ask(ROBOTICS_REPORT, QUESTION, settings=settings)
    by_model: dict[str, int] = {}
    for request in openai_server.answered():
        by_model[request.body["model"]] = by_model.get(request.body["model"], 0) + 1
    # small: one call per chunk (ask does not route); large: the answer (nothing to collapse)
    assert by_model == {"small": result.coverage.chunks, "large": 1}


def test_rate_limited_call_is_retried_after_the_advertised_delay(
    openai_server: OpenAIServer,
) -> None:
    document = ROBOTICS_REPORT + "RATE_LIMITED_ONCE marks this chunk. "
    result = ask(document, QUESTION, settings=openai_settings(openai_server.url))
    limited = [r for r in openai_server.requests if "RATE_LIMITED_ONCE" in r.prompt]
    assert [r.status for r in limited] == [429, 200]
    assert limited[1].at - limited[0].at >= RETRY_AFTER_S - 0.05
    assert result.coverage.failed == []


def test_persistent_server_error_fails_one_chunk_and_the_answer_still_comes(
    openai_server: OpenAIServer,
) -> None:
    document = ROBOTICS_REPORT + "FAIL_ALWAYS marks this chunk. "
    settings = openai_settings(openai_server.url, max_retries=2)
    result = ask(document, QUESTION, settings=settings)
    assert "Ingrid Halvorsen" in result.answer
    [failed] = result.coverage.failed
    assert "500" in failed.error
    assert "/v1/chat/completions" in failed.error
    attempts = [r for r in openai_server.requests if "FAIL_ALWAYS" in r.prompt]
    assert [r.status for r in attempts] == [500, 500, 500]  # max_retries=2: three tries
    assert result.coverage.read == result.coverage.chunks - 1


def test_invalid_structured_reply_is_asked_again_once_then_fails_the_chunk(
    openai_server: OpenAIServer,
) -> None:
    document = ROBOTICS_REPORT + "BAD_JSON marks this chunk. "
    result = ask(document, QUESTION, settings=openai_settings(openai_server.url))
    [failed] = result.coverage.failed
    assert "could not be parsed" in failed.error
    asked = [r for r in openai_server.requests if "BAD_JSON" in r.prompt]
    assert len(asked) == 2
    assert "could not be used" in asked[1].prompt


def test_repeated_sync_calls_reuse_the_client_across_event_loops(
    openai_server: OpenAIServer,
) -> None:
    # ask() runs each call in a fresh event loop; a pooled connection from the last
    # loop would fail with "Event loop is closed" (and leak a socket warning).
    settings = openai_settings(openai_server.url)
    first = ask(ROBOTICS_REPORT, QUESTION, settings=settings)
    second = ask(ROBOTICS_REPORT, QUESTION, settings=settings)
    assert first.answer == second.answer
    assert second.coverage.failed == []


class RunNames(AsyncCallbackHandler):
    """Collects the name of every traced run, as LangSmith would show them."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    async def on_chain_start(
        self, serialized: Any, inputs: Any, *, run_id: UUID, **kwargs: Any
    ) -> None:
        if kwargs.get("name"):
            self.names.add(kwargs["name"])


async def test_traces_name_each_node_and_each_model_call(openai_server: OpenAIServer) -> None:
    graph = build_graph(settings=openai_settings(openai_server.url))
    runs = RunNames()
    state = {"question": QUESTION, "documents": [{"id": "report", "text": ROBOTICS_REPORT}]}
    await graph.ainvoke(state, {"callbacks": [runs]})
    assert {"route", "split", "map_chunk", "reduce"} <= runs.names
    assert {"route:route", "map_chunk:read", "reduce:answer"} <= runs.names


# ---- a server that is wrong, absent or silent ----


@pytest.fixture
def closed_port() -> int:
    """A loopback port with nothing listening: connections are refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield sock.getsockname()[1]


def test_unreachable_base_url_ends_as_model_error_naming_the_url(closed_port: int) -> None:
    url = f"http://127.0.0.1:{closed_port}/v1"
    start = time.monotonic()
    with pytest.raises(ModelError, match="after 3 attempts") as caught:
        ask(ROBOTICS_REPORT, QUESTION, settings=openai_settings(url, max_retries=2))
    assert url in caught.value.message
    assert time.monotonic() - start < 10


def test_wrong_base_url_path_ends_as_model_error_naming_the_url(
    openai_server: OpenAIServer,
) -> None:
    # The server answers 404 at /chat/completions: the base URL lacks its /v1.
    with pytest.raises(ModelError) as caught:
        ask(ROBOTICS_REPORT, QUESTION, settings=openai_settings(openai_server.root))
    assert f"{openai_server.root}/chat/completions" in caught.value.message
    assert "after 1 attempt" in caught.value.message  # a 404 is not retried


def test_server_that_never_answers_times_out_instead_of_hanging(silent_port: int) -> None:
    url = f"http://127.0.0.1:{silent_port}/v1"
    settings = openai_settings(url, call_timeout_s=0.5, max_retries=1)
    start = time.monotonic()
    with pytest.raises(ModelTimeoutError):
        asyncio.run(build_graph(settings=settings).ainvoke({"question": "hi"}))
    assert time.monotonic() - start < 5


async def test_chat_thread_remembers_and_folds_history_through_the_server(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    from pipeline import achat, acreate_thread, aget_thread

    settings = openai_settings(
        openai_server.url,
        data_dir=tmp_path / "data",
        memory_token_budget=300,
        memory_keep_messages=4,
        memory_summary_words=40,
    )
    thread = (await acreate_thread(settings=settings)).thread_id
    first = await achat(thread, "My name is Aiko Tanaka.", settings=settings)
    assert first.reply.startswith("You said:")
    results = []
    for n in range(16):
        text = f"Turn {n}: the harbour crane number {n} lifted {n * 3} containers today."
        results.append(await achat(thread, text, settings=settings))
    assert any(r.compressed for r in results)
    assert any("compress" in r.usage.by_node for r in results)
    view = await aget_thread(thread, settings=settings)
    assert len(view.history) == 34  # nothing is dropped from the stored history
    assert view.summary
    chat_prompts = [r.prompt for r in openai_server.answered() if r.prompt.startswith("You are")]
    assert view.summary in chat_prompts[-1]
    assert "crane number 15 lifted" in chat_prompts[-1]


def test_empty_temperature_leaves_sampling_to_the_server(
    openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LONGDOC_TEMPERATURE", "")  # reasoning models reject any temperature
    settings = Settings(provider="openai", model="o4-mini", base_url=openai_server.url)
    assert settings.temperature is None
    ask("The crane lifted forty containers.", "How many containers?", settings=settings)
    assert all("temperature" not in r.body for r in openai_server.requests)
    monkeypatch.delenv("LONGDOC_TEMPERATURE")
    default = openai_settings(openai_server.url)
    ask("The crane lifted forty containers.", "How many containers?", settings=default)
    assert openai_server.requests[-1].body["temperature"] == 0.0
