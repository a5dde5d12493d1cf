"""The tournament director: one owner among the processes for each running tournament.

A director's work is a step (``Director.direct``) run often for every tournament that is
due: start it when its time comes, make the tables it wrote down but did not make yet,
score the tables that ended, then seat the players who are free (an arena at once, a
swiss a round at a time) or finish it.  Each step reads the tournament from the
database and writes every decision there before acting on it (``store.tournaments``), so
a process killed between any two lines loses no pairing and no result: the next owner's
step finds the tables to make under the ids already written, and the results to score.
With several processes a tournament is owned like a table, through a lease in Redis
under the key ``tournament:ID`` (``cluster.claim``), so one process directs it at a time.

Tables are made as the lobby's are (``Seating.open``), each seat an entrant's, claimed
from the start (the seat shows in ``GET /api/me``; the player connects with
``?seat=N``); the tournament's clock and takeover bot play for a player who does not come.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as _dt
import logging
import secrets
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from ..core.errors import Refused
from ..core.pairing import SwissPlayer, Waiting, pair_arena, pair_swiss
from ..core.ring import choose_id
from ..store.stamps import stamp
from ..store.storage import StorageUnavailable, hash_token
from ..store.tournaments import (
    ARENA,
    FINISHED,
    OPENING,
    PLAYING,
    RUNNING,
    UPCOMING,
    GameRow,
    TournamentRow,
    TournamentStore,
    Tourney,
)
from .lifecycle import DEFAULT_TAKEOVER
from .seating import NewSeat, new_id, plan_table

if TYPE_CHECKING:
    from .tables import Tables

__all__ = ["TICK", "Director"]

log = logging.getLogger("cardtable.server")

TICK = 0.2
"""Seconds from one of the director's steps to the next (at least: a step that takes
longer is followed at once): a finished player waits about this long, and the step, to
be seated, and the standings lag a game's end by as much."""
BOT_WAIT = 10.0
"""Seconds a lone waiting player waits for a person before bots fill their table (only
where the organiser allows bots)."""


class TournamentNews(TypedDict):
    """What a ``tournament`` notice says: the page words it by its ``event`` (started, or
    paired: with the table and seat to go to)."""

    event: Literal["started", "paired"]
    tournament: str
    name: str
    url: str
    table: NotRequired[str]
    seat: NotRequired[int]


class Director:
    """This process's tournament director: it steps every tournament it owns."""

    def __init__(self, tables: Tables, store: TournamentStore, *, tick: float = TICK,
                 bot_wait: float = BOT_WAIT) -> None:
        self.tables = tables
        self.store = store
        self.tick = tick
        self.bot_wait = bot_wait
        self._locks: dict[str, asyncio.Lock] = {}
        self.paired: list[float] = []
        """Seconds from a player's becoming free to their next table, as measured here
        (the benchmark reads them)."""

    def start(self) -> None:
        self.tables.spawn(self._loop())

    async def _loop(self) -> None:
        clock = asyncio.get_running_loop()
        took = 0.0
        while True:
            # a step starts every TICK, not TICK after the last one ended: a game that
            # ends during a long step waits for that step, not for it and a whole TICK
            await asyncio.sleep(max(0.0, self.tick - took))
            began = clock.time()
            try:
                await self.step()
            except StorageUnavailable:
                pass
            except Exception:
                log.exception("the tournament director's step failed")
            took = clock.time() - began

    async def step(self) -> None:
        """Direct every due tournament this process owns (or can claim)."""
        for tournament_id in await asyncio.to_thread(self.store.due, stamp()):
            await self.direct_if_owned(tournament_id)

    async def direct_if_owned(self, tournament_id: str) -> None:
        """A step of the tournament if this process owns it (or can claim it), one step
        of it at a time here."""
        if not await self._own(tournament_id):
            return
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            await self.direct(tournament_id)

    async def _own(self, tournament_id: str) -> bool:
        cluster = self.tables.cluster
        return cluster is None or await cluster.claim(f"tournament:{tournament_id}")

    async def direct(self, tournament_id: str) -> None:
        """One step of a tournament (see the module); call it through
        ``direct_if_owned``, which keeps two steps of one tournament apart."""
        store, at = self.store, stamp()
        survey = await asyncio.to_thread(store.survey, tournament_id)
        if survey is None or survey.tourney.row.status == FINISHED:
            self._locks.pop(tournament_id, None)
            return
        t = survey.tourney
        if t.row.status == UPCOMING:
            if t.row.starts is not None and t.row.starts <= at:
                await self.start_now(tournament_id, by=None)
            return
        names = {e.player_id: e.name for e in t.entrants}
        if survey.opening:
            await asyncio.gather(*(self._make(t.row, game, names)
                                   for game, made in survey.opening if not made))
            await asyncio.to_thread(store.games_opened,
                                    [g.table_id for g, _ in survey.opening])
        arena = t.row.kind == ARENA
        if arena and t.row.ends is not None and at >= t.row.ends:
            # the standings freeze at the end: a game still in play then does not count
            await asyncio.to_thread(store.finish, tournament_id)
            return
        if survey.ended:   # scored, and read again with the points, in one call
            _, again = await asyncio.to_thread(
                store.score_and_load, [table for table, _, _ in survey.ended], t.row.kind,
                tournament_id)
            if again is None:
                return
            t = again
        if t.row.status != RUNNING:
            return
        if arena:
            await self._seat_arena(t, at, names)
        else:
            await self._seat_swiss(t, names)

    # -- seating --------------------------------------------------------------------------
    async def _seat_arena(self, t: Tourney, at: _dt.datetime, names: dict[str, str]) -> None:
        free = [e for e in t.entrants if e.busy is None and not e.paused and not e.withdrawn]
        playing = any(g.status in (OPENING, PLAYING) for g in t.games)
        origin = t.row.started or at
        apart = await self._blocks([e.player_id for e in free])
        waiting = [Waiting(e.player_id, e.points, e.rating,
                           ((e.free_since or at) - origin).total_seconds(), frozenset(e.last),
                           frozenset(apart.get(e.player_id, ())))
                   for e in free]
        paired = pair_arena(waiting, t.row.players, others_playing=playing,
                            bots=t.row.bots is not None,
                            now=(at - origin).total_seconds(), bot_wait=self.bot_wait)
        since = {e.player_id: e.free_since for e in free}
        groups: list[list[str | None]] = [list(g) for g in paired.tables]
        groups += [[*g, *[None] * (t.row.players - len(g))] for g in paired.with_bots]
        if groups:
            await self._open(t.row, t.row.round, groups, names)
            for group in groups:
                for player in group:
                    moment = since.get(player or "")
                    if moment is not None:
                        self.paired.append((stamp() - moment).total_seconds())

    async def _seat_swiss(self, t: Tourney, names: dict[str, str]) -> None:
        row = t.row
        if any(g.status in (OPENING, PLAYING) for g in t.games):
            return   # the round is being played
        present = [e for e in t.entrants if not e.withdrawn]
        if row.round >= (row.rounds or 0) or len(present) < row.players:
            await asyncio.to_thread(self.store.finish, row.id)
            return
        apart = await self._blocks([e.player_id for e in present])   # kept apart like
        paired = pair_swiss([SwissPlayer(e.player_id, e.points, e.rating,  # a repeat
                                         frozenset(e.met) | apart.get(e.player_id, set()),
                                         e.byes) for e in present], row.players)
        await self._open(row, row.round + 1, [list(g) for g in paired.tables], names,
                         byes=list(paired.byes))

    async def _open(self, row: TournamentRow, round_: int, groups: list[list[str | None]],
                    names: dict[str, str], byes: list[str] | None = None) -> None:
        """Write the tables down (ids chosen), then make them (``names``: the entrants'
        names as the step read them)."""
        tables = self.tables
        games = [(choose_id(new_id, tables.ring, tables.settings.ring_address), group)
                 for group in groups]
        if not await asyncio.to_thread(self.store.open_games, row.id, round_, games, byes):
            return   # another step wrote this round first
        await asyncio.gather(*(self._make(row, GameRow(
            table_id=table_id, tournament_id=row.id, round=round_, players=group,
            status=OPENING, created=stamp()), names) for table_id, group in games))
        await asyncio.to_thread(self.store.games_opened, [table_id for table_id, _ in games])

    async def _make(self, row: TournamentRow, game: GameRow, names: dict[str, str]) -> None:
        """Make a table written down: its seats the entrants' (bots in the rest)."""
        bot = row.bots or "easy"
        try:
            plan = plan_table(row.game, row.preset, row.options, row.players,
                              ["human" if p else f"bot:{bot}" for p in game.players],
                              f"bot:{DEFAULT_TAKEOVER}")
        except (ValueError, Refused) as error:
            log.error("tournament %s: table %s cannot be made: %s", row.id, game.table_id,
                      error)
            await asyncio.to_thread(self.store.void_game, game.table_id)
            return
        seats = tuple(NewSeat("human", name=names.get(p, "?"), token_hash=hash_token(
            secrets.token_urlsafe(18)), player_id=p, player_kind="account", seen=True)
            if p else seat for p, seat in zip(game.players, plan.seats, strict=True))
        rated = bool(row.rated) and all(game.players)
        plan = dataclasses.replace(plan, seats=seats, table_id=game.table_id,
                                   life={"clock": dict(row.clock), "rated": rated},
                                   budget=(f"tournament:{row.id}",))
        try:
            await self.tables.seating.open(plan)
        except Refused as error:
            log.error("tournament %s: table %s was not made: %s", row.id, game.table_id,
                      error.reason)
            await asyncio.to_thread(self.store.void_game, game.table_id)
            return
        for seat, player in enumerate(game.players):   # "your game is ready"
            if player is not None:
                await self._tell([player], {
                    "event": "paired", "tournament": row.id, "name": row.name,
                    "table": game.table_id, "seat": seat,
                    "url": f"/table/{game.table_id}"})

    async def _blocks(self, player_ids: list[str]) -> dict[str, set[str]]:
        """Whom each player is kept apart from: a block either way (the social store's;
        none in a house without it)."""
        notices = self.tables.notices
        if notices is None or len(player_ids) < 2:
            return {}
        apart: dict[str, set[str]] = {}
        for one, other in await asyncio.to_thread(notices.store.blocking_any, player_ids):
            apart.setdefault(one, set()).add(other)
            apart.setdefault(other, set()).add(one)
        return apart

    async def _tell(self, player_ids: list[str], data: TournamentNews) -> None:
        """A ``tournament`` notice in each player's inbox (``people.notices``; none in a
        house without one)."""
        notices = self.tables.notices
        if notices is None:
            return
        for player in player_ids:
            await notices.notify(player, "tournament", data)

    # -- what the API asks -------------------------------------------------------------------
    async def start_now(self, tournament_id: str, *, by: str | None) -> bool:
        """Start an upcoming tournament (``by``: its organiser asking; ``None``: its time
        came) and tell its entrants; False if it was not upcoming any more."""
        if not await asyncio.to_thread(self.store.start, tournament_id, stamp(), by=by):
            return False
        t = await asyncio.to_thread(self.store.load, tournament_id)
        if t is not None:
            await self._tell([e.player_id for e in t.entrants if not e.withdrawn], {
                "event": "started", "tournament": tournament_id, "name": t.row.name,
                "url": f"/tournament/{tournament_id}"})
        return True

    async def close(self, tournament_id: str, reason: str) -> None:
        """An admin closes a tournament: it is finished at once, and its tables in play are
        closed (unrated)."""
        t = await asyncio.to_thread(self.store.load, tournament_id)
        if t is None:
            raise Refused(f"there is no tournament {tournament_id[:40]!r}", 404, "not_found")
        await asyncio.to_thread(self.store.finish, tournament_id, reason)
        for game in t.games:
            if game.status in (OPENING, PLAYING):
                try:
                    await self.tables.close_table(game.table_id, reason)
                except Refused as error:
                    log.warning("tournament %s: table %s not closed: %s", tournament_id,
                                game.table_id, error.reason)

