"""Seat keys die at sign-out: a key of an account's seat plays only while that account is
signed in (the next person at a shared computer must not play or resign its games); a
guest's key and a program's play as before."""

from __future__ import annotations

from fastapi.testclient import TestClient
from playerkit import app_client, fresh, login, register
from tablekit import connect

from cardtable.server.core.wire import seat_protocols

__all__ = ["app_client"]


def _first(ws) -> dict:
    message = ws.receive_json()
    while message["type"] not in ("state", "error"):
        message = ws.receive_json()
    return message


def _table(client: TestClient) -> dict:
    made = client.post("/api/tables", json={"game": "durak", "seats": ["human", "bot:random"]})
    assert made.status_code == 201, made.text
    return made.json()


def test_an_accounts_seat_key_plays_while_it_is_signed_in(app_client: TestClient) -> None:
    register(app_client, "darya")
    made = _table(app_client)
    with connect(app_client, made["table"], made["token"]) as ws:
        state = _first(ws)
    assert state["type"] == "state" and state["seat"] == 0 and state["view"]["hand"]


def test_after_signing_out_the_key_is_refused_and_changes_nothing(
        app_client: TestClient) -> None:
    register(app_client, "darya")
    made = _table(app_client)
    before = app_client.get(f"/api/tables/{made['table']}").json()
    assert app_client.post("/api/account/logout").status_code == 200
    for browser in (app_client, fresh(app_client)):   # the same browser, or any other
        with connect(browser, made["table"], made["token"]) as ws:
            refusal = _first(ws)
        assert refusal["type"] == "error" and refusal["code"] == "signed_out"
        assert "sign in" in refusal["reason"]
        resign = browser.post(f"/api/tables/{made['table']}/resign",
                              json={"token": made["token"]})
        assert (resign.status_code, resign.json()["code"]) == (403, "signed_out")
    after = app_client.get(f"/api/tables/{made['table']}").json()
    assert (after["status"], after["version"]) == (before["status"], before["version"])
    # signed in again, the key plays once more
    assert login(app_client, "darya").status_code == 200
    with connect(app_client, made["table"], made["token"]) as ws:
        assert _first(ws)["type"] == "state"


def test_another_account_signed_in_cannot_use_the_key(app_client: TestClient) -> None:
    register(app_client, "darya")
    made = _table(app_client)
    other = fresh(app_client)
    register(other, "anna_k")
    with connect(other, made["table"], made["token"]) as ws:
        assert _first(ws)["code"] == "signed_out"


def test_a_guest_who_registered_and_signed_out_loses_the_key_too(
        app_client: TestClient) -> None:
    assert app_client.get("/api/me").status_code == 200   # a guest now
    made = _table(app_client)
    seats = app_client.get(f"/api/tables/{made['table']}").json()["seats"]
    assert seats[0]["player_kind"] == "guest"
    register(app_client, "darya")   # the guest becomes an account, keeping its seats
    app_client.post("/api/account/logout")
    with connect(fresh(app_client), made["table"], made["token"]) as ws:
        assert _first(ws)["code"] == "signed_out"


def test_a_guests_key_and_a_programs_key_play_from_anywhere(app_client: TestClient) -> None:
    guest = fresh(app_client)
    assert guest.get("/api/me").json()["kind"] == "guest"
    made = _table(guest)
    program = fresh(app_client)   # no session at all: a program holding the key
    anonymous = _table(program)
    for table in (made, anonymous):
        with connect(fresh(app_client), table["table"], table["token"]) as ws:
            assert _first(ws)["type"] == "state"


def test_a_key_travels_in_the_subprotocols_and_a_key_in_the_url_is_refused_unused(
        app_client: TestClient) -> None:
    """Proxies log URLs: a key put in one is refused (4400 ``key_in_url``) and plays
    nothing; offered as the subprotocol ``cardtable.key.KEY`` it plays the seat, and the
    server picks ``cardtable``."""
    made = _table(fresh(app_client))
    with app_client.websocket_connect(f"/ws/tables/{made['table']}?token={made['token']}") as ws:
        refusal = _first(ws)
    assert refusal["type"] == "error" and refusal["code"] == "key_in_url"
    assert "URL" in refusal["reason"]
    seats = app_client.get(f"/api/tables/{made['table']}").json()["seats"]
    assert seats[0]["connected"] is False
    with app_client.websocket_connect(f"/ws/tables/{made['table']}",
                                      subprotocols=seat_protocols(made["token"])) as ws:
        assert ws.accepted_subprotocol == "cardtable"
        state = _first(ws)
        assert state["type"] == "state" and state["seat"] == 0 and state["view"]["hand"]
    with app_client.websocket_connect(f"/ws/tables/{made['table']}") as ws:   # a watcher
        state = _first(ws)
        assert state["type"] == "state" and state["seat"] is None
