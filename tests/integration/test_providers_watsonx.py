"""The watsonx provider through ChatWatsonx, against a local watsonx.ai server (no network).

tests/support/watsonx_server.py speaks the protocol as ibm-watsonx-ai uses it: IAM sign-in,
the project and model checks, and the chat endpoint, over TLS (SSL_CERT_FILE trusts its
certificate). Skipped where the watsonx extra is absent, but never under CI.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline import ConfigError, ModelError, Settings, ask, build_graph
from pipeline.engines.llm.calls import retry_after_s, status_code
from pipeline.engines.llm.providers import _cached_watsonx_models, build_models
from tests.support import LONGDOC, REPO, free_port
from tests.support.texts import ROBOTICS_REPORT
from tests.support.watsonx_server import (
    API_KEY,
    CHAT_PATH,
    MODELS,
    PROJECT_ID,
    RETRY_AFTER_S,
    SPACE_ID,
    WatsonxServer,
    running_server,
)

try:  # a missing extra is a skip here, but never under CI
    import langchain_ibm  # noqa: F401
except ImportError:  # pragma: no cover - .ci/run installs the extra
    if os.environ.get("CI"):
        raise
    pytest.skip(
        "the watsonx extra is not installed (pip install -e '.[watsonx]')", allow_module_level=True
    )


QUESTION = "Who is the chief executive?"
GRANITE, LLAMA = MODELS


@pytest.fixture
def watsonx(monkeypatch: pytest.MonkeyPatch) -> Iterator[WatsonxServer]:
    # Models are cached per URL. The OS may hand this server the port of an earlier test's,
    # whose cached client still holds a token only the earlier server knew (a 401 here).
    _cached_watsonx_models.cache_clear()
    with running_server() as server:
        monkeypatch.setenv("SSL_CERT_FILE", server.ca_file)  # trust its self-signed certificate
        yield server


def watsonx_settings(server: WatsonxServer, **overrides: Any) -> Settings:
    """The watsonx provider at the local server, with small chunks so the map step fans out.

    The chunk cache is off: these tests count the calls the server sees per chunk.
    """
    values: dict[str, Any] = {
        "provider": "watsonx",
        "model": GRANITE,
        "base_url": server.url,
        "api_key": API_KEY,
        "watsonx_project_id": PROJECT_ID,
        "watsonx_auth_url": server.auth_url,
        "watsonx_platform_url": server.url,
        "chunk_size": 100,
        "chunk_overlap": 0,
        "retry_initial_s": 0.0,
        "max_concurrency": 4,
        "call_timeout_s": 10.0,
        "cache": "off",
    }
    return Settings(**(values | overrides))


@pytest.mark.parametrize("method", ["function_calling", "json_schema"])
def test_question_is_answered_through_watsonx(watsonx: WatsonxServer, method: str) -> None:
    result = ask(
        ROBOTICS_REPORT, QUESTION, settings=watsonx_settings(watsonx, structured_method=method)
    )

    assert "Ingrid Halvorsen" in result.answer
    assert result.citations
    for citation in result.citations:
        assert ROBOTICS_REPORT[citation.start : citation.end] == citation.quote
    assert result.coverage.chunks == result.coverage.read > 4
    chats = watsonx.chats()
    assert len(chats) == result.usage.calls
    asked_with = "tools" if method == "function_calling" else "response_format"
    for request in chats:
        assert request.body["model_id"] == GRANITE
        assert request.body["project_id"] == PROJECT_ID
        assert "space_id" not in request.body
        assert request.query["version"]  # the API version date the SDK pins
        assert request.headers["Authorization"].split(" ")[1] in watsonx.tokens
        assert asked_with in request.body
        assert request.body["temperature"] == 0.0


def test_the_client_signs_in_and_checks_project_and_model_once(watsonx: WatsonxServer) -> None:
    settings = watsonx_settings(watsonx)
    ask(ROBOTICS_REPORT, QUESTION, settings=settings)
    ask(ROBOTICS_REPORT, QUESTION, settings=settings)  # same configuration: cached models
    start = [(r.method, r.path) for r in watsonx.requests if r.path != CHAT_PATH]
    assert start == [
        ("POST", "/identity/token"),
        ("GET", f"/v2/projects/{PROJECT_ID}"),
        ("GET", "/ml/v1/foundation_model_specs"),
    ]
    [sign_in] = [r for r in watsonx.requests if r.path == "/identity/token"]
    assert f"apikey={API_KEY}" in sign_in.body
    assert "grant_type=urn" in sign_in.body


def test_token_usage_is_what_the_server_counted(watsonx: WatsonxServer) -> None:
    result = ask(ROBOTICS_REPORT, QUESTION, settings=watsonx_settings(watsonx))
    served = watsonx.answered()
    assert result.usage.calls == len(served)
    assert result.usage.input_tokens == sum(r.usage["prompt_tokens"] for r in served)
    assert result.usage.output_tokens == sum(r.usage["completion_tokens"] for r in served)
    assert result.usage.by_node["map_chunk"].calls == result.coverage.chunks


def test_map_and_reduce_run_on_their_own_models(watsonx: WatsonxServer) -> None:
    settings = watsonx_settings(watsonx, model="", map_model=LLAMA, reduce_model=GRANITE)
    result = ask(ROBOTICS_REPORT, QUESTION, settings=settings)
    by_model: dict[str, int] = {}
    for request in watsonx.answered():
        by_model[request.body["model_id"]] = by_model.get(request.body["model_id"], 0) + 1
    # ask always reads (no routing call): one map call per chunk, one reduce call.
    assert by_model == {LLAMA: result.coverage.chunks, GRANITE: 1}


def test_a_deployment_space_runs_the_calls_instead_of_a_project(watsonx: WatsonxServer) -> None:
    settings = watsonx_settings(watsonx, watsonx_project_id="", watsonx_space_id=SPACE_ID)
    assert "Ingrid Halvorsen" in ask(ROBOTICS_REPORT, QUESTION, settings=settings).answer
    assert all(r.body["space_id"] == SPACE_ID for r in watsonx.chats())
    assert all("project_id" not in r.body for r in watsonx.chats())
    assert any(r.path == f"/v2/spaces/{SPACE_ID}" for r in watsonx.requests)


def test_rate_limited_call_is_retried_by_longdoc_after_the_advertised_delay(
    watsonx: WatsonxServer,
) -> None:
    document = ROBOTICS_REPORT + "RATE_LIMITED_ONCE marks this chunk. "
    result = ask(document, QUESTION, settings=watsonx_settings(watsonx))
    limited = [r for r in watsonx.chats() if "RATE_LIMITED_ONCE" in r.prompt]
    assert [r.status for r in limited] == [429, 200]  # the SDK itself did not retry
    assert limited[1].at - limited[0].at >= RETRY_AFTER_S - 0.05
    assert result.coverage.failed == []


def test_persistent_server_error_fails_one_chunk_after_longdocs_retries_only(
    watsonx: WatsonxServer,
) -> None:
    document = ROBOTICS_REPORT + "FAIL_ALWAYS marks this chunk. "
    result = ask(document, QUESTION, settings=watsonx_settings(watsonx, max_retries=2))
    assert "Ingrid Halvorsen" in result.answer
    [failed] = result.coverage.failed
    assert "500" in failed.error
    attempts = [r for r in watsonx.chats() if "FAIL_ALWAYS" in r.prompt]
    # max_retries=2: three tries; the SDK's own retries would have made 4 x 11 of them.
    assert [r.status for r in attempts] == [500, 500, 500]


def test_a_503_is_retried_once_and_the_answer_is_whole(watsonx: WatsonxServer) -> None:
    watsonx.fail_next(503)
    result = ask(ROBOTICS_REPORT, QUESTION, settings=watsonx_settings(watsonx))
    statuses = [r.status for r in watsonx.chats()]
    assert statuses.count(503) == 1
    assert len(statuses) == result.usage.calls + 1  # one retry, no more
    assert result.coverage.failed == []


@pytest.mark.parametrize("status", [429, 500, 503, 504, 520])
def test_the_sdk_never_retries_on_its_own(watsonx: WatsonxServer, status: int) -> None:
    """Its transport retries 5xx and its decorator 429/503/504/520; longdoc owns retries."""
    models = build_models(watsonx_settings(watsonx), environ={})
    watsonx.fail_next(status)
    with pytest.raises(Exception) as caught:  # noqa: PT011 - the SDK's own error class
        asyncio.run(models.map.ainvoke("hello"))
    assert status_code(caught.value) == status
    assert retry_after_s(caught.value) == (RETRY_AFTER_S if status == 429 else None)
    assert len(watsonx.chats()) == 1


def test_repeated_sync_calls_reuse_the_client_across_event_loops(watsonx: WatsonxServer) -> None:
    settings = watsonx_settings(watsonx)
    first = ask(ROBOTICS_REPORT, QUESTION, settings=settings)
    second = ask(ROBOTICS_REPORT, QUESTION, settings=settings)
    assert first.answer == second.answer
    assert second.coverage.failed == []


def test_tokens_are_refreshed_across_event_loops(watsonx: WatsonxServer) -> None:
    """A token near its end is renewed before a call, by calls racing in each new loop."""
    watsonx.token_lifetime_s = 50  # under a minute: every call signs in again
    settings = watsonx_settings(watsonx)
    for _ in range(2):  # ask() runs in a fresh event loop each time
        result = ask(ROBOTICS_REPORT, QUESTION, settings=settings)
        assert result.coverage.failed == []
    sign_ins = [r for r in watsonx.requests if r.path == "/identity/token"]
    assert len(sign_ins) > 2
    assert all(r.status == 200 for r in watsonx.chats())


async def test_chat_thread_runs_on_watsonx(watsonx: WatsonxServer, tmp_path: Path) -> None:
    from pipeline import achat, aget_thread

    settings = watsonx_settings(watsonx, data_dir=tmp_path / "data")
    first = await achat("wx-thread", "My name is Aiko Tanaka.", settings=settings)
    assert first.reply.startswith("You said:")
    await achat("wx-thread", "And I live in Bergen.", settings=settings)
    view = await aget_thread("wx-thread", settings=settings)
    assert [m.role for m in view.history] == ["user", "assistant"] * 2
    assert "Aiko Tanaka" in watsonx.answered()[-1].prompt  # history reaches the model


# ---- what is refused before any document is read ----


def test_a_wrong_api_key_is_a_config_error_naming_the_key(watsonx: WatsonxServer) -> None:
    with pytest.raises(ConfigError, match="refused the API key") as caught:
        build_graph(settings=watsonx_settings(watsonx, api_key="wrong"))
    assert "LONGDOC_API_KEY" in caught.value.hint
    assert not watsonx.chats()


def test_an_unknown_project_is_a_config_error_naming_the_setting(watsonx: WatsonxServer) -> None:
    with pytest.raises(ConfigError, match="project nope") as caught:
        build_graph(settings=watsonx_settings(watsonx, watsonx_project_id="nope"))
    assert "LONGDOC_WATSONX_PROJECT_ID" in caught.value.hint


def test_an_unknown_model_is_a_config_error_before_reading(
    watsonx: WatsonxServer, tmp_path: Path
) -> None:
    settings = watsonx_settings(watsonx, model="ibm/no-such-model")
    with pytest.raises(ConfigError, match="LONGDOC_MODEL"):
        ask(tmp_path / "missing.md", QUESTION, settings=settings)  # not NotFoundError
    assert not watsonx.chats()


def test_a_failing_sign_in_service_is_a_model_error_not_a_config_error(
    watsonx: WatsonxServer,
) -> None:
    watsonx.fail_next(503, path="/identity/token")
    with pytest.raises(ModelError, match="503"):
        build_models(watsonx_settings(watsonx, call_timeout_s=11.0), environ={})


def test_an_unreachable_url_is_a_model_error_naming_it(watsonx: WatsonxServer) -> None:
    url = f"https://127.0.0.1:{free_port()}"
    with pytest.raises(ModelError, match=url):
        build_models(watsonx_settings(watsonx, base_url=url, call_timeout_s=12.0), environ={})


def test_cli_reads_the_watsonx_variables_as_fallbacks(
    watsonx: WatsonxServer, tmp_path: Path
) -> None:
    """A user of langchain-ibm keeps their WATSONX_* variables; only the provider is new."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LONGDOC_", "WATSONX_"))}
    env.update(
        PYTHONPATH=str(REPO),
        SSL_CERT_FILE=watsonx.ca_file,
        LONGDOC_PROVIDER="watsonx",
        LONGDOC_MODEL=GRANITE,
        LONGDOC_WATSONX_AUTH_URL=watsonx.auth_url,
        LONGDOC_WATSONX_PLATFORM_URL=watsonx.url,
        LONGDOC_DATA_DIR=str(tmp_path / "data"),
        WATSONX_URL=watsonx.url,
        WATSONX_API_KEY=API_KEY,
        WATSONX_PROJECT_ID=PROJECT_ID,
    )
    report = tmp_path / "report.md"
    report.write_text(ROBOTICS_REPORT)
    done = subprocess.run(
        [str(LONGDOC), "ask", str(report), QUESTION],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Ingrid Halvorsen" in done.stdout
    assert done.stderr == ""  # the SDK logs nothing of its own
    assert {r.body["project_id"] for r in watsonx.chats()} == {PROJECT_ID}
