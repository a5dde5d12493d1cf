"""Account control: a new password ends the
other sessions, sign out everywhere, delete my account (games kept under an anonymous
name, ratings gone, sessions and seat keys dead), export my data; and the retention of
guests, sessions and chat, each a setting; on SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playerkit import PASSWORD, app_client, fresh, login, register
from tablekit import Player, connect, wait_until
from test_server_ratings import two_accounts_play

from cardtable.server.core.clock import FakeClock
from cardtable.server.core.settings import ServerSettings
from cardtable.server.store.control import ANONYMOUS, ControlStore
from cardtable.server.store.players import PlayerRow, PlayerStore, RatingRow
from cardtable.server.store.stamps import stamp
from cardtable.server.store.storage import Storage, sqlite_url

__all__ = ["app_client"]   # the fixture

NEW = "a new and better secret"


def kind_of(client: TestClient) -> str:
    return str(client.get("/api/me").json()["kind"])


def test_a_new_password_ends_the_other_sessions_and_keeps_this_one(
        app_client: TestClient) -> None:
    register(app_client, "darya")
    phone = fresh(app_client)
    assert login(phone, "darya").status_code == 200 and kind_of(phone) == "account"
    changed = app_client.post("/api/account/password",
                              json={"password": PASSWORD, "new_password": NEW})
    assert changed.status_code == 200 and changed.json() == {"ended": 1, "revoked": 0}
    assert kind_of(app_client) == "account"   # this browser stays signed in
    assert kind_of(phone) == "guest"           # the other one is not any more
    assert login(fresh(app_client), "darya").status_code == 401
    assert login(fresh(app_client), "darya", NEW).status_code == 200


def test_a_wrong_current_password_or_a_common_new_one_changes_nothing(
        client: TestClient) -> None:
    register(client, "darya")
    phone = fresh(client)
    login(phone, "darya")
    wrong = client.post("/api/account/password",
                        json={"password": "not the password", "new_password": NEW})
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
    common = client.post("/api/account/password",
                         json={"password": PASSWORD, "new_password": "password1"})
    assert common.status_code == 422 and common.json()["code"] == "password_common"
    assert kind_of(phone) == "account"
    assert login(fresh(client), "darya").status_code == 200
    guest = fresh(client)
    guest.get("/api/me")
    refused = guest.post("/api/account/password", json={"password": "x", "new_password": NEW})
    assert refused.status_code == 401 and refused.json()["code"] == "not_signed_in"


def test_signing_out_everywhere_ends_every_session_of_the_account(
        app_client: TestClient) -> None:
    register(app_client, "darya")
    phone, laptop = fresh(app_client), fresh(app_client)
    login(phone, "darya")
    login(laptop, "darya")
    register(fresh(app_client), "anna_k")   # another account's session stays
    answer = phone.post("/api/account/sign-out-everywhere")
    assert answer.status_code == 200 and answer.json() == {"ended": 3, "revoked": 0}
    assert [kind_of(c) for c in (app_client, phone, laptop)] == ["guest"] * 3


def test_signing_out_everywhere_closes_the_accounts_open_sockets(
        app_client: TestClient) -> None:
    register(app_client, "darya")
    other = fresh(app_client)
    made = app_client.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "human"]}).json()
    joined = other.post(f"/api/tables/{made['table']}/join").json()
    with connect(app_client, made["table"], made["token"]) as a, \
            connect(other, made["table"], joined["token"]) as b:
        mine, theirs = Player(a), Player(b)
        mine.state()
        theirs.state()
        assert app_client.post("/api/account/sign-out-everywhere").status_code == 200
        with pytest.raises(ConnectionError, match="signed out everywhere"):
            while True:
                mine.receive()
        theirs.send({"type": "ping"})
        assert theirs.next_of("pong")["type"] == "pong"


def test_a_deleted_account_keeps_its_games_under_an_anonymous_name_and_loses_the_rest(
        app_client: TestClient) -> None:
    table, _ = two_accounts_play(app_client)
    darya = app_client.get("/api/players/darya").json()
    assert darya["ratings"] and darya["recent"]
    phone = fresh(app_client)
    login(phone, "darya")
    wrong = app_client.post("/api/account/delete", json={"password": "nope nope"})
    assert wrong.status_code == 401 and app_client.get("/api/players/darya").status_code == 200
    gone = app_client.post("/api/account/delete", json={"password": PASSWORD})
    assert gone.status_code == 200
    name = gone.json()["name"]
    assert re.fullmatch(rf"{ANONYMOUS} [0-9a-f]{{4}}", name)
    assert app_client.get("/api/players/darya").status_code == 404
    assert kind_of(phone) == "guest" and kind_of(app_client) == "guest"
    assert login(fresh(app_client), "darya").status_code == 401
    # the game stays, its seat under the new name; the other player's rating stays
    seats = app_client.get(f"/api/tables/{table}").json()["seats"]
    assert [seat["name"] for seat in seats] == [name, "anna_k"]
    assert app_client.get(f"/api/tables/{table}/record").status_code == 200

    def ratings() -> list[str]:
        with app_client.app.state.storage.sessions() as session:
            return [row.player_id for row in session.query(RatingRow)]
    assert ratings() == [app_client.get("/api/players/anna_k").json()["id"]]
    board = app_client.get("/api/leaderboard").json()
    assert darya["id"] not in json.dumps(board)
    # the username is free again
    assert register(fresh(app_client), "darya").status_code == 201


def test_an_account_with_a_game_in_play_is_not_deleted(client: TestClient) -> None:
    register(client, "darya")
    made = client.post("/api/tables", json={"game": "durak",
                                            "seats": ["human", "bot:random"]}).json()
    refused = client.post("/api/account/delete", json={"password": PASSWORD})
    assert refused.status_code == 409 and refused.json()["code"] == "seats_in_play"
    assert client.get("/api/me").json()["seats"][0]["table"] == made["table"]


def test_a_deleted_bot_accounts_seat_key_plays_no_more(client: TestClient) -> None:
    register(client, "robot_1")
    token = client.post("/api/account/tokens", json={"password": PASSWORD}).json()["token"]
    program = fresh(client)
    program.headers["Authorization"] = f"Bearer {token}"
    made = program.post("/api/tables", json={"game": "durak",
                                              "seats": ["human", "bot:random"]}).json()
    with connect(program, made["table"], made["token"]) as ws:
        assert Player(ws).state()["seat"] == 0   # the program's key plays its seat
    resigned = program.post(f"/api/tables/{made['table']}/resign", json={"token": made["token"]})
    assert resigned.status_code == 200, resigned.text
    assert client.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    assert program.get("/api/me").json()["kind"] == "guest"   # its API token is dead
    with connect(fresh(client), made["table"], made["token"]) as ws:
        refusal = ws.receive_json()
    assert refusal["type"] == "error" and refusal["code"] == "signed_out"


def test_the_export_holds_what_is_kept_and_no_secret(app_client: TestClient) -> None:
    table, _ = two_accounts_play(app_client)
    app_client.post("/api/account/email", json={"email": "darya@example.org",
                                                 "password": PASSWORD})
    answer = app_client.get("/api/account/export")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == 'attachment; filename="cardtable-darya.json"'
    data = answer.json()
    assert data["player"]["username"] == "darya" and data["player"]["kind"] == "account"
    assert data["player"]["email"] == "darya@example.org"
    assert [game["table"] for game in data["games"]] == [table]
    assert [seat["table"] for seat in data["seats"]] == [table]
    assert data["ratings"][0]["pool"] == "durak/transfer/2p"
    assert len(data["sessions"]) == 1
    text = answer.text
    assert "argon2" not in text and "hash" not in text
    assert fresh(app_client).get("/api/account/export").json()["code"] == "not_signed_in"


def test_the_sweep_deletes_old_guests_sessions_and_chat_and_keeps_a_seated_guest(
        client: TestClient) -> None:
    seated, idle = fresh(client), fresh(client, "10.0.0.2")
    seated.get("/api/me")
    idle_id = idle.get("/api/me").json()["id"]
    made = seated.post("/api/tables", json={"game": "durak",
                                            "seats": ["human", "human"]}).json()
    with connect(seated, made["table"], made["token"]) as ws:
        talker = Player(ws)
        talker.send({"type": "chat", "text": "hello"})
        assert talker.next_of("chat")["text"] == "hello"
    register(client, "darya")
    store = ControlStore(client.app.state.storage)
    keeping: ServerSettings = client.app.state.settings
    assert keeping.guest_days == 30 and keeping.chat_days == 90
    assert store.sweep(keeping, stamp() + dt.timedelta(days=29)) == {
        "sessions": 0, "chat": 0, "guests": 0}
    assert store.sweep(keeping, stamp() + dt.timedelta(days=31)) == {
        "sessions": 0, "chat": 0, "guests": 1}
    assert seated.get("/api/me").json()["seats"][0]["table"] == made["table"]
    assert idle.get("/api/me").json()["id"] != idle_id   # a new guest: the old one is gone
    assert kind_of(client) == "account"
    # past every keeping: the sessions (3), the chat line, the new guest; not the seated one
    assert store.sweep(keeping, stamp() + dt.timedelta(days=401)) == {
        "sessions": 3, "chat": 1, "guests": 1}
    assert kind_of(client) == "guest"


def test_the_keeping_is_a_setting_with_bounds_and_an_environment_variable(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARDTABLE_GUEST_DAYS", "7")
    monkeypatch.setenv("CARDTABLE_CHAT_DAYS", "14")
    chosen = ServerSettings()
    assert (chosen.guest_days, chosen.chat_days, chosen.session_days) == (7, 14, 400)
    with pytest.raises(ValueError, match="guest_days"):
        ServerSettings(guest_days=0)
    with pytest.raises(ValueError, match="public_url"):
        ServerSettings(public_url="javascript:alert(1)")


def test_the_sweep_runs_every_retention_every_seconds_of_the_clock(
        make_client: Callable[..., TestClient], clock: FakeClock, tmp_path: Path) -> None:
    data = tmp_path / "data"
    storage = Storage(sqlite_url(data))
    storage.migrate()
    guest = PlayerStore(storage).new_guest("a-session-id")
    with storage.writing() as session:
        row = session.get(PlayerRow, guest.id)
        assert row is not None
        row.created = stamp() - dt.timedelta(days=40)
    storage.close()
    client = make_client(data_dir=data)
    store = PlayerStore(client.app.state.storage)
    assert client.app.state.settings.retention_every == 3600
    clock.move(3599)
    assert client.get("/api/health").status_code == 200 and store.get(guest.id) is not None
    clock.move(1)
    wait_until(lambda: store.get(guest.id) is None, "the sweep an hour after the start")


def test_the_account_screens_say_every_word_in_every_language() -> None:
    js = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "static" / "js"
    tables: dict[str, dict[str, str]] = {}
    string = r'"(?:[^"\\]|\\.)*"'
    for path in sorted((js / "lang" / "accountcontrol").glob("*.js")):   # a file a language
        body = path.read_text(encoding="utf-8")
        tables[path.stem] = {}
        for key, value in re.findall(rf"^\s*({string}):\s*(.*?),$", body, re.M):
            # a text, or a count's plural forms ({ one: "...", other: "..." }): their words
            forms = [json.loads(text) for text in re.findall(rf"\w+: ({string})", value)]
            tables[path.stem][json.loads(key)] = (" ".join(forms) if value.startswith("{")
                                                  else json.loads(value))
    assert set(tables) == {"en", "pt", "fa", "ru"}
    english = tables["en"]
    assert len(english) > 10   # the files were read as the tables they are
    for lang, words in tables.items():
        assert set(words) == set(english), lang
        for key, text in words.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(
                re.findall(r"\{(\w+)\}", english[key])), (lang, key)
    used = set(re.findall(r'(?:t\(|link\([^,]+, )"([a-z]+\.[A-Za-z]+)"',
                          (js / "accountcontrol.js").read_text(encoding="utf-8")))
    players = (js / "lang" / "players" / "en.js").read_text(encoding="utf-8")
    assert used and {key for key in used if f'"{key}"' not in players} <= set(english)


def program_of(client: TestClient) -> TestClient:
    """A program playing as ``client``'s account through a fresh API token."""
    minted = client.post("/api/account/tokens", json={"password": PASSWORD})
    assert minted.status_code == 201, minted.text
    program = fresh(client, "10.0.0.9")
    program.headers["Authorization"] = f"Bearer {minted.json()['token']}"
    assert kind_of(program) == "bot"
    return program


def test_a_new_password_revokes_every_api_token(app_client: TestClient) -> None:
    register(app_client, "robot_1")
    program, other = program_of(app_client), program_of(app_client)
    changed = app_client.post("/api/account/password",
                              json={"password": PASSWORD, "new_password": NEW})
    assert changed.status_code == 200 and changed.json() == {"ended": 0, "revoked": 2}
    assert kind_of(program) == "guest" and kind_of(other) == "guest"
    # the stolen token can no longer read the account's data or name it
    assert program.get("/api/account/export").json()["code"] == "not_signed_in"
    assert kind_of(app_client) != "guest"   # this browser stays signed in


def test_signing_out_everywhere_revokes_every_api_token(app_client: TestClient) -> None:
    register(app_client, "robot_1")
    program = program_of(app_client)
    ended = app_client.post("/api/account/sign-out-everywhere")
    assert ended.status_code == 200 and ended.json() == {"ended": 1, "revoked": 1}
    assert kind_of(program) == "guest"
    assert program.post("/api/me/name", json={"name": "Owned"}).json()["kind"] == "guest"


def test_minting_a_token_asks_for_the_current_password(app_client: TestClient) -> None:
    register(app_client, "darya")
    for body in ({}, {"password": "not the password"}):
        refused = app_client.post("/api/account/tokens", json=body)
        assert refused.status_code in (401, 422), refused.text
        assert refused.json()["code"] in ("bad_credentials", "invalid_request")
    wrong = app_client.post("/api/account/tokens", json={"password": "not the password"})
    assert wrong.json()["code"] == "bad_credentials"
    assert kind_of(app_client) == "account"   # no token: still no bot account
    assert ControlStore(app_client.app.state.storage).export(  # type: ignore[attr-defined]
        app_client.get("/api/me").json()["id"])["api_tokens"] == []
