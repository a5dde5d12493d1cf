"""A guest who signs in to an existing account brings their games:
seats in play, finished games, results against bots and lesson steps become the
account's in one transaction, the live tables see it through their dealers, and a table
where the guest and the account both sat stays a game between two players.  Each test on
SQLite and on PostgreSQL."""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from playerkit import PASSWORD, app_client, fresh, login, register
from tablekit import connect, next_state, server, socket_for

from cardtable.analysis import lessons
from cardtable.server.store.progress import ProgressStore

__all__ = ["app_client"]   # the fixture


def first_state(ws: object) -> dict:
    message = ws.receive_json()   # type: ignore[attr-defined]
    while message["type"] not in ("state", "error"):
        message = ws.receive_json()   # type: ignore[attr-defined]
    return message


def test_a_guest_who_signs_in_keeps_their_games_and_lessons(app_client: TestClient) -> None:
    owner = fresh(app_client)
    darya = register(owner, "darya").json()
    shared = owner.post("/api/tables", json={"game": "durak",
                                             "seats": ["human", "human"]}).json()
    guest = fresh(app_client)
    guest_id = guest.get("/api/me").json()["id"]
    playing = guest.post("/api/tables", json={"game": "durak",
                                              "seats": ["human", "bot:random"]}).json()
    resigned = guest.post("/api/tables", json={"game": "durak",
                                               "seats": ["human", "bot:random"]}).json()
    assert guest.post(f"/api/tables/{resigned['table']}/resign",
                      json={"token": resigned["token"]}).status_code == 200
    joined = guest.post(f"/api/tables/{shared['table']}/join").json()
    step = lessons.course("pasur")[0].key
    ProgressStore(app_client.app.state.storage).mark(guest_id, "pasur", step)

    signed_in = login(guest, "darya")

    assert signed_in.status_code == 200
    me = signed_in.json()
    assert me["id"] == darya["id"]
    # the guest's seat in play is the account's; at darya's own table, only darya's seat
    assert sorted((s["table"], s["seat"]) for s in me["seats"]) == sorted(
        [(playing["table"], 0), (shared["table"], 0)])
    seats = guest.get(f"/api/tables/{playing['table']}").json()["seats"]
    assert (seats[0]["player"], seats[0]["name"]) == (darya["id"], "darya")
    assert seats[0]["player_kind"] == "guest"   # taken as a guest: the game stays unrated
    seats = guest.get(f"/api/tables/{shared['table']}").json()["seats"]
    assert [seat["player"] for seat in seats] == [darya["id"], guest_id]
    assert joined["seat"] == 1
    profile = guest.get("/api/players/darya").json()
    assert [(g["table"], g["result"]) for g in profile["recent"]] == [
        (resigned["table"], "loss")]
    assert profile["bots"] == [{"bot": "random", "wins": 0, "losses": 1, "draws": 0}]
    assert guest.get("/api/learn/progress").json() == {
        "player": darya["id"], "games": {"pasur": [step]}}
    # the guest's seat key plays on in the signed-in browser, and nowhere else
    with connect(guest, playing["table"], playing["token"]) as ws:
        state = first_state(ws)
        assert state["type"] == "state" and state["seat"] == 0
    with connect(fresh(app_client), playing["table"], playing["token"]) as ws:
        assert first_state(ws)["code"] == "signed_out"


def test_signing_in_as_a_guest_again_brings_nothing_twice(app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    guest = fresh(app_client)
    guest.get("/api/me")
    playing = guest.post("/api/tables", json={"game": "durak",
                                              "seats": ["human", "bot:random"]}).json()
    login(guest, "darya")
    assert guest.post("/api/account/logout").status_code == 200
    again = login(guest, "darya").json()   # a new guest, with nothing of its own
    assert [(s["table"], s["seat"]) for s in again["seats"]] == [(playing["table"], 0)]


@pytest.mark.services
def test_a_guests_seat_at_a_table_another_process_plays_passes_to_the_account(
        tmp_path: Path, redis_url: str) -> None:
    data = tmp_path / "data"
    flags = ("--redis-url", redis_url, "--redis-prefix", f"cardtable-test-{secrets.token_hex(4)}")
    account = {"username": "darya", "password": PASSWORD}
    with server(data, *flags) as (_, a), server(data, *flags) as (_, b), \
            httpx.Client(base_url=b) as guest:
        darya = httpx.post(f"{b}/api/account/register", json=account).json()
        made = httpx.post(f"{a}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()   # played by A
        guest_id = guest.get("/api/me").json()["id"]
        joined = guest.post(f"/api/tables/{made['table']}/join").json()
        assert joined["seat"] == 1
        # A hears of the seat over Redis; the guest's own socket, straight after, is seated
        with socket_for(a, made["table"], joined["token"]) as mine:
            state = next_state(mine)
            assert state["seat"] == 1 and state["seats"][1]["player"] == guest_id
        with socket_for(a, made["table"], made["token"]) as ws:
            assert next_state(ws)["seats"][1]["player"] == guest_id
            signed_in = guest.post("/api/account/login", json=account, headers={"Origin": b})
            assert signed_in.status_code == 200
            assert [s["table"] for s in signed_in.json()["seats"]] == [made["table"]]
            seat = next_state(ws)["seats"][1]
            while seat["player"] != darya["id"]:   # A, told by B, shows it
                seat = next_state(ws)["seats"][1]
            assert seat["name"] == "darya"
