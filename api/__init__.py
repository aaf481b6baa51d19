"""longdoc's HTTP API: `create_app(settings, model=...)` builds the FastAPI app."""

from api.app import create_app

__all__ = ["create_app"]
