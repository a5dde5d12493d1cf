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
import functools
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
    Seated,
    Survey,
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
        self.changes: dict[str, int] = {}
        """Each tournament's count of changes made through this process (a step that
        scored or seated, a start, a finish, an entrant joining or leaving): a reader's
        copy of the standings made at the same count is still the tournament as stored
        here (``web.tournaments_api``'s answers keep one a change, not one a reader)."""
        tables.on_over.append(self._table_over)

    def start(self) -> None:
        self.tables.spawn(self._loop())

    def changed(self, tournament_id: str) -> None:
        """The tournament's rows changed here (committed): readers' copies are old."""
        self.changes[tournament_id] = self.changes.get(tournament_id, 0) + 1

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
        # one transaction: read, score what ended, pair the free players, store their tables
        survey, seated = await asyncio.to_thread(store.step, tournament_id, at,
                                                 functools.partial(self._decide, at))
        if survey is not None and (survey.scored or seated is not None):
            self.changed(tournament_id)
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
        if survey.opening:   # written down by a step that did not make them (a crash)
            names = {e.player_id: e.name for e in t.entrants}
            await asyncio.gather(*(self._make(t.row, game, names)
                                   for game, made in survey.opening if not made))
            await asyncio.to_thread(store.games_opened,
                                    [g.table_id for g, _ in survey.opening])
            self.changed(tournament_id)
            return   # the next step seats the free players
        if seated is not None:
            await self._begin(t.row, seated)
        elif self._over(t, at):
            await asyncio.to_thread(store.finish, tournament_id)
            self.changed(tournament_id)

    def _over(self, t: Tourney, at: _dt.datetime) -> bool:
        """The tournament is to finish: an arena's time is up (the standings freeze then:
        a game still in play does not count), or a swiss played its rounds (or has too
        few left to seat) and its last round ended."""
        row = t.row
        if row.kind == ARENA:
            return row.ends is not None and at >= row.ends
        if any(g.status in (OPENING, PLAYING) for g in t.games):
            return False
        present = sum(1 for e in t.entrants if not e.withdrawn)
        return row.round >= (row.rounds or 0) or present < row.players

    # -- seating: decided in the store's transaction, then made here ----------------------
    def _decide(self, at: _dt.datetime, survey: Survey) -> Seated[Dealt] | None:
        """Who sits where this step, with the tables dealt (``TournamentStore.step`` calls
        it in its thread and transaction: pure work, a few milliseconds)."""
        t = survey.tourney
        if self._over(t, at):
            return None
        if t.row.kind == ARENA:
            groups, round_, byes = self._pair_arena(t, at, survey.apart), t.row.round, None
        else:
            if any(g.status in (OPENING, PLAYING) for g in t.games):
                return None   # the round is being played
            present = [e for e in t.entrants if not e.withdrawn]
            paired = pair_swiss([SwissPlayer(e.player_id, e.points, e.rating,  # a block
                                             frozenset(e.met) | survey.apart.get(e.player_id,
                                                                                 set()),
                                             e.byes) for e in present], t.row.players)
            groups, round_ = [list(g) for g in paired.tables], t.row.round + 1
            byes = list(paired.byes)
        names = {e.player_id: e.name for e in t.entrants}
        tables, dealt = self.tables, []
        for group in groups:
            plan = self._plan(t.row, group, names)
            if plan is None:
                continue
            try:
                dealt.append(tables.seating.deal(dataclasses.replace(
                    plan, table_id=choose_id(new_id, tables.ring,
                                             tables.settings.ring_address))))
            except Refused as error:
                log.error("tournament %s: a table cannot be made: %s", t.row.id, error.reason)
        if not dealt and byes is None:
            return None
        free = {e.player_id: e.free_since for e in t.entrants}
        return Seated(round_, [(table.row.id, [s.player_id for s in table.seats])
                               for table in dealt],
                      byes, [(table.row, table.seats, table.decks) for table in dealt],
                      dealt, {p: free.get(p) for g in groups for p in g if p})

    def _pair_arena(self, t: Tourney, at: _dt.datetime,
                    apart: dict[str, set[str]]) -> list[list[str | None]]:
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
        groups: list[list[str | None]] = [list(g) for g in paired.tables]
        groups += [[*g, *[None] * (t.row.players - len(g))] for g in paired.with_bots]
        return groups

    async def _begin(self, row: TournamentRow, seated: Seated[Dealt]) -> None:
        """The step's tables, stored: owned here (where several processes share the
        tables), started, and their players told (off the step)."""
        tables, cluster = self.tables, self.tables.cluster
        for table in seated.dealt:
            if cluster is not None:
                # stored first: a table not owned now (Redis away) is adopted later, as
                # one whose process died is
                with contextlib.suppress(ClusterUnavailable):
                    await cluster.claim(table.row.id)
            await tables.seating.begin(table)
        now = stamp()
        self.paired.extend((now - since).total_seconds()
                           for since in seated.since.values() if since is not None)
        tables.spawn(self._tell_paired(row, seated.dealt))

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
        self.changed(tournament_id)
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
        self.changed(tournament_id)
        for game in t.games:
            if game.status in (OPENING, PLAYING):
                try:
                    await self.tables.close_table(game.table_id, reason)
                except Refused as error:
                    log.warning("tournament %s: table %s not closed: %s", tournament_id,
                                game.table_id, error.reason)

