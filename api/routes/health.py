"""GET /healthz (the process is up), /readyz (the thread store answers), /metrics (Prometheus)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse

from api import metrics
from api.bodies import Health
from api.errors import documented
from pipeline import errors
from pipeline.config import Settings
from pipeline.threads import acheck_checkpointer

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, summary="The process is up")
async def healthz() -> Health:
    return Health(status="ok")


@router.get(
    "/readyz",
    response_model=Health,
    responses=documented({errors.StorageError: "The thread store is unreachable."}),
    summary="The service can take requests",
)
async def readyz(request: Request) -> Health:
    settings: Settings = request.app.state.settings
    await acheck_checkpointer(settings)  # raises StorageError (503) when unreachable
    return Health(status="ok")


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    summary="Model endpoint limits, 429s and waits, in Prometheus text format",
    responses={200: {"content": {"text/plain": {}}}},
)
async def metrics_text() -> PlainTextResponse:
    return PlainTextResponse(metrics.render(), media_type=metrics.CONTENT_TYPE)
