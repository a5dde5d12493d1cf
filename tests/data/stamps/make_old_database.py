"""Makes ``old.sqlite3`` and ``old_answers.json`` with the code of a tree from before the
times were timestamps (commit a0c1c5f), for ``tests/server/test_server_stamps.py``.

Run as ``python tests/data/stamps/make_old_database.py OLD_TREE`` (``OLD_TREE`` holds that
commit, from ``git archive a0c1c5f``).  The database has every kind of row that holds a
time: tables (waiting, playing, over), seats, moves, players (guests, accounts, a bot
account with an API token), sessions, ratings and their history, chat, lesson progress and
analyses.  The answers are what that code serves from it after a restart.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PASSWORD = "correct horse battery"


def main(tree: Path) -> None:
    sys.path[:0] = [str(tree), str(tree / "tests" / "server")]
    from fastapi.testclient import TestClient
    from tablekit import MACHINE_SPEED, Player, connect, from_address, play_together

    import cardtable
    from cardtable.server import create_app
    from cardtable.server.core.clock import FakeClock
    from cardtable.server.store.progress import ProgressStore

    assert Path(cardtable.__file__).is_relative_to(tree), cardtable.__file__
    work = Path(tempfile.mkdtemp())

    def app() -> TestClient:
        return TestClient(create_app(data_dir=work / "data", static_dir=work / "static",
                                     bot_delay=0, **MACHINE_SPEED, clock=FakeClock(),
                                     grace=600))

    kept: dict[str, Any] = {}
    with app() as darya:
        anna, guest = from_address(darya, "anna"), from_address(darya, "guest")
        for client, name in ((darya, "darya"), (anna, "anna_k")):
            assert client.post("/api/account/register",
                               json={"username": name, "password": PASSWORD}).is_success
        # a rated game played to its end
        made = darya.post("/api/tables", json={"game": "durak",
                                               "seats": ["human", "human"]}).json()
        joined = anna.post(f"/api/tables/{made['table']}/join").json()
        with connect(darya, made["table"], made["token"]) as ws0, \
                connect(anna, made["table"], joined["token"]) as ws1:
            first = Player(ws0)
            final = play_together({0: first, 1: Player(ws1)}, [], random.Random(3))
            while "ratings" not in final["summary"]:
                final = first.next_of("state")
        # a game going on, with chat in both rooms
        going = darya.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "human"]}).json()
        other = anna.post(f"/api/tables/{going['table']}/join").json()
        with connect(darya, going["table"], going["token"]) as ws0, \
                connect(anna, going["table"], other["token"]) as ws1, \
                connect(guest, going["table"]) as ws2:
            players = {0: Player(ws0), 1: Player(ws1)}
            state = players[0].state()
            for _ in range(2):
                seat = state["to_move"]
                mine = players[seat].catch_up(state["version"])
                players[seat].move(mine, mine["legal_moves"][0])
                state = players[0].state(state["version"] + 1)
            players[0].send({"type": "chat", "text": "salam"})
            players[1].send({"type": "chat", "phrase": "good_luck"})
            watcher = Player(ws2)
            watcher.send({"type": "chat", "text": "nice"})
            for player in (players[0], players[1], watcher):
                player.next_of("chat")
        # a guest's game against a bot, to its end; and a table waiting for a player
        alone = guest.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "bot:random"]}).json()
        with connect(guest, alone["table"], alone["token"]) as ws:
            play_together({0: Player(ws)}, [], random.Random(5))
        waiting = guest.post("/api/tables", json={"game": "pasur",
                                                  "seats": ["human", "human"]}).json()
        # a bot account with an API token
        robot = from_address(darya, "robot")
        assert robot.post("/api/account/register",
                          json={"username": "robo_bot", "password": PASSWORD}).is_success
        assert robot.post("/api/account/tokens", json={"password": PASSWORD}).is_success
        me = darya.get("/api/me").json()
        ProgressStore(darya.app.state.storage).mark(me["id"], "durak", "attack")
        store = darya.app.state.analyses.store
        assert store.claim(made["table"], "old-process", 600) == "mine"
        store.progress(made["table"], "old-process", 3, 3, 600)
        store.finish(made["table"], "old-process", {"moves": [], "series": {}})
        assert store.claim(alone["table"], "old-process", 600) == "mine"
        kept = {"rated": made["table"], "going": going["table"], "alone": alone["table"],
                "waiting": waiting["table"], "tokens": {"going": [going["token"],
                                                                  other["token"]]},
                "cookies": {"darya": dict(darya.cookies)}}
    database = work / "data" / "cardtable.sqlite3"
    import sqlite3

    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA journal_mode=DELETE")
    with sqlite3.connect(database) as connection:
        connection.execute("VACUUM")
    shutil.copy(database, HERE / "old.sqlite3")
    with app() as client:
        for name, value in kept["cookies"]["darya"].items():
            client.cookies.set(name, value)
        kept["answers"] = answers(client, kept, connect, Player)
    (HERE / "old_answers.json").write_text(json.dumps(kept, indent=1, ensure_ascii=False)
                                           + "\n", encoding="utf-8")


def answers(client: Any, kept: dict[str, Any], connect: Any, player: Any) -> dict[str, Any]:
    """What the server answers about the old rows (the test asks the same)."""
    got: dict[str, Any] = {}
    for path in ("/api/tables", "/api/history", "/api/players/darya", "/api/players/anna_k",
                 "/api/leaderboard", "/api/me", "/api/learn/progress"):
        got[path] = client.get(path).json()
    for key in ("rated", "going", "alone", "waiting"):
        table = kept[key]
        got[f"/api/tables/{table}"] = client.get(f"/api/tables/{table}").json()
    for key in ("rated", "alone"):
        table = kept[key]
        got[f"/api/tables/{table}/record"] = client.get(f"/api/tables/{table}/record").json()
    # the analysis done (the other one's lease runs out with the wall clock)
    table = kept["rated"]
    got[f"/api/tables/{table}/analysis"] = client.get(f"/api/tables/{table}/analysis").json()
    token = kept["tokens"]["going"][0]
    for who, with_token in (("players", token), ("spectators", None)):
        with connect(client, kept["going"], with_token) as ws:
            seen = player(ws)
            got[f"chat/{who}"] = [seen.next_of("chat") for _ in range(
                2 if who == "players" else 1)]
    return got


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
