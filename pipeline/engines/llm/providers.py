"""Chat models from Settings: a caller's model, LONGDOC_MODEL_FACTORY's, or a provider's.

The `openai`, `databricks` and `watsonx` providers build one model per role.

A cheaper model can route and read chunks (`map_model`) while a stronger one collapses
findings and writes answers (`reduce_model`); both default to `model`. Every client is
built with its own retries off and a timeout matching `call_timeout_s`, because
pipeline/engines/llm/calls.py owns retries: a client retrying twice under our three retries would
turn one failing call into twelve.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import os
import weakref
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import httpx
from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from pipeline.config import Settings
from pipeline.engines.llm.watsonx import WatsonxScope, watsonx_models, watsonx_scope
from pipeline.errors import ConfigError

DATABRICKS_HINT = "pip install 'longdoc[databricks]', or use the openai provider (see README)."

# OpenAI-compatible local servers (vLLM, Ollama, llama.cpp) ignore the key, but the
# OpenAI client refuses to start without one.
UNUSED_KEY = "unused"

# Building a Databricks workspace client resolves credentials over the network and can
# hang for a minute on an unreachable host; this bounds it.
DATABRICKS_CONNECT_TIMEOUT_S = 15.0

# Where each provider's typed replies are best asked for. OpenAI and the common
# OpenAI-compatible servers constrain decoding to a JSON schema; Databricks endpoints
# serve many model families, and tool calling works on the widest range of them; so do
# watsonx.ai's chat models (Granite, Llama, Mistral), whose JSON-schema support varies.
STRUCTURED_METHOD = {
    "openai": "json_schema",
    "databricks": "function_calling",
    "watsonx": "function_calling",
}


@dataclass(frozen=True)
class Models:
    """The chat models one engine uses, and how to ask them for typed replies."""

    map: BaseChatModel
    """Routes requests and reads each chunk."""
    reduce: BaseChatModel
    """Collapses findings, writes answers and summaries, and chats."""
    structured_method: str | None
    """with_structured_output's `method`; None leaves it to the model class's own default."""


@dataclass(frozen=True)
class Endpoint:
    """Where a provider's requests go, after the fallbacks to the usual env vars."""

    provider: str
    base_url: str
    api_key: str
    map_model: str
    reduce_model: str
    watsonx: WatsonxScope | None = None
    """The project or space and sign-in URLs, for the watsonx provider only."""


def chat_models(
    settings: Settings, model: BaseChatModel | None = None, environ: Mapping[str, str] | None = None
) -> Models | None:
    """The models an engine reads with, or None for the built-in engine.

    In order: the caller's `model`, the one LONGDOC_MODEL_FACTORY makes, the provider's.
    A caller's or factory's model does every role; its typed replies use
    LONGDOC_STRUCTURED_METHOD, or the model class's own default when that is auto.
    """
    if model is None and settings.model_factory:
        model = load_model_factory(settings.model_factory)
    if model is not None:
        method = None if settings.structured_method == "auto" else settings.structured_method
        return Models(map=model, reduce=model, structured_method=method)
    if settings.provider == "extractive":
        return None
    return build_models(settings, environ)


def build_models(settings: Settings, environ: Mapping[str, str] | None = None) -> Models:
    """The models `settings` name; ConfigError, naming the setting, if they cannot work.

    Models are cached per configuration, so a server building a graph per request
    neither reconnects nor re-resolves Databricks credentials each time.
    """
    endpoint = resolve_endpoint(settings, os.environ if environ is None else environ)
    method = (
        STRUCTURED_METHOD[endpoint.provider]
        if settings.structured_method == "auto"
        else settings.structured_method
    )
    options = _client_options(settings)
    if endpoint.provider == "openai":
        return _cached_openai_models(endpoint, options, method)
    if endpoint.provider == "watsonx":
        return _cached_watsonx_models(endpoint, options, method)
    return _cached_databricks_models(endpoint, options, method)


def resolve_endpoint(settings: Settings, environ: Mapping[str, str]) -> Endpoint:
    """Provider, URL, key and model names, checked before any document is read."""
    provider = settings.provider
    if provider not in STRUCTURED_METHOD:
        raise ConfigError(f"provider {provider!r} builds no chat model")
    map_model = settings.map_model or settings.model
    reduce_model = settings.reduce_model or settings.model
    if not map_model or not reduce_model:
        missing = "LONGDOC_MAP_MODEL" if not map_model else "LONGDOC_REDUCE_MODEL"
        what = {"databricks": "serving endpoint name", "watsonx": "model id"}.get(
            provider, "model name"
        )
        raise ConfigError(
            f"LONGDOC_MODEL is not set: the {provider} provider needs a {what}",
            hint=f"Set LONGDOC_MODEL (or {missing}), e.g. in .env; see .env.example.",
        )
    key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    if provider == "openai":
        base_url = settings.base_url or environ.get("OPENAI_BASE_URL", "")
        key = key or environ.get("OPENAI_API_KEY", "")
        if not key and not base_url:
            raise ConfigError(
                "LONGDOC_API_KEY is not set (nor OPENAI_API_KEY): the openai provider needs "
                "a key for api.openai.com",
                hint="Set LONGDOC_API_KEY, or LONGDOC_BASE_URL for a server that needs no key.",
            )
        key = key or UNUSED_KEY
    elif provider == "watsonx":
        base_url = (settings.base_url or environ.get("WATSONX_URL", "")).rstrip("/")
        # WATSONX_APIKEY is the older spelling langchain-ibm still reads.
        key = key or environ.get("WATSONX_API_KEY", "") or environ.get("WATSONX_APIKEY", "")
        scope = watsonx_scope(settings, environ, base_url, key)
        return Endpoint(provider, base_url, key, map_model, reduce_model, watsonx=scope)
    else:
        base_url = settings.base_url or environ.get("DATABRICKS_HOST", "")
        key = key or environ.get("DATABRICKS_TOKEN", "")
    if base_url and not base_url.startswith(("http://", "https://")):
        raise ConfigError(
            f"LONGDOC_BASE_URL must start with http:// or https://, not {base_url!r}",
            hint="e.g. http://localhost:11434/v1 for Ollama, http://localhost:8000/v1 for vLLM.",
        )
    return Endpoint(provider, base_url.rstrip("/"), key, map_model, reduce_model)


class PerLoopTransport(httpx.AsyncBaseTransport):
    """One connection pool per event loop, closed when that loop shuts down.

    A pooled connection belongs to the loop that opened it, and `ask()` runs each call in
    a fresh loop (asyncio.run): a pool shared across calls fails with "Event loop is
    closed" on its second use, and one left open leaks sockets. Each loop's pool is
    closed by an async generator the loop finalizes in `shutdown_asyncgens()`, which
    asyncio.run, asyncio.Runner and uvicorn all call before closing the loop.
    """

    def __init__(self) -> None:
        self._pools: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, tuple[httpx.AsyncHTTPTransport, AsyncGenerator[None]]
        ] = weakref.WeakKeyDictionary()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        loop = asyncio.get_running_loop()
        if loop not in self._pools:
            pool = httpx.AsyncHTTPTransport()
            closer = _close_at_loop_end(pool)
            await anext(closer)  # now the loop tracks it (loop._asyncgens holds it weakly)
            self._pools[loop] = (pool, closer)
        return await self._pools[loop][0].handle_async_request(request)

    async def aclose(self) -> None:
        entry = self._pools.pop(asyncio.get_running_loop(), None)
        if entry is not None:
            await entry[1].aclose()


async def _close_at_loop_end(pool: httpx.AsyncHTTPTransport) -> AsyncGenerator[None]:
    try:
        yield
    finally:
        await pool.aclose()


@dataclass(frozen=True)
class _ClientOptions:
    timeout_s: float
    temperature: float | None
    max_output_tokens: int | None


_Builder = Callable[[Endpoint, str, _ClientOptions], BaseChatModel]


def _client_options(settings: Settings) -> _ClientOptions:
    return _ClientOptions(settings.call_timeout_s, settings.temperature, settings.max_output_tokens)


@lru_cache(maxsize=16)
def _cached_openai_models(endpoint: Endpoint, options: _ClientOptions, method: str) -> Models:
    return _pair(_openai_model, endpoint, options, method)


@lru_cache(maxsize=16)
def _cached_watsonx_models(endpoint: Endpoint, options: _ClientOptions, method: str) -> Models:
    assert endpoint.watsonx is not None  # resolve_endpoint sets it for this provider
    model = watsonx_models(
        endpoint.base_url, endpoint.api_key, endpoint.watsonx, options.timeout_s, PerLoopTransport()
    )

    def build(endpoint: Endpoint, name: str, options: _ClientOptions) -> BaseChatModel:
        return model(name, options.temperature, options.max_output_tokens)

    return _pair(build, endpoint, options, method)


@lru_cache(maxsize=16)
def _cached_databricks_models(endpoint: Endpoint, options: _ClientOptions, method: str) -> Models:
    return _pair(_databricks_builder(endpoint), endpoint, options, method)


def _pair(build: _Builder, endpoint: Endpoint, options: _ClientOptions, method: str) -> Models:
    map_model = build(endpoint, endpoint.map_model, options)
    reduce_model = (
        map_model
        if endpoint.reduce_model == endpoint.map_model
        else build(endpoint, endpoint.reduce_model, options)
    )
    return Models(map=map_model, reduce=reduce_model, structured_method=method)


def _openai_model(endpoint: Endpoint, name: str, options: _ClientOptions) -> BaseChatModel:
    from langchain_openai import ChatOpenAI

    extra: dict[str, Any] = {}
    if options.temperature is not None:
        extra["temperature"] = options.temperature
    if options.max_output_tokens is not None:
        extra["max_completion_tokens"] = options.max_output_tokens
    return ChatOpenAI(
        model=name,
        base_url=endpoint.base_url or None,
        api_key=SecretStr(endpoint.api_key),
        timeout=options.timeout_s,
        max_retries=0,
        http_async_client=httpx.AsyncClient(transport=PerLoopTransport()),
        # OpenAI-compatible servers speak chat completions; few have the Responses API.
        use_responses_api=False,
        # x-ratelimit-* headers reach the endpoint's Limiter (engines/llm/limiters.py).
        include_response_headers=True,
        **extra,
    )


def _databricks_builder(endpoint: Endpoint) -> _Builder:
    """A builder of ChatDatabricks models that share one workspace client."""
    try:
        from databricks_langchain import ChatDatabricks
    except ImportError as exc:
        raise ConfigError(
            f"the databricks provider needs the databricks extra ({exc.name} is missing)",
            hint=DATABRICKS_HINT,
        ) from None
    client = _workspace_client(endpoint.base_url, endpoint.api_key)

    def build(endpoint: Endpoint, name: str, options: _ClientOptions) -> BaseChatModel:
        extra: dict[str, Any] = {}
        if options.temperature is not None:
            extra["temperature"] = options.temperature
        if options.max_output_tokens is not None:
            extra["max_tokens"] = options.max_output_tokens
        model: BaseChatModel = ChatDatabricks(
            model=name,
            workspace_client=client,
            timeout=options.timeout_s,
            max_retries=0,
            **extra,
        )
        _pool_per_loop(model.async_client)  # type: ignore[attr-defined]
        return model

    return build


def _pool_per_loop(client: Any) -> None:
    """Give ChatDatabricks' OpenAI client a PerLoopTransport (see it for why).

    databricks-openai builds its httpx client internally with no transport argument, so
    the transport is swapped after the fact; if its layout changes, the default stays.
    """
    http = getattr(client, "_client", None)
    if isinstance(getattr(http, "_transport", None), httpx.AsyncBaseTransport):
        http._transport = PerLoopTransport()  # type: ignore[union-attr]


@lru_cache(maxsize=4)
def _workspace_client(host: str, token: str) -> Any:
    """A Databricks WorkspaceClient, its credential lookup bounded in time."""
    from databricks.sdk import WorkspaceClient

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = pool.submit(WorkspaceClient, host=host or None, token=token or None)
    try:
        return future.result(timeout=DATABRICKS_CONNECT_TIMEOUT_S)
    except concurrent.futures.TimeoutError:
        raise ConfigError(
            f"Databricks workspace {host or '(default profile)'} did not answer "
            f"within {DATABRICKS_CONNECT_TIMEOUT_S:.0f} s",
            hint="Check LONGDOC_BASE_URL (or DATABRICKS_HOST) and the network.",
        ) from None
    except Exception as exc:
        unset = "" if host and token else " (LONGDOC_BASE_URL and LONGDOC_API_KEY not both set)"
        raise ConfigError(
            f"Databricks credentials could not be resolved{unset}: {exc}"[:500],
            hint="Set LONGDOC_BASE_URL and LONGDOC_API_KEY (or DATABRICKS_HOST and "
            "DATABRICKS_TOKEN), or a Databricks config profile.",
        ) from None
    finally:
        pool.shutdown(wait=False)  # a hung lookup must not hold the caller


@lru_cache(maxsize=8)
def load_model_factory(spec: str) -> BaseChatModel:
    """Call the `module:function` named by LONGDOC_MODEL_FACTORY and check it made a chat model.

    Called once per process and spec, so every request of a server shares one model (and
    its connection pool), as with the providers' cached models.
    """
    module_name, _, attribute = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigError(
            f"LONGDOC_MODEL_FACTORY={spec!r} cannot be loaded: {exc}",
            hint="Name a function as module:function that returns a LangChain chat model.",
        ) from None
    model = factory()
    if not isinstance(model, BaseChatModel):
        raise ConfigError(f"{spec} returned a {type(model).__name__}, not a chat model")
    return model
