"""API-key auth for /v1 routes: `Authorization: Bearer <key>` or `X-API-Key: <key>`."""

from __future__ import annotations

import hmac

from fastapi import Request

from pipeline.config import Settings
from pipeline.errors import UnauthorizedError


def api_keys(settings: Settings) -> list[bytes]:
    """The accepted keys; none means auth is off."""
    return [key.strip().encode() for key in settings.api_keys.split(",") if key.strip()]


def key_matches(given: str, keys: list[bytes]) -> bool:
    """Constant-time check against every key: no early exit, so timing tells nothing."""
    candidate = given.encode()
    matched = False
    for key in keys:
        matched |= hmac.compare_digest(candidate, key)
    return matched


async def require_api_key(request: Request) -> None:
    """FastAPI dependency: passes when auth is off or a valid key is sent, else 401."""
    keys: list[bytes] = request.app.state.api_keys
    if not keys:
        return
    given = request.headers.get("x-api-key", "")
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        given = token.strip()
    if not given:
        raise UnauthorizedError("this API needs an API key")
    if not key_matches(given, keys):
        raise UnauthorizedError("the API key is not valid")
