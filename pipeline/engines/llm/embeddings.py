"""Embeddings for recall: a caller's LangChain `Embeddings`, or the one LONGDOC_EMBEDDINGS names.

`openai` is any server with the OpenAI embeddings API (`POST {base}/embeddings`: OpenAI,
vLLM, Ollama, llama.cpp, LM Studio); `databricks` is a Databricks serving endpoint, which
answers that same API under `{host}/serving-endpoints`, so it needs no extra package.
Calls go through call_model (the endpoint's limiter, timeout and retries), like chat calls.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from functools import lru_cache, partial

import httpx
from langchain_core.embeddings import Embeddings
from pydantic import SecretStr

from pipeline.config import Settings
from pipeline.engines.llm.calls import call_model
from pipeline.engines.llm.limiters import limiter_for
from pipeline.engines.llm.providers import UNUSED_KEY, PerLoopTransport
from pipeline.errors import ConfigError

BATCH = 64
"""Texts per embeddings request: servers cap a request's inputs (OpenAI at 2,048)."""
MAX_CHARS = 8000
"""Characters of a text that are embedded: ~2,000 tokens, inside every common model's window."""


class Embedder:
    """Embeds texts with one model; `id` names it, so vectors of another model never mix in."""

    def __init__(self, model: Embeddings, settings: Settings, name: str | None = None) -> None:
        self.model = model
        self.settings = settings
        model_name = getattr(model, "model", None) or getattr(model, "endpoint", None) or ""
        self.id = name or f"{type(model).__name__}:{model_name}"
        self.limiter = limiter_for(model, settings)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), BATCH):
            batch = [t[:MAX_CHARS] or " " for t in texts[start : start + BATCH]]
            embed = partial(self.model.aembed_documents, batch)
            vectors += await call_model(embed, self.settings, self.limiter)
        return vectors

    async def embed_query(self, text: str) -> list[float]:
        embed = partial(self.model.aembed_query, text[:MAX_CHARS] or " ")
        return await call_model(embed, self.settings, self.limiter)


def embedder(
    settings: Settings, model: Embeddings | None = None, environ: Mapping[str, str] | None = None
) -> Embedder | None:
    """The caller's `model`, else the configured provider's, else None (lexical recall only)."""
    if model is not None:
        return Embedder(model, settings)
    if not settings.embeddings:
        return None
    base_url, key = _endpoint(settings, os.environ if environ is None else environ)
    name = f"{settings.embeddings}:{settings.embeddings_model}"
    return Embedder(
        _openai_embeddings(base_url, key, settings.embeddings_model, settings.call_timeout_s),
        settings,
        name,
    )


def _endpoint(settings: Settings, environ: Mapping[str, str]) -> tuple[str, str]:
    """(base URL, key) of the embeddings server; ConfigError naming the setting if unusable."""
    if not settings.embeddings_model:
        raise ConfigError(
            f"LONGDOC_EMBEDDINGS_MODEL is not set: {settings.embeddings} embeddings need a model",
            hint="Set LONGDOC_EMBEDDINGS_MODEL (Databricks: the endpoint name), or unset "
            "LONGDOC_EMBEDDINGS for lexical recall only.",
        )
    key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    url = settings.embeddings_base_url or settings.base_url
    if settings.embeddings == "openai":
        url = url or environ.get("OPENAI_BASE_URL", "")
        key = key or environ.get("OPENAI_API_KEY", "")
        if not key and not url:
            raise ConfigError(
                "openai embeddings need LONGDOC_API_KEY (or OPENAI_API_KEY) for api.openai.com",
                hint="Set LONGDOC_API_KEY, or LONGDOC_EMBEDDINGS_BASE_URL for a local server.",
            )
    else:
        url = url or environ.get("DATABRICKS_HOST", "")
        key = key or environ.get("DATABRICKS_TOKEN", "")
        if not url or not key:
            raise ConfigError(
                "databricks embeddings need a workspace URL and a token",
                hint="Set LONGDOC_EMBEDDINGS_BASE_URL (or DATABRICKS_HOST) and LONGDOC_API_KEY "
                "(or DATABRICKS_TOKEN).",
            )
        url = url.rstrip("/")
        if not url.endswith("/serving-endpoints"):
            url += "/serving-endpoints"
    if url and not url.startswith(("http://", "https://")):
        raise ConfigError(f"the embeddings URL must start with http:// or https://, not {url!r}")
    return url.rstrip("/"), key or UNUSED_KEY


@lru_cache(maxsize=8)
def _openai_embeddings(base_url: str, key: str, model: str, timeout_s: float) -> Embeddings:
    from langchain_openai import OpenAIEmbeddings

    return OpenAIEmbeddings(  # type: ignore[call-arg]  # aliases mypy's pydantic plugin misses
        model=model,
        base_url=base_url or None,
        api_key=SecretStr(key),
        timeout=timeout_s,
        max_retries=0,  # call_model owns retries
        # Send text, not tiktoken ids: other servers want text, and tiktoken would fetch
        # its tables from the network. Texts are cut to MAX_CHARS instead.
        check_embedding_ctx_length=False,
        http_async_client=httpx.AsyncClient(transport=PerLoopTransport()),
    )
