"""The server's settings: one pydantic-settings model, read from flags, the environment
and a ``.env`` file, in that order of precedence.

Every setting is a field with a type, a default, a bound and a line of help: how the
server runs (here), the limits on what clients may ask (``bounds.Limits``) and on how
often people may sign in and chat (``bounds.PlayerLimits``) and how accounts are kept
(``account_settings.AccountSettings``), which ``ServerSettings`` inherits, so that one
object, built once, is what the app, the tables and every check read.  The flags of
``cardtable serve`` and ``python -m cardtable.server`` (the same command) are made from
the fields, each also given as ``CARDTABLE_<NAME>`` in the environment or in ``.env``;
docs/server.md's tables of them are ``table()``'s text (a test keeps the two the same).

>>> ServerSettings(port=8080).port, ServerSettings().data_dir
(8080, PosixPath('data'))
>>> ServerSettings(database_url="postgresql+psycopg://u:pw@db/ct").database_url
SecretStr('**********')
>>> ServerSettings(rule_bounds="target=500", bots="random,easy").bots
('random', 'easy')
"""

from __future__ import annotations

import argparse
import ipaddress
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .account_settings import AccountSettings
from .bounds import Limits, PlayerLimits

__all__ = ["ENV_PREFIX", "GROUPS", "ServerSettings", "add_flags", "from_flags", "table"]

ENV_PREFIX = "CARDTABLE_"

class ServerSettings(BaseSettings, Limits, PlayerLimits, AccountSettings):
    """How the web table runs, with every limit on its clients."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_file=".env",
                                      env_file_encoding="utf-8", extra="ignore",
                                      frozen=True)

    host: str = Field("127.0.0.1", min_length=1, max_length=255,
                      description="the address to listen on (0.0.0.0: every interface)")
    port: int = Field(8000, ge=1, le=65535, description="the port to listen on")
    data_dir: Path = Field(Path("data"), description="the folder of the SQLite database "
                           "(DATA_DIR/cardtable.sqlite3) and of the analyses")
    database_url: SecretStr | None = Field(None, description="an SQLAlchemy URL, e.g. "
                                           "postgresql+psycopg://user@host/db (none: SQLite "
                                           "in the data folder); never printed")
    redis_url: SecretStr | None = Field(None, description="redis://host:port/db: join several "
                                        "server processes; never printed")
    redis_prefix: str = Field("cardtable", min_length=1, max_length=64, pattern=r"^[\w.:-]+$",
                              description="with Redis: the prefix of its keys and channels")
    lease: float = Field(15.0, ge=2, le=3600, description="with Redis: seconds a process "
                         "holds a table without renewing (at least 2: a shorter lease is "
                         "lost to one slow answer of Redis, and its tables change hands)")
    route_by_table: bool = Field(False, description="with Redis, behind a proxy that sends "
                                 "each table's players to one process (deploy/nginx): a "
                                 "process a player connects to takes the table over from "
                                 "its owner rather than relaying")
    ring: str = Field("", max_length=4000, description="with route_by_table: the proxy's "
                      "upstream servers as its configuration lists them (host:port, "
                      "comma-separated): new tables get ids the proxy sends to this process")
    ring_address: str = Field("", max_length=255, description="with ring: this process's "
                              "host:port among them")
    drain_timeout: float = Field(10.0, gt=0, le=600, description="seconds a stopping process "
                                 "(SIGTERM) gives its tables to store what it acknowledged "
                                 "and hand themselves over before it closes what is left")
    redis_pool_size: int = Field(20, ge=2, le=10_000, description="with Redis: connections a "
                                 "process opens to it at most (one listens)")
    redis_pool_timeout: float = Field(5.0, gt=0, le=600, description="with Redis: seconds a "
                                      "call waits for a free connection before it fails (503)")
    bot_delay: float = Field(0.8, ge=0, le=3600, description="seconds a bot waits before it "
                             "plays, so people can follow")
    grace: float = Field(60.0, ge=0, le=86_400, description="seconds a dropped player keeps "
                         "the seat before a takeover bot may play")
    bot_processes: int = Field(0, ge=0, le=256, description="bots think in this many "
                               "processes of their own (0: threads of the server)")
    bot_threads: int = Field(4, ge=1, le=256, description="without bot processes, the "
                             "threads bots think in (never the database's)")
    bot_time_limit: float = Field(30.0, gt=0, le=3600, description="seconds a bot may think: "
                                  "its search stops there (a random legal move past it)")
    commit_window: float = Field(0.0, ge=0, le=0.05, description="seconds the move writer "
                                 "waits after a move for more to commit with it: one "
                                 "transaction for more moves, a move answered that much "
                                 "later (several processes: 0.002)")
    storage_threads: int = Field(8, ge=1, le=256, description="threads for the database "
                                 "calls alone (bots never hold up storage)")
    claim_grace: float = Field(120.0, ge=0, le=86_400, description="seconds a seat taken but "
                               "never connected to is held before it is free again")
    storage_retry_max: float = Field(5.0, gt=0, le=600, description="the longest wait between "
                                     "tries to store a bot's move while the database is away")
    abandon_after: float = Field(600.0, gt=0, le=604_800, description="seconds a table may go "
                                 "with no seated person connected before it ends as "
                                 "abandoned, unrated")
    quick_play_poll: float = Field(8.0, gt=0, le=3600, description="seconds a quick-play "
                                   "ticket stays in the queue without being polled")
    queue_limit: int = Field(64, ge=1, le=100_000, description="messages waiting to be "
                             "sent to one connection; past it the oldest state is dropped "
                             "(a newer one follows)")
    count_every: float = Field(60.0, gt=0, le=86_400, description="seconds between sweeps "
                               "for finished tables whose results were not yet counted (a "
                               "start sweeps first thing)")
    trusted_proxies: str = Field("", max_length=2000, description="the addresses or networks "
                                 "(comma-separated, e.g. 127.0.0.1,10.0.0.0/8) of the proxies "
                                 "whose X-Forwarded-For names the client; none: every client "
                                 "is the address it connects from")
    max_body_bytes: int = Field(16 * 1024, ge=1024, le=64 * 1024 * 1024, description="the "
                                "largest request body read, in bytes: one larger is refused "
                                "as it arrives (413 `too_large`); no endpoint needs more")
    header_timeout: float = Field(10.0, gt=0, le=600, description="seconds a connection has "
                                  "to send a request's line and headers (from its start, or "
                                  "from the request's first byte): then 408 and closed")
    body_timeout: float = Field(20.0, gt=0, le=3600, description="seconds a request's body "
                                "has to arrive after its headers: then 408 and closed")
    max_header_bytes: int = Field(32 * 1024, ge=4096, le=1024 * 1024, description="the "
                                  "largest request line and headers, in bytes (431 past it)")
    connections_per_peer: int = Field(64, ge=0, le=1_000_000, description="connections one "
                                      "address may hold open (WebSockets included); one more "
                                      "is closed before it is read (0: no limit). A trusted "
                                      "proxy is not counted: it bounds its clients itself")
    log_level: Literal["critical", "error", "warning", "info", "debug"] = Field(
        "info", description="uvicorn's and the server's log level (seat tokens and "
                            "quick-play tickets are kept out of the log)")
    log_format: Literal["text", "json"] = Field(
        "text", description="the log's lines: text for people, or json (one JSON object "
                            "a line, with the table id and the request id; no secret)")

    @field_validator("ring")
    @classmethod
    def _servers(cls, value: str) -> str:
        """Each item a host:port, as nginx's upstream names it."""
        items = [item.strip() for item in value.split(",") if item.strip()]
        for item in items:
            host, _, port = item.rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"{item!r} is not host:port")
        return ",".join(items)

    @model_validator(mode="after")
    def _in_ring(self) -> ServerSettings:
        """A ring without this process in it would send every new table elsewhere."""
        servers = self.ring.split(",") if self.ring else []
        if servers and self.ring_address not in servers:
            raise ValueError(f"--ring-address ({ENV_PREFIX}RING_ADDRESS) "
                             f"{self.ring_address!r} is not one of --ring's servers "
                             f"({self.ring})")
        return self

    @model_validator(mode="after")
    def _several_processes(self) -> ServerSettings:
        """Several processes are as safe as one, or refused at start in one sentence."""
        if self.route_by_table and self.redis_url is None:
            raise ValueError(f"--route-by-table ({ENV_PREFIX}ROUTE_BY_TABLE) needs --redis-url: "
                             "without Redis a process cannot take a table over from another")
        if (self.redis_url is not None and "rate_limit_storage" in self.model_fields_set
                and self.rate_limit_storage.startswith(("memory", "async+memory"))):
            raise ValueError(f"--rate-limit-storage ({ENV_PREFIX}RATE_LIMIT_STORAGE) memory:// "
                             "keeps each process's own counts, so several processes behind "
                             "a proxy let every client N times as much: leave it out (the "
                             "--redis-url keeps them) or name a shared store")
        return self

    def limits_storage(self) -> str:
        """Where the rate limits are counted: ``rate_limit_storage`` if given, else the
        Redis of several processes (shared by all of them), else this process's memory."""
        redis = self.revealed("redis_url")
        if "rate_limit_storage" in self.model_fields_set or redis is None:
            return self.rate_limit_storage
        return redis

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        """Each item an IP address or network: a typo must not trust the world."""
        items = [item.strip() for item in value.split(",") if item.strip()]
        for item in items:
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item!r} is not an IP address or network") from None
        return ",".join(items)

    def revealed(self, name: Literal["database_url", "redis_url", "smtp_password",
                                     "vapid_private_key"]) -> str | None:
        """A secret's text, for the code that connects alone."""
        secret = getattr(self, name)
        return secret.get_secret_value() if secret is not None else None


GROUPS: dict[str, tuple[str, ...]] = {
    "server": tuple(name for name in ServerSettings.model_fields
                    if name not in Limits.model_fields
                    and name not in PlayerLimits.model_fields
                    and name not in AccountSettings.model_fields),
    "limits": tuple(Limits.model_fields),
    "players": tuple(PlayerLimits.model_fields),
    "accounts": tuple(AccountSettings.model_fields),
}
"""The settings by what they are about: the flags' groups and docs/server.md's tables."""

_GROUP_TITLES = {"server": "settings", "limits": "limits on clients (docs/server.md)",
                 "players": "limits on signing in and chat (docs/server.md)",
                 "accounts": "keeping, words, password reset by e-mail (docs/players.md)"}


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _shown_default(name: str) -> str:
    default = ServerSettings.model_fields[name].get_default(call_default_factory=True)
    if default is None:
        return "none"
    if isinstance(default, dict):
        return ",".join(f"{key}={_plain(value)}" for key, value in default.items())
    if isinstance(default, tuple):
        return ",".join(default)
    return str(default)


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def add_flags(parser: argparse.ArgumentParser) -> None:
    """A flag per setting.  A flag left out is ``None``, so the environment, ``.env`` and
    then the default decide."""
    for group, names in GROUPS.items():
        flags = parser.add_argument_group(_GROUP_TITLES[group])
        for name in names:
            info = ServerSettings.model_fields[name]
            env = ENV_PREFIX + name.upper()
            # argparse formats help with %: a rate such as 5/10seconds has none, a % would
            flags.add_argument(_flag(name), default=None, metavar=name.upper(),
                               help=f"{info.description} (${env}; default "
                                    f"{_shown_default(name)})".replace("%", "%%"))


def from_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> ServerSettings:
    """The settings: the flags given, then the environment and ``.env``, then defaults.
    A value out of its bounds ends the command with a sentence, not a traceback."""
    given = {name: getattr(args, name) for name in ServerSettings.model_fields
             if getattr(args, name, None) is not None}
    try:
        return ServerSettings(**given)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            if not item["loc"]:   # a rule between settings: its message names them
                problems.append(str(item["msg"]).removeprefix("Value error, "))
                continue
            name = str(item["loc"][0])
            problems.append(f"{_flag(name)} (${ENV_PREFIX}{name.upper()}): {item['msg']}")
        parser.error("; ".join(problems))
        raise  # parser.error exits


def table(group: str = "server") -> str:
    """docs/server.md's table of one group of settings (``GROUPS``), made from the model."""
    lines = ["| flag | environment | default | what it sets |", "|---|---|---|---|"]
    for name in GROUPS[group]:
        info = ServerSettings.model_fields[name]
        lines.append(f"| `{_flag(name)}` | `{ENV_PREFIX}{name.upper()}` | "
                     f"`{_shown_default(name)}` | {info.description} |")
    return "\n".join(lines) + "\n"
