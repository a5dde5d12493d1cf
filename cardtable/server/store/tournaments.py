"""Tournaments' rows: the tournament, its entrants (points, streak, paused) and its games.

Everything a tournament's director decides is a row before it is acted on, so that a
process killed at any moment loses no pairing and no result: a table is written here as
``opening`` (its id chosen first) before it is made, and a finished table's results are
scored once, in one transaction that marks its game ``scored`` and adds each entrant's
points (``score_game``), whichever process does it.  The points come from the results the
ratings stored for the table (``players.PlayerGameRow``), so a tournament scores exactly
what the profile shows.
"""

from __future__ import annotations

import datetime as _dt
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeAlias, TypeVar

from sqlalchemy import (
    JSON,
    Executable,
    ForeignKey,
    Integer,
    String,
    case,
    cast,
    func,
    literal,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, aliased, defer, mapped_column
from sqlalchemy.orm.attributes import flag_modified, set_committed_value

from ..core.errors import Refused
from ..core.pairing import BYE_POINTS, arena_points
from .players import PlayerGameRow
from .social import BlockRow
from .stamps import Stamp, stamp
from .storage import (
    CLOSED,
    OVER,
    Base,
    SeatRow,
    Store,
    TableRow,
    _rows_changed,
    add_tables,
    guarded,
)

__all__ = ["ARENA", "FINISHED", "OPENING", "PLAYING", "RUNNING", "SCORED", "SWISS",
           "UPCOMING", "VOID", "EntrantRow", "GameRow", "Results", "Seated", "Survey",
           "TableRows", "TournamentRow", "TournamentStore", "Tourney", "new_tournament_id"]

UPCOMING, RUNNING, FINISHED = "upcoming", "running", "finished"
ARENA, SWISS = "arena", "swiss"
OPENING, PLAYING, SCORED, VOID = "opening", "playing", "scored", "void"
"""A game's states: its table about to be made, in play, its results added, or ended
without a result (abandoned, closed by an admin): nobody's points change."""


Results: TypeAlias = dict[str, list[str | int]]
"""A scored game's results: each entrant's result and the points it gave
(``{"p…": ["win", 4]}``; a pair, read back from JSON as a list)."""


def new_tournament_id() -> str:
    return "t" + secrets.token_hex(6)


class TournamentRow(Base):
    """One tournament: what it plays and how, and how it stands."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    organiser: Mapped[str] = mapped_column(String(32), index=True)
    game: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str | None] = mapped_column(String(64), nullable=True)
    options: Mapped[dict[str, object]] = mapped_column(JSON)
    kind: Mapped[str] = mapped_column(String(8))
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    players: Mapped[int] = mapped_column(Integer)
    """Seats at each of its tables."""
    clock: Mapped[dict[str, object]] = mapped_column(JSON)
    rated: Mapped[int] = mapped_column(Integer)
    bots: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The bot that fills a table when allowed (arena only); ``None``: no bots."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[_dt.datetime] = mapped_column(Stamp)
    starts: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True)
    """When it starts by itself; ``None``: when the organiser says (``/start``)."""
    started: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True)
    ends: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True)
    """An arena's end: no table is made after it; the games in play then still count."""
    finished: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True)
    round: Mapped[int] = mapped_column(Integer, default=0)
    """A swiss's round being played (0 before the first)."""
    closed: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """Why an admin closed it (it is finished then)."""


class EntrantRow(Base):
    """A player in a tournament, with their running score."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"),
                                               primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    rating: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    byes: Mapped[int] = mapped_column(Integer, default=0)
    paused: Mapped[int] = mapped_column(Integer, default=0)
    withdrawn: Mapped[int] = mapped_column(Integer, default=0)
    busy: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The table they play at now (``None``: free to be seated)."""
    free_since: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True)
    last: Mapped[list[str]] = mapped_column(JSON)
    """The others at their last table (an arena keeps them apart at once)."""
    met: Mapped[list[str]] = mapped_column(JSON)
    """Everyone they sat with in a swiss (which keeps them apart); an arena's stays as it
    is, and its steps do not read it."""


class GameRow(Base):
    """A tournament's table: who sits, in which round, and its results once scored."""

    __tablename__ = "tournament_games"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[str | None]] = mapped_column(JSON)
    """The player at each seat (``None``: a bot's seat)."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    results: Mapped[Results | None] = mapped_column(JSON, nullable=True)
    """Each entrant's result and points (``{"p…": ["win", 4]}``)."""
    created: Mapped[_dt.datetime] = mapped_column(Stamp)


@dataclass
class Survey:
    """A director's step's reading (``TournamentStore.survey``)."""

    tourney: Tourney
    opening: list[tuple[GameRow, bool]]
    """Tables written down and not yet in play, each with whether it was made."""
    ended: list[tuple[str, str, dict[str, object] | None]]
    """Tables in play whose game ended, not scored: (table, status, summary)."""
    scored: dict[str, Results] = field(default_factory=dict)
    """The tables the reading scored (``score_games``'s answer)."""
    apart: dict[str, set[str]] = field(default_factory=dict)
    """Whom each player a step may seat is kept apart from (a block, either way)."""


TableRows: TypeAlias = tuple[TableRow, list[SeatRow], list[list[str]]]
"""A table's rows as dealt (``Seating.deal``): the table, its seats, its first decks."""


D = TypeVar("D")
"""The director's record of a table dealt (``seating.Dealt``: the store does not look in it)."""


@dataclass
class Seated(Generic[D]):
    """What a director's step seats (``TournamentStore.step``'s ``decide`` answers it)."""

    round: int
    games: list[tuple[str, list[str | None]]]
    """Each table's id and the player at each seat (``None``: a bot)."""
    byes: list[str] | None
    """A swiss's round: who sits it out (the round moves on once); ``None``: an arena."""
    made: list[TableRows]
    dealt: list[D] = field(default_factory=list)
    """The director's own record of each table dealt (``seating.Dealt``), to start them."""
    since: dict[str, _dt.datetime | None] = field(default_factory=dict)
    """When each player seated became free (the director's measure of its waits)."""


@dataclass
class Tourney:
    """A tournament as read whole."""

    row: TournamentRow
    entrants: list[EntrantRow]
    games: list[GameRow]


class TournamentStore(Store):
    """The tournaments' rows; every method is ``guarded`` (call it in a thread)."""

    @guarded
    def create(self, row: TournamentRow, open_limit: int) -> None:
        """Store a new tournament; an organiser with ``open_limit`` not finished already
        is refused (429 ``tournament_limit``)."""
        with self.storage.writing() as session:
            held = session.scalar(select(func.count()).select_from(TournamentRow).where(
                TournamentRow.organiser == row.organiser,
                TournamentRow.status != FINISHED)) or 0
            if held >= open_limit:
                raise Refused(f"you have {held} tournaments not finished; the limit is "
                              f"{open_limit}", 429, "tournament_limit",
                              params={"limit": open_limit})
            session.add(row)

    @guarded
    def listing(self, status: str, limit: int) -> list[tuple[TournamentRow, int]]:
        """Tournaments in a status with their entrant counts (newest first)."""
        entrants = (select(func.count()).select_from(EntrantRow)
                    .where(EntrantRow.tournament_id == TournamentRow.id,
                           EntrantRow.withdrawn == 0).correlate(TournamentRow)
                    .scalar_subquery())
        order = (TournamentRow.finished.desc() if status == FINISHED
                 else TournamentRow.created.desc())
        with self.storage.sessions() as session:
            return [(row, count) for row, count in session.execute(
                select(TournamentRow, entrants).where(TournamentRow.status == status)
                .order_by(order, TournamentRow.id).limit(limit)).all()]

    @guarded
    def load(self, tournament_id: str, *, every_game: bool = True,
             newest: int | None = None) -> Tourney | None:
        """The tournament whole; ``every_game=False``: only its games not yet ended (what
        a director's step needs, whatever the length of its history); ``newest``: an
        arena's games not ended and its ``newest`` others, no older (what its page shows:
        a long arena has tens of thousands, and nothing in its standings reads them; a
        swiss's tie-break reads every game, and a swiss has a few rounds' worth)."""
        with self.storage.sessions() as session:
            return _load(session, tournament_id, every_game, newest=newest)

    @guarded
    def survey(self, tournament_id: str, at: _dt.datetime | None = None) -> Survey | None:
        """What a director's step reads, in one transaction: the tournament with its games
        not ended (``load``'s ``every_game=False``), which of its tables written down were
        made (``opening_games``), and whom its players are kept apart from (a block either
        way, among those a step may seat).  With ``at``, the tables in play whose game
        ended are scored in the same transaction first (``score_games``; ``Survey.scored``)
        unless it is an arena whose time is up at ``at``: its standings froze at its end.
        Without ``at`` nothing is written, and ``Survey.ended`` lists the ended tables."""
        with self.storage.writing() if at is not None else self.storage.sessions() as session:
            return _survey(session, tournament_id, at)

    @guarded
    def step(self, tournament_id: str, at: _dt.datetime,
             decide: Callable[[Survey], Seated[D] | None],
             ) -> tuple[Survey | None, Seated[D] | None]:
        """A director's step in one transaction: ``survey(tournament_id, at)`` (the ended
        tables scored), then ``decide`` given that reading (who sits where, the tables
        dealt; ``None``: nobody), then its tables stored with their games and players as
        ``open_games`` does with ``made``.  The answer's ``Seated`` is ``None`` if nothing
        was seated (nothing decided, or a player seated meanwhile by another step).
        ``decide`` runs here, in this thread and transaction: a pure and quick function.
        Tables written down and not made (``Survey.opening``) are left to the caller, and
        nobody is seated until they are."""
        with self.storage.writing() as session:
            survey = _step_survey(session, tournament_id, at)
            if survey is None or survey.tourney.row.status != RUNNING or survey.opening:
                return survey, None
            seated = decide(survey)
            if seated is None or not _open_games(
                    session, tournament_id, seated.round, seated.games, seated.byes,
                    seated.made, {e.player_id: e for e in survey.tourney.entrants}):
                _written_alike(session)
                return survey, None   # what was scored is kept all the same
            _written_alike(session)
            return survey, seated

    @guarded
    def score_and_load(self, table_ids: list[str], kind: str,
                       tournament_id: str) -> tuple[dict[str, Results], Tourney | None]:
        """``score_games``, then the tournament read again with the points (``load``'s
        ``every_game=False``): one call of a director's step."""
        scored = self.score_games(table_ids, kind)
        with self.storage.sessions() as session:
            return scored, _load(session, tournament_id, every_game=False)

    @guarded
    def of_player(self, player_id: str, limit: int = 50) -> list[tuple[TournamentRow,
                                                                        EntrantRow]]:
        """The tournaments a player entered, newest first (the profile's history)."""
        with self.storage.sessions() as session:
            return [(t, e) for t, e in session.execute(
                select(TournamentRow, EntrantRow).join(
                    EntrantRow, EntrantRow.tournament_id == TournamentRow.id)
                .where(EntrantRow.player_id == player_id)
                .order_by(TournamentRow.created.desc()).limit(limit)).all()]

    @guarded
    def join(self, tournament_id: str, player_id: str, name: str, rating: int,
             max_entrants: int) -> None:
        """Enter a player, or bring back one who paused or withdrew; an arena takes
        entrants while it runs, a swiss only before it starts."""
        with self.storage.writing() as session:
            row = _found(session, tournament_id)
            if row.status == FINISHED:
                raise Refused("this tournament is over", 409, "tournament_over")
            entrant = session.get(EntrantRow, (tournament_id, player_id))
            if entrant is not None:   # back from a pause or a withdrawal
                session.execute(update(EntrantRow).where(
                    EntrantRow.tournament_id == tournament_id,
                    EntrantRow.player_id == player_id).values(
                    paused=0, withdrawn=0, name=name,
                    free_since=entrant.free_since if entrant.busy else stamp()))
                return
            if row.status == RUNNING and row.kind == SWISS:
                raise Refused("a swiss takes entrants only before it starts", 409,
                              "tournament_started")
            count = session.scalar(select(func.count()).select_from(EntrantRow).where(
                EntrantRow.tournament_id == tournament_id)) or 0
            if count >= max_entrants:
                raise Refused(f"this tournament has its {max_entrants} entrants", 409,
                              "tournament_full", params={"limit": max_entrants})
            session.add(EntrantRow(tournament_id=tournament_id, player_id=player_id,
                                   name=name, rating=rating, points=0, games=0, wins=0,
                                   streak=0, byes=0, paused=0, withdrawn=0,
                                   free_since=stamp(), last=[], met=[]))

    @guarded
    def set_away(self, tournament_id: str, player_id: str, *, withdraw: bool) -> None:
        """Pause a player (an arena seats them no more until they join again) or withdraw
        them (neither kind seats them; their points stay in the standings)."""
        with self.storage.writing() as session:
            row = _found(session, tournament_id)
            if row.status == FINISHED:
                raise Refused("this tournament is over", 409, "tournament_over")
            entrant = session.get(EntrantRow, (tournament_id, player_id))
            if entrant is None:
                raise Refused("you have not entered this tournament", 409, "not_entered")
            if withdraw:
                entrant.withdrawn = 1
            else:
                entrant.paused = 1

    @guarded
    def leave_all(self, player_id: str) -> int:
        """A banned player leaves every tournament not finished; how many."""
        with self.storage.writing() as session:
            open_ids = select(TournamentRow.id).where(TournamentRow.status != FINISHED)
            return _rows_changed(session.execute(update(EntrantRow).where(
                EntrantRow.player_id == player_id,
                EntrantRow.tournament_id.in_(open_ids)).values(withdrawn=1)))

    @guarded
    def start(self, tournament_id: str, at: _dt.datetime, *, by: str | None) -> bool:
        """Start an upcoming tournament (``by``: only its organiser may; ``None``: its
        time came); False if it was not upcoming any more."""
        with self.storage.writing() as session:
            row = _found(session, tournament_id)
            if by is not None and row.organiser != by:
                raise Refused("only the organiser starts a tournament", 409, "not_organiser")
            if row.status != UPCOMING:
                if by is not None:
                    raise Refused("this tournament has started already", 409,
                                  "tournament_started")
                return False
            ends = at + _dt.timedelta(minutes=row.minutes) if row.kind == ARENA and \
                row.minutes else None
            return _changed(session, update(TournamentRow).where(
                TournamentRow.id == tournament_id, TournamentRow.status == UPCOMING)
                .values(status=RUNNING, started=at, ends=ends))

    @guarded
    def due(self, at: _dt.datetime) -> list[str]:
        """Upcoming tournaments whose start time has come, and running ones."""
        with self.storage.sessions() as session:
            return list(session.scalars(select(TournamentRow.id).where(
                ((TournamentRow.status == UPCOMING) & (TournamentRow.starts <= at))
                | (TournamentRow.status == RUNNING)).order_by(TournamentRow.id)))

    @guarded
    def finish(self, tournament_id: str, closed: str | None = None) -> bool:
        """The tournament ends (``closed``: an admin closed it, saying why)."""
        with self.storage.writing() as session:
            return _changed(session, update(TournamentRow).where(
                TournamentRow.id == tournament_id, TournamentRow.status != FINISHED)
                .values(status=FINISHED, finished=stamp(), closed=closed))

    @guarded
    def open_games(self, tournament_id: str, round_: int,
                   games: list[tuple[str, list[str | None]]],
                   byes: list[str] | None = None,
                   made: list[TableRows] | None = None) -> bool:
        """Write tables about to be made (their ids chosen) and their players busy at them,
        in one transaction.  With ``byes`` (a swiss) the tournament moves to ``round_``
        and the byes are scored, once.  With ``made`` (each table's rows, dealt:
        ``Seating.deal``) the tables themselves are stored in the same transaction and
        their games are in play at once: a step's tables are one write.  False, and
        nothing written, if it had moved or one of the players is at a table already."""
        with self.storage.writing() as session:
            return _open_games(session, tournament_id, round_, games, byes, made)

    @guarded
    def games_opened(self, table_ids: list[str]) -> None:
        """Tables made: their games are in play (one write for them all)."""
        with self.storage.writing() as session:
            session.execute(update(GameRow).where(GameRow.table_id.in_(table_ids),
                                                  GameRow.status == OPENING)
                            .values(status=PLAYING))

    @guarded
    def void_game(self, table_id: str) -> None:
        """A table that could not be made: its game scores nothing, its players are free."""
        with self.storage.writing() as session:
            game = session.get(GameRow, table_id)
            if game is None or not _changed(session, update(GameRow).where(
                    GameRow.table_id == table_id, GameRow.status.in_((OPENING, PLAYING)))
                    .values(status=VOID)):
                return
            for seated in game.players:
                entrant = (session.get(EntrantRow, (game.tournament_id, seated))
                           if seated is not None else None)
                if entrant is not None and entrant.busy == table_id:
                    entrant.busy, entrant.free_since = None, stamp()

    @guarded
    def names(self, tournament_id: str) -> dict[str, str]:
        with self.storage.sessions() as session:
            return dict(session.execute(select(EntrantRow.player_id, EntrantRow.name).where(
                EntrantRow.tournament_id == tournament_id)).all())

    @guarded
    def ended_games(self, tournament_id: str) -> list[tuple[str, str, dict[str, object] | None]]:
        """The tournament's tables in play whose game has ended: (table, status, summary)."""
        with self.storage.sessions() as session:
            return _ended(session, tournament_id)

    @guarded
    def opening_games(self, tournament_id: str) -> list[tuple[GameRow, bool]]:
        """Tables written as about to be made: each with whether it was made (a crash
        between the two leaves it to be made again, under the same id)."""
        with self.storage.sessions() as session:
            rows = list(session.scalars(select(GameRow).where(
                GameRow.tournament_id == tournament_id, GameRow.status == OPENING)))
            for row in rows:
                session.expunge(row)
            return _opening(session, rows)

    @guarded
    def score_game(self, table_id: str, kind: str) -> Results | None:
        """``score_games`` for one table: its results, or ``None`` if it was scored."""
        return self.score_games([table_id], kind).get(table_id)

    @guarded
    def score_games(self, table_ids: list[str], kind: str) -> dict[str, Results]:
        """Add finished tables' results to their entrants, each once: a game is marked
        scored in the transaction that adds its points (one transaction for them all),
        so a game another process scored meanwhile is left out of the answer.  A table
        closed, or ended with no result, scores nothing (``void``)."""
        with self.storage.writing() as session:
            return _score(session, table_ids, kind)


def _score(session: Session, table_ids: list[str], kind: str, *,
           status: dict[str, str] | None = None,
           entrants: dict[tuple[str, str], EntrantRow] | None = None,
           games: dict[str, GameRow] | None = None,
           found: dict[str, dict[str, str]] | None = None) -> dict[str, Results]:
    """``score_games``'s transaction, in a few statements whatever the number of tables
    (a step scores every table that ended since the last); ``status``: the tables'
    statuses, ``entrants``: the entrants by (tournament, player), ``games``: the games in
    play by table, and ``found``: each ended table's results by player, where the caller
    read them in this transaction already.  The games' marks and results are written in
    one statement, which marks only games still in play: a game another process scored
    meanwhile is left out of the answer, and its points are not added again."""
    if games is None:
        games = {g.table_id: g for g in session.scalars(select(GameRow).where(
            GameRow.table_id.in_(table_ids), GameRow.status == PLAYING))}
    if status is None:
        status = dict(session.execute(select(TableRow.id, TableRow.status).where(
            TableRow.id.in_(games))).all())
    games = {t: g for t, g in games.items() if t in status}
    if not games:
        return {}
    if found is None:
        found = {}
        for table_id, player, outcome in session.execute(
                select(PlayerGameRow.table_id, PlayerGameRow.player_id, PlayerGameRow.result)
                .where(PlayerGameRow.table_id.in_(games))):
            found.setdefault(table_id, {})[player] = outcome
    void = {t for t in games if status[t] == CLOSED or t not in found}
    if entrants is None:
        people = {(g.tournament_id, p) for g in games.values() for p in g.players
                  if p is not None}
        entrants = {(e.tournament_id, e.player_id): e for e in session.scalars(
            select(EntrantRow).where(
                EntrantRow.tournament_id.in_({t for t, _ in people}),
                EntrantRow.player_id.in_({p for _, p in people})))}
    # each game's results first (a pure reading of the entrants' streaks), then the games
    # marked with them in one statement, then the points added for the games it marked
    streaks = {key: e.streak for key, e in entrants.items()}
    planned: dict[str, Results] = {}
    for table_id in sorted(games):
        game, results = games[table_id], Results()
        for player in (p for p in game.players if p is not None):
            result = found.get(table_id, {}).get(player)
            key = (game.tournament_id, player)
            if table_id in void or result is None or key not in entrants:
                continue
            points, streak = arena_points(result, streaks[key] if kind == ARENA else 0)
            if kind == ARENA:
                streaks[key] = streak
            results[player] = [result, points]
        planned[table_id] = results
    written = (lambda value: cast(literal(value, JSON), JSON)) \
        if session.get_bind().dialect.name == "postgresql" else \
        (lambda value: literal(value, JSON))
    mine = set(session.scalars(
        update(GameRow).where(GameRow.table_id.in_(games), GameRow.status == PLAYING)
        .values(status=case({t: VOID if t in void else SCORED for t in games},
                            value=GameRow.table_id),
                results=case({t: written(planned[t]) for t in games},
                             value=GameRow.table_id))
        .returning(GameRow.table_id).execution_options(synchronize_session=False)))
    at = stamp()
    scored: dict[str, Results] = {}
    for table_id in sorted(mine):
        game = games[table_id]
        set_committed_value(game, "status", VOID if table_id in void else SCORED)
        set_committed_value(game, "results", planned[table_id])
        seated = [p for p in game.players if p is not None]
        for player in seated:
            entrant = entrants.get((game.tournament_id, player))
            if entrant is None:
                continue
            entrant.busy = None
            entrant.free_since = at
            entrant.last = [p for p in seated if p != player]
            if kind != ARENA:   # an arena keeps apart only its last table's
                entrant.met = sorted(set(entrant.met) | set(entrant.last))
            if player not in planned[table_id]:
                continue
            their, earned = planned[table_id][player]
            if kind == ARENA:
                entrant.streak = streaks[(game.tournament_id, player)]
            entrant.points += int(earned)
            entrant.games += 1
            entrant.wins += their == "win"
        scored[table_id] = planned[table_id]
    return scored


def _open_games(session: Session, tournament_id: str, round_: int,
                games: list[tuple[str, list[str | None]]], byes: list[str] | None,
                made: list[TableRows] | None,
                entrants: dict[str, EntrantRow] | None = None) -> bool:
    """``open_games``'s writes, in the caller's transaction (``entrants``: the
    tournament's, as the caller read and locked them in it already)."""
    seated = {p for _, players in games for p in players if p is not None}
    if entrants is None:
        entrants = {e.player_id: e for e in session.scalars(select(EntrantRow).where(
            EntrantRow.tournament_id == tournament_id,
            EntrantRow.player_id.in_(seated | set(byes or ()))).options(
            defer(EntrantRow.met)).with_for_update())}
    if any(entrants[p].busy is not None for p in seated if p in entrants):
        return False   # seated meanwhile by another step: nothing is written
    if byes is not None:
        if not _changed(session, update(TournamentRow).where(
                TournamentRow.id == tournament_id, TournamentRow.round == round_ - 1)
                .values(round=round_)):
            return False
        for player in byes:
            if player in entrants:
                entrants[player].byes += 1
                entrants[player].points += BYE_POINTS
    at = stamp()
    for table_id, group in games:
        session.add(GameRow(table_id=table_id, tournament_id=tournament_id,
                            round=round_, players=group,
                            status=OPENING if made is None else PLAYING, created=at))
        for person in group:
            if person in entrants:
                entrants[person].busy, entrants[person].free_since = table_id, None
    _written_alike(session)
    add_tables(session, made or [])
    return True


_SCORE_COLUMNS = ("points", "games", "wins", "streak", "byes", "busy", "free_since", "last")


def _written_alike(session: Session) -> None:
    """The entrants a step changed, each written with the same columns: one statement for
    them all (the unit of work writes rows changed in different columns in a statement
    each: those scored, those seated, those both)."""
    for row in session.dirty:
        if isinstance(row, EntrantRow):
            for column in _SCORE_COLUMNS:
                flag_modified(row, column)


def _survey(session: Session, tournament_id: str, at: _dt.datetime | None) -> Survey | None:
    """``survey``'s reading (and scoring, with ``at``) in the caller's transaction."""
    row = session.get(TournamentRow, tournament_id) if len(tournament_id) <= 16 else None
    if row is None:
        return None
    running = row.status == RUNNING
    ended = _ended(session, tournament_id) if running else []
    over = row.kind == ARENA and row.ends is not None and at is not None and at >= row.ends
    scored: dict[str, Results] = {}
    entrants = None
    if ended and at is not None and not over:
        entrants = _entrants(session, tournament_id, row.kind)
        scored = _score(session, [table for table, _, _ in ended], row.kind,
                        status={table: status for table, status, _ in ended},
                        entrants={(tournament_id, e.player_id): e for e in entrants})
        ended = []
    t = _load(session, tournament_id, every_game=False, entrants=entrants)
    if t is None or not running:
        return None if t is None else Survey(t, [], [])
    return Survey(t, _opening(session, [g for g in t.games if g.status == OPENING]),
                  ended, scored, _apart(session, tournament_id, _seatable(t)))


def _step_survey(session: Session, tournament_id: str,
                 at: _dt.datetime) -> Survey | None:
    """A director's step's reading and scoring (``survey`` with ``at``) in the caller's
    transaction, in as few statements as it can: the entrants read once, locked (a step
    of another process waits for this one's commit, and the seating writes them without
    reading them again), the games not ended read once with their tables' states (which
    ended, which were made), and the rows kept in the session: the seating's changes and
    the scoring's are written together at the commit."""
    row = session.get(TournamentRow, tournament_id) if len(tournament_id) <= 16 else None
    if row is None or row.status != RUNNING:
        return _survey(session, tournament_id, at)
    query = select(EntrantRow).where(EntrantRow.tournament_id == tournament_id)
    if row.kind == ARENA:
        query = query.options(defer(EntrantRow.met))
    entrants = list(session.scalars(query.order_by(EntrantRow.player_id).with_for_update()))
    games: list[GameRow] = []
    ended: list[tuple[str, str, dict[str, object] | None]] = []
    made: set[str] = set()
    found: dict[str, dict[str, str]] = {}   # an ended table's results, by player
    for game, status, counted, player, outcome in session.execute(
            select(GameRow, TableRow.status, TableRow.counted, PlayerGameRow.player_id,
                   PlayerGameRow.result)
            .outerjoin(TableRow, TableRow.id == GameRow.table_id)
            .outerjoin(PlayerGameRow, PlayerGameRow.table_id == GameRow.table_id)
            .where(GameRow.tournament_id == tournament_id,
                   GameRow.status.in_((OPENING, PLAYING)))
            .order_by(GameRow.created, GameRow.table_id)):
        if player is not None:   # a row a seat's result: the game came before
            found.setdefault(game.table_id, {})[player] = outcome
        if games and games[-1] is game:
            continue
        games.append(game)
        if status is not None:
            made.add(game.table_id)
        if game.status == PLAYING and (status == CLOSED
                                       or (status == OVER and counted is not None)):
            ended.append((game.table_id, status, None))
    over = row.kind == ARENA and row.ends is not None and at >= row.ends
    scored: dict[str, Results] = {}
    if ended and not over:
        gone = {table for table, _, _ in ended}
        scored = _score(session, sorted(gone), row.kind,
                        status={table: status for table, status, _ in ended},
                        entrants={(tournament_id, e.player_id): e for e in entrants},
                        games={g.table_id: g for g in games if g.table_id in gone},
                        found=found)
        games, ended = [g for g in games if g.table_id not in gone], []
    t = Tourney(row, entrants, games)
    with session.no_autoflush:   # the blocks' reading needs none of the changes
        apart = _apart(session, tournament_id, _seatable(t))
    return Survey(t, [(g, g.table_id in made) for g in games if g.status == OPENING],
                  ended, scored, apart)


def _seatable(t: Tourney) -> list[str]:
    """The entrants a step may seat: an arena's free ones, a swiss's present ones once a
    round's tables have all ended."""
    if t.row.kind == ARENA:
        return [e.player_id for e in t.entrants
                if e.busy is None and not e.paused and not e.withdrawn]
    if any(g.status in (OPENING, PLAYING) for g in t.games):
        return []
    return [e.player_id for e in t.entrants if not e.withdrawn]


def _apart(session: Session, tournament_id: str,
           player_ids: list[str]) -> dict[str, set[str]]:
    """Whom each of the players is kept apart from among them: a block either way (read
    as the blocks between the tournament's entrants: no list of ids to send)."""
    apart: dict[str, set[str]] = {}
    if len(player_ids) < 2:
        return apart
    one, other = aliased(EntrantRow), aliased(EntrantRow)
    seatable = set(player_ids)
    for blocker, blocked in session.execute(
            select(BlockRow.blocker_id, BlockRow.blocked_id)
            .join(one, (one.tournament_id == tournament_id)
                  & (one.player_id == BlockRow.blocker_id))
            .join(other, (other.tournament_id == tournament_id)
                  & (other.player_id == BlockRow.blocked_id))):
        if blocker in seatable and blocked in seatable:
            apart.setdefault(blocker, set()).add(blocked)
            apart.setdefault(blocked, set()).add(blocker)
    return apart


def _opening(session: Session, rows: list[GameRow]) -> list[tuple[GameRow, bool]]:
    if not rows:
        return []
    made = set(session.scalars(select(TableRow.id).where(
        TableRow.id.in_([row.table_id for row in rows]))))
    return [(row, row.table_id in made) for row in rows]


def _ended(session: Session,
           tournament_id: str) -> list[tuple[str, str, dict[str, object] | None]]:
    return [(t, s, summary) for t, s, summary in session.execute(
        select(GameRow.table_id, TableRow.status, TableRow.summary)
        .join(TableRow, TableRow.id == GameRow.table_id)
        .where(GameRow.tournament_id == tournament_id, GameRow.status == PLAYING,
               ((TableRow.status == OVER) & TableRow.counted.is_not(None))
               | (TableRow.status == CLOSED))).all()]


def _found(session: Session, tournament_id: str) -> TournamentRow:
    row = session.get(TournamentRow, tournament_id) if len(tournament_id) <= 16 else None
    if row is None:
        raise Refused(f"there is no tournament {tournament_id[:40]!r}", 404, "not_found")
    return row


def _changed(session: Session, query: Executable) -> bool:
    return _rows_changed(session.execute(query)) == 1


def _entrants(session: Session, tournament_id: str, kind: str) -> list[EntrantRow]:
    """The entrants; an arena's without ``met`` (kept for a swiss only: a long arena's
    would be every other entrant, read at every step for nothing)."""
    query = select(EntrantRow).where(EntrantRow.tournament_id == tournament_id)
    return list(session.scalars(query.options(defer(EntrantRow.met)) if kind == ARENA
                                else query))


def _load(session: Session, tournament_id: str, every_game: bool = True,
          entrants: list[EntrantRow] | None = None,
          newest: int | None = None) -> Tourney | None:
    """The tournament whole (``entrants``: as this transaction read them already;
    ``newest``: see ``TournamentStore.load``)."""
    row = session.get(TournamentRow, tournament_id) if len(tournament_id) <= 16 else None
    if row is None:
        return None
    if entrants is None:
        entrants = _entrants(session, tournament_id, row.kind)
    else:
        session.flush()   # the changes made to them are written before they are let go
    query = select(GameRow).where(GameRow.tournament_id == tournament_id)
    if not every_game:
        query = query.where(GameRow.status.in_((OPENING, PLAYING)))
    elif newest is not None and row.kind == ARENA:
        latest = (select(GameRow.table_id).where(GameRow.tournament_id == tournament_id)
                  .order_by(GameRow.created.desc(), GameRow.table_id.desc()).limit(newest))
        query = query.where(GameRow.status.in_((OPENING, PLAYING))
                            | GameRow.table_id.in_(latest))
    games = list(session.scalars(query.order_by(GameRow.created, GameRow.table_id)))
    for item in (row, *entrants, *games):
        session.expunge(item)
    return Tourney(row, entrants, games)
