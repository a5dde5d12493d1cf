"""The web table as one FastAPI app: ``create_app`` builds it, ``serve`` runs it.

The app is its settings, a lifespan that builds every service once (``services``: the
storage, the tables, the cluster, quick play, the analyses, every store, the limiter and
the signers; the endpoints are given them through ``Depends``, ``deps``), and one router
(``api``) made of each feature's part: ``health_api``, ``tables_api``, ``socket_api``,
``life_api`` (lobby, quick play, resign, leave), ``accounts``, ``ratings_api``,
``control_api`` (password, sessions, deletion, export), ``mail_api`` (reset by e-mail),
``moderation`` (reports, admins), ``learn_api``, ``protocol_api`` (the messages' schema),
``social_api`` (challenges, follows and blocks, the inbox, your move: docs/social.md)
and the page (``pagefiles``).  The endpoints, in short:

- ``GET /api/health`` (and ``/live``, ``/ready``), ``GET /metrics``, ``GET /api/games``
  (games, presets, player counts, rule options, bots)
- ``POST /api/tables`` (create), ``GET /api/tables`` (open tables), ``GET /api/tables/{id}``,
  ``POST /api/tables/{id}/join``, ``GET /api/tables/{id}/record`` (once over),
  ``GET /api/tables/{id}/log`` (every move so far, public: the page's move log),
  ``GET /api/tables/{id}/replay`` (once over: the table at every step, every hand shown),
  ``GET /api/history`` (finished games)
- ``WS /ws/tables/{id}`` offering the subprotocol ``cardtable.key.T`` (none: watch); messages
  in ``cardtable.server.core.wire``
- ``/`` and ``/table/{id}``: the page (``static/index.html``); the rest of ``static/``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import mimetypes
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, FastAPI

from ... import __version__
from ..core.border import TextBorder
from ..core.clock import Clock
from ..core.settings import ServerSettings
from ..people.control import keep_sweeping
from ..people.words import check_file
from ..play.analyses import Analyses
from ..play.quickplay import LocalTickets, QuickPlay, RedisTickets
from ..play.tables import Tables
from ..play.tournaments import Director
from ..store.backup import serving
from ..store.storage import Storage, sqlite_url
from ..store.tournaments import TournamentStore
from .accounts import router as accounts_router
from .accounts import same_site_only
from .assets import PageAssets
from .collector import quiet_collector
from .control_api import router as control_router
from .errors import install as install_errors
from .headers import SecurityHeaders
from .health_api import router as health_router
from .jsonlog import RequestIds, json_logs
from .learn_api import router as learn_router
from .life_api import router as life_router
from .logsafe import redact_logs
from .mail_api import router as mail_router
from .moderation import BannedAddresses
from .moderation import router as moderation_router
from .pagefiles import PageFiles
from .pagefiles import router as page_router
from .preflight import first_problem
from .protocol_api import router as protocol_router
from .ratings_api import router as ratings_router
from .services import Services
from .social_api import router as social_router
from .socket_api import router as socket_router
from .spec import install as state_rules
from .tables_api import games_of, playable
from .tables_api import router as tables_router
from .tournaments_api import router as tournaments_router

if TYPE_CHECKING:
    import uvicorn

__all__ = ["create_app", "drain", "serve"]

log = logging.getLogger("cardtable.server")

STATIC = Path(__file__).resolve().parent.parent / "static"

for _type, _suffixes in (("text/javascript", (".js", ".mjs")), ("text/css", (".css",)),
                         ("image/svg+xml", (".svg",)), ("application/json", (".json", ".map")),
                         ("application/manifest+json", (".webmanifest",)),
                         ("font/woff2", (".woff2",)), ("text/html", (".html",))):
    for _suffix in _suffixes:
        mimetypes.add_type(_type, _suffix)


def create_app(settings: ServerSettings | None = None, *, clock: Clock | None = None,
               static_dir: str | Path | None = None, **fields: Any) -> FastAPI:
    """The web table as an ASGI app.

    ``settings`` is the one object every part reads (``cardtable.server.core.settings``); by
    default it is read from the environment and ``.env`` like ``cardtable serve``'s, and
    ``fields`` change single settings (``create_app(data_dir=..., bot_delay=0)``; a name
    that is no setting is a ``TypeError``, a value out of bounds pydantic's
    ``ValidationError``).  The database defaults to SQLite at
    ``data_dir/cardtable.sqlite3``; the schema is migrated and every unfinished table is
    resumed when the app starts (its lifespan).  With a Redis URL several processes share
    the database: each table is played by one of them (a lease) and the others relay its
    players (``cardtable.server.cluster.relay``).  ``clock`` is what every clock, grace and
    wait of the tables reads (a test's ``clock.FakeClock``); ``static_dir`` replaces the
    page's files (tests).
    """
    unknown = sorted(set(fields) - set(ServerSettings.model_fields))
    if unknown:
        raise TypeError(f"create_app() got settings it does not have: {', '.join(unknown)}")
    if settings is None:
        settings = ServerSettings(**fields)
    elif fields:
        settings = ServerSettings(**{**dict(settings), **fields})
    chosen = settings
    data_dir = chosen.data_dir
    url = chosen.revealed("database_url") or sqlite_url(data_dir)
    redis_url = chosen.revealed("redis_url")
    static = Path(static_dir) if static_dir is not None else STATIC
    check_file(chosen.word_list)   # a word list that cannot be read stops the start

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        with serving(url):   # restore refuses while this server runs on the SQLite file
            async with _running(app):
                yield

    @contextlib.asynccontextmanager
    async def _running(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(url, threads=chosen.storage_threads)
        # every asyncio.to_thread of the server is a database call (bots think in threads
        # or processes of their own): the loop's default threads are the storage's, which
        # no bot can hold up
        asyncio.get_running_loop().set_default_executor(storage.executor)
        await asyncio.to_thread(storage.migrate)
        tables = Tables(storage, chosen, clock=clock)
        app.state.storage = storage
        app.state.tables = tables
        cluster = app.state.cluster = None
        if redis_url:
            from ..cluster.relay import Cluster

            cluster = app.state.cluster = tables.cluster = Cluster(
                redis_url, tables, prefix=chosen.redis_prefix, lease=chosen.lease,
                pool_size=chosen.redis_pool_size, pool_timeout=chosen.redis_pool_timeout)
            await cluster.start()
        await tables.start()
        tables.spawn(keep_sweeping(storage, chosen, tables.clock))   # what is kept no longer
        await app.state.analyses.import_folder()  # an earlier version's files, read in
        tickets = (LocalTickets() if cluster is None
                   else RedisTickets(cluster.redis, chosen.redis_prefix))
        app.state.quickplay = QuickPlay(tables, tickets, poll_timeout=chosen.quick_play_poll)
        app.state.services = await Services.build(chosen, storage, tables, app.state.quickplay,
                                                  app.state.analyses, cluster)
        app.state.quickplay.start()
        tables.spawn(app.state.services.digests.keep_sending())   # the inbox's daily mail
        app.state.director = Director(tables, TournamentStore(storage))
        app.state.director.start()
        try:
            yield
        finally:
            app.state.services.notices.close()   # the inbox's held answers come now
            await asyncio.sleep(0)
            await tables.stop()
            app.state.analyses.close()
            if cluster is not None:
                await cluster.stop()
            storage.close()

    app = FastAPI(title="cardtable", version=__version__, lifespan=lifespan,
                  description=f"{_titles()} at a web table: lobby, tables with "
                              "friends and bots, live play over a WebSocket, records.")
    app.state.static = static
    # the page's files bundled, hashed, gzipped; the games it offers in the page itself
    app.state.page_files = PageAssets(static, head=lambda: games_script(chosen))
    app.state.settings = chosen
    app.state.draining = False   # while it stops: /api/health/ready answers 503
    install_errors(app)
    state_rules(app)   # /openapi.json says what the border and the names' rules refuse
    app.middleware("http")(same_site_only)   # a cookie's request from another site: 403
    app.state.analyses = Analyses(Path(data_dir) / "analysis", lambda: app.state.storage,
                                  seconds=chosen.analysis_seconds)
    app.include_router(api())
    app.mount("/", PageFiles(directory=static, html=True, check_dir=False), name="static")
    app.add_middleware(BannedAddresses)   # a banned address reaches no endpoint
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestIds)   # a request id and the table for every line logged
    # outermost: no endpoint, middleware or database sees a NUL or an unbounded body
    app.add_middleware(TextBorder, max_body=chosen.max_body_bytes)
    return app


def api() -> APIRouter:
    """Every endpoint of the site in one router; each feature's module holds its part."""
    router = APIRouter()
    for part in (health_router, tables_router, socket_router, life_router, protocol_router,
                 page_router, accounts_router, ratings_router, control_router, mail_router,
                 moderation_router, learn_router, social_router, tournaments_router):
        router.include_router(part)
    return router


def games_script(settings: ServerSettings) -> str:
    """``/api/games`` as a data block of the page (the lobby draws without asking)."""
    games = json.dumps([game.model_dump(mode="json") for game in games_of(settings)],
                       ensure_ascii=False, separators=(",", ":"))
    safe = games.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="games-data">{safe}</script>\n'


def _titles() -> str:
    """The games' titles as one phrase ("A, B and C"), for the API's description."""
    titles = [spec.title for spec in playable()]
    return " and ".join(filter(None, [", ".join(titles[:-1]), *titles[-1:]])) or "Card games"


def serve(settings: ServerSettings | None = None, **fields: Any) -> None:
    """Run the web table with uvicorn until interrupted (``settings`` and ``fields`` as
    ``create_app``'s).  ``X-Forwarded-For`` is believed only from ``trusted_proxies``
    (comma-separated addresses or networks; none by default): from anyone else it is a
    header like any other, and the per-address limits count the address a client
    connects from.  What a connection may hold before its request is read (the timeouts,
    the headers' size, connections per peer address) is ``web.sockets``'s."""
    import ipaddress

    import uvicorn

    from .sockets import Guard, PeerCounter, announce_file_limit, guarded, websocket_protocol

    app = create_app(settings, **fields)
    chosen: ServerSettings = app.state.settings
    problem = first_problem(chosen)
    if problem is not None:
        raise SystemExit(problem)   # one sentence on stderr, exit status 1
    trusted_proxies, log_level = chosen.trusted_proxies, chosen.log_level
    trusted = tuple(ipaddress.ip_network(item, strict=False)
                    for item in trusted_proxies.split(",") if item)
    peers = PeerCounter(chosen.connections_per_peer, trusted)
    guard = Guard(header_timeout=chosen.header_timeout, body_timeout=chosen.body_timeout,
                  max_header_bytes=chosen.max_header_bytes, peers=peers)
    # a WebSocket frame bigger than a message can be is not even read (closed with 1009);
    # no per-message compression: deflating every state costs more CPU than the bytes it
    # saves on messages of a kilobyte or two
    config = uvicorn.Config(app, host=chosen.host, port=chosen.port, log_level=log_level,
                            http=guarded(guard), ws=websocket_protocol(peers),
                            ws_max_size=chosen.ws_max_bytes,
                            ws_per_message_deflate=False,
                            # after the drain, what still runs has this long to finish
                            timeout_graceful_shutdown=math.ceil(chosen.drain_timeout),
                            proxy_headers=bool(trusted_proxies),
                            forwarded_allow_ips=trusted_proxies or None)
    if chosen.log_format == "json":
        json_logs()   # one JSON object a line, with the table and the request
    redact_logs()   # seat tokens and quick-play tickets are in URLs uvicorn logs
    # the table's own messages (tables resumed, bots cut off, leases lost) go where
    # uvicorn's go
    ours = logging.getLogger("cardtable")
    ours.handlers = list(logging.getLogger("uvicorn").handlers)
    ours.setLevel(log_level.upper())
    ours.propagate = False
    announce_file_limit(log)
    server = _draining_server(app, chosen.drain_timeout)(config)
    quiet_collector()
    server.run()


RESTARTING = "the server is restarting: connect again in a moment"


async def drain(app: FastAPI) -> int:
    """A stopping process (SIGTERM) lets go of its tables before it closes: it is not ready
    any more (``/api/health/ready`` 503), every move it acknowledged is stored, and every
    table it plays is handed off (with Redis, its lease released at once, so that another
    process takes it on the first reconnect) and its sockets closed with 1012, so that the
    pages connect again at once.  Returns how many tables it handed off."""
    app.state.draining = True
    tables: Tables | None = getattr(app.state, "tables", None)
    if tables is None:
        return 0
    cluster = getattr(app.state, "cluster", None)
    count = await (cluster.hand_off_all() if cluster is not None else tables.drain(RESTARTING))
    log.info("stopping: handed off %d tables", count)
    return count


def _draining_server(app: FastAPI, timeout: float) -> type[uvicorn.Server]:
    """uvicorn's server, which on SIGTERM first stops listening (so that a proxy sends new
    connections to the other processes), then drains the app (``drain``), then shuts down
    as uvicorn does."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            for server in self.servers:
                server.close()
            for sock in sockets or []:
                sock.close()
            try:
                await asyncio.wait_for(drain(app), timeout)
            except Exception:   # a drain cut short: the leases run out by themselves
                log.exception("stopping: the tables could not all be handed off")
            await super().shutdown(sockets)

    return DrainingServer


