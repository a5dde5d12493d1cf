"""The web table: a FastAPI app with a lobby API, live tables over WebSockets, and storage.

Start it with ``cardtable serve`` or ``python -m cardtable.server``, or in Python::

    from cardtable.server import serve
    serve(host="127.0.0.1", port=8000, data_dir="data")

Running it, the API and the message formats are described in ``docs/server.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .web.app import create_app, serve

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> object:
    # the app (FastAPI, SQLAlchemy) is imported when first asked for, so that a bot
    # process, which needs only the engine, starts quickly
    if name in __all__:
        from .web import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
