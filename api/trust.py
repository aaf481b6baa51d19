"""Which requests the API trusts: its own host names, and browser calls from its own page.

Without keys the API is open to anyone who can reach it, so by default it trusts only
loopback: a web page elsewhere that points a DNS name at 127.0.0.1 (DNS rebinding) sends
its own Host name, and a cross-origin form post carries its page's Origin. Both are
refused with 403 unless LONGDOC_ALLOWED_HOSTS / LONGDOC_ALLOWED_ORIGINS name them. CORS
is off unless origins are configured, so other pages cannot read the API's answers.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import error_body, status_of
from pipeline.config import Settings
from pipeline.errors import ForbiddenError

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def allowed_hosts(settings: Settings) -> frozenset[str] | None:
    """Host names to answer, lower case; None means any (`*`, or keys set and none named)."""
    named = _split(settings.allowed_hosts)
    if "*" in named or (not named and settings.api_keys.strip()):
        return None
    return frozenset(named) or LOOPBACK


def allowed_origins(settings: Settings) -> frozenset[str]:
    return frozenset(origin.rstrip("/") for origin in _split(settings.allowed_origins))


class TrustedRequests:
    """Refuses (403) a Host not in `hosts` and an Origin that is neither this server nor listed."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None, origins: frozenset[str]):
        self.app = app
        self.hosts = hosts
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        problem = self._problem(host, headers.get("origin"))
        if problem is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps(error_body(**problem.to_dict())).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status_of(problem),
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _problem(self, host: str, origin: str | None) -> ForbiddenError | None:
        name = _host_name(host)
        if self.hosts is not None and name not in self.hosts:
            return ForbiddenError(
                f"this server does not answer for the host {name or '(none)'!r}",
                hint="Call it by a name in LONGDOC_ALLOWED_HOSTS (default: loopback only "
                "while no API keys are set), or add this one there.",
            )
        # An Origin header comes from a browser; its own page's calls name this host.
        if origin is None or origin.rstrip("/") in self.origins:
            return None
        if urlsplit(origin).netloc.lower() == host.lower() and host:
            return None
        return ForbiddenError(
            f"requests from the web page at {origin[:100]!r} are not allowed",
            hint="Add its origin to LONGDOC_ALLOWED_ORIGINS to let that page call the API.",
        )


def _host_name(host: str) -> str:
    """`Example.com:8000` -> `example.com`, `[::1]:8000` -> `::1`."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _split(value: str) -> list[str]:
    return [part.strip().lower() for part in value.split(",") if part.strip()]
