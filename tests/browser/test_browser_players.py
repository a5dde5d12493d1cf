"""Players in the page: register and sign in through the account screen, a profile that
shows ratings with their chart, the leaderboard, and table chat that shows HTML as text."""

from __future__ import annotations

import contextlib
import json
import random
import secrets
import time
from typing import Any

import httpx
import pytest
from browserkit import create_table, screenshot

from cardtable.server.core.wire import seat_protocols
from cardtable.server.store.ratings import pool_of

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"


def unique(prefix: str) -> str:
    """A username no other test of this (session-wide) server has used."""
    return f"{prefix}_{secrets.token_hex(3)}"


def register_in_page(page: Any, name: str) -> None:
    """Register through the account screen's form; signed in at once."""
    page.fill("#register input[name=username]", name)
    page.fill("#register input[name=password]", PASSWORD)
    page.click("#register button[type=submit]")
    page.locator("#sign-out").wait_for()


def rated_game(base: str, first: str, second: str) -> str:
    """Two accounts, made through the API, play a whole Durak game of random moves."""
    from websockets.sync.client import connect

    clients = [httpx.Client(base_url=base, timeout=30) for _ in range(2)]
    for client, name in zip(clients, (first, second), strict=True):
        assert client.post("/api/account/register",
                           json={"username": name, "password": PASSWORD}).status_code == 201
    made = clients[0].post("/api/tables", json={"game": "durak", "rated": True,
                                                "seats": ["human", "human"]}).json()
    joined = clients[1].post(f"/api/tables/{made['table']}/join").json()
    url = base.replace("http", "ws", 1) + f"/ws/tables/{made['table']}"
    rng = random.Random(4)
    # an account's seat key plays only with that account signed in: each with its cookie
    signed_in = [{"Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}
                 for client in clients]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(url, additional_headers=signed_in[0],
                                               subprotocols=seat_protocols(made["token"]))),
                   stack.enter_context(connect(url, additional_headers=signed_in[1],
                                               subprotocols=seat_protocols(joined["token"])))]
        latest: dict[int, dict[str, Any]] = {}
        for seat, ws in enumerate(sockets):
            latest[seat] = _state(ws)
        while True:
            state = max(latest.values(), key=lambda s: s["version"])
            if state["over"]:
                break
            mover = state["to_move"]
            mine = latest[mover]
            while mine["version"] < state["version"]:
                mine = latest[mover] = _state(sockets[mover])
            time.sleep(0.06)   # within the server's 20 messages a second for a socket
            sockets[mover].send(json.dumps({"type": "move", "version": mine["version"],
                                            "move": rng.choice(mine["legal_moves"])}))
            latest[mover] = _state(sockets[mover], mine["version"] + 1)
        while "ratings" not in latest[0].get("summary", {}):   # the change comes after
            latest[0] = _state(sockets[0])
    for client in clients:
        client.close()
    return made["table"]


def _state(ws: Any, at_least: int = -1) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=20))
        if message["type"] == "state" and message["version"] >= at_least:
            return message


def test_register_then_sign_in_and_the_profile_shows_ratings(
        open_page: Any, server_url: str) -> None:
    name = unique("darya")
    table = rated_game(server_url, name, unique("anna"))
    page = open_page("/#account")
    badge = page.locator("#account-badge")
    badge.filter(has_text="Guest").wait_for()   # a first visit is a guest
    page.fill("#sign-in input[name=username]", name)
    page.fill("#sign-in input[name=password]", PASSWORD)
    page.click("#sign-in button[type=submit]")
    page.locator("#sign-out").wait_for()
    assert name in badge.inner_text()
    # the finished table shows the rating change of each seat
    page.goto(f"{server_url}/table/{table}")
    changes = page.locator(".summary .rating-change")
    changes.first.wait_for()
    assert changes.count() == 2 and "1500 →" in changes.first.inner_text()
    page.goto(f"{server_url}/#account")
    page.click("text=Your profile")
    rating = page.locator(".ratings li.rating")
    rating.first.wait_for()
    assert rating.first.get_attribute("data-pool") == pool_of("durak", "transfer", 2)
    assert page.locator(".rating-value").first.inner_text().rstrip("?").isdigit()
    assert page.locator(".rating-chart polyline").count() == 1
    assert "Games played: 1" in page.locator(".games-count").inner_text()
    assert page.locator(".recent a", has_text="Replay").count() == 1
    screenshot(page, "profile-desktop")
    # one game makes a provisional rating: not ranked on the leaderboard (its pool is named)
    page.goto(server_url + "/#leaderboard")
    page.locator("section.leaderboard select#pool").wait_for()
    assert page.locator("section.leaderboard bdi", has_text=name).count() == 0

    # a new visitor registers through the form and is signed in at once
    other = open_page("/#account")
    newcomer = unique("newbie")
    register_in_page(other, newcomer)
    assert newcomer in other.locator("#account-badge").inner_text()


def test_a_wrong_password_is_said_on_the_page(open_page: Any) -> None:
    page = open_page("/#account")
    page.fill("#sign-in input[name=username]", unique("nobody"))
    page.fill("#sign-in input[name=password]", "not the password")
    page.click("#sign-in button[type=submit]")
    # the server's code, said in the page's language (English here)
    assert "wrong username or password" in page.locator(".account .error").inner_text().lower()


def test_a_right_to_left_name_is_isolated_in_the_page(open_page: Any, server_url: str) -> None:
    page = open_page("/#account")
    page.locator("#display-name").wait_for()
    page.fill("#display-name", "دریا <b>x</b>")
    page.click("form.rename button")
    page.locator("#account-badge bdi", has_text="دریا").wait_for()
    bdi = page.locator("#account-badge bdi")
    assert bdi.get_attribute("dir") == "auto"
    assert bdi.inner_text() == "دریا <b>x</b>" and bdi.locator("b").count() == 0


def test_a_chat_message_with_html_shows_as_text(open_page: Any, server_url: str) -> None:
    made = httpx.post(f"{server_url}/api/tables",
                      json={"game": "durak", "seats": ["human", "human"]}).json()
    table = made["table"]
    first = open_page("/")
    first.evaluate("([id, token]) => localStorage.setItem(`cardtable.seat.${id}`, "
                   "JSON.stringify({seat: 0, token}))", [table, made["token"]])
    first.goto(f"{server_url}/table/{table}")
    second = open_page("/")
    joined = httpx.post(f"{server_url}/api/tables/{table}/join").json()
    second.evaluate("([id, token]) => localStorage.setItem(`cardtable.seat.${id}`, "
                    "JSON.stringify({seat: 1, token}))", [table, joined["token"]])
    second.goto(f"{server_url}/table/{table}")
    first.locator("#chat h2", has_text="Players' chat").wait_for()
    second.locator("#chat h2", has_text="Players' chat").wait_for()
    evil = '<img src=x onerror="window.pwned=1"><b>bold</b>'
    first.fill("#chat-input", evil)
    first.press("#chat-input", "Enter")
    text = second.locator("#chat .chat-text").first
    text.wait_for()
    assert text.inner_text() == evil
    assert second.locator("#chat img, #chat b").count() == 0
    assert second.evaluate("() => window.pwned") is None
    # a quick phrase arrives in the reader's language; a muted seat is hidden
    first.click('#chat button[data-phrase="good_game"]')
    second.locator("#chat .chat-text", has_text="Good game!").wait_for()
    second.locator("#chat .chat-mute").first.click()
    assert second.locator("#chat .chat-text").count() == 0
    assert "null" not in second.locator("#chat").inner_text()
    second.locator("#chat .chat-muted button").click()   # and back
    assert second.locator("#chat .chat-text").count() == 2
    screenshot(second, "chat-desktop")


def test_a_signed_in_player_comes_back_to_their_seat_on_another_device(
        open_page: Any, server_url: str) -> None:
    name = unique("roamer")
    laptop = open_page("/")
    # The first visit's guest first: its cookie, answered after the sign-up's, would
    # replace the account's, and the table would be the guest's.
    laptop.locator("#account-badge", has_text="Guest").wait_for()
    made = laptop.request.post(f"{server_url}/api/account/register",
                               data={"username": name, "password": PASSWORD})
    assert made.status == 201
    table = laptop.request.post(f"{server_url}/api/tables", data={
        "game": "durak", "seats": ["human", "bot:random"]}).json()["table"]
    phone = open_page("/#account")   # another browser: no seat token there
    phone.fill("#sign-in input[name=username]", name)
    phone.fill("#sign-in input[name=password]", PASSWORD)
    phone.click("#sign-in button[type=submit]")
    phone.locator("#sign-out").wait_for()
    phone.goto(f"{server_url}/table/{table}")
    phone.locator('#table-root[data-seat="0"]').wait_for()
    stranger = open_page(f"/table/{table}")   # a guest watches, and holds no seat
    stranger.locator("#table-root[data-version]").wait_for()
    assert stranger.locator("#table-root").get_attribute("data-seat") == ""


def test_signing_out_takes_the_accounts_seats_out_of_the_browser(
        open_page: Any, server_url: str) -> None:
    page = open_page("/#account")
    name = unique("shared")
    register_in_page(page, name)
    page.goto(f"{server_url}/")
    table = create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    page.locator('#table-root[data-seat="0"]').wait_for()
    keys = "() => Object.keys(localStorage).filter((k) => k.startsWith('cardtable.seat.'))"
    assert page.evaluate(keys) == [f"cardtable.seat.{table}"]
    page.goto(f"{server_url}/#account")
    page.click("#sign-out")
    page.locator("#sign-in").wait_for()
    assert page.evaluate(keys) == []
    # the next person at this browser watches the table: no hand, no move
    page.goto(f"{server_url}/table/{table}")
    page.locator("#table-root[data-version]").wait_for()
    assert page.locator("#table-root").get_attribute("data-seat") == ""
    assert page.locator(".my-hand .hand-cards button.card").count() == 0
