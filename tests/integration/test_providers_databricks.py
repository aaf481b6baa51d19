"""The databricks provider through ChatDatabricks, pointed at the local server by DATABRICKS_HOST.

Runs only where the optional extra is installed (`pip install -e '.[databricks,test]'`);
elsewhere it is skipped. ChatDatabricks posts OpenAI-style requests to
`{DATABRICKS_HOST}/serving-endpoints/chat/completions`, which tests/openai_server.py serves.
"""

from __future__ import annotations

import warnings

import pytest

from pipeline import Settings, ask
from tests.support.openai_server import OpenAIServer
from tests.support.texts import ROBOTICS_REPORT

with warnings.catch_warnings():
    # unitycatalog-ai, imported by databricks-langchain, still uses pydantic v1-style config.
    warnings.simplefilter("ignore", DeprecationWarning)
    pytest.importorskip("databricks_langchain")


def test_question_is_answered_through_chat_databricks(
    openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABRICKS_HOST", openai_server.root)
    monkeypatch.setenv("DATABRICKS_TOKEN", "dapi-test")
    settings = Settings(
        provider="databricks",
        model="databricks-meta-llama-3-3-70b-instruct",
        chunk_size=100,
        chunk_overlap=0,
        retry_initial_s=0.0,
        max_concurrency=4,
    )
    result = ask(ROBOTICS_REPORT, "Who is the chief executive?", settings=settings)
    assert "Ingrid Halvorsen" in result.answer
    assert result.coverage.failed == []
    served = openai_server.answered()
    assert {r.path for r in served} == {"/serving-endpoints/chat/completions"}
    assert all("tools" in r.body for r in served)  # function calling on databricks
    assert result.usage.input_tokens == sum(r.usage["prompt_tokens"] for r in served)


def test_unreachable_workspace_is_a_model_error_or_config_error_not_a_hang() -> None:
    from pipeline.errors import LongdocError

    settings = Settings(
        provider="databricks",
        model="m",
        base_url="http://127.0.0.1:9",
        api_key="dapi-test",
        max_retries=0,
        call_timeout_s=5,
    )
    with pytest.raises(LongdocError) as caught:
        ask(ROBOTICS_REPORT, "Who is the chief executive?", settings=settings)
    assert "127.0.0.1:9" in caught.value.message
