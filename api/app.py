"""The FastAPI app factory: settings and model in, routes, auth, limits and error mapping wired."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.utils import get_openapi
from fastapi_offline import FastAPIOffline
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from api import errors
from api.auth import api_keys, require_api_key
from api.bodies import (
    AskForm,
    AskRequest,
    MessageForm,
    MessageRequest,
    Options,
    SummarizeForm,
    SummarizeRequest,
)
from api.disconnect import CancelOnDisconnect
from api.limits import Admission, BodyLimit, Pace, max_body_bytes
from api.routes import documents, health, page, threads
from api.trust import TrustedRequests, allowed_hosts, allowed_origins
from pipeline.config import Settings
from pipeline.engines.extractive import readers
from pipeline.engines.extractive.engine import ExtractiveEngine
from pipeline.engines.factory import make_engine
from pipeline.engines.llm.embeddings import embedder

DESCRIPTION = """Ask questions of long documents and summarize them, with citations that are
exact character spans (and pages, for PDFs) of the source.

Send documents as JSON text or as uploaded files (text, Markdown, HTML, PDF, Word, EPUB,
man pages, POD). Add `Accept: text/event-stream` to get progress as server-sent events.
When the server has API keys set, send `Authorization: Bearer <key>` or `X-API-Key: <key>`.
Every error is `{"error": {"code", "message", "hint"}}`."""

# Schemas only referenced from hand-written request bodies (JSON or multipart on one route).
_BODY_MODELS = (
    AskRequest,
    AskForm,
    SummarizeRequest,
    SummarizeForm,
    MessageRequest,
    MessageForm,
    Options,
)


def create_app(
    settings: Settings | None = None,
    *,
    model: BaseChatModel | None = None,
    embeddings: Embeddings | None = None,
) -> FastAPI:
    """The API app; `model=None` reads with the engine the settings choose, and
    `embeddings=None` recalls with the embeddings they choose (or lexically only)."""
    settings = settings or Settings()
    # FastAPI's /docs and /redoc load their scripts from a CDN; these serve them from here.
    app = FastAPIOffline(
        title="longdoc", version=version("longdoc"), description=DESCRIPTION, lifespan=_lifespan
    )
    app.state.settings = settings
    app.state.model = model
    app.state.embeddings = embeddings
    app.state.api_keys = api_keys(settings)
    app.state.admission = Admission(settings.max_queued_requests)
    errors.install(app)
    # Outermost last: trust (host, origin), then CORS, then each request in a task that a
    # disconnect cancels, then the body's size and pace, then the routes.
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes(settings), pace=Pace.of(settings))
    app.add_middleware(CancelOnDisconnect)
    origins = allowed_origins(settings)
    if origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=sorted(origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type", "Accept"],
            expose_headers=["Retry-After"],
        )
    app.add_middleware(TrustedRequests, hosts=allowed_hosts(settings), origins=origins)
    app.include_router(health.router)
    app.include_router(documents.router, dependencies=[Depends(require_api_key)])
    app.include_router(threads.router, dependencies=[Depends(require_api_key)])
    page.install(app)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The server's life: its reader workers stop when it does. uvicorn ends a server told
    to stop (SIGTERM) by that signal once the app has shut down, so no exit hook runs, and
    workers left running would outlive it with their fork server."""
    yield
    readers.stop()


def create_app_from_env() -> FastAPI:
    """The app `longdoc serve` runs: Settings (and LONGDOC_MODEL_FACTORY) from LONGDOC_*.

    The engine and embeddings are built once here so a bad provider setting stops the
    server at startup with its ConfigError, instead of failing every request later.
    """
    settings = Settings()
    engine = make_engine(None, settings)
    embedder(settings)
    if isinstance(engine, ExtractiveEngine):  # its readers start now, not on a long document
        readers.warm(settings.reader_processes)
    return create_app(settings)


def _openapi(app: FastAPI) -> dict[str, Any]:
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for body_model in _BODY_MODELS:
        body_schema = body_model.model_json_schema(ref_template="#/components/schemas/{model}")
        components.update(body_schema.pop("$defs", {}))
        components[body_model.__name__] = body_schema
    security = {"type": "http", "scheme": "bearer", "description": "An API key as a Bearer token."}
    schema["components"]["securitySchemes"] = {
        "bearer": security,
        "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    }
    app.openapi_schema = schema
    return schema
