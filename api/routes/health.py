"""GET /healthz (the process is up) and GET /readyz (it can serve: the thread store answers)."""

from __future__ import annotations

from fastapi import APIRouter, Request

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
