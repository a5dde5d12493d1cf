"""A table's life in the page: Play now seats a guest with bots, a timeout hands the move
to the bot, resigning ends the game, and an abandoned table leaves the lobby."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from browserkit import play_to_the_end, table_root, wait_for_turn_or_end

from cardtable.server import create_app


def seat_page(open_page: Any, server_url: str, table: str, seat: int, token: str) -> Any:
    """Open a table in a page that holds the seat's token (as the page keeps it)."""
    page = open_page("/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"cardtable.seat.{table}", json.dumps({"seat": seat, "token": token})])
    page.goto(f"{server_url}/table/{table}")
    return page


def test_a_guest_clicks_play_now_and_plays_bots(open_page: Any) -> None:
    page = open_page("/")
    page.select_option("#quick-game", "durak")
    page.select_option("#quick-players", "2")
    assert page.locator("#quick-bots").is_checked()
    assert page.locator("#quick-after").input_value() == "15"   # the default
    page.select_option("#quick-after", "5")
    page.click("button.play-now")
    page.locator(".quick-waiting").wait_for()
    # bots fill the other seat after the 5 seconds chosen
    page.wait_for_url("**/table/*", timeout=45_000)
    assert wait_for_turn_or_end(page)
    assert table_root(page).get_attribute("data-seat") == "0"
    assert page.locator(".life-bar .clock").is_visible()
    assert play_to_the_end(page, "durak", seed=5) > 0
    page.locator(".summary.final").wait_for()
    # the choices are remembered for the next time
    page.goto(page.url.split("/table/")[0] + "/")
    assert page.locator("#quick-game").input_value() == "durak"
    assert page.locator("#quick-after").input_value() == "5"


def test_when_time_runs_out_the_bot_plays_the_move(open_page: Any, server_url: str) -> None:
    seated = httpx.post(f"{server_url}/api/tables", json={
        "game": "durak", "seats": ["human", "bot:random"], "takeover": "bot:random",
        "clock": {"move": 2, "bank": 0}}).json()
    page = seat_page(open_page, server_url, seated["table"], seated["seat"], seated["token"])
    assert wait_for_turn_or_end(page)
    clock = page.locator(".life-bar .clock")
    clock.wait_for()
    assert clock.get_attribute("data-seat") == "0"
    version = table_root(page).get_attribute("data-version")
    assert table_root(page).get_attribute("data-to-move") == "0"
    # nobody clicks: the version moves on, so the move of seat 0 (to move) was made for it
    page.wait_for_function(
        "v => document.querySelector('#table-root').dataset.version !== v", arg=version,
        timeout=15_000)
    described = httpx.get(f"{server_url}/api/tables/{seated['table']}").json()
    assert described["version"] > int(version)


def test_resigning_ends_the_game(open_page: Any, server_url: str) -> None:
    seated = httpx.post(f"{server_url}/api/tables", json={
        "game": "durak", "seats": ["human", "bot:random"]}).json()
    page = seat_page(open_page, server_url, seated["table"], seated["seat"], seated["token"])
    page.locator(".life-bar button.resign").wait_for()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(".life-bar button.resign")
    page.wait_for_selector('#table-root[data-over="true"]')
    page.locator(".summary.final").wait_for()
    summary = httpx.get(f"{server_url}/api/tables/{seated['table']}").json()["summary"]
    assert summary["resigned"] == 0 and summary["loser"] == 0


@pytest.fixture
def short_lived_server(tmp_path: Path) -> Iterator[str]:
    """A web table whose tables end as abandoned after 3 seconds with nobody connected."""
    app = create_app(data_dir=tmp_path / "data", bot_delay=0, grace=600, abandon_after=3)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(timeout=15)
    sock.close()


def test_an_abandoned_table_leaves_the_lobby(browser: Any, short_lived_server: str) -> None:
    base = short_lived_server
    seated = httpx.post(f"{base}/api/tables", json={
        "game": "durak", "seats": ["human", "human"]}).json()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(base + "/")
        row = page.locator(f'[data-table="{seated["table"]}"], '
                           f'a[href="/table/{seated["table"]}"]')
        row.first.wait_for(timeout=5_000)
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/api/tables/{seated['table']}").json()["over"] is False:
            assert time.monotonic() < deadline, "the table was never abandoned"
            time.sleep(0.2)
        page.click("button.refresh")
        page.wait_for_function(
            "id => !document.querySelector(`a[href='/table/${id}'], [data-table='${id}']`)",
            arg=seated["table"], timeout=10_000)
    finally:
        context.close()


def test_two_accounts_meet_through_the_queue_and_see_their_ratings_change(
        browser: Any, server_url: str) -> None:
    pages = []
    contexts = [browser.new_context(), browser.new_context()]
    try:
        for name, context in zip(("ana_life", "bo_life"), contexts, strict=True):
            answer = context.request.post(f"{server_url}/api/account/register", data={
                "username": name, "password": "correct horse battery"})
            assert answer.ok, answer.text()
            page = context.new_page()
            page.goto(server_url + "/")
            page.select_option("#quick-game", "durak")
            page.select_option("#quick-players", "2")
            page.uncheck("#quick-bots")   # wait for people
            page.click("button.play-now")
            if not pages:   # the first waits; the second is matched with them at once
                page.locator(".quick-waiting").wait_for()
            pages.append(page)
        for page in pages:
            page.wait_for_url("**/table/*", timeout=30_000)
        assert pages[0].url == pages[1].url
        for page in pages:
            page.locator('.life-bar .rating:text("1500")').first.wait_for()
            assert page.locator(".life-bar .seat-chip.online").count() == 2
        pages[1].once("dialog", lambda dialog: dialog.accept())
        pages[1].click(".life-bar button.resign")
        for page in pages:
            page.wait_for_selector('#table-root[data-over="true"]')
            page.locator('.life-bar .rating[data-changed="true"]').first.wait_for()
            shown = page.locator('.life-bar .rating[data-changed="true"]').all_inner_texts()
            assert len(shown) == 2 and any("+" in text for text in shown), shown
    finally:
        for context in contexts:
            context.close()
