"""The headers every answer carries so that a browser holds the page to what it is.

- ``Content-Security-Policy``: scripts, styles, images and connections from this site
  alone (the page has no inline script, and its sockets are same-origin), no plugins, no
  ``<base>``, and no other site may frame it (``frame-ancestors``; ``X-Frame-Options`` for
  older browsers).  A name or chat line that slipped past the escaping still could not
  run a script.
- ``X-Content-Type-Options: nosniff``: a file is what its type says.
- ``Referrer-Policy: same-origin``: an invitation's table id does not leave the site.
- ``Cross-Origin-Opener-Policy: same-origin``: a window another site opened cannot reach
  the page.
- ``Strict-Transport-Security``, only when the request came over TLS (directly, or from
  a trusted proxy that says so): a browser that has been here over HTTPS stays on it.

FastAPI's own API explorer (``/docs``, ``/redoc``) loads its script from a CDN and runs
an inline one; it keeps every header but the policy.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.types import Message, Receive, Scope, Send

__all__ = ["POLICY", "SecurityHeaders"]

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
          "form-action 'self'; frame-ancestors 'none'")
EXPLORER = ("/docs", "/redoc")



class SecurityHeaders:
    """A pure ASGI middleware: adds the headers to every HTTP answer (one it already has
    is left as it is)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = [(b"x-content-type-options", b"nosniff"),
                 (b"referrer-policy", b"same-origin"),
                 (b"x-frame-options", b"DENY"),
                 (b"cross-origin-opener-policy", b"same-origin")]
        if not str(scope.get("path", "")).startswith(EXPLORER):
            added.append((b"content-security-policy", POLICY.encode()))
        if scope.get("scheme") == "https":
            added.append((b"strict-transport-security", b"max-age=31536000"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(item for item in added if item[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
