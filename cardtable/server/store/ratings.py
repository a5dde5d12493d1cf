"""Results, ratings, profiles and the leaderboard.

When a table finishes, its ``Tally`` records each player's result once (a row in
``tables_counted`` makes a second count, by any process, a no-op): the game in their
recent games, their record against each bot level at the table, and, when every seat is a
signed-in account (no guests, no bots, no bot accounts), new openskill ratings in the
table's pool (game, rule set, player count: 2 players apart, 3 or more together).  The
tally runs in the transaction that stores the game's end (``storage.Tally``), so a crash
cannot leave a game over and not counted; a table that is all the same (an older version
crashed between the two, or the count failed) is counted by ``count_table`` when a start,
a sweep or an adoption finds it (``tables.counted`` is ``None``).  A seat
the table summary names as resigned (``summary["resigned"]``) or forfeited
(``summary["forfeits"]``) has lost, whatever the cards said.  The rating change goes into
the table's summary (``summary["ratings"]``), so the end of the game shows it.

A game is rated only if its creator chose so (``Tally.chosen``: quick play between accounts
always is), every seat made a move (``Tally.moved``), and no two of its accounts have
already had ``REPEATS_A_DAY`` rated results together in the 24 hours before it; otherwise it
is counted as a casual game and its summary says why (``unrated``).  Two accounts that
play each other over and over gain nothing after the third game of a day.

Ratings are shown as ``1500 + 20 * (mu - 25)``: 1500 to start, about 50 points for a first
win between equals; a rating is provisional while openskill's sigma is over 7 (about the
first six games) or until it was won against ``PROVISIONAL_OPPONENTS`` different accounts
in its pool that vouch for it (two accounts taking turns to win make neither of them
established).  An opponent vouches (``counted_opponents``) only if they have had rated
results against ``VOUCHERS`` other accounts, none of them the player or related to the
player (sharing a network or a browser, ``OriginRow``): sock puppets made on one address
cannot play each other rated (``related``), so each has met nobody but its farmer and
vouches for nobody; a farm needs that many more accounts on other networks and browsers,
each of them playing every puppet.
The leaderboard lists established ratings only: a provisional one, however high, is seen
on its player's profile and at the table, never ranked (a rating bought in a few games
against puppets has nowhere to show off).
"""

from __future__ import annotations

import datetime as _dt
import logging
from dataclasses import dataclass, field

from sqlalchemy import ColumnElement, SQLColumnExpression, distinct, func, insert, literal, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, aliased

from .players import (
    BotRecordRow,
    FinishedRow,
    OriginRow,
    PlayerGameRow,
    PlayerRow,
    RatingHistoryRow,
    RatingRow,
)
from .stamps import stamp, text_of
from .storage import Store, guarded

__all__ = ["PROVISIONAL_OPPONENTS", "REPEATS_A_DAY", "VOUCHERS", "SeatResult", "Tally", "display",
           "pool_of", "rated"]

log = logging.getLogger("cardtable.server")

SCALE, CENTRE, START_MU = 20.0, 1500, 25.0
PROVISIONAL_SIGMA = 7.0
PROVISIONAL_OPPONENTS = 5
"""Different accounts a player must have met in rated games of a pool before their rating
there is established (not provisional)."""
VOUCHERS = 3
"""Other accounts (not the player, none related to the player) an opponent must have had
rated results against to count toward the player's ``PROVISIONAL_OPPONENTS``."""
REPEATS_A_DAY = 3
"""Rated results two accounts may have together in 24 hours; later games are casual."""
DAY = _dt.timedelta(days=1)
HISTORY = 200
"""Rating points kept per pool in a profile answer (the newest)."""


def display(mu: float) -> int:
    """The rating people see.

    >>> display(25.0), display(27.5)
    (1500, 1550)
    """
    return round(CENTRE + SCALE * (mu - START_MU))


def provisional(sigma: float, opponents: int) -> bool:
    """Whether a rating is still provisional: too uncertain, or met too few opponents.

    >>> provisional(5.0, PROVISIONAL_OPPONENTS), provisional(5.0, 1), provisional(8.0, 9)
    (False, True, True)
    """
    return sigma > PROVISIONAL_SIGMA or opponents < PROVISIONAL_OPPONENTS


def opponents_column() -> ColumnElement[int]:
    """The different accounts met in rated games of a ``RatingRow``'s pool (a correlated
    subquery, so a leaderboard can order by it): at least ``counted_opponents``."""
    mine, theirs = aliased(PlayerGameRow), aliased(PlayerGameRow)
    return (select(func.count(distinct(theirs.player_id)))
            .where(mine.player_id == RatingRow.player_id, mine.pool == RatingRow.pool,
                   mine.rated == 1, theirs.table_id == mine.table_id,
                   theirs.player_id != mine.player_id)
            .correlate(RatingRow).scalar_subquery())


def vouchers(player: SQLColumnExpression[str],
             pool: SQLColumnExpression[str]) -> ColumnElement[int]:
    """The different accounts met in rated games of ``pool`` that vouch for ``player``,
    as one correlated subquery (a leaderboard filters by it, a profile reads it beside each
    rating: a constant number of statements whatever the number of players).  An opponent
    vouches if they have had rated results (in any pool) against ``VOUCHERS`` other
    accounts, none of them the player or an account related to the player (one network
    or browser, ``OriginRow``)."""
    mine, theirs = aliased(PlayerGameRow), aliased(PlayerGameRow)
    own, other = aliased(PlayerGameRow), aliased(PlayerGameRow)
    origin, kin = aliased(OriginRow), aliased(OriginRow)
    opponent = aliased(PlayerRow)
    met = select(theirs.player_id).where(
        mine.player_id == player, mine.pool == pool, mine.rated == 1,
        theirs.table_id == mine.table_id, theirs.player_id != player,
    ).correlate_except(mine, theirs)
    near = select(kin.player_id).where(kin.origin == origin.origin,
                                       origin.player_id == player).correlate_except(origin, kin)
    others = (select(func.count(distinct(other.player_id)))
              .where(own.player_id == opponent.id, own.rated == 1,
                     other.table_id == own.table_id, other.player_id != own.player_id,
                     other.player_id != player, other.player_id.not_in(near))
              .correlate_except(own, other).scalar_subquery())
    return (select(func.count()).select_from(opponent)
            .where(opponent.id.in_(met), others >= VOUCHERS)
            .correlate_except(opponent).scalar_subquery())


def counted_opponents(session: Session, player_id: str, pool: str) -> int:
    """``vouchers`` for one player: the accounts met in rated games of ``pool`` that
    vouch for them."""
    return session.scalar(select(vouchers(literal(player_id), literal(pool)))) or 0


def met_today(session: Session, player_ids: list[str], at: _dt.datetime) -> int:
    """The most rated games any two of ``player_ids`` played together in the day before
    ``at`` (a farming pair's count)."""
    most = 0
    for i, first in enumerate(player_ids):
        theirs = select(PlayerGameRow.table_id).where(
            PlayerGameRow.player_id == first, PlayerGameRow.rated == 1,
            PlayerGameRow.at > at - DAY)
        for second in player_ids[i + 1:]:
            together = session.scalar(select(func.count()).select_from(PlayerGameRow).where(
                PlayerGameRow.player_id == second, PlayerGameRow.rated == 1,
                PlayerGameRow.table_id.in_(theirs))) or 0
            most = max(most, together)
    return most


def related(session: Session, player_ids: list[str]) -> bool:
    """Whether two of ``player_ids`` signed in from one network or one browser
    (``players.OriginRow``): their games together are not rated (a farm of accounts
    made to lose to one)."""
    shared = session.scalar(
        select(func.count()).select_from(
            select(OriginRow.origin).where(OriginRow.player_id.in_(player_ids))
            .group_by(OriginRow.origin)
            .having(func.count(distinct(OriginRow.player_id)) > 1).subquery()))
    return bool(shared)


def pool_of(game: str, preset: str | None, players: int) -> str:
    """The pool a table is rated in: two players apart, three or more together.

    >>> pool_of("durak", "transfer", 2), pool_of("durak", "transfer", 5)
    ('durak/transfer/2p', 'durak/transfer/3+p')
    """
    return f"{game}/{preset or 'custom'}/{'2p' if players == 2 else '3+p'}"


@dataclass(frozen=True)
class SeatResult:
    """How one seat did: its score (the game's return; higher is better), and who sat."""

    seat: int
    kind: str
    """``human`` or ``bot`` (the table's own bot)."""
    player_id: str | None
    player_kind: str | None
    bot: str | None
    score: float
    result: str
    """``win``, ``loss`` or ``draw``."""



def rated(results: list[SeatResult]) -> bool:
    """Only games between signed-in accounts are rated (each in one seat)."""
    people = [r.player_id for r in results]
    return (len(results) >= 2 and all(r.kind == "human" and r.player_kind == "account"
                                      and r.player_id for r in results)
            and len(set(people)) == len(people))


def _claim(session: Session, table_id: str, at: _dt.datetime) -> bool:
    """Mark a table counted (its row in ``tables_counted``); False if it was already, by
    any process.  A second process inserting it at once waits for the first's commit and
    then inserts nothing, so no error spoils the transaction it is in."""
    dialect = session.get_bind().dialect.name
    values = {"table_id": table_id, "at": at}
    if dialect in ("postgresql", "sqlite"):
        make = postgresql.insert if dialect == "postgresql" else sqlite.insert
        query = make(FinishedRow).values(**values).on_conflict_do_nothing(
            index_elements=["table_id"]).returning(FinishedRow.table_id)
        return session.execute(query).scalar() is not None
    else:  # another database: the primary key refuses the second
        if session.get(FinishedRow, table_id) is not None:
            return False
        session.execute(insert(FinishedRow).values(**values))
        return True


def count_in(session: Session, table_id: str, game: str, pool: str,
             results: list[SeatResult], is_rated: bool, at: _dt.datetime
             ) -> dict[int, dict[str, object]] | None:
    """Record a finished table's results once, in the caller's transaction; the rating
    changes by seat (empty for an unrated game; ``None``: counted already)."""
    from openskill.models import PlackettLuce

    if not _claim(session, table_id, at):
        return None
    people = [r for r in results if r.kind == "human" and r.player_id]
    known = set(session.scalars(select(PlayerRow.id).where(
        PlayerRow.id.in_([r.player_id for r in people]))))
    people = [r for r in people if r.player_id in known]
    for r in people:
        session.add(PlayerGameRow(player_id=r.player_id, table_id=table_id, seat=r.seat,
                                  game=game, pool=pool, result=r.result,
                                  rated=int(is_rated), at=at))
        for bot in (b for b in results if b.kind == "bot" and b.bot):
            record = session.get(BotRecordRow, (r.player_id, bot.bot))
            if record is None:
                record = BotRecordRow(player_id=r.player_id, bot=bot.bot, wins=0,
                                      losses=0, draws=0)
                session.add(record)
            if r.score > bot.score:
                record.wins += 1
            elif r.score < bot.score:
                record.losses += 1
            else:
                record.draws += 1
    if not is_rated:
        session.flush()
        return {}
    model = PlackettLuce()
    rows = []
    for r in results:
        row = session.get(RatingRow, (r.player_id, pool))
        if row is None:
            fresh = model.rating()
            row = RatingRow(player_id=r.player_id, pool=pool, mu=fresh.mu,
                            sigma=fresh.sigma, games=0, wins=0)
            session.add(row)
        rows.append(row)
    best = sorted({r.score for r in results}, reverse=True)
    ranks: list[float] = [best.index(r.score) for r in results]
    before = [model.rating(mu=row.mu, sigma=row.sigma) for row in rows]
    after = model.rate([[rating] for rating in before], ranks=ranks)
    changes: dict[int, dict[str, object]] = {}
    session.flush()   # this game's rows count among the opponents met
    vouched = dict(session.execute(select(
        RatingRow.player_id, vouchers(RatingRow.player_id, RatingRow.pool)).where(
        RatingRow.pool == pool, RatingRow.player_id.in_([r.player_id for r in results]))
        ).all())   # one statement for every seat
    for r, row, [new] in zip(results, rows, after, strict=True):
        old = display(row.mu)
        row.mu, row.sigma = new.mu, new.sigma
        row.games += 1
        row.wins += r.result == "win"
        change = display(new.mu) - old
        session.add(RatingHistoryRow(player_id=r.player_id, pool=pool,
                                     table_id=table_id, at=at,
                                     rating=display(new.mu), change=change))
        changes[r.seat] = {"pool": pool, "before": old, "after": display(new.mu),
                           "change": change,
                           "provisional": provisional(new.sigma,
                                                      vouched.get(r.player_id or "") or 0)}
    session.flush()   # a failure shows here, before the caller takes the changes
    return changes


@dataclass(eq=False)
class Tally:
    """A finished table's results, counted by ``storage`` in the transaction that stores
    the game's end, or in one of its own for a table left uncounted (``storage.Tally``)."""

    table_id: str
    game: str
    pool: str
    results: list[SeatResult]
    chosen: bool = False
    """The table is rated: its creator's choice (quick play's, between accounts)."""
    moved: bool = True
    """Every seat made a move (a game resigned before is not rated)."""
    changes: dict[int, dict[str, object]] = field(default_factory=dict)
    """The rating changes by seat of the last count (empty: unrated, counted already,
    or not counted)."""
    unrated: str | None = None
    """Why a rated table's game was counted as casual: ``not_every_seat_moved``,
    ``related`` (two of its accounts signed in from one network or browser) or
    ``repeated`` (``REPEATS_A_DAY``)."""

    @property
    def added(self) -> dict[str, object]:
        """What the count adds to the table's summary: ``ratings`` for a rated game, or
        ``rated: False`` and why for a rated table's game that did not count."""
        if self.unrated is not None:
            return {"rated": False, "unrated": self.unrated}
        if not self.changes:
            return {}
        return {"ratings": {str(seat): change for seat, change in self.changes.items()}}

    def __call__(self, session: Session, at: _dt.datetime) -> dict[str, object]:
        # a transaction tried before and rolled back counted nothing
        self.changes, self.unrated = {}, None
        if not self.results:
            return {}
        is_rated, why = self.chosen and rated(self.results), None
        if is_rated and not self.moved:
            is_rated, why = False, "not_every_seat_moved"
        elif is_rated and related(session, [r.player_id or "" for r in self.results]):
            is_rated, why = False, "related"
        elif is_rated and met_today(session, [r.player_id or "" for r in self.results],
                                    at) >= REPEATS_A_DAY:
            is_rated, why = False, "repeated"
        changes = count_in(session, self.table_id, self.game, self.pool, self.results,
                           is_rated, at)
        if changes is not None:
            self.changes, self.unrated = changes, why
        return self.added



class RatingStore(Store):
    """The results' rows (on the same engine as the players')."""

    @guarded
    def count(self, table_id: str, game: str, pool: str, results: list[SeatResult],
              is_rated: bool) -> dict[int, dict[str, object]] | None:
        """Record a finished table's results once, in a transaction of their own; the
        rating changes by seat (``None``: counted already)."""
        with self.storage.writing() as session:
            return count_in(session, table_id, game, pool, results, is_rated, stamp())

    @guarded
    def profile(self, key: str) -> dict[str, object] | None:
        with self.storage.sessions() as session:
            player = session.scalar(select(PlayerRow).where(
                PlayerRow.username_key == key.lower())) if len(key) <= 20 else None
            if player is None:
                player = session.get(PlayerRow, key)
            if player is None:
                return None
            # a constant number of statements, whatever the number of pools
            pools = session.execute(select(RatingRow, vouchers(
                RatingRow.player_id, RatingRow.pool)).where(
                RatingRow.player_id == player.id).order_by(RatingRow.pool)).all()
            newest = (select(RatingHistoryRow.pool, RatingHistoryRow.at,
                             RatingHistoryRow.rating, RatingHistoryRow.change,
                             RatingHistoryRow.table_id, func.row_number().over(
                                 partition_by=RatingHistoryRow.pool,
                                 order_by=RatingHistoryRow.id.desc()).label("nth"))
                      .where(RatingHistoryRow.player_id == player.id).subquery())
            history: dict[str, list[dict[str, object]]] = {}
            for pool, at, rating, change, table in session.execute(
                    select(newest.c.pool, newest.c.at, newest.c.rating, newest.c.change,
                           newest.c.table_id).where(newest.c.nth <= HISTORY)
                    .order_by(newest.c.pool, newest.c.nth.desc())):
                history.setdefault(pool, []).append(
                    {"at": text_of(at), "rating": rating, "change": change, "table": table})
            ratings = [{"pool": row.pool, "rating": display(row.mu),
                        "provisional": provisional(row.sigma, met or 0), "games": row.games,
                        "wins": row.wins, "opponents": met or 0,
                        "history": history.get(row.pool, [])} for row, met in pools]
            played, won = session.execute(select(
                func.count(), func.count().filter(PlayerGameRow.result == "win")).where(
                PlayerGameRow.player_id == player.id)).one()
            recent = [{"table": g.table_id, "game": g.game, "pool": g.pool, "seat": g.seat,
                       "result": g.result, "rated": bool(g.rated), "at": text_of(g.at),
                       "replay": f"/api/tables/{g.table_id}/replay",
                       "page": f"/table/{g.table_id}"}
                      for g in session.scalars(select(PlayerGameRow).where(
                          PlayerGameRow.player_id == player.id)
                          .order_by(PlayerGameRow.at.desc()).limit(20))]
            bots = [{"bot": b.bot, "wins": b.wins, "losses": b.losses, "draws": b.draws}
                    for b in session.scalars(select(BotRecordRow).where(
                        BotRecordRow.player_id == player.id).order_by(BotRecordRow.bot))]
            return {"id": player.id, "name": player.name, "kind": player.kind,
                    "username": player.username, "ratings": ratings,
                    "games": {"played": played or 0, "won": won or 0}, "recent": recent,
                    "bots": bots}

    @guarded
    def ratings_of(self, player_ids: list[str], pool: str) -> dict[str, dict[str, object]]:
        """The ratings of some players in one pool (what a seat shows beside a name);
        players not rated there are left out."""
        with self.storage.sessions() as session:
            rows = session.execute(select(RatingRow, vouchers(
                RatingRow.player_id, RatingRow.pool)).where(
                RatingRow.pool == pool, RatingRow.player_id.in_(player_ids[:64])))
            return {row.player_id: {"rating": display(row.mu),
                                    "provisional": provisional(row.sigma, met or 0)}
                    for row, met in rows}

    @guarded
    def leaderboard(self, pool: str | None, limit: int, offset: int) -> dict[str, object]:
        with self.storage.sessions() as session:
            pools = list(session.scalars(select(RatingRow.pool).distinct()
                                         .order_by(RatingRow.pool)))
            pool = pool if pool is not None else (pools[0] if pools else None)
            entries: list[dict[str, object]] = []
            if pool is not None:
                # established ratings (sure enough, met enough accounts that vouch), by
                # rating: one statement whatever the number of players in the pool
                found = session.execute(
                    select(RatingRow, PlayerRow.name, PlayerRow.username)
                    .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                    .where(RatingRow.pool == pool,
                           RatingRow.sigma <= PROVISIONAL_SIGMA,
                           opponents_column() >= PROVISIONAL_OPPONENTS,
                           vouchers(RatingRow.player_id, RatingRow.pool)
                           >= PROVISIONAL_OPPONENTS)
                    .order_by(RatingRow.mu.desc(), RatingRow.player_id)
                    .offset(offset).limit(limit)).all()
                entries = [{"rank": offset + rank, "id": row.player_id, "name": name,
                            "username": username, "rating": display(row.mu),
                            "provisional": False, "games": row.games, "wins": row.wins}
                           for rank, (row, name, username) in enumerate(found, start=1)]
            return {"pools": pools, "pool": pool, "entries": entries}
