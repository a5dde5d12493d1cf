"""A director's step as the store runs it (one transaction: score, decide, seat), the
inbox's batch of notices, and the director woken by a tournament's table ending."""

from __future__ import annotations

import asyncio
import concurrent.futures
import types
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, update

from cardtable.server.core.settings import ServerSettings
from cardtable.server.people.notices import Notices
from cardtable.server.play.tables import Tables
from cardtable.server.play.tournaments import Director
from cardtable.server.store.players import PlayerGameRow, PlayerStore
from cardtable.server.store.social import INBOX_KEPT, SocialStore
from cardtable.server.store.stamps import stamp
from cardtable.server.store.storage import OVER, SeatRow, Storage, TableRow, now, sqlite_url
from cardtable.server.store.tournaments import (
    ARENA,
    SCORED,
    UPCOMING,
    EntrantRow,
    Seated,
    Survey,
    TournamentRow,
    TournamentStore,
    new_tournament_id,
)


@pytest.fixture()
def storage(tmp_path: Path) -> Storage:
    made = Storage(sqlite_url(tmp_path))
    made.migrate()
    return made


def table_rows(table_id: str, players: list[str]) -> tuple[TableRow, list[SeatRow],
                                                           list[list[str]]]:
    row = TableRow(id=table_id, game="durak", preset=None, rules={}, players=len(players),
                   takeover=None, status="playing", created=now())
    seats = [SeatRow(table_id=table_id, seat=i, kind="human", player_id=p,
                     player_kind="account", token_hash=f"{table_id}{i}")
             for i, p in enumerate(players)]
    return row, seats, []


def an_arena(storage: Storage, names: list[str]) -> tuple[TournamentStore, str, list[str]]:
    players = [PlayerStore(storage).register(None, name, "correct horse").id
               for name in names]
    store = TournamentStore(storage)
    row = TournamentRow(id=new_tournament_id(), name="t", organiser=players[0], game="durak",
                        preset=None, options={}, kind=ARENA, minutes=60, rounds=None,
                        players=2, clock={}, rated=0, bots=None, status=UPCOMING,
                        created=stamp(), starts=None, round=0)
    store.create(row, 3)
    for player in players:
        store.join(row.id, player, player, 1500, 100)
    assert store.start(row.id, stamp(), by=None)
    return store, row.id, players


def test_a_step_that_cannot_seat_keeps_what_it_scored(storage: Storage) -> None:
    """Ann and Bob's table ended (Ann won); Cy is at a table still in play.  The step
    scores the ended table, then decides to seat Cy, who is busy: nothing is seated, and
    the points stay."""
    store, tournament, (ann, bob, cy, dee) = an_arena(storage, ["ann", "bob", "cy", "dee"])
    assert store.open_games(tournament, 0, [("ended1", [ann, bob]), ("inplay1", [cy, dee])],
                            made=[table_rows("ended1", [ann, bob]),
                                  table_rows("inplay1", [cy, dee])])
    at = stamp()
    with storage.writing() as session:
        session.execute(update(TableRow).where(TableRow.id == "ended1")
                        .values(status=OVER, counted=at))
        session.add_all(PlayerGameRow(player_id=p, table_id="ended1", seat=i, game="durak",
                                      pool="durak", result=r, rated=0, at=at)
                        for i, (p, r) in enumerate(((ann, "win"), (bob, "loss"))))
    asked: list[Survey] = []

    def decide(survey: Survey) -> Seated:
        asked.append(survey)
        return Seated(0, [("new1", [ann, cy])], None, [table_rows("new1", [ann, cy])])

    survey, seated = store.step(tournament, stamp(), decide)
    assert seated is None
    assert survey is not None and set(survey.scored) == {"ended1"}
    free = {e.player_id for e in asked[0].tourney.entrants if e.busy is None}
    assert free == {ann, bob}   # the decision saw the game scored
    t = store.load(tournament)
    assert t is not None
    lines = {e.player_id: e for e in t.entrants}
    assert (lines[ann].points, lines[bob].points, lines[ann].busy) == (2, 0, None)
    assert lines[cy].busy == "inplay1"
    assert {g.table_id: g.status for g in t.games} == {"ended1": SCORED,
                                                       "inplay1": "playing"}
    assert storage.load("new1") is None   # its table was not stored either


def test_an_arena_s_scoring_leaves_met_as_it_was(storage: Storage) -> None:
    store, tournament, (ann, bob) = an_arena(storage, ["ann", "bob"])
    assert store.open_games(tournament, 0, [("ended2", [ann, bob])],
                            made=[table_rows("ended2", [ann, bob])])
    at = stamp()
    with storage.writing() as session:
        session.execute(update(TableRow).where(TableRow.id == "ended2")
                        .values(status=OVER, counted=at))
        session.execute(update(EntrantRow).where(EntrantRow.player_id == ann)
                        .values(met=["someone"]))
    survey, _ = store.step(tournament, stamp(), lambda survey: None)
    assert survey is not None and set(survey.scored) == {"ended2"}
    with storage.sessions() as session:
        met = {e.player_id: e.met for e in session.query(EntrantRow)}
        last = {e.player_id: e.last for e in session.query(EntrantRow)}
    assert met == {ann: ["someone"], bob: []}   # a swiss's record, not touched
    assert last == {ann: [bob], bob: [ann]}     # what the arena keeps apart


def run_apart(coroutine: Any) -> Any:
    """Run ``coroutine`` on an event loop of its own thread (a test before this one on the
    same worker may have left its thread's loop marked running)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_notices_for_many_go_where_each_chose_and_an_inbox_keeps_its_newest(
        storage: Storage) -> None:
    social = SocialStore(storage)
    social.set_settings("p-quiet", None, {"tournament": []})   # routed nowhere
    notices = Notices(social)
    many = [("p-busy", "tournament", {"n": i}) for i in range(INBOX_KEPT + 5)]
    run_apart(notices.notify_many([*many, ("p-quiet", "tournament", {"n": 0})]))
    kept = social.notices("p-busy", limit=INBOX_KEPT + 10)
    assert len(kept) == INBOX_KEPT
    assert [n["data"]["n"] for n in kept[:2]] == [INBOX_KEPT + 4, INBOX_KEPT + 3]
    assert social.notices("p-quiet") == []
    with pytest.raises(ValueError):
        run_apart(notices.notify_many([("p-busy", "no such kind", {})]))


def test_a_tournament_s_table_ending_here_wakes_the_director(storage: Storage,
                                                             tmp_path: Path) -> None:
    tables = Tables(storage, ServerSettings(data_dir=tmp_path))
    director = Director(tables, TournamentStore(storage))

    def over(budget: tuple[str, ...]) -> types.SimpleNamespace:
        return types.SimpleNamespace(id="x", over=True, connections=set(), bot_task=None,
                                     budget=budget)

    tables.evict_if_idle(over(("address:1.2.3.4",)))   # type: ignore[arg-type]
    assert not director._wake.is_set()
    tables.evict_if_idle(over(("tournament:t1",)))     # type: ignore[arg-type]
    assert director._wake.is_set()


def _statements_of_a_step(storage: Storage, tables: int) -> tuple[list[str], int]:
    """An arena of ``2 * tables`` players whose ``tables`` games all ended: a step scores
    them and seats every player again, crosswise.  The statements the step sent, and the
    players it scored."""
    names = [f"pl{tables}x{i}" for i in range(2 * tables)]
    store, tournament, players = an_arena(storage, names)
    games = [(f"e{tables}x{i}", players[2 * i:2 * i + 2]) for i in range(tables)]
    ids = [t for t, _ in games]
    assert store.open_games(tournament, 0, [(t, list(p)) for t, p in games],
                            made=[table_rows(t, list(p)) for t, p in games])
    at = stamp()
    with storage.writing() as session:
        session.execute(update(TableRow).where(TableRow.id.in_(ids))
                        .values(status=OVER, counted=at))
        session.add_all(PlayerGameRow(player_id=p, table_id=t, seat=i, game="durak",
                                      pool="durak", result=("win", "loss")[i], rated=0,
                                      at=at)
                        for t, pair in games for i, p in enumerate(pair))
    again = [(f"n{tables}x{i}", [players[i], players[-1 - i]]) for i in range(tables)]

    def decide(survey: Survey) -> Seated:
        return Seated(0, [(t, list(p)) for t, p in again], None,
                      [table_rows(t, list(p)) for t, p in again])

    sent: list[str] = []

    def count(*args: Any) -> None:
        sent.append(args[2])

    event.listen(storage.engine, "before_cursor_execute", count)
    try:
        survey, seated = store.step(tournament, stamp(), decide)
    finally:
        event.remove(storage.engine, "before_cursor_execute", count)
    assert survey is not None and seated is not None and len(survey.scored) == tables
    t = store.load(tournament)
    assert t is not None
    assert sorted(e.points for e in t.entrants) == sorted([0, 2] * tables)
    assert {e.busy for e in t.entrants} == {t for t, _ in again}
    assert all(g.results for g in t.games if g.status == SCORED)
    return sent, sum(len(r) for r in survey.scored.values())


def test_a_step_sends_as_many_statements_for_six_tables_as_for_two(storage: Storage) -> None:
    """A step that scores two ended tables and seats their four players again sends as many
    statements to the database as one that scores six and seats twelve: its reads, scores
    and writes are each one statement for every table and entrant (each a round trip on
    PostgreSQL, where a step's time is its statements waiting their turn)."""
    two, scored_two = _statements_of_a_step(storage, 2)
    six, scored_six = _statements_of_a_step(storage, 6)
    assert (scored_two, scored_six) == (4, 12)
    assert len(two) == len(six)


def test_a_step_reads_the_results_with_its_games_and_marks_them_in_one_statement(
        storage: Storage) -> None:
    """The seats' results are read in the statement that reads the games in play (not one
    of their own), and the ended games are marked scored with their results in one
    statement (not their marks, then their results)."""
    sent, _ = _statements_of_a_step(storage, 3)
    games_written = [s for s in sent if s.startswith("UPDATE tournament_games")]
    assert len(games_written) == 1
    assert "results" in games_written[0]
    assert not [s for s in sent if s.startswith("SELECT") and "FROM player_games" in s]
