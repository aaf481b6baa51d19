"""The process's Limiters, one per provider endpoint, model and key, and who reports to them.

Every request of the process shares them: a server handling 20 requests at once on one
key keeps one limit for that key, not 20. The map and reduce models get one each when
they differ (providers limit each model on its own), and an embeddings model its own.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatGeneration, LLMResult
from pydantic import SecretStr

from pipeline.config import Settings
from pipeline.engines.llm.limiter import Limiter, LimiterStats
from pipeline.engines.llm.signals import read_signal

_URL_FIELDS = ("openai_api_base", "base_url", "endpoint_url", "host", "url")
_NAME_FIELDS = ("model_name", "model", "endpoint", "model_id")
_KEY_FIELDS = ("openai_api_key", "api_key", "token")


@dataclass(frozen=True)
class EndpointKey:
    """What a provider limits by: where the calls go, which model, with which key."""

    url: str
    model: str
    key_hash: str
    """A short hash, so the key itself is never kept or shown."""


_lock = threading.Lock()
_limiters: dict[EndpointKey, Limiter] = {}


def endpoint_key(model: BaseChatModel | Embeddings) -> EndpointKey:
    """The endpoint a model's calls go to, read from the usual fields of LangChain models.

    A model that names neither a URL nor a key (a custom class) is its own endpoint.
    """
    url = _first(model, _URL_FIELDS) or ""
    name = _first(model, _NAME_FIELDS) or type(model).__name__
    secret = next((v for f in _KEY_FIELDS if (v := getattr(model, f, None)) is not None), None)
    key = secret.get_secret_value() if isinstance(secret, SecretStr) else str(secret or "")
    if not url and not key:
        url = f"{type(model).__module__}.{type(model).__qualname__}#{id(model)}"
    return EndpointKey(url.rstrip("/"), name, hashlib.sha256(key.encode()).hexdigest()[:8])


def limiter_for(model: BaseChatModel | Embeddings, settings: Settings) -> Limiter:
    """The process's Limiter for `model`'s endpoint, under `settings`' ceiling and budget."""
    key = endpoint_key(model)
    with _lock:
        limiter = _limiters.get(key)
        if limiter is None:
            limiter = _limiters[key] = Limiter(
                settings.max_concurrency,
                name=key.model,
                tokens_per_minute=settings.tokens_per_minute,
            )
            if "#" in key.url:  # keyed by id(model): forget it with the model, as ids recur
                weakref.finalize(model, _forget, key)
            return limiter
    limiter.configure(settings.max_concurrency, settings.tokens_per_minute)
    return limiter


def all_limiters() -> list[tuple[EndpointKey, LimiterStats]]:
    """Every endpoint this process has called, with its limiter's state, for /metrics."""
    with _lock:
        entries = list(_limiters.items())
    return [(key, limiter.stats()) for key, limiter in entries]


def _forget(key: EndpointKey) -> None:
    with _lock:
        _limiters.pop(key, None)


def forget_limiters() -> None:
    """Drop every learned limit (tests start from a fresh process's state)."""
    with _lock:
        _limiters.clear()


class HeaderWatch(BaseCallbackHandler):
    """Hands the x-ratelimit headers of each successful reply to the endpoint's Limiter.

    ChatOpenAI puts them in the message's `response_metadata["headers"]` when built with
    `include_response_headers=True` (providers.py does); other models that do the same
    are read too.
    """

    run_inline = True

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        generation = response.generations[0][0] if response.generations else None
        if isinstance(generation, ChatGeneration):
            headers = generation.message.response_metadata.get("headers")
            if isinstance(headers, dict):
                self.limiter.observe(read_signal(headers))


def _first(model: BaseChatModel | Embeddings, fields: tuple[str, ...]) -> str | None:
    for field in fields:
        value = getattr(model, field, None)
        if isinstance(value, str) and value:
            return value
    return None
