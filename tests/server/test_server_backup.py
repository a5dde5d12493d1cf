"""``cardtable backup`` copies the database while the server plays, and a server started on
the restored copy resumes every table at the move the backup was taken at."""

from __future__ import annotations

import os
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create
from typer.testing import CliRunner

from cardtable.cli import app as command
from cardtable.server.store.backup import BackupRefused, backup, database_of, restore

DB = "cardtable.sqlite3"


def to_my_turn(player: Player, state: dict) -> dict:
    """Read on until the seat may move (the bot has played) or the game is over."""
    while not (state["over"] or state["legal_moves"]):
        state = player.state()
    return state


def play(player: Player, state: dict, rng: random.Random, moves: int) -> dict:
    """Play ``moves`` of this seat's moves (the bot answers each), or to the end."""
    for _ in range(moves):
        state = to_my_turn(player, state)
        if state["over"]:
            return state
        player.move(state, rng.choice(state["legal_moves"]))
        state = to_my_turn(player, player.state(state["version"] + 1))
    return state


def test_a_backup_taken_during_play_restores_every_table_at_its_move(
        make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    rng = random.Random(11)
    live = make_client()
    tables = [create(live, game=game, players=2, seats=["human", "bot:random"])
              for game in ("durak", "pasur", "durak")]
    sockets = [connect(live, seated["table"], seated["token"]) for seated in tables]
    players = [Player(ws.__enter__()) for ws in sockets]
    states = [play(p, p.state(), rng, 3 + index) for index, p in enumerate(players)]
    backed_up = {seated["table"]: state["version"]
                 for seated, state in zip(tables, states, strict=True)}
    assert all(version > 0 for version in backed_up.values())

    copied = backup(tmp_path / "data" / DB, tmp_path / "copy.sqlite3")   # while it runs
    assert copied.tables == 3 and copied.moves == sum(backed_up.values())

    after = [play(p, s, rng, 4) for p, s in zip(players, states, strict=True)]   # play goes on
    assert all(a["version"] > b for a, b in zip(after, backed_up.values(), strict=True))
    for ws in sockets:
        ws.__exit__(None, None, None)

    restored = restore(tmp_path / "copy.sqlite3", tmp_path / "restored" / DB)
    assert restored.moves == copied.moves
    again = make_client(data_dir=tmp_path / "restored")
    for seated in tables:
        table = seated["table"]
        described = again.get(f"/api/tables/{table}").json()
        assert described["version"] == backed_up[table] and described["status"] == "playing"
        with connect(again, table, seated["token"]) as ws:   # the same seat, played on
            player = Player(ws)
            state = to_my_turn(player, player.state())
            assert state["version"] >= backed_up[table]
            if not state["over"]:
                player.move(state, state["legal_moves"][0])
                assert player.state(state["version"] + 1)["version"] == state["version"] + 1


def test_an_existing_file_is_kept_unless_forced(tmp_path: Path) -> None:
    database = tmp_path / DB
    with sqlite3.connect(database) as db:
        db.execute("create table tables (id text)")
        db.execute("create table moves (table_id text)")
    out = tmp_path / "out.sqlite3"
    out.write_text("an older backup")
    with pytest.raises(BackupRefused, match="exists: give --force"):
        backup(database, out)
    assert out.read_text() == "an older backup"
    backup(database, out, force=True)
    assert out.read_bytes().startswith(b"SQLite format 3")


def test_postgresql_is_refused_with_pg_dump_named() -> None:
    with pytest.raises(BackupRefused, match="pg_dump"):
        database_of("data", "postgresql+psycopg://u:pw@db/cardtable")
    assert database_of("d", None) == Path("d") / DB
    assert database_of("d", "sqlite:////srv/ct.sqlite3") == Path("/srv/ct.sqlite3")


def test_restore_refuses_what_is_not_a_backup_and_a_database_in_use(tmp_path: Path) -> None:
    junk = tmp_path / "junk"
    junk.write_text("not a database at all, a page of text")
    with pytest.raises(BackupRefused, match="not a"):
        restore(junk, tmp_path / "data" / DB)
    good = tmp_path / "good.sqlite3"
    with sqlite3.connect(good) as db:
        db.execute("create table tables (id text)")
        db.execute("create table moves (table_id text)")
        db.execute("insert into tables values ('t1')")
    target = tmp_path / "data" / DB
    restore(good, target)
    with pytest.raises(BackupRefused, match="holds 1 tables already"):
        restore(good, target)
    assert restore(good, target, force=True).tables == 1


def test_the_commands_say_why_in_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    refused = runner.invoke(command, ["backup", "--out", str(tmp_path / "b"),
                                      "--database-url", "postgresql://u:secret@db/ct"])
    assert refused.exit_code == 2
    assert "pg_dump" in refused.output and "secret" not in refused.output
    missing = runner.invoke(command, ["backup", "--out", str(tmp_path / "b"),
                                      "--data-dir", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "there is no database" in missing.output


def test_a_backup_taken_while_bots_write_moves_holds_a_whole_game_to_resume(
        make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    live = make_client()
    seated = create(live, game="durak", players=2, seats=["bot:random", "bot:random"])
    table = seated["table"]
    with connect(live, table) as ws:   # watched, the bots play on without a pause
        watcher = Player(ws)
        watcher.state(3)
        copied = backup(tmp_path / "data" / DB, tmp_path / "copy.sqlite3")
        watcher.state(copied.moves + 2)   # and went on past the copy
    with sqlite3.connect(tmp_path / "copy.sqlite3") as db:
        indexes = [row[0] for row in db.execute(
            "select \"index\" from moves where table_id = ? order by \"index\"", (table,))]
    assert indexes == list(range(len(indexes))) and len(indexes) == copied.moves >= 3
    restore(tmp_path / "copy.sqlite3", tmp_path / "restored" / DB)
    again = make_client(data_dir=tmp_path / "restored")
    # resumed from the copy's last move (its bots play on at once: nobody need watch)
    described = again.get(f"/api/tables/{table}").json()
    assert described["version"] >= copied.moves
    assert described["status"] in ("playing", "over")
    assert again.get("/api/health").json()["broken"] == []


def mode_of(path: Path) -> int:
    return path.stat().st_mode & 0o777


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that lets anyone read new files, as many servers run with (022)."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def test_the_live_database_and_every_copy_are_their_owners_alone(
        open_umask: None, make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    live = make_client()
    create(live, game="durak", seats=["human", "bot:random"])
    database = tmp_path / "data" / DB
    assert mode_of(database) == 0o600
    assert mode_of(database.with_name(DB + "-wal")) == 0o600
    copy = tmp_path / "copy.sqlite3"
    backup(database, copy)
    assert mode_of(copy) == 0o600
    (tmp_path / "old.sqlite3").write_text("an older backup, world-readable")
    backup(database, tmp_path / "old.sqlite3", force=True)
    assert mode_of(tmp_path / "old.sqlite3") == 0o600
    restored = restore(copy, tmp_path / "elsewhere" / DB)
    assert mode_of(restored.path) == 0o600


def test_restore_refuses_while_a_server_runs_on_the_database_even_forced(
        make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    live = make_client()
    made = create(live, game="durak", seats=["human", "bot:random"])
    database = tmp_path / "data" / DB
    copy = backup(database, tmp_path / "copy.sqlite3")
    create(live, game="pasur", seats=["human", "bot:random"])
    with pytest.raises(BackupRefused, match="a server is running on"):
        restore(copy.path, database, force=True)
    assert live.get("/api/health").json()["tables"] == 2   # nothing was replaced
    assert live.get(f"/api/tables/{made['table']}").status_code == 200
    live.__exit__(None, None, None)   # the server stops: now the restore is done
    assert restore(copy.path, database, force=True).tables == 1
