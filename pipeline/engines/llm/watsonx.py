"""The watsonx provider: ChatWatsonx models on IBM watsonx.ai, built with the SDK's retries off.

`ChatWatsonx(url=..., api_key=...)` builds its own SDK client, which retries twice over:
an httpx transport retries 401 and 5xx three times (hard-coded), and a decorator retries
429, 503, 504 and 520 ten times. Under longdoc's own retries (calls.py) one failing call
would become up to 4 x 4 x 11 = 176 requests. So the SDK client is built here with plain
httpx clients (no retry transport) and `ModelInference(max_retries=0,
retry_status_codes=[])`, and ChatWatsonx only wraps it. Building it exchanges the API key
for a token and checks the project (or space) and the model name: blocking requests, done
once per configuration (the provider caches the models) and before any document is read.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import httpx
from langchain_core.language_models import BaseChatModel

from pipeline.config import Settings
from pipeline.engines.llm.calls import is_retryable
from pipeline.errors import ConfigError, ModelError

WATSONX_HINT = "pip install 'longdoc[watsonx]'"
CONNECT_TIMEOUT_S = 10.0

# Every error the SDK builds logs itself at WARNING, body included, before longdoc decides
# whether to retry it: a retried 429 would print a warning each time. longdoc reports the
# error once (ModelError, or a failed chunk) instead.
_SDK_ERROR_LOGGER = "ibm_watsonx_ai.wml_client_error"

WatsonxModel = Callable[[str, float | None, int | None], BaseChatModel]
"""Builds the ChatWatsonx of one model id, with a temperature and an output-token cap."""


@dataclass(frozen=True)
class WatsonxScope:
    """What a watsonx.ai request needs besides the URL and key: where it runs and signs in."""

    project_id: str
    space_id: str
    auth_url: str
    platform_url: str


def watsonx_scope(
    settings: Settings, environ: Mapping[str, str], url: str, key: str
) -> WatsonxScope:
    """The project or space, checked with the URL and key; ConfigError naming what is missing."""
    if not url:
        raise ConfigError(
            "LONGDOC_BASE_URL is not set (nor WATSONX_URL): the watsonx provider needs the "
            "URL of its region",
            hint="e.g. LONGDOC_BASE_URL=https://us-south.ml.cloud.ibm.com (see .env.example).",
        )
    if not url.startswith("https://"):
        raise ConfigError(
            f"LONGDOC_BASE_URL must start with https:// for watsonx, not {url!r}",
            hint="watsonx.ai is only served over HTTPS, e.g. https://us-south.ml.cloud.ibm.com.",
        )
    if not key:
        raise ConfigError(
            "LONGDOC_API_KEY is not set (nor WATSONX_API_KEY): the watsonx provider needs an "
            "IBM Cloud API key",
            hint="Create one under Manage > Access (IAM) > API keys in IBM Cloud.",
        )
    project = settings.watsonx_project_id or environ.get("WATSONX_PROJECT_ID", "")
    space = settings.watsonx_space_id or environ.get("WATSONX_SPACE_ID", "")
    if not project and not space:
        raise ConfigError(
            "LONGDOC_WATSONX_PROJECT_ID is not set (nor WATSONX_PROJECT_ID, or a space id): "
            "watsonx.ai bills every call to a project or a deployment space",
            hint="Copy the project id from the project's Manage tab in watsonx.ai.",
        )
    if project and space:
        raise ConfigError(
            "both a watsonx project id and a space id are set; give only one",
            hint="Unset LONGDOC_WATSONX_SPACE_ID (or WATSONX_SPACE_ID) to run in the project.",
        )
    for name, value in (
        ("AUTH", settings.watsonx_auth_url),
        ("PLATFORM", settings.watsonx_platform_url),
    ):
        if value and not value.startswith("https://"):
            raise ConfigError(f"LONGDOC_WATSONX_{name}_URL must start with https://, not {value!r}")
    return WatsonxScope(project, space, settings.watsonx_auth_url, settings.watsonx_platform_url)


def watsonx_models(
    url: str,
    api_key: str,
    scope: WatsonxScope,
    timeout_s: float,
    async_transport: httpx.AsyncBaseTransport,
) -> WatsonxModel:
    """A builder of ChatWatsonx models sharing one signed-in SDK client (blocking: network).

    `async_transport` carries the async requests (the provider's per-event-loop pool).
    TLS is verified as httpx does by default; SSL_CERT_FILE names a private CA bundle.
    """
    try:
        from ibm_watsonx_ai import APIClient, Credentials
        from ibm_watsonx_ai.foundation_models import ModelInference
        from langchain_ibm import ChatWatsonx
    except ImportError as exc:
        raise ConfigError(
            f"the watsonx provider needs the watsonx extra ({exc.name} is missing)",
            hint=WATSONX_HINT,
        ) from None
    logging.getLogger(_SDK_ERROR_LOGGER).setLevel(logging.ERROR)
    timeout = httpx.Timeout(timeout_s, connect=min(timeout_s, CONNECT_TIMEOUT_S))
    credentials = Credentials(
        url=url,
        api_key=api_key,
        auth_url=scope.auth_url or None,
        platform_url=scope.platform_url or None,
    )
    client = _signed_in(
        lambda: APIClient(
            credentials=credentials,
            project_id=scope.project_id or None,
            space_id=scope.space_id or None,
            # Only sign-in and the start-up checks use it: no idle connection outlives them.
            httpx_client=httpx.Client(
                timeout=timeout, limits=httpx.Limits(max_keepalive_connections=0)
            ),
            async_httpx_client=httpx.AsyncClient(transport=async_transport, timeout=timeout),
        ),
        url,
        scope,
    )
    _renew_tokens_per_loop(client)

    def build(name: str, temperature: float | None, max_output_tokens: int | None) -> BaseChatModel:
        params: dict[str, Any] = {}
        if temperature is not None:
            params["temperature"] = temperature
        if max_output_tokens is not None:
            params["max_completion_tokens"] = max_output_tokens
        # Generation parameters go here: ChatWatsonx(watsonx_model=...) takes them from
        # the model and silently drops its own.
        model = _signed_in(
            lambda: ModelInference(
                model_id=name,
                api_client=client,
                params=params or None,
                validate=True,  # an unknown model id fails now, not on the first chunk
                max_retries=0,
                retry_status_codes=[],  # not None: None falls back to the SDK's defaults
            ),
            url,
            scope,
            model=name,
        )
        chat: BaseChatModel = ChatWatsonx(watsonx_model=model)
        return chat

    return build


class PerLoopLock:
    """An asyncio.Lock for each event loop, held with `async with` like one lock.

    The SDK guards token renewal with one asyncio.Lock made when the client is built. A
    lock waited on in one loop is bound to it, and `ask()` runs each call in a new loop:
    the next renewal that calls race for would fail with "bound to a different event
    loop" (every chunk of that run, once a token neared its end). Loops never share a
    waiter, so one lock per loop guards the same thing.
    """

    def __init__(self) -> None:
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    def _lock(self) -> asyncio.Lock:
        return self._locks.setdefault(asyncio.get_running_loop(), asyncio.Lock())

    async def __aenter__(self) -> None:
        await self._lock().acquire()

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._lock().release()


def _renew_tokens_per_loop(client: Any) -> None:
    """Swap the SDK's token-renewal lock for a PerLoopLock; if its layout changes, keep it."""
    auth = getattr(client, "_auth_method", None)
    if isinstance(getattr(auth, "_async_lock", None), asyncio.Lock):
        auth._async_lock = PerLoopLock()  # type: ignore[union-attr]


def _signed_in(make: Callable[[], Any], url: str, scope: WatsonxScope, model: str = "") -> Any:
    """Run an SDK constructor, turning its failures into errors that name the setting."""
    from ibm_watsonx_ai.wml_client_error import InvalidCredentialsError, WMLClientError

    try:
        return make()
    except InvalidCredentialsError as exc:
        raise ConfigError(
            f"watsonx.ai refused the API key: {exc}"[:400],
            hint="Check LONGDOC_API_KEY (or WATSONX_API_KEY) and LONGDOC_BASE_URL's region.",
        ) from None
    except httpx.TransportError as exc:
        raise ModelError(
            f"watsonx.ai at {url} could not be reached: {type(exc).__name__}: {exc}"[:400],
            hint="Check LONGDOC_BASE_URL (or WATSONX_URL) and the network.",
        ) from None
    except WMLClientError as exc:
        if is_retryable(exc):  # a 429 or 5xx: the service is busy or down, not the settings
            raise ModelError(f"watsonx.ai at {url} failed while starting: {exc}"[:500]) from None
        raise ConfigError(
            _refusal(str(exc), scope, model)[:500], hint=_hint(scope, model)
        ) from None


def _refusal(detail: str, scope: WatsonxScope, model: str) -> str:
    if model:
        return f"watsonx.ai cannot serve the model {model!r} (LONGDOC_MODEL): {detail}"
    where = f"project {scope.project_id}" if scope.project_id else f"space {scope.space_id}"
    return f"watsonx.ai refused the {where}: {detail}"


def _hint(scope: WatsonxScope, model: str) -> str:
    if model:
        return (
            "Set LONGDOC_MODEL (or LONGDOC_MAP_MODEL / LONGDOC_REDUCE_MODEL) to a model id "
            "listed in watsonx.ai, e.g. ibm/granite-3-3-8b-instruct."
        )
    if scope.project_id:
        return "Check LONGDOC_WATSONX_PROJECT_ID (or WATSONX_PROJECT_ID) and the key's access."
    return "Check LONGDOC_WATSONX_SPACE_ID (or WATSONX_SPACE_ID) and the key's access."
