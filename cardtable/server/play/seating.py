"""Seating: new tables (created, or a rematch) and people taking their seats.

Creating a table and making a rematch differ only in where the seats come from (the
request, or the finished table); ``Seating.open`` deals, stores, owns and starts a table
for both.  A seat is taken by the table's dealer (``commands.TakeSeat``, or
``SeatsRead`` for a seat taken through another process): the game starts once every seat
is taken (in the database, in the same transaction as the seat), and everyone at the
table hears of it.  A seat taken but never connected to is freed again after
``ServerSettings.claim_grace`` (``Seating.unclaimed``): the answer that carried its token may
have been lost.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ... import bots, games
from ...game import GameRules, GameSpec, GameState
from ...records import options_from_json, rules_to_dict
from ..core.bounds import OutOfBounds, check_rules, check_seats
from ..core.cluster_messages import Seats
from ..core.errors import NotHere, Refused
from ..core.ring import choose_id
from ..store.stamps import stamp
from ..store.storage import RematchExists, SeatRow, TableRow, hash_token, now
from .bot_runner import default_bot, make_bot
from .commands import Begin, OfferRematch, RefuseRematch, SeatsRead, TakeSeat, Unclaimed
from .dealer import Dealer
from .lifecycle import DEFAULT_TAKEOVER
from .live import PLAYING, WAITING, LiveSeat, LiveTable, SecureRandom

if TYPE_CHECKING:
    from ..store.players import Player
    from .host import House

__all__ = ["Dealt", "NewSeat", "NewTable", "Seating", "budget_of", "live_seat", "new_id",
           "parse_seat", "plan_table"]

log = logging.getLogger("cardtable.server")

ID_LETTERS = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_id() -> str:
    """A table id for invite links: 10 letters and digits, none that look alike."""
    return "".join(secrets.choice(ID_LETTERS) for _ in range(10))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def parse_seat(text: str) -> tuple[str, str | None]:
    """``"human"`` or ``"bot:SPEC"`` (the spec as ``bots.make`` reads it).

    >>> parse_seat("human"), parse_seat("bot:random")
    (('human', None), ('bot', 'random'))
    """
    if not isinstance(text, str):
        raise ValueError(f"a seat is \"human\" or \"bot:NAME\", not {text!r}")
    word = text.strip()
    if word == "human":
        return "human", None
    kind, colon, bot_spec = word.partition(":")
    if kind != "bot":
        raise ValueError(f"a seat is \"human\" or \"bot:NAME\" (the bots are: "
                         f"{', '.join(bots.specs())}), not {text!r}")
    bot_spec = bot_spec.strip() if colon else ""
    if not bot_spec:
        bot_spec = default_bot()
    try:
        bots.make(bot_spec, seed=0)
    except ValueError as error:
        raise ValueError(f"seat {text!r}: {error}") from None
    return "bot", bot_spec


def live_seat(row: SeatRow) -> LiveSeat:
    """A stored seat at a live table; a bot's seat gets its bot."""
    playing = (row.bot or default_bot()) if row.kind == "bot" else None
    return LiveSeat(index=row.seat, kind=row.kind, bot_spec=row.bot, name=row.name,
                    token_hash=row.token_hash, seen=row.seen is not None,
                    player_id=row.player_id, player_kind=row.player_kind,
                    bot=make_bot(playing) if playing else None, bot_playing=playing)


@dataclass(frozen=True)
class NewSeat:
    """A seat of a table about to be made: a person (holding a token or not) or a bot."""

    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    player_id: str | None = None
    player_kind: str | None = None
    seen: bool = False
    """Counted as connected to already: a seat given to an account that may come later
    (a challenge's, a tournament's: its player connects by ``?seat=N``) is never freed
    for want of a first connection."""


@dataclass(frozen=True)
class NewTable:
    """A table about to be made, its settings checked (``plan_table``) or copied."""

    spec: GameSpec
    rules: GameRules
    players: int
    seats: tuple[NewSeat, ...]
    preset: str | None
    takeover: str | None = None
    rematch_of: str | None = None
    life: dict[str, object] | None = None
    """The time control and whether the table is rated (``lifecycle.Life``)."""
    budget: tuple[str, ...] = ()
    """Whose bot thinking the table's bots count against (``LiveTable.budget``)."""
    table_id: str | None = None
    """The id chosen before the table is made (a tournament writes it down first);
    ``None``: one is chosen here."""


@dataclass(frozen=True)
class Dealt:
    """A new table dealt, with the rows that store it (``Seating.deal``)."""

    plan: NewTable
    state: GameState[object]
    row: TableRow
    seats: list[SeatRow]
    decks: list[list[str]]


def budget_of(address: str, player: Player | None) -> tuple[str, ...]:
    """Whose bot thinking a new table counts against: the address that made it, and the
    account when one made it (a guest's id is as cheap as a new address)."""
    keys = [f"address:{address}"]
    if player is not None and player.kind != "guest":
        keys.append(f"player:{player.id}")
    return tuple(keys)


def plan_table(game: str, preset: str | None = None, options: dict[str, object] | None = None,
               players: int | None = None, seats: list[str] | None = None,
               takeover: str | None = None) -> NewTable:
    """Check a new table's settings; a ``ValueError`` says what is wrong.

    >>> plan = plan_table("durak", seats=["human", "bot:random"])
    >>> plan.players, [seat.kind for seat in plan.seats], plan.preset
    (2, ['human', 'bot'], 'transfer')
    """
    spec = games.get(game)
    rules = spec.rules(preset, options_from_json(spec.rules(preset), options or {}))
    if players is None:
        players = len(seats) if seats else spec.default_players
    spec.check_players(rules, players)
    if seats is None:
        seats = ["human"] + [f"bot:{default_bot()}"] * (players - 1)
    if len(seats) != players:
        raise ValueError(f"the seats list has {len(seats)} entries for {players} players: "
                         "give one per player (\"human\" or \"bot:NAME\")")
    parsed = [parse_seat(seat) for seat in seats]
    takeover_spec = None
    if takeover is not None:
        kind, takeover_spec = parse_seat(takeover)
        if kind != "bot":
            raise ValueError("takeover must name a bot, such as \"bot:easy\"")
    return NewTable(spec=spec, rules=rules, players=players,
                    seats=tuple(NewSeat(kind, bot) for kind, bot in parsed),
                    preset=spec.preset_of(rules), takeover=takeover_spec)


def check_rated_seat(player: Player | str | None) -> None:
    """Refuse a seat at a rated table to anyone but a signed-in account (``player``, or
    its kind); a guest's rating would be as cheap as a new guest."""
    kind = player if isinstance(player, str) or player is None else player.kind
    if kind != "account":
        raise Refused("a rated table seats signed-in accounts only: sign in, or play "
                      "a casual table", 409, "rated_accounts_only")


def check_rated(plan: NewTable, player: Player | None) -> None:
    """Refuse a rated table a guest makes, or one with a bot's seat (nobody's rating is
    won from a bot)."""
    check_rated_seat(player)
    if any(seat.kind != "human" for seat in plan.seats):
        raise Refused("a rated table has a person in every seat: no bots", 422,
                      "rated_accounts_only")


class Seating:
    """Making tables and giving their seats, for the live tables of this process."""

    def __init__(self, tables: House) -> None:
        self.tables = tables

    async def create(self, game: str, *, preset: str | None = None,
                     options: dict[str, object] | None = None, players: int | None = None,
                     seats: list[str] | None = None, takeover: str | None = None,
                     name: str | None = None, address: str = "unknown",
                     player: Player | None = None, clock: dict[str, object] | None = None,
                     rated: bool = False) -> tuple[LiveTable, int | None, str | None]:
        """A new table; the creator takes the first human seat (none: a table to watch).

        Settings that cannot be played are refused with ``Refused`` (422), and so are
        bots and rule options past the server's limits (``bounds``); a table of bots only
        past the quotas of ``address`` or of the server, with 429.
        """
        limits, guard = self.tables.settings, self.tables.guard
        await guard.check_table_rate(address)
        try:
            if clock is not None and takeover is None:
                takeover = f"bot:{DEFAULT_TAKEOVER}"  # a clock needs a bot for timeouts
            check_seats(seats, takeover, limits)
            plan = plan_table(game, preset, options, players, seats, takeover)
            check_rules(plan.rules, limits)
            plan = dataclasses.replace(plan, life={"clock": clock, "rated": rated},
                                       budget=budget_of(address, player))
        except OutOfBounds as error:
            raise Refused(error.reason, 422, error.code, params=error.params) from None
        except ValueError as error:
            raise Refused(str(error), 422) from None
        if rated:
            check_rated(plan, player)
        creator = next((i for i, seat in enumerate(plan.seats) if seat.kind == "human"), None)
        token = None
        if creator is not None:
            token = new_token()
            given = list(plan.seats)
            given[creator] = dataclasses.replace(
                given[creator], name=player.name if player else name,
                token_hash=hash_token(token), player_id=player.id if player else None,
                player_kind=player.kind if player else None)
            plan = dataclasses.replace(plan, seats=tuple(given))
            table = await self.open(plan)
        else:
            async with guard.bot_tables_lock:
                guard.check_bot_table(address, self.tables.live.values())
                table = await self.open(plan)
                guard.note_bot_table(address, table.id)
        await guard.count_table(address)
        return table, creator, token

    async def open(self, plan: NewTable) -> LiveTable:
        """Deal a new table, store it with its seats and first decks, own it and start it.

        A rematch whose old table already has one raises ``RematchExists`` (from storage).
        """
        tables = self.tables
        dealt = self.deal(plan)
        table_id = dealt.row.id
        # Own it first (Redis unreachable: ClusterUnavailable, 503, and nothing is stored),
        # then store it; if storing fails the claim is given back: all or nothing.
        cluster = tables.cluster
        if cluster is not None and not await cluster.claim(table_id):
            raise Refused("a new table's id was taken; try again", 503, "id_taken")
        try:
            await asyncio.to_thread(tables.storage.create_table, dealt.row, dealt.seats,
                                    dealt.decks, plan.rematch_of)
        except BaseException:
            if cluster is not None:
                await cluster.release(table_id)
            raise
        return await self.begin(dealt)

    def deal(self, plan: NewTable) -> Dealt:
        """A new table dealt, its rows ready to store (its id chosen if the plan has none);
        nothing is stored or owned yet (``open`` does both; a tournament's step stores a
        step's tables in one transaction of its own, then ``begin``s each)."""
        tables, spec = self.tables, plan.spec
        try:
            state = spec.start(plan.rules, players=plan.players, seed=SecureRandom())
        except (ValueError, TypeError) as error:
            raise Refused(f"these rules cannot be played: {error}", 422,
                          "rules_unplayable") from None
        table_id = plan.table_id or choose_id(new_id, tables.ring,
                                              tables.settings.ring_address)
        rows = [SeatRow(table_id=table_id, seat=index, kind=seat.kind, bot=seat.bot,
                        name=seat.name, token_hash=seat.token_hash, player_id=seat.player_id,
                        player_kind=seat.player_kind, seen=stamp() if seat.seen else None)
                for index, seat in enumerate(plan.seats)]
        free = sum(1 for row in rows if row.kind == "human" and row.token_hash is None)
        decks = [[card.text for card in deck] for deck in spec.deals(state)]
        row = TableRow(id=table_id, game=spec.name, preset=plan.preset,
                       rules=rules_to_dict(plan.rules), players=plan.players,
                       takeover=plan.takeover, status=WAITING if free else PLAYING,
                       created=now(), rematch_of=plan.rematch_of, life=plan.life)
        return Dealt(plan, state, row, rows, decks)

    async def begin(self, dealt: Dealt) -> LiveTable:
        """A table dealt, stored and owned (``deal``) comes to life here and starts."""
        tables, plan, row = self.tables, dealt.plan, dealt.row
        table = LiveTable(
            id=row.id, game=plan.spec.name, spec=plan.spec, preset=plan.preset,
            rules=plan.rules, players=plan.players, state=dealt.state,
            seats=[live_seat(seat) for seat in dealt.seats], status=row.status,
            created=row.created, takeover=plan.takeover, rematch_of=plan.rematch_of,
            decks_stored=len(dealt.decks), budget=plan.budget)
        Dealer(tables, table, plan.life)
        cluster = tables.cluster
        if cluster is not None and not cluster.holds(row.id):
            return table  # stored, and Redis went away meanwhile: it is adopted once back
        tables.live[row.id] = table
        await table.dealer.ask(Begin())
        return table

    # -- taking a seat --------------------------------------------------------------------
    async def join(self, table_id: str, name: str | None = None,
                   player: Player | None = None) -> tuple[LiveTable, int, str]:
        """Give the first free human seat to a new player (a known ``player``: theirs, under
        their display name)."""
        player_id = player.id if player else None
        kind = player.kind if player else None
        if player is not None:
            name = player.name
        try:
            table = await self.tables.get(table_id)
        except NotHere as elsewhere:
            return await self._join_elsewhere(elsewhere, name, player_id, kind)
        if table is None:
            raise Refused(f"there is no table {table_id!r}", 404, "not_found",
                          params={"table": table_id})
        if table.life is not None and table.life.rated:   # fixed when the table was made
            check_rated_seat(player)
        token = new_token()
        seat = await table.dealer.ask(TakeSeat(hash_token(token), name, player_id, kind))
        return table, seat, token

    async def _join_elsewhere(self, elsewhere: NotHere, name: str | None,
                              player_id: str | None = None,
                              kind: str | None = None) -> tuple[LiveTable, int, str]:
        """Take a seat in the database and tell the owning process to read the seats."""
        tables = self.tables
        if tables.cluster is not None:
            tables.cluster.check()  # the owner could not be told of the seat
        table = await tables.snapshot(elsewhere.table_id)
        if table is None:
            raise Refused(f"there is no table {elsewhere.table_id!r}", 404, "not_found",
                          params={"table": elsewhere.table_id})
        if table.over:
            raise Refused("this game is over: there is no seat to take", 409, "game_over")
        if table.life is not None and table.life.rated:
            check_rated_seat(kind)
        for seat in table.free_seats():
            token = new_token()
            if await asyncio.to_thread(tables.storage.take_seat, table.id, seat.index,
                                       hash_token(token), name, player_id, kind):
                # the game started with the seat if it was the last (one transaction)
                if elsewhere.owner is not None and tables.cluster is not None:
                    await tables.cluster.send(elsewhere.owner, Seats(table=table.id))
                return table, seat.index, token
        raise Refused("every seat at this table is taken; you can still watch", 409,
                             "table_full")

    async def reload_seats(self, table_id: str) -> None:
        """Someone took a seat through another process: read the seats again."""
        table = self.tables.live.get(table_id)
        if table is None:
            return
        rows = await asyncio.to_thread(self.tables.storage.seats_of, table_id)
        await table.dealer.ask(SeatsRead(tuple(rows)))

    # -- seats nobody claims ----------------------------------------------------------------
    async def unclaimed(self, table: LiveTable, seat: int, token_hash: str) -> None:
        """A seat taken but never connected to is held ``claim_grace`` seconds, then freed
        (the dealer decides: its token may have connected meanwhile); while the database
        is away it tries again later."""
        wait = self.tables.settings.claim_grace
        timer = asyncio.current_task()
        while True:
            await self.tables.clock.sleep(wait)
            if await table.dealer.ask(Unclaimed(seat, token_hash, timer)):
                return
            wait = self.tables.settings.storage_retry_max

    # -- rematch --------------------------------------------------------------------------
    async def rematch(self, table: LiveTable, seat: int | None) -> str | None:
        """Offer or accept a new table with the same rules and the same people in the
        same seats; it is made (its id answered) once every person's seat has asked.

        Each person's token works at the new table too (the seat keeps its token hash),
        so a client only has to connect to the new table with the token it holds.
        """
        return await table.dealer.ask(OfferRematch(seat))

    async def decline_rematch(self, table: LiveTable, seat: int | None) -> None:
        """Say no to the rematch offered at ``table``: the offer is withdrawn."""
        await table.dealer.ask(RefuseRematch(seat))

    async def open_rematch(self, old: LiveTable) -> str:
        """Open the rematch of a finished table (its dealer asks, once)."""
        seats = tuple(NewSeat(kind=s.kind, bot=s.bot_spec, name=s.name, token_hash=s.token_hash,
                              player_id=s.player_id, player_kind=s.player_kind)
                      for s in old.seats)
        life = None
        if old.life is not None:
            kept = old.life.to_dict()
            life = {"clock": kept["clock"], "rated": kept["rated"]}
        plan = NewTable(spec=old.spec, rules=old.rules, players=old.players, seats=seats,
                        preset=old.preset, takeover=old.takeover, rematch_of=old.id, life=life,
                        budget=old.budget)
        try:
            if any(seat.kind == "human" for seat in seats):
                return (await self.open(plan)).id
            guard = self.tables.guard
            async with guard.bot_tables_lock:   # bots only: counted among the server's
                guard.check_bot_table(None, self.tables.live.values())
                return (await self.open(plan)).id
        except RematchExists:
            # another server process made the rematch first: use that one
            stored = await asyncio.to_thread(self.tables.storage.load, old.id)
            if stored is None or stored.row.rematch is None:
                raise Refused("the rematch could not be made; ask again", 409,
                              "rematch_failed") from None
            return stored.row.rematch
