"""The server's limits, each a setting with a sane default, and the checks of a new
table's bots and rules against them.

``Limits`` holds every bound on what a client may ask: how fast a WebSocket may send, how
many sockets and new tables an address may have, which bots a table may seat and with what
budgets, how far a rule option may go; ``PlayerLimits`` how often people may sign in,
register and chat.  Both are parts of the one ``settings.ServerSettings``, so each is a
flag of ``cardtable serve`` and a ``CARDTABLE_<NAME>`` variable (docs/server.md lists
them).  A request past
a bound is refused with a reason a person can read and a stable ``code`` (``OutOfBounds``),
and changes nothing.

The bounds name rule options and bot options, never a game: a bound applies to every
game's option of that name.  Every rule option of the games here has one: a whole number
its least and largest value (``rule_minimums``, ``rule_bounds``), a choice or a yes/no its
game's own values (the game refuses any other, 422 ``invalid_request``);
``rule_bound_rows`` lists them for docs/server.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_settings import NoDecode

from ... import bots
from .errors import Refused

__all__ = ["OFFERED_BOTS", "RULE_BOUNDS", "RULE_MINIMUMS", "Limits", "OutOfBounds",
           "PlayerLimits", "check_bot", "check_rules", "check_seats", "rule_bound_rows"]

OFFERED_BOTS = ("random", "basic", "greedy", "ismcts", *bots.LEVELS)
"""The bots a table made over the API may seat by default: the kinds of the engine and
its named levels (a bot of another package, such as OpenSpiel's, is for the arena)."""


RULE_BOUNDS = {
    # Pasur: the match and its points (a point option past 100 only makes numbers long)
    "target": 1000, "fixed_hands": 50, "max_hands": 500, "sur_points": 100, "sur_cap": 1000,
    "bonus_points": 100, "bonus_minimum": 52, "ace_points": 100, "jack_points": 100,
    "two_clubs_points": 100, "ten_diamonds_points": 100, "seven_diamonds_points": 100,
    "opening_same_face_redeal": 4,
    # Transfer Durak
    "max_rounds": 1000,
}
"""The default largest value of every whole-number rule option of the games here."""

BOT_BOUNDS: dict[str, float] = {"iterations": 20000, "seconds": 5, "solver_nodes": 200000,
                                "solver_seconds": 5, "pimc": 64, "horizon": 8, "depth": 64,
                                "c": 10}
"""The default largest value of each numeric option of a bot in a seat's spec."""

RULE_MINIMUMS = {"target": 1, "fixed_hands": 1, "max_hands": 1, "max_rounds": 1}
"""The default least values above 0 (every other whole-number option's least is 0)."""


class Limits(BaseModel):
    """Every limit on what clients may ask of the server (``ServerSettings`` holds them
    with the rest; ``docs/server.md`` lists them)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ws_messages_per_second: float = Field(
        20.0, ge=0, le=1_000_000, description="messages a second one WebSocket may send, on "
        "average (a token bucket; 0: no limit, for programs that play each other at full "
        "speed); the messages over it are dropped, with one `rate_limited` error")
    ws_message_burst: int = Field(
        60, ge=1, le=1_000_000, description="messages a WebSocket may send at once; past that "
        "it is warned (`rate_limited`), and closed (1008 `message_flood`) once it sends as "
        "many more without slowing down")
    ws_max_bytes: int = Field(
        16384, ge=4096, le=16 * 1024 * 1024, description="the largest WebSocket message "
        "read, in bytes (uvicorn's `ws_max_size`): a bigger one closes the socket (1009), "
        "unread; a message is at most 4,096 characters anyway")
    connections_per_address: int = Field(
        32, ge=1, le=1_000_000, description="WebSockets open at once from one address; one "
        "more is refused (HTTP 429, `too_many_connections`)")
    watchers_per_table: int = Field(
        200, ge=0, le=1_000_000, description="people watching one table at once; one more "
        "is refused (its socket closed with 4429, `too_many_watchers`; 0: no limit)")
    tables_per_address: str = Field(
        "20/minute;200/hour", max_length=200, description="new tables one address may make "
        "(the `limits` library's syntax: several rates separated by `;`; empty: no limit); "
        "past it 429 `rate_limited`, with `Retry-After`")
    bot_tables_per_address: int = Field(
        2, ge=0, le=1_000_000, description="unfinished tables of bots only that one address "
        "may have made (429 `too_many_bot_tables`)")
    bot_tables: int = Field(
        20, ge=0, le=1_000_000, description="unfinished tables of bots only in this server "
        "process, from everyone, rematches included (429 `too_many_bot_tables`)")
    bots_thinking_per_address: int = Field(
        2, ge=0, le=10_000, description="bots thinking at once for the tables one address "
        "(and one account) made, whoever sits at them; the others wait their turn (0: no "
        "limit)")
    analysis_seconds: float = Field(
        600.0, gt=0, le=3600, description="wall seconds one finished game's analysis may take "
        "in the bots' background worker, every move's judgement together; past them it "
        "stops and fails (`analysis_failed`), so no analysis works without end")
    analysis_processes: int = Field(
        2, ge=1, le=64, description="niced background processes the analyses use (at most "
        "the machine's cores): one game's moves are judged in all of them at once, each "
        "move's verdict the same whatever their number")
    rule_bounds: Annotated[dict[str, int], NoDecode] = Field(
        default_factory=lambda: dict(RULE_BOUNDS), description="the largest value of a "
        "whole-number rule option at a table made here, by option name (NAME=VALUE,...), "
        "for every game that has it (422 `rule_option_out_of_bounds`); an option with no "
        "bound here may only keep its default (422 `rule_option_not_bounded`); a new list "
        "replaces the whole list")
    rule_minimums: Annotated[dict[str, int], NoDecode] = Field(
        default_factory=lambda: dict(RULE_MINIMUMS), description="the least value of a "
        "whole-number rule option, by option name (0 for an option not named; 422 "
        "`rule_option_below_bounds`)")
    bots: Annotated[tuple[str, ...], NoDecode] = Field(
        OFFERED_BOTS, min_length=1, description="the bots a seat (or `takeover`) of a table "
        "made here may name, comma-separated (what `GET /api/games` lists); another is "
        "refused (422 `bot_not_offered`)")
    bot_bounds: Annotated[dict[str, float], NoDecode] = Field(
        default_factory=lambda: dict(BOT_BOUNDS),
        description="the largest value of each numeric option of a bot in a seat's spec "
        "(`bot:ismcts:iterations=500`); a numeric option with no bound here is refused (422 "
        "`bot_option_out_of_bounds`)")
    rate_limit_storage: str = Field(
        "memory://", min_length=1, max_length=500, description="where the per-address "
        "counts of new tables, sign-ins and chat are kept (a `limits` storage URL; "
        "`redis://host:6379` shares them between server processes; left out with "
        "--redis-url, that Redis keeps them; memory:// with --redis-url is refused)")

    @field_validator("rule_bounds", "rule_minimums", "bot_bounds", mode="before")
    @classmethod
    def _read_pairs(cls, value: object) -> object:
        """``target=500,fixed_hands=9`` (a flag's or the environment's text) as a dict."""
        return _pairs(value) if isinstance(value, str) else value

    @field_validator("bots", mode="before")
    @classmethod
    def _read_names(cls, value: object) -> object:
        return _names(value) if isinstance(value, str) else value

    @field_validator("tables_per_address")
    @classmethod
    def _table_rates(cls, value: str) -> str:
        return _rates(value, empty=True)


class PlayerLimits(BaseModel):
    """How often people may try to sign in, register and talk (``limits`` rate strings:
    several rates separated by `;`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    login_per_address: str = Field(
        "20/minute;200/hour", max_length=200, description="sign-in attempts from one "
        "address, to any accounts (a known device's apart); past it 429 `rate_limited`")
    login_per_account_address: str = Field(
        "10/minute;50/hour", max_length=200, description="sign-in attempts to one account "
        "from one address (a known device's apart): never per account alone, so an attacker "
        "elsewhere cannot lock the owner out")
    login_known_device: str = Field(
        "60/minute", max_length=200, description="sign-in attempts from one address to the "
        "account its known-device cookie names (or its session is signed in to), counted "
        "apart from the other two")
    register_per_address: str = Field(
        "10/hour", max_length=200, description="new accounts from one address")
    guests_per_address: str = Field(
        "100/hour", max_length=200, description="new guests (first visits without a "
        "cookie) from one address: each is a row in the database")
    api_tokens: int = Field(5, ge=0, le=1000, description="API tokens an account may hold "
                            "at once")
    chat_per_window: str = Field(
        "5/10seconds", max_length=200, description="chat messages of one connection")

    @field_validator("login_per_address", "login_per_account_address",
                     "login_known_device", "register_per_address", "guests_per_address",
                     "chat_per_window")
    @classmethod
    def _people_rates(cls, value: str) -> str:
        return _rates(value, empty=False)


def _rates(text: str, *, empty: bool) -> str:
    """A rate string the ``limits`` library reads, checked now rather than at the first
    request it would count."""
    from limits import parse_many

    if not text.strip():
        if empty:
            return ""
        raise ValueError("needs at least one rate, e.g. 10/minute")
    try:
        parse_many(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a rate such as 10/minute;100/hour") from None
    return text


class OutOfBounds(Refused):
    """A request past one of the server's limits (422); ``code`` names which kind."""

    def __init__(self, reason: str, code: str, **params: object) -> None:
        super().__init__(reason, 422, code, params=params)


def check_bot(spec: str, limits: Limits) -> None:
    """Refuse a bot spec (``"medium"``, ``"ismcts:iterations=500"``) the server does not
    offer, or whose numeric options pass the server's bounds.

    >>> check_bot("ismcts:iterations=500,infer=true", Limits())
    >>> check_bot("ismcts:iterations=1000000000", Limits())
    Traceback (most recent call last):
    ...
    cardtable.server.core.bounds.OutOfBounds: bot option iterations=1000000000 is more than ...
    (at most 20000)
    """
    name, options = bots.parse_spec(spec)
    if name not in limits.bots:
        raise OutOfBounds(f"no bot {name!r} at this server; the bots here are: "
                          f"{', '.join(limits.bots)}", "bot_not_offered", bot=name)
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue   # yes/no and words: the bot itself checks them
        bound = limits.bot_bounds.get(key)
        if bound is None:
            bounded = ", ".join(sorted(limits.bot_bounds)) or "none"
            raise OutOfBounds(f"bot option {key}={value} is not taken at this server (the "
                              f"numeric options it takes: {bounded})",
                              "bot_option_out_of_bounds", option=key)
        if value > bound:
            raise OutOfBounds(f"bot option {key}={value} is more than this server allows "
                              f"(at most {_plain(bound)})", "bot_option_out_of_bounds",
                              option=key)


def check_seats(seats: Iterable[object] | None, takeover: object, limits: Limits) -> None:
    """``check_bot`` for every ``"bot:SPEC"`` among a new table's seats and its takeover
    bot; other entries are left to ``seating.plan_table`` to read (and refuse)."""
    for seat in [*(seats or ()), takeover]:
        if isinstance(seat, str) and seat.strip().startswith("bot:"):
            spec = seat.strip()[len("bot:"):].strip()
            try:
                bots.parse_spec(spec)
            except ValueError:
                continue   # unreadable: plan_table says so, naming the seat
            if spec:
                check_bot(spec, limits)


def check_rules(rules: object, limits: Limits) -> None:
    """Refuse rules with a whole-number option below or past the server's bounds of that
    name, or changed from its default when the server has no bound for it.  (Choices and
    yes/no options were checked by the rules themselves: ``cardtable.game.check_options``.)

    >>> from cardtable import games
    >>> pasur = games.get("pasur")
    >>> check_rules(pasur.rules(None, {"target": 1000}), Limits())
    >>> check_rules(pasur.rules(None, {"target": 10**15}), Limits())
    Traceback (most recent call last):
    ...
    cardtable.server.core.bounds.OutOfBounds: rule option 'target' is at most 1000 at this server,
    not 1000000000000000
    """
    if not dataclasses.is_dataclass(rules):
        raise TypeError(f"a game's rules are a dataclass, not {type(rules).__name__}")
    for option in dataclasses.fields(rules):
        name, value = option.name, getattr(rules, option.name)
        if isinstance(value, bool) or not isinstance(value, int):
            continue   # yes/no, words, lists, None: the rules' own check
        bound = limits.rule_bounds.get(name)
        if bound is None:
            if value != option.default:
                raise OutOfBounds(f"rule option {name!r} has no bound at this server, so it "
                                  f"keeps its default ({option.default}), not {value}",
                                  "rule_option_not_bounded", option=name)
            continue
        least = limits.rule_minimums.get(name, 0)
        if value < least:
            raise OutOfBounds(f"rule option {name!r} is at least {least} at this server, "
                              f"not {value}", "rule_option_below_bounds", option=name,
                              limit=least)
        if value > bound:
            raise OutOfBounds(f"rule option {name!r} is at most {bound} at this server, "
                              f"not {value}", "rule_option_out_of_bounds", option=name,
                              limit=bound)


def rule_bound_rows(rules_type: type, limits: Limits) -> list[tuple[str, str]]:
    """``(option, what a table made here may have)`` for every option of a ``Rules``
    dataclass: docs/server.md's table of rule bounds is these rows (a test keeps them in
    step).

    >>> from cardtable.durak import Rules
    >>> rule_bound_rows(Rules, Limits())[:2]
    [('pack_size', '24, 36, 52'), ('first_round_limit', '5, 6')]
    >>> rule_bound_rows(Rules, Limits())[-1]
    ('max_rounds', '1 to 1000')
    """
    rows = []
    for option in dataclasses.fields(rules_type):
        name, default = option.name, option.default
        choices = (option.metadata.get("choices") or option.metadata.get("values")
                   or option.metadata.get("each_of"))
        if choices is not None:   # the rules' own values (``values``: the rules check them)
            text = ", ".join(map(str, choices))
            if "each_of" in option.metadata:
                text = f"some of {text}"
        elif isinstance(default, bool):
            text = "true, false"
        elif name in limits.rule_bounds:
            text = f"{limits.rule_minimums.get(name, 0)} to {limits.rule_bounds[name]}"
            if "None" in str(option.type):
                text += ", or none"
        else:
            text = f"only its default ({default})"
        rows.append((name, text))
    return rows


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


# -- the text of flags and environment variables ------------------------------------------

def _pairs(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = pair.partition("=")
        if not eq:
            raise ValueError(f"{pair!r} is not NAME=VALUE")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"{pair!r}: {value!r} is not a number") from None
        out[name.strip()] = int(number) if number.is_integer() else number
    return out


def _names(text: str) -> tuple[str, ...]:
    return tuple(filter(None, (name.strip() for name in text.split(","))))
