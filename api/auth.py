"""API-key auth for /v1 routes: `Authorization: Bearer <key>` or `X-API-Key: <key>`.

Each key is also an owner: threads made with a key are seen only with that key. The owner
stored is a hash of the key, never the key itself.
"""

from __future__ import annotations

import hashlib
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


def owner_id(key: str) -> str:
    """The id threads made with `key` are stored under: a hash, so the store holds no key."""
    return "key:" + hashlib.sha256(key.encode()).hexdigest()[:32]


def request_owner(request: Request) -> str | None:
    """Who owns the threads this request may see: its key's id, or None when auth is off."""
    owner: str | None = getattr(request.state, "owner", None)
    return owner


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
    request.state.owner = owner_id(given)
