"""Players: guests, accounts, sessions, the cross-site check, seats owned by a player and
bot accounts; each test on SQLite and on PostgreSQL (sign-in throttling:
test_server_sign_in.py)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from playerkit import PASSWORD, app_client, fresh, login, register
from starlette.websockets import WebSocketDisconnect
from tablekit import connect

from cardtable.server.store.players import GUEST_WORDS
from cardtable.server.web.accounts import COOKIE

__all__ = ["app_client"]   # the fixture


def test_a_first_visit_is_a_guest_with_a_friendly_name_kept_by_a_cookie(
        app_client: TestClient) -> None:
    first = app_client.get("/api/me")
    assert first.status_code == 200
    me = first.json()
    assert me["kind"] == "guest" and me["username"] is None
    assert len(me["name"].split()) == 3 and me["name"].split()[2].isdigit()
    cookie = first.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert "Secure" not in cookie   # plain HTTP here
    assert app_client.get("/api/me").json()["id"] == me["id"]   # the cookie keeps them


@pytest.mark.parametrize(("accept", "lang"), [
    ("ru-RU,ru;q=0.9,en;q=0.8", "ru"), ("fa", "fa"), ("pt-BR", "pt"), ("de-DE,en;q=0.5", "en"),
    ("en;q=0.2, fa;q=0.9", "fa"), ("", "en"), ("ru;q=nonsense, pt", "pt")])
def test_a_first_visits_guest_is_named_in_the_pages_language(
        app_client: TestClient, accept: str, lang: str) -> None:
    """The page sends its language as Accept-Language: a Russian page's new guest is
    "Умный Лис 42", a Persian page's "روباه زیرک ۴۲", from that language's own words."""
    name = fresh(app_client).get("/api/me", headers={"Accept-Language": accept}).json()["name"]
    adjectives, animals, _ = GUEST_WORDS[lang]
    words = name.split()
    assert len(words) == 3 and {words[0], words[1]} & set(adjectives) \
        and {words[0], words[1]} & set(animals), name
    assert words[2].isdigit() and (words[2].isascii() == (lang != "fa")), name


def test_a_guest_can_change_their_name_and_it_is_cleaned(app_client: TestClient) -> None:
    app_client.get("/api/me")
    renamed = app_client.post("/api/me/name", json={"name": "  دریا  جان "})
    assert renamed.status_code == 200
    assert renamed.json()["name"] == "دریا جان"
    override = app_client.post("/api/me/name", json={"name": "دریا\u202e جان"})
    assert override.status_code == 422 and override.json()["code"] == "name_control"
    too_long = app_client.post("/api/me/name", json={"name": "x" * 25})
    assert too_long.status_code == 422 and too_long.json()["code"] == "invalid_name"
    assert app_client.get("/api/me").json()["name"] == "دریا جان"


def test_register_rules_for_username_and_password(app_client: TestClient) -> None:
    for name in ("ab", "a" * 21, "bad name", "ünï"):
        answer = register(fresh(app_client), name)
        assert answer.status_code == 422 and answer.json()["code"] == "invalid_username"
    short = register(fresh(app_client), "darya", "seven77")
    assert short.status_code == 422 and short.json()["code"] == "weak_password"
    assert register(fresh(app_client), "Darya").status_code == 201
    taken = register(fresh(app_client), "dARYA")
    assert taken.status_code == 409 and taken.json()["code"] == "username_taken"


def test_sign_in_and_out(app_client: TestClient) -> None:
    assert register(fresh(app_client), "Darya").status_code == 201
    browser = fresh(app_client)
    signed_in = login(browser, "darya")
    assert signed_in.status_code == 200 and signed_in.json()["username"] == "Darya"
    assert "HttpOnly" in signed_in.headers["set-cookie"]
    assert browser.get("/api/me").json()["kind"] == "account"
    copied = browser.cookies[COOKIE]
    assert browser.post("/api/account/logout").status_code == 200
    assert browser.get("/api/me").json()["kind"] == "guest"
    # the session ended in the database too: a copy of the cookie signs nobody in
    thief = fresh(app_client)
    thief.cookies.set(COOKIE, copied)
    assert thief.get("/api/me").json()["kind"] == "guest"


def test_a_wrong_password_and_an_unknown_user_get_the_same_answer(
        app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    wrong = login(fresh(app_client), "darya", "not the password")
    unknown = login(fresh(app_client), "nobody_here")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "wrong username or password",
                                              "code": "bad_credentials"}
    assert COOKIE not in wrong.headers.get("set-cookie", "")


def test_a_guest_who_registers_keeps_their_id_and_seats(app_client: TestClient) -> None:
    guest = app_client.get("/api/me").json()
    seated = app_client.post("/api/tables", json={"game": "durak",
                                                  "seats": ["human", "human"]}).json()
    account = register(app_client, "darya").json()
    assert account["id"] == guest["id"] and account["kind"] == "account"
    seats = app_client.get("/api/me").json()["seats"]
    assert [(s["table"], s["seat"]) for s in seats] == [(seated["table"], 0)]


def test_a_signed_in_player_cannot_register_another_account(app_client: TestClient) -> None:
    register(app_client, "darya")
    again = register(app_client, "darya_2")
    assert again.status_code == 409 and again.json()["code"] == "signed_in"


def test_cookie_requests_from_another_site_are_refused_and_change_nothing(
        app_client: TestClient) -> None:
    app_client.get("/api/me")
    before = app_client.get("/api/me").json()
    evil = app_client.post("/api/me/name", json={"name": "pwned"},
                           headers={"Origin": "https://evil.example"})
    assert evil.status_code == 403 and evil.json()["code"] == "cross_site"
    referer = app_client.post("/api/me/name", json={"name": "pwned"},
                              headers={"Referer": "https://evil.example/page"})
    assert referer.status_code == 403
    assert app_client.get("/api/me").json()["name"] == before["name"]
    same = app_client.post("/api/me/name", json={"name": "Darya"},
                           headers={"Origin": "http://testserver"})
    assert same.status_code == 200


def test_a_request_without_the_cookie_is_not_checked_for_its_origin(
        app_client: TestClient) -> None:
    # a program, or a page that holds only a seat token: nothing of a session to abuse
    answer = fresh(app_client).post("/api/tables", json={"game": "durak"},
                                    headers={"Origin": "https://elsewhere.example"})
    assert answer.status_code == 201


def test_the_seat_shows_the_players_name_and_belongs_to_them(app_client: TestClient) -> None:
    register(app_client, "darya")
    made = app_client.post("/api/tables", json={"game": "durak", "seats": ["human", "human"],
                                                "name": "ignored"}).json()
    seats = app_client.get(f"/api/tables/{made['table']}").json()["seats"]
    assert seats[0]["name"] == "darya" and seats[0]["player_kind"] == "account"
    other = fresh(app_client)
    register(other, "anna_k")
    joined = other.post(f"/api/tables/{made['table']}/join").json()
    seats = app_client.get(f"/api/tables/{made['table']}").json()["seats"]
    assert joined["seat"] == 1 and seats[1]["name"] == "anna_k"


def test_a_signed_in_player_comes_back_to_their_seat_from_another_device(
        app_client: TestClient) -> None:
    register(app_client, "darya")
    made = app_client.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "bot:random"]}).json()
    laptop = fresh(app_client)
    me = login(laptop, "darya").json()
    assert [(s["table"], s["seat"]) for s in me["seats"]] == [(made["table"], 0)]
    with laptop.websocket_connect(f"/ws/tables/{made['table']}?seat=0") as ws:
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
        assert state["seat"] == 0 and state["view"]["hand"]


def test_a_seat_asked_for_by_number_while_the_players_store_is_down_is_tried_again(
        app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not knowing who asks is not "not yours": a 4403 would send the seat's own player to
    watch for good, so the socket closes with 1013 (try again) and the next try plays."""
    from cardtable.server.store.storage import StorageUnavailable
    from cardtable.server.web import socket_api

    register(app_client, "darya")
    made = app_client.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "bot:random"]}).json()
    real = socket_api.current_player

    async def down(*args: object, **kwargs: object) -> None:
        raise StorageUnavailable()

    monkeypatch.setattr(socket_api, "current_player", down)
    with app_client.websocket_connect(f"/ws/tables/{made['table']}?seat=0") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "storage_unavailable"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1013
    monkeypatch.setattr(socket_api, "current_player", real)
    with app_client.websocket_connect(f"/ws/tables/{made['table']}?seat=0") as ws:
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
        assert state["seat"] == 0 and state["view"]["hand"]


def test_nobody_else_can_take_a_seat_by_its_number(app_client: TestClient) -> None:
    register(app_client, "darya")
    made = app_client.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "bot:random"]}).json()
    stranger = fresh(app_client)
    register(stranger, "anna_k")
    for client in (stranger, fresh(app_client)):
        with client.websocket_connect(f"/ws/tables/{made['table']}?seat=0") as ws:
            message = ws.receive_json()
            assert message["type"] == "error" and message["code"] == "no_seat"
    for seat in ("-1", "x", "99", "1" * 50, "٣"):   # nobody's, with the same answer
        with app_client.websocket_connect(f"/ws/tables/{made['table']}?seat={seat}") as ws:
            assert ws.receive_json()["code"] == "no_seat"


def test_a_bot_account_plays_through_its_api_token_and_is_marked_a_bot(
        app_client: TestClient) -> None:
    assert fresh(app_client).post("/api/account/tokens", json={"password": "x"}).status_code == 401
    register(app_client, "robo_1")
    token = app_client.post("/api/account/tokens", json={"password": PASSWORD}).json()["token"]
    program = fresh(app_client)
    program.headers["Authorization"] = f"Bearer {token}"
    me = program.get("/api/me").json()
    assert me["kind"] == "bot" and me["username"] == "robo_1"
    made = program.post("/api/tables", json={"game": "durak",
                                             "seats": ["human", "bot:random"]}).json()
    seats = program.get(f"/api/tables/{made['table']}").json()["seats"]
    assert seats[0]["player_kind"] == "bot" and seats[0]["name"] == "robo_1"
    with connect(program, made["table"], made["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
    bad = fresh(app_client)
    bad.headers["Authorization"] = "Bearer ct_not_a_token"
    assert bad.post("/api/account/tokens", json={"password": "x"}).status_code == 401
    assert app_client.delete("/api/account/tokens").json() == {"revoked": 1}
    assert program.get("/api/me").json()["kind"] == "guest"   # the token is dead


def test_passwords_never_reach_the_log(app_client: TestClient,
                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    register(fresh(app_client), "darya", "secret-words-9")
    login(fresh(app_client), "darya", "secret-words-9")
    login(fresh(app_client), "darya", "wrong-words-99")
    assert "secret-words" not in caplog.text and "wrong-words" not in caplog.text


def test_unreadable_account_requests_are_422_with_a_code(app_client: TestClient) -> None:
    for body in ({}, {"username": 5, "password": PASSWORD}, {"username": "x" * 100,
                                                              "password": PASSWORD}):
        answer = app_client.post("/api/account/login", json=body)
        assert answer.status_code == 422 and answer.json()["code"] == "invalid_request"



def test_new_guests_are_bounded_per_address(app_client: TestClient) -> None:
    tables = app_client.app.state.tables
    tables.settings = tables.settings.model_copy(update={"guests_per_address": "2/hour"})
    for _ in range(2):
        assert fresh(app_client, "10.1.1.1").get("/api/me").json()["kind"] == "guest"
    refused = fresh(app_client, "10.1.1.1").get("/api/me")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert fresh(app_client, "10.1.1.2").get("/api/me").status_code == 200


def test_a_new_name_shows_at_the_players_seats_in_play(app_client: TestClient) -> None:
    register(app_client, "darya")
    made = app_client.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "bot:random"]}).json()
    assert app_client.post("/api/me/name", json={"name": "Дарья"}).status_code == 200
    seats = app_client.get(f"/api/tables/{made['table']}").json()["seats"]
    assert seats[0]["name"] == "Дарья"


def test_another_sites_page_cannot_take_a_seat_with_the_session(app_client: TestClient) -> None:
    register(app_client, "darya")
    made = app_client.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "bot:random"]}).json()
    with app_client.websocket_connect(f"/ws/tables/{made['table']}?seat=0",
                                      headers={"Origin": "https://evil.example"}) as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "no_seat"


def test_signing_in_starts_a_new_session_and_ends_the_old_one(app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    browser = fresh(app_client)
    guest = browser.get("/api/me").json()["id"]
    as_guest = browser.cookies[COOKIE]
    login(browser, "darya")
    assert browser.cookies[COOKIE] != as_guest
    planted = fresh(app_client)   # the session before sign-in is over: it is nobody now
    planted.cookies.set(COOKIE, as_guest)
    assert planted.get("/api/me").json()["id"] not in (guest, browser.get("/api/me").json()["id"])
    live = browser.cookies[COOKIE]
    session_part = live.rsplit(".", 2)[0]
    forged = fresh(app_client)   # the live session's id with a signature made up
    forged.cookies.set(COOKIE, session_part + ".AAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAA")
    assert forged.get("/api/me").json()["kind"] == "guest"
    copy = fresh(app_client)     # the same cookie, untouched, is darya
    copy.cookies.set(COOKIE, live)
    assert copy.get("/api/me").json()["username"] == "darya"
