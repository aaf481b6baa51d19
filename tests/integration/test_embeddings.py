"""Embeddings providers for recall against a real OpenAI-compatible server on loopback."""

from __future__ import annotations

import pytest

from pipeline import ConfigError, Settings, aimport_messages, arecall
from tests.support.openai_server import OpenAIServer

SEAN = "Hello! My name is Sean Park and I am a statistics student from Busan."
OTHER = [
    {"role": "user", "content": f"The bus to the harbour number {i} was late."} for i in range(10)
]


@pytest.mark.parametrize("provider", ["openai", "databricks"])
async def test_configured_embeddings_recall_a_paraphrase(
    provider: str, openai_server: OpenAIServer
) -> None:
    url = openai_server.url if provider == "openai" else openai_server.root
    configured = Settings(
        embeddings=provider,
        embeddings_model="fake-embed",
        embeddings_base_url=url,
        api_key="test-key",
    )
    await aimport_messages("t", [{"role": "user", "content": SEAN}, *OTHER], settings=configured)
    hits = await arecall("t", "what do people call me?", 3, settings=configured)
    assert hits[0].content == SEAN
    paths = {r.path for r in openai_server.requests}
    expected = "/v1/embeddings" if provider == "openai" else "/serving-endpoints/embeddings"
    assert paths == {expected}
    assert all(r.body["model"] == "fake-embed" for r in openai_server.requests)


def test_embeddings_without_a_model_name_are_a_config_error() -> None:
    from pipeline.engines.llm.embeddings import embedder

    with pytest.raises(ConfigError, match="LONGDOC_EMBEDDINGS_MODEL"):
        embedder(Settings(embeddings="openai", api_key="k"))
