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
import contextlib
import dataclasses
import datetime as _dt
import logging
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from ..core.errors import ClusterUnavailable, Refused
from ..core.pairing import SwissPlayer, Waiting, pair_arena, pair_swiss
from ..core.ring import choose_id
from ..store.stamps import stamp
from ..store.storage import StorageUnavailable, hash_token
from ..store.tournaments import (
    ARENA,
    FINISHED,
    OPENING,
    PLAYING,
    UPCOMING,
    GameRow,
    TournamentRow,
    TournamentStore,
    Tourney,
)
from .lifecycle import DEFAULT_TAKEOVER
from .live import LiveTable
from .seating import Dealt, NewSeat, NewTable, new_id, plan_table

if TYPE_CHECKING:
    from .tables import Tables

__all__ = ["TICK", "Director"]

log = logging.getLogger("cardtable.server")

TICK = 0.2
"""Seconds from the start of one of the director's steps to the next (a step that takes
longer is followed at once); a tournament's table that ends on this process starts the
next step at once, one on another process waits for the TICK."""
DUE_EVERY = 1.0
"""Seconds between two readings of which tournaments are due (an upcoming one's start
time is kept to about this; a start asked through the API is directed at once)."""
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
        self._wake = asyncio.Event()
        """Set when a tournament's table here ends: the next step starts at once."""
        self._due: list[str] = []
        self._due_read = -1e9
        self.paired: list[float] = []
        """Seconds from a player's becoming free to their next table, as measured here
        (the benchmark reads them)."""
        tables.on_over.append(self._table_over)

    def start(self) -> None:
        self.tables.spawn(self._loop())

    def _table_over(self, table: LiveTable) -> None:
        """A table here ended: if a tournament's, its players wait for the next step."""
        if any(key.startswith("tournament:") for key in table.budget):
            self._wake.set()

    async def _loop(self) -> None:
        clock = asyncio.get_running_loop()
        took = 0.0
        while True:
            # a step starts every TICK, or at once when a tournament's table here ends
            # (one on another process is found by the next TICK's step); a game that ends
            # during a step waits for that step alone
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.0, self.tick - took))
            self._wake.clear()
            began = clock.time()
            try:
                await self.step()
            except StorageUnavailable:
                pass
            except Exception:
                log.exception("the tournament director's step failed")
            took = clock.time() - began

    async def step(self) -> None:
        """Direct every due tournament this process owns (or can claim); which are due is
        read every ``DUE_EVERY`` seconds (a start asked through the API adds its own at
        once)."""
        moment = asyncio.get_running_loop().time()
        if moment - self._due_read >= DUE_EVERY:
            self._due = await asyncio.to_thread(self.store.due, stamp())
            self._due_read = moment
        for tournament_id in list(self._due):
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
        # read, with the tables that ended scored in the same transaction
        survey = await asyncio.to_thread(store.survey, tournament_id, at)
        if survey is None or survey.tourney.row.status == FINISHED:
            self._locks.pop(tournament_id, None)
            if tournament_id in self._due:
                self._due.remove(tournament_id)
            return
        t = survey.tourney
        if t.row.status == UPCOMING:
            if t.row.starts is not None and t.row.starts <= at:
                await self.start_now(tournament_id, by=None)
            return
        names = {e.player_id: e.name for e in t.entrants}
        if survey.opening:   # written down by a step that did not make them (a crash)
            await asyncio.gather(*(self._make(t.row, game, names)
                                   for game, made in survey.opening if not made))
            await asyncio.to_thread(store.games_opened,
                                    [g.table_id for g, _ in survey.opening])
        if t.row.kind == ARENA:
            if t.row.ends is not None and at >= t.row.ends:
                # the standings freeze at the end: a game still in play then does not count
                await asyncio.to_thread(store.finish, tournament_id)
                return
            await self._seat_arena(t, at, names, survey.apart)
        else:
            await self._seat_swiss(t, names, survey.apart)

    # -- seating --------------------------------------------------------------------------
    async def _seat_arena(self, t: Tourney, at: _dt.datetime, names: dict[str, str],
                          apart: dict[str, set[str]]) -> None:
        free = [e for e in t.entrants if e.busy is None and not e.paused and not e.withdrawn]
        playing = any(g.status in (OPENING, PLAYING) for g in t.games)
        origin = t.row.started or at
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

    async def _seat_swiss(self, t: Tourney, names: dict[str, str],
                          apart: dict[str, set[str]]) -> None:
        row = t.row
        if any(g.status in (OPENING, PLAYING) for g in t.games):
            return   # the round is being played
        present = [e for e in t.entrants if not e.withdrawn]
        if row.round >= (row.rounds or 0) or len(present) < row.players:
            await asyncio.to_thread(self.store.finish, row.id)
            return
        paired = pair_swiss([SwissPlayer(e.player_id, e.points, e.rating,  # a block kept
                                         frozenset(e.met) | apart.get(e.player_id, set()),
                                         e.byes) for e in present], row.players)  # apart
        await self._open(row, row.round + 1, [list(g) for g in paired.tables], names,
                         byes=list(paired.byes))

    async def _open(self, row: TournamentRow, round_: int, groups: list[list[str | None]],
                    names: dict[str, str], byes: list[str] | None = None) -> None:
        """Deal the step's tables and own them, then store them with their games and their
        players busy in one transaction, then start them (``names``: the entrants' names
        as the step read them).  A table that cannot be dealt is left out (logged); an id
        another process holds, or a player seated meanwhile by another step: nothing is
        stored, and the next step pairs again."""
        tables = self.tables
        dealt: list[tuple[list[str | None], Dealt]] = []
        for group in groups:
            plan = self._plan(row, group, names)
            if plan is None:
                continue
            try:
                dealt.append((group, tables.seating.deal(dataclasses.replace(
                    plan, table_id=choose_id(new_id, tables.ring,
                                             tables.settings.ring_address)))))
            except Refused as error:
                log.error("tournament %s: a table cannot be made: %s", row.id, error.reason)
        if not dealt and byes is None:
            return
        cluster, claimed = tables.cluster, []
        try:
            if cluster is not None:
                for _, table in dealt:
                    if not await cluster.claim(table.row.id):
                        return   # an id held elsewhere (the finally gives the rest back)
                    claimed.append(table.row.id)
            if not await asyncio.to_thread(
                    self.store.open_games, row.id, round_,
                    [(table.row.id, group) for group, table in dealt], byes,
                    [(table.row, table.seats, table.decks) for _, table in dealt]):
                return   # another step wrote this round, or seated a player, first
            claimed = []   # stored: the tables are this process's to play
        finally:
            for table_id in claimed:
                with contextlib.suppress(ClusterUnavailable):
                    await cluster.release(table_id)   # type: ignore[union-attr]
        for _, table in dealt:
            await tables.seating.begin(table)
        self.tables.spawn(self._tell_paired(row, [table for _, table in dealt]))

    def _plan(self, row: TournamentRow, players: list[str | None],
              names: dict[str, str]) -> NewTable | None:
        """A table of the tournament's for ``players`` (``None``: a bot's seat), or
        ``None`` if its settings cannot be played (logged)."""
        bot = row.bots or "easy"
        try:
            plan = plan_table(row.game, row.preset, row.options, row.players,
                              ["human" if p else f"bot:{bot}" for p in players],
                              f"bot:{DEFAULT_TAKEOVER}")
        except (ValueError, Refused) as error:
            log.error("tournament %s: a table cannot be made: %s", row.id, error)
            return None
        seats = tuple(NewSeat("human", name=names.get(p, "?"), token_hash=hash_token(
            secrets.token_urlsafe(18)), player_id=p, player_kind="account", seen=True)
            if p else seat for p, seat in zip(players, plan.seats, strict=True))
        rated = bool(row.rated) and all(players)
        return dataclasses.replace(plan, seats=seats,
                                   life={"clock": dict(row.clock), "rated": rated},
                                   budget=(f"tournament:{row.id}",))

    async def _make(self, row: TournamentRow, game: GameRow, names: dict[str, str]) -> None:
        """Make a table written down and not made (a step killed between the two, or a
        step of an older version, which wrote its tables first): under its id, its seats
        the entrants' (bots in the rest)."""
        plan = self._plan(row, game.players, names)
        if plan is None:
            await asyncio.to_thread(self.store.void_game, game.table_id)
            return
        try:
            table = await self.tables.seating.open(
                dataclasses.replace(plan, table_id=game.table_id))
        except Refused as error:
            log.error("tournament %s: table %s was not made: %s", row.id, game.table_id,
                      error.reason)
            await asyncio.to_thread(self.store.void_game, game.table_id)
            return
        await self._tell_paired(row, [table])

    async def _tell_paired(self, row: TournamentRow, made: Sequence[Dealt | LiveTable]) -> None:
        """"Your game is ready": a ``paired`` notice to each entrant seated at ``made``."""
        news: list[tuple[str, TournamentNews]] = []
        for table in made:
            table_id = table.row.id if isinstance(table, Dealt) else table.id
            for seat, player in enumerate(s.player_id for s in table.seats):
                if player is not None:
                    news.append((player, {
                        "event": "paired", "tournament": row.id, "name": row.name,
                        "table": table_id, "seat": seat, "url": f"/table/{table_id}"}))
        await self._tell(news)

    async def _tell(self, news: Sequence[tuple[str, TournamentNews]]) -> None:
        """A ``tournament`` notice in each player's inbox (``people.notices``, all in one
        write; none in a house without it)."""
        notices = self.tables.notices
        if notices is None or not news:
            return
        await notices.notify_many([(player, "tournament", data) for player, data in news])

    # -- what the API asks -------------------------------------------------------------------
    async def start_now(self, tournament_id: str, *, by: str | None) -> bool:
        """Start an upcoming tournament (``by``: its organiser asking; ``None``: its time
        came) and tell its entrants; False if it was not upcoming any more."""
        if not await asyncio.to_thread(self.store.start, tournament_id, stamp(), by=by):
            return False
        t = await asyncio.to_thread(self.store.load, tournament_id)
        if tournament_id not in self._due:
            self._due.append(tournament_id)   # directed from the next step on
        if t is not None:
            await self._tell([(e.player_id, {
                "event": "started", "tournament": tournament_id, "name": t.row.name,
                "url": f"/tournament/{tournament_id}"}) for e in t.entrants if not e.withdrawn])
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

