"""GET /: the web page (api/static: plain HTML, CSS and JavaScript, no build step, no CDN)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent.parent / "static"

# The page loads nothing from anywhere but this server, and the browser enforces it.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> FileResponse:
    """The page itself; it calls the /v1 API, which asks for a key when the server has keys."""
    return FileResponse(
        STATIC / "index.html",
        headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"},
    )


def install(app: FastAPI) -> None:
    """Serve the page at / and its CSS and JavaScript under /static (no API key needed)."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
