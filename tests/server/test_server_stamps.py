"""Times are timestamps in UTC: the migration ``0008_timestamps`` turns
the ISO text of older rows into the moments they named, on a copy of a database made by the
code from before (``tests/data/stamps``), and the server serves its tables as it did.  The
later migration ``0010_move_takeover`` is tested up and down here too,
on both databases."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tablekit import Player, connect

from cardtable.server.store.stamps import Stamp, StampText
from cardtable.server.store.storage import Base, Storage, sqlite_url

DATA = Path(__file__).resolve().parents[1] / "data" / "stamps"
STORE = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "store"
OLD = json.loads((DATA / "old_answers.json").read_text(encoding="utf-8"))
TIMES = {
    "tables": ("created", "finished", "counted"), "seats": ("seen",), "moves": ("at",),
    "players": ("created",), "api_tokens": ("created",), "sessions": ("created",),
    "rating_history": ("at",), "player_games": ("at",), "tables_counted": ("at",),
    "chat_messages": ("at",), "lessons_done": ("at",), "analyses": ("lease_until", "updated"),
}
"""Every time column of every table."""


def _old_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    shutil.copy(DATA / "old.sqlite3", folder / "cardtable.sqlite3")
    return folder


def _texts(path: Path) -> dict[tuple[str, str, tuple[Any, ...]], str]:
    """Every time as the file holds it, by table, column and the row's primary key."""
    found = {}
    with sqlite3.connect(path) as connection:
        for table, columns in TIMES.items():
            keys = [c.name for c in Base.metadata.tables[table].primary_key]
            listed = ", ".join(f'"{name}"' for name in [*keys, *columns])
            for row in connection.execute(f'SELECT {listed} FROM "{table}"'):
                for name, text in zip(columns, row[len(keys):], strict=True):
                    if text is not None:
                        found[table, name, tuple(row[:len(keys)])] = text
    return found


def _moments(engine: sa.Engine) -> dict[tuple[str, str, tuple[Any, ...]], dt.datetime]:
    """Every time as the rows give it (each column read as a ``Stamp``)."""
    found = {}
    with engine.connect() as connection:
        for table, columns in TIMES.items():
            keys = [c.name for c in Base.metadata.tables[table].primary_key]
            query = sa.select(*[sa.column(k) for k in keys],
                              *[sa.column(name, Stamp()) for name in columns]
                              ).select_from(sa.table(table))
            for row in connection.execute(query):
                for name, moment in zip(columns, row[len(keys):], strict=True):
                    if moment is not None:
                        found[table, name, tuple(row[:len(keys)])] = moment
    return found


def _old_moment(text: str) -> dt.datetime:
    """What an old text named: ISO with its offset, or (``analyses``, a ``DateTime`` from
    the start) SQLAlchemy's text of a UTC time on SQLite."""
    moment = dt.datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def _alembic(engine: sa.Engine, *steps: tuple[str, str]) -> None:
    """Run ``(upgrade|downgrade, revision)`` steps, the foreign keys off as ``migrate``
    has them on SQLite."""
    from alembic import command
    from alembic.config import Config

    config = Config(str(STORE / "alembic.ini"))
    config.set_main_option("script_location", str(STORE / "migrations"))
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        with connection.begin():
            config.attributes["connection"] = connection
            for step, revision in steps:
                getattr(command, step)(config, revision)


def test_an_old_database_migrated_keeps_every_time_as_the_moment_it_was(
        tmp_path: Path) -> None:
    folder = _old_copy(tmp_path)
    before = _texts(folder / "cardtable.sqlite3")
    assert {table for table, _, _ in before} == set(TIMES)   # every table had a time
    storage = Storage(sqlite_url(folder))
    storage.migrate()
    after = _moments(storage.engine)
    storage.close()
    assert after == {key: _old_moment(text) for key, text in before.items()}
    assert {moment.tzinfo for moment in after.values()} == {dt.UTC}
    with sqlite3.connect(folder / "cardtable.sqlite3") as connection:
        declared = {(table, name): kind for table in TIMES for _, name, kind, *_ in
                    connection.execute(f'PRAGMA table_info("{table}")')}
    assert {declared[table, name] for table, names in TIMES.items() for name in names} \
        == {"DATETIME"}


def test_the_server_serves_the_old_tables_as_the_old_code_did(
        make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_old", DATA / "make_old_database.py")
    assert spec is not None and spec.loader is not None
    made = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(made)
    client = make_client(data_dir=_old_copy(tmp_path))
    for name, value in OLD["cookies"]["darya"].items():
        client.cookies.set(name, value)
    got = _without_new_options(made.answers(client, OLD, connect, Player))
    assert got.keys() == OLD["answers"].keys()
    for path, answer in OLD["answers"].items():
        answer = CHANGED.get(path, lambda old: old)(answer)
        assert _as_old(got[path], answer) == answer, path


def _established_only(board: dict[str, Any]) -> dict[str, Any]:
    """The old leaderboard as the rule made since reads it: provisional ratings are not
    ranked (they show on the profile and at the table), the rest ranked anew."""
    kept = [entry for entry in board["entries"] if not entry["provisional"]]
    return {**board, "entries": [{**entry, "rank": rank}
                                 for rank, entry in enumerate(kept, start=1)]}


CHANGED = {"/api/leaderboard": _established_only}
"""Answers whose rule changed since the old database, by path: what the old answer is now."""


def _as_old(value: Any, old: Any) -> Any:
    """``value`` without the fields it gained since ``old`` was answered (``NEW_FIELDS``),
    each checked first."""
    if isinstance(value, list) and isinstance(old, list) and len(value) == len(old):
        return [_as_old(item, was) for item, was in zip(value, old, strict=True)]
    if not (isinstance(value, dict) and isinstance(old, dict)):
        return value
    out = {key: _as_old(item, old.get(key)) for key, item in value.items()}
    for name, fits in NEW_FIELDS.items():
        if name in out and name not in old:
            assert fits(out[name], out), (name, out[name])
            del out[name]
    return out


NEW_OPTIONS = {"max_rounds": 500, "max_hands": 200}
"""Rule options made since the old database (the caps that end every game): an old
table's rules show them at their defaults, which is all that differs."""

NEW_FIELDS = {"rated": lambda value, out: value is False,
              "opponents": lambda value, out: 0 <= value <= out["games"]}
"""Fields answers gained since (a table's rated-or-casual choice, false for
every old table; the different opponents who vouch for a rating, at most its games)."""


def _without_new_options(value: Any) -> Any:
    """The answers with the new rule options taken out of every ``rules``, each checked to
    be at its default first."""
    if isinstance(value, list):
        return [_without_new_options(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _without_new_options(item) for key, item in value.items()}
    rules = out.get("rules")
    if isinstance(rules, dict):
        for name, default in NEW_OPTIONS.items():
            if name in rules:
                assert rules.pop(name) == default, name
    return out


def test_the_migration_taken_back_gives_the_old_text_again(tmp_path: Path) -> None:
    folder = _old_copy(tmp_path)
    before = _texts(folder / "cardtable.sqlite3")
    engine = sa.create_engine(sqlite_url(folder))
    _alembic(engine, ("upgrade", "head"), ("downgrade", "0007_analyses"))
    engine.dispose()
    assert _texts(folder / "cardtable.sqlite3") == before


def test_a_text_that_is_not_a_time_stops_the_migration_and_changes_nothing(
        tmp_path: Path) -> None:
    folder = _old_copy(tmp_path)
    with sqlite3.connect(folder / "cardtable.sqlite3") as connection:
        connection.execute("UPDATE lessons_done SET at = 'yesterday'")
    before = _texts(folder / "cardtable.sqlite3")
    storage = Storage(sqlite_url(folder))
    with pytest.raises(RuntimeError, match=r"lessons_done\.at holds 'yesterday'"):
        storage.migrate()
    storage.close()
    assert _texts(folder / "cardtable.sqlite3") == before
    with sqlite3.connect(folder / "cardtable.sqlite3") as connection:
        assert connection.execute("SELECT * FROM alembic_version").fetchall() == [
            ("0007_analyses",)]


def test_a_time_is_kept_as_the_moment_in_utc_and_a_time_without_a_zone_is_refused(
        tmp_path: Path) -> None:
    engine = sa.create_engine(sqlite_url(tmp_path))
    times = sa.Table("times", sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True),
                     sa.Column("at", Stamp()), sa.Column("text", StampText()))
    times.create(engine)
    tehran = dt.datetime(2026, 12, 3, 19, 6, 54, 26000,
                         tzinfo=dt.timezone(dt.timedelta(hours=3, minutes=30)))
    with engine.begin() as connection:
        connection.execute(times.insert().values(id=1, at=tehran,
                                                 text="2026-12-03T19:06:54.026+03:30"))
        assert connection.execute(sa.select(times.c.at, times.c.text)).one() == (
            dt.datetime(2026, 12, 3, 15, 36, 54, 26000, tzinfo=dt.UTC),
            "2026-12-03T15:36:54.026+00:00")
        for naive in ({"at": tehran.replace(tzinfo=None)}, {"text": "2026-12-03T15:36:54"}):
            with pytest.raises(sa.exc.StatementError, match=r"zone|offset"):
                connection.execute(times.insert().values(id=2, **naive))
    engine.dispose()


ROWS = {
    "tables": "INSERT INTO tables (id, game, preset, rules, players, status, created, "
              "finished, counted) VALUES ('t1', 'durak', 'transfer', '{}', 2, 'over', "
              "'2026-12-01T10:00:00.001+00:00', '2026-12-01T10:20:00.002+00:00', "
              "'2026-12-01T10:20:00.002+00:00')",
    "seats": "INSERT INTO seats (table_id, seat, kind, token_hash, seen) VALUES "
             "('t1', 0, 'human', 'h', '2026-12-01T10:01:00.003+00:00')",
    "moves": "INSERT INTO moves (table_id, \"index\", seat, move, at) VALUES "
             "('t1', 0, 0, 'take', '2026-12-01T10:02:00.004+00:00')",
    "players": "INSERT INTO players (id, kind, name, created) VALUES "
               "('p1', 'account', 'darya', '2026-11-30T09:00:00.005+00:00')",
    "api_tokens": "INSERT INTO api_tokens (token_hash, player_id, created) VALUES "
                  "('k', 'p1', '2026-11-30T09:01:00.006+00:00')",
    "sessions": "INSERT INTO sessions (id_hash, player_id, created) VALUES "
                "('s', 'p1', '2026-11-30T09:02:00.007+00:00')",
    "rating_history": "INSERT INTO rating_history (player_id, pool, table_id, at, rating, "
                      "change) VALUES ('p1', 'durak/transfer/2p', 't1', "
                      "'2026-12-01T10:20:00.008+00:00', 1550, 50)",
    "player_games": "INSERT INTO player_games (player_id, table_id, seat, game, pool, "
                    "result, rated, at) VALUES ('p1', 't1', 0, 'durak', 'durak/transfer/2p', "
                    "'win', 1, '2026-12-01T10:20:00.009+00:00')",
    "tables_counted": "INSERT INTO tables_counted (table_id, at) VALUES "
                      "('t1', '2026-12-01T10:20:00.010+00:00')",
    "chat_messages": "INSERT INTO chat_messages (table_id, room, seat, name, text, at) "
                     "VALUES ('t1', 'players', 0, 'darya', 'salam', "
                     "'2026-12-01T10:03:00.011+00:00')",
    "lessons_done": "INSERT INTO lessons_done (player_id, game, step, at) VALUES "
                    "('p1', 'durak', 'attack', '2026-11-30T09:03:00.012+00:00')",
}
"""A row of each table with times, as the code from before wrote them (``storage.now``)."""


@pytest.mark.services
def test_postgresql_string_rows_become_timestamptz_of_the_same_moments(
        database_url: str) -> None:
    engine = sa.create_engine(database_url)
    _alembic(engine, ("upgrade", "0007_analyses"))
    with engine.begin() as connection:
        for insert in ROWS.values():
            connection.exec_driver_sql(insert)
        connection.exec_driver_sql(
            "INSERT INTO analyses (table_id, status, owner, lease_until, judged, updated) "
            "VALUES ('t1', 'done', 'x', '2026-12-01T10:30:00.013+00:00', 0, "
            "'2026-12-01T10:25:00.014+00:00')")
        before = {(table, name): connection.exec_driver_sql(
            f'SELECT "{name}"::text FROM "{table}"').scalar_one()
            for table, names in TIMES.items() for name in names}
    storage = Storage(database_url)
    storage.migrate()
    with storage.engine.begin() as connection:
        connection.exec_driver_sql("SET timezone = 'Asia/Tehran'")  # not UTC: read as UTC
        after = {(table, name): connection.execute(
            sa.select(sa.column(name, Stamp())).select_from(sa.table(table))).scalar_one()
            for table, names in TIMES.items() for name in names}
        kinds = set(connection.exec_driver_sql(
            "SELECT data_type FROM information_schema.columns WHERE table_schema = 'public' "
            "AND (table_name, column_name) IN (" + ", ".join(
                f"('{table}', '{name}')" for table, name in before) + ")").scalars())
    storage.close()
    engine.dispose()
    assert after == {key: dt.datetime.fromisoformat(text).astimezone(dt.UTC)
                     for key, text in before.items()}
    assert {moment.tzinfo for moment in after.values()} == {dt.UTC}
    assert after["moves", "at"] == dt.datetime(2026, 12, 1, 10, 2, 0, 4000, tzinfo=dt.UTC)
    assert kinds == {"timestamp with time zone"}


# -- 0010_move_takeover: whether a takeover bot chose a move ---------------------------------

def _takeovers(engine: sa.Engine) -> list[tuple[int, bool]]:
    with engine.connect() as connection:
        return [(index, bool(takeover)) for index, takeover in connection.exec_driver_sql(
            'SELECT "index", takeover FROM moves ORDER BY "index"')]


def check_takeover_goes_up_and_down(engine: sa.Engine) -> None:
    """An older move reads as the seat's own after the migration, a marked one keeps its
    mark, and taking the migration back drops the column and keeps the moves."""
    _alembic(engine, ("upgrade", "0009_account_control"))
    with engine.begin() as connection:
        connection.exec_driver_sql(ROWS["tables"])
        connection.exec_driver_sql(ROWS["moves"])
    _alembic(engine, ("upgrade", "0010_move_takeover"))
    with engine.begin() as connection:
        connection.exec_driver_sql(
            'INSERT INTO moves (table_id, "index", seat, move, at, takeover) VALUES '
            "('t1', 1, 1, 'pass', '2026-12-01T10:03:00.004+00:00', TRUE)")
    assert _takeovers(engine) == [(0, False), (1, True)]
    _alembic(engine, ("downgrade", "0009_account_control"))
    assert "takeover" not in {c["name"] for c in sa.inspect(engine).get_columns("moves")}
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM moves").scalar_one() == 2
    _alembic(engine, ("upgrade", "head"))
    assert _takeovers(engine) == [(0, False), (1, False)]
    engine.dispose()


def test_the_takeover_column_goes_up_and_down_on_sqlite(tmp_path: Path) -> None:
    check_takeover_goes_up_and_down(sa.create_engine(f"sqlite:///{tmp_path / 'cardtable.sqlite3'}"))


@pytest.mark.services
def test_the_takeover_column_goes_up_and_down_on_postgresql(database_url: str) -> None:
    check_takeover_goes_up_and_down(sa.create_engine(database_url))
