"""Moderation: players report a player or a
chat line; an admin (``cardtable admin grant NAME``) mutes, bans an account or an address,
closes a table and renames an offensive name, each in the audit log; names and chat pass a
word list the operator can extend."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playerkit import PASSWORD, app_client, fresh, login, register
from starlette.websockets import WebSocketDisconnect
from tablekit import Player, connect, from_address
from typer.testing import CliRunner

from cardtable.cli import app as cli
from cardtable.server.store.sanctions import SanctionStore

__all__ = ["app_client"]   # the fixture


def admin_of(client: TestClient, name: str = "root_admin") -> TestClient:
    """An admin's browser on the same app (granted as the command does)."""
    admin = fresh(client, "10.9.9.9")
    register(admin, name)
    SanctionStore(client.app.state.storage).grant(name, "admin", "the test")
    return admin


def table_for_two(client: TestClient, other: TestClient) -> tuple[dict, dict]:
    made = client.post("/api/tables", json={"game": "durak",
                                            "seats": ["human", "human"]}).json()
    joined = other.post(f"/api/tables/{made['table']}/join").json()
    return made, joined


def audit(admin: TestClient) -> list[tuple[str, str]]:
    return [(row["action"], row["target"]) for row in admin.get("/api/admin/audit").json()]


def test_cardtable_admin_grant_makes_an_admin_and_is_audited(client: TestClient,
                                                             tmp_path: Path) -> None:
    register(client, "darya")
    assert client.get("/api/admin/audit").json()["code"] == "not_admin"
    data = ["--data-dir", str(tmp_path / "data")]
    done = CliRunner().invoke(cli, ["admin", "grant", "DARYA", *data])
    assert done.exit_code == 0 and done.output == "darya: admin\n"
    assert CliRunner().invoke(cli, ["admin", "list", *data]).output == "darya\n"
    [entry] = client.get("/api/admin/audit").json()
    assert (entry["action"], entry["detail"]) == ("grant", {"username": "darya",
                                                             "role": "admin"})
    assert entry["admin"].startswith("command line (")
    nobody = CliRunner().invoke(cli, ["admin", "grant", "nobody_here", *data])
    assert nobody.exit_code == 2 and "no account 'nobody_here'" in nobody.output
    assert CliRunner().invoke(cli, ["admin", "revoke", "darya", *data]).exit_code == 0
    assert client.get("/api/admin/audit").json()["code"] == "not_admin"


def test_a_player_who_is_no_admin_may_do_none_of_it(client: TestClient) -> None:
    register(client, "darya")
    made = client.post("/api/tables", json={"game": "durak",
                                            "seats": ["human", "bot:random"]}).json()
    for path, body in (("/api/admin/mute", {"player": "darya"}),
                       ("/api/admin/ban", {"address": "10.0.0.1"}),
                       ("/api/admin/rename", {"player": "darya", "name": "x"}),
                       (f"/api/tables/{made['table']}/close", {})):
        refused = client.post(path, json=body)
        assert (refused.status_code, refused.json()["code"]) == (403, "not_admin"), path
    assert client.get("/api/admin/reports").status_code == 403
    assert SanctionStore(client.app.state.storage).audit_log(10) == []


def test_a_report_of_a_chat_line_quotes_it_for_the_admins(app_client: TestClient) -> None:
    rude, victim = app_client, fresh(app_client)
    register(rude, "rude_one")
    victim.get("/api/me")   # a guest: reporting needs a session
    made, joined = table_for_two(rude, victim)
    with connect(rude, made["table"], made["token"]) as a, \
            connect(victim, made["table"], joined["token"]) as b:
        Player(a).send({"type": "chat", "text": "you play like a potato"})
        line = Player(b).next_of("chat")
    reported = victim.post("/api/reports", json={
        "table": made["table"], "seat": line["seat"], "at": line["at"],
        "reason": "insults"})
    assert reported.status_code == 201
    player = victim.post("/api/reports", json={"player": "RUDE_ONE", "reason": "rude name"})
    assert player.status_code == 201
    missing = victim.post("/api/reports", json={"table": made["table"], "seat": 0,
                                                "at": "2020-01-01T00:00:00+00:00",
                                                "reason": "x"})
    assert (missing.status_code, missing.json()["code"]) == (404, "no_chat_line")
    admin = admin_of(app_client)
    listed = admin.get("/api/admin/reports").json()
    rude_id = rude.get("/api/me").json()["id"]
    assert [(r["player"], r["quoted"], r["reason"]) for r in listed] == [
        (rude_id, None, "rude name"), (rude_id, "you play like a potato", "insults")]
    assert admin.post(f"/api/admin/reports/{listed[0]['id']}/close").status_code == 200
    assert len(admin.get("/api/admin/reports").json()) == 1
    assert ("close_report", str(listed[0]["id"])) in audit(admin)


def test_a_muted_account_cannot_chat_until_unmuted(app_client: TestClient) -> None:
    loud, other = app_client, fresh(app_client)
    register(loud, "loud_one")
    made, joined = table_for_two(loud, other)
    admin = admin_of(app_client)
    muted = admin.post("/api/admin/mute", json={"player": "loud_one", "minutes": 60,
                                                 "reason": "spam"})
    assert muted.status_code == 200
    with connect(loud, made["table"], made["token"]) as a, \
            connect(other, made["table"], joined["token"]) as b:
        speaker, listener = Player(a), Player(b)
        speaker.send({"type": "chat", "text": "buy my stuff"})
        assert speaker.next_of("error")["code"] == "muted"
        listener.send({"type": "chat", "text": "hi"})   # the other seat still talks
        assert speaker.next_of("chat")["text"] == "hi"
        assert admin.post("/api/admin/unmute", json={"player": "loud_one"}).status_code == 200
        speaker.send({"type": "chat", "text": "sorry"})
        assert [listener.next_of("chat")["text"] for _ in range(2)] == ["hi", "sorry"]
    loud_id = loud.get("/api/me").json()["id"]
    assert [("mute", loud_id), ("lift_mute", loud_id)] == audit(admin)[:2][::-1]


def test_a_muted_account_cannot_chat_among_the_spectators_either(
        app_client: TestClient) -> None:
    made, _ = table_for_two(app_client, fresh(app_client))
    watcher_browser = fresh(app_client, "10.0.4.1")
    register(watcher_browser, "loud_watcher")
    admin = admin_of(app_client)
    assert admin.post("/api/admin/mute", json={"player": "loud_watcher", "minutes": 60,
                                               "reason": "spam"}).status_code == 200
    with connect(watcher_browser, made["table"]) as w:
        watcher = Player(w)
        watcher.send({"type": "chat", "text": "buy my stuff"})
        assert watcher.next_of("error")["code"] == "muted"
        assert admin.post("/api/admin/unmute", json={"player": "loud_watcher"}).status_code == 200
        watcher.send({"type": "chat", "text": "sorry"})
        assert watcher.next_of("chat")["text"] == "sorry"


def closed_with(player: Player) -> str:
    """Read until the socket closes; the reason of the close (``ConnectionError``'s)."""
    with pytest.raises(ConnectionError) as closed:
        while True:
            player.receive()
    return str(closed.value)


def test_a_ban_closes_the_accounts_open_sockets_at_its_seat_and_among_spectators(
        app_client: TestClient) -> None:
    cheater, other = app_client, fresh(app_client)
    register(cheater, "cheater")
    made, joined = table_for_two(cheater, other)
    elsewhere, _ = table_for_two(fresh(app_client, "10.0.5.1"), fresh(app_client, "10.0.5.2"))
    admin = admin_of(app_client)
    with connect(cheater, made["table"], made["token"]) as a, \
            connect(other, made["table"], joined["token"]) as b, \
            connect(cheater, elsewhere["table"]) as w:
        seat, opponent, watching = Player(a), Player(b), Player(w)
        seat.state()
        opponent.state()
        watching.state()
        assert admin.post("/api/admin/ban", json={"player": "cheater",
                                                  "reason": "farming"}).status_code == 200
        assert "banned" in closed_with(seat)
        assert "banned" in closed_with(watching)
        opponent.send({"type": "ping"})   # the other seat's socket stays open
        assert opponent.next_of("pong")["type"] == "pong"
    with connect(cheater, made["table"], made["token"]) as again:   # and no way back
        assert Player(again).next_of("error")["code"] == "signed_out"


def test_a_banned_account_is_signed_out_and_cannot_sign_in_until_unbanned(
        app_client: TestClient) -> None:
    register(app_client, "cheater")
    admin = admin_of(app_client)
    banned = admin.post("/api/admin/ban", json={"player": "cheater", "reason": "farming"})
    assert banned.status_code == 200
    assert app_client.get("/api/me").json()["kind"] == "guest"   # its session ended
    refused = login(fresh(app_client), "cheater")
    assert (refused.status_code, refused.json()["code"]) == (403, "banned")
    assert refused.json()["until"] is None
    wrong = login(fresh(app_client), "cheater", "not the password")
    assert wrong.json()["code"] == "bad_credentials"   # a ban is told only to the owner
    admin.post("/api/admin/unban", json={"player": "cheater"})
    assert login(fresh(app_client), "cheater").status_code == 200


def test_a_banned_address_reaches_no_endpoint_and_others_play_on(client: TestClient) -> None:
    admin = admin_of(client)
    flooder, neighbour = from_address(client, "10.6.6.6"), from_address(client, "10.6.6.7")
    made = flooder.post("/api/tables", json={"game": "durak",
                                             "seats": ["human", "bot:random"]}).json()
    assert admin.post("/api/admin/ban", json={"address": "10.6.6.6", "minutes": 30,
                                              "reason": "flood"}).status_code == 200
    refused = flooder.get("/api/tables")
    assert (refused.status_code, refused.json()["code"]) == (403, "address_banned")
    assert flooder.post("/api/account/register", json={
        "username": "sock_puppet", "password": PASSWORD}).status_code == 403
    with pytest.raises(WebSocketDisconnect) as closed, \
            connect(flooder, made["table"], made["token"]) as ws:
        ws.receive_json()
    assert closed.value.code == 1008
    assert neighbour.get("/api/tables").status_code == 200
    assert admin.post("/api/admin/ban", json={"address": "not an address"}).status_code == 422
    assert admin.post("/api/admin/unban", json={"address": "10.6.6.6"}).status_code == 200
    assert flooder.get("/api/tables").status_code == 200


def test_an_admin_closes_a_table_in_play_unrated(client: TestClient) -> None:
    register(client, "darya")
    made = client.post("/api/tables", json={"game": "durak",
                                            "seats": ["human", "bot:random"]}).json()
    admin = admin_of(client)
    with connect(client, made["table"], made["token"]) as ws:
        player = Player(ws)
        player.state()
        closed = admin.post(f"/api/tables/{made['table']}/close",
                            json={"reason": "offensive table"})
        assert closed.status_code == 200
        with pytest.raises(WebSocketDisconnect):
            while True:
                ws.receive_json()
    info = client.get(f"/api/tables/{made['table']}")
    assert (info.status_code, info.json()["code"]) == (410, "table_closed")
    assert client.get("/api/me").json()["seats"] == []
    again = admin.post(f"/api/tables/{made['table']}/close", json={})
    assert (again.status_code, again.json()["code"]) == (409, "conflict")
    assert admin.post("/api/tables/no-such-table/close", json={}).status_code == 404
    assert ("close_table", made["table"]) in audit(admin)


def test_an_admin_renames_an_offensive_name_at_its_seats_too(client: TestClient) -> None:
    guest = fresh(client)
    guest.get("/api/me")
    guest.post("/api/me/name", json={"name": "Dirty Harry"})
    made = guest.post("/api/tables", json={"game": "durak",
                                           "seats": ["human", "human"]}).json()
    admin = admin_of(client)
    guest_id = guest.get("/api/me").json()["id"]
    renamed = admin.post("/api/admin/rename", json={"player": guest_id, "name": "Player 7"})
    assert renamed.status_code == 200
    assert guest.get("/api/me").json()["name"] == "Player 7"
    seats = client.get(f"/api/tables/{made['table']}").json()["seats"]
    assert seats[0]["name"] == "Player 7"
    [entry] = [row for row in admin.get("/api/admin/audit").json()
               if row["action"] == "rename"]
    assert entry["detail"] == {"was": "Dirty Harry", "now": "Player 7"}


@pytest.fixture
def word_list(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("# our own\nbanana\n", encoding="utf-8")
    return path


def test_names_and_chat_pass_the_word_list_and_the_operators_own(
        make_client: Callable[..., TestClient], word_list: Path) -> None:
    client = make_client(word_list=str(word_list))
    for name in ("Fuck you", "F.U.C.K", "Banana Man"):
        refused = client.post("/api/me/name", json={"name": name})
        assert (refused.status_code, refused.json()["code"]) == (422, "name_word"), name
    assert client.post("/api/me/name", json={"name": "Scunthorpe"}).status_code == 200
    shit = fresh(client).post("/api/account/register",
                              json={"username": "shit", "password": PASSWORD})
    assert (shit.status_code, shit.json()["code"]) == (422, "name_word")
    seat = fresh(client, "10.3.3.3").post("/api/tables", json={   # a seat without a session
        "game": "durak", "name": "banana", "seats": ["human", "bot:random"]})
    assert (seat.status_code, seat.json()["code"]) == (422, "name_word")
    made = client.post("/api/tables", json={"game": "durak",
                                            "seats": ["human", "bot:random"]}).json()
    with connect(client, made["table"], made["token"]) as ws:
        player = Player(ws)
        player.send({"type": "chat", "text": "what a banana move"})
        assert player.next_of("error")["code"] == "chat_word"
        player.send({"type": "chat", "text": "bananas are fine"})
        assert player.next_of("chat")["text"] == "bananas are fine"


def test_a_word_list_that_cannot_be_read_stops_the_start(tmp_path: Path) -> None:
    from cardtable.server import create_app

    with pytest.raises(ValueError, match="--word-list"):
        create_app(data_dir=tmp_path, word_list=str(tmp_path / "missing.txt"))
