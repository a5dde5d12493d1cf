"""A table's life in the page: Play now seats a guest with bots, a timeout hands the move
to the bot, resigning ends the game, and an abandoned table leaves the lobby."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browserkit import (
    click_durak_move,
    play_to_the_end,
    serving,
    table_root,
    turn_now,
    wait_for_next_version,
    wait_for_turn_or_end,
)
from websockets.sync.client import connect as ws_connect

from cardtable.server import create_app
from cardtable.server.core.wire import seat_protocols


def seat_page(open_page: Any, server_url: str, table: str, seat: int, token: str) -> Any:
    """Open a table in a page that holds the seat's token (as the page keeps it)."""
    page = open_page("/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"cardtable.seat.{table}", json.dumps({"seat": seat, "token": token})])
    page.goto(f"{server_url}/table/{table}")
    return page


@pytest.mark.slow   # a whole quick-play game in the browser (25 s); the server tests cover
# quick play with bots, and test_browser_play whole games by clicking, in every run
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
    # the turn read at once, in one call: with 2 s a move, a loaded machine may see the
    # bot's move for seat 0 before a second look
    version, to_move, clocked = page.evaluate("""() => {
        const root = document.querySelector('#table-root');
        const clock = document.querySelector('.life-bar .clock');
        return [root.dataset.version, root.dataset.toMove, clock && clock.dataset.seat];
    }""")
    assert to_move == "0" and clocked in ("0", None)
    clock = page.locator(".life-bar .clock")
    clock.wait_for()
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
    # told in words, once: the end dialog's title (not again in its lines) and the move log
    assert page.locator("#summary-title").inner_text() == "You resigned: you lost"
    assert page.locator(".summary.final .ending").count() == 0
    page.click(".summary.final button.close-summary")
    last = page.locator(".move-log li.log-line").last
    assert last.inner_text() == "You resigned: the game is over"


def test_a_seat_that_times_out_is_told_and_its_bot_moves_are_marked(
        open_page: Any, server_url: str) -> None:
    seated = httpx.post(f"{server_url}/api/tables", json={
        "game": "durak", "seats": ["human", "bot:random"], "takeover": "bot:random",
        "clock": {"move": 1, "bank": 0}}).json()
    page = seat_page(open_page, server_url, seated["table"], seated["seat"], seated["token"])
    # nobody clicks: three timeouts in a row forfeit the seat
    # the forfeit's note, or the end's if the bots finished the game first: read at once,
    # in one look (the game can end between two reads, and the note go with it)
    told = page.wait_for_function("""() => {
        if (document.querySelector('#table-root')?.dataset.over === 'true') {
            const title = document.querySelector('.summary.final #summary-title');
            return title ? ['over', title.textContent] : null;
        }
        const note = document.querySelector('.life-bar .gone-note');
        return note ? ['note', note.textContent] : null;
    }""", timeout=30_000).json_value()
    assert told[1].strip().startswith("You forfeited"), told
    # what follows is read behind the end dialog, if it is open: no click lands on it while
    # it pops up (a click then could land on its other buttons, Back to the lobby among them)
    chip = page.locator('.life-bar .seat-chip[data-seat="0"]')
    assert "forfeited" in chip.inner_text() and "online" not in (chip.get_attribute("class") or "")
    lines = page.locator(".move-log li.log-line").all_inner_texts()
    assert any(line.startswith("Bot for You: ") for line in lines), lines
    assert not any(line.startswith("You: ") for line in lines), lines   # none was mine
    assert any(line.startswith("You forfeited") for line in lines), lines
    assert page.locator(".life-bar button.resign").count() == 0
    # a reload rebuilds the log from the server's (GET /log): the bot's moves stay its own
    page.reload()
    page.wait_for_function("""() => [...document.querySelectorAll('.move-log li.log-line')]
        .filter((li) => /^(Bot for You|You): /.test(li.textContent)).length >= 3""",
                           timeout=30_000)
    lines = page.locator(".move-log li.log-line").all_inner_texts()
    assert sum(line.startswith("Bot for You: ") for line in lines) >= 3, lines
    assert not any(line.startswith("You: ") for line in lines), lines
    # the other side's view: the seat is gone, not "online"
    watcher = open_page(f"/table/{seated['table']}")
    watcher.locator('.life-bar .seat-chip.gone[data-seat="0"]').wait_for()


ENDINGS = """async ([lang, summary]) => {
  const i18n = window.cardtableModules.get('/js/i18n.js');
  const endings = window.cardtableModules.get('/js/endings.js');
  await i18n.setLanguage(lang);
  const names = ['Ana', 'Bo'];
  return [endings.endingLines(summary, (seat) => names[seat]), endings.resultShown(summary)];
}"""


@pytest.mark.parametrize("lang", ["en", "pt", "fa", "ru"])
def test_every_ending_is_told_in_words_in_each_language(open_page: Any, lang: str) -> None:
    page = open_page("/")
    told = {}
    for name, ended in (("resigned", {"ended": "resigned", "resigned": 1}),
                        ("abandoned", {"ended": "abandoned"}), ("forfeits", {"forfeits": [0]}),
                        ("left", {"left": [1]}), ("rules", {})):
        told[name] = page.evaluate(ENDINGS, [lang, {"over": True, **ended}])
    assert told["rules"] == [[], True]   # a game the rules ended: its result says it
    assert told["abandoned"][1] is False   # no "A draw 0 : 0" for a game never finished
    for key in ("resigned", "abandoned", "forfeits", "left"):
        assert len(told[key][0]) == 1 and "{" not in told[key][0][0], told[key]
    assert "Bo" in told["resigned"][0][0] and "Ana" in told["forfeits"][0][0]
    assert "Bo" in told["left"][0][0]
    assert len({told[k][0][0] for k in ("resigned", "abandoned", "forfeits", "left")}) == 4
    if lang != "en":   # the page's own language, not English
        english, _ = page.evaluate(ENDINGS, ["en", {"over": True, "ended": "abandoned"}])
        assert told["abandoned"][0] != english


@pytest.fixture
def short_lived_server(tmp_path: Path) -> Iterator[str]:
    """A web table whose tables end as abandoned after 3 seconds with nobody connected."""
    app = create_app(data_dir=tmp_path / "data", bot_delay=0, grace=600, abandon_after=3)
    with serving(app) as url:
        yield url


def test_an_abandoned_table_leaves_the_lobby(browser: Any, short_lived_server: str) -> None:
    base = short_lived_server
    seated = httpx.post(f"{base}/api/tables", json={
        "game": "durak", "seats": ["human", "human"]}).json()
    context = browser.new_context()
    try:
        page = context.new_page()
        # the seat's player is there until the lobby shows the table (a loaded machine may
        # take longer than the 3 s to draw it), then leaves it abandoned
        with ws_connect(base.replace("http", "ws", 1) + f"/ws/tables/{seated['table']}",
                        subprotocols=seat_protocols(seated["token"])):  # type: ignore[arg-type]
            page.goto(base + "/")
            row = page.locator(f'[data-table="{seated["table"]}"], '
                               f'a[href="/table/{seated["table"]}"]')
            row.first.wait_for(timeout=20_000)
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


def each_moves_once(pages: list[Any]) -> None:
    """Each page's seat makes its first move (its first legal one) in a Durak game of
    two: the seat to move, then the other."""
    for _ in range(len(pages)):
        seat = table_root(pages[0]).get_attribute("data-to-move")
        page = next(p for p in pages if table_root(p).get_attribute("data-seat") == seat)
        page.wait_for_selector('#table-root[data-my-turn="true"]')
        version, moves = turn_now(page)
        click_durak_move(page, moves[0], via_table=False)
        for other in pages:
            wait_for_next_version(other, version)


def test_an_aborted_rated_game_says_so(browser: Any, server_url: str) -> None:
    """A rated game resigned before the first move is aborted, and the end says so."""
    contexts = [browser.new_context(), browser.new_context()]
    try:
        for name, context in zip(("ana_abort", "bo_abort"), contexts, strict=True):
            assert context.request.post(f"{server_url}/api/account/register", data={
                "username": name, "password": "correct horse battery"}).ok
        made = contexts[0].request.post(f"{server_url}/api/tables", data={
            "game": "durak", "seats": ["human", "human"], "rated": True}).json()
        assert contexts[1].request.post(f"{server_url}/api/tables/{made['table']}/join",
                                        data={}).ok
        page = contexts[0].new_page()
        page.goto(server_url + "/")
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"cardtable.seat.{made['table']}",
                       json.dumps({"seat": made["seat"], "token": made["token"]})])
        page.goto(f"{server_url}/table/{made['table']}")
        page.locator(".life-bar button.resign").wait_for()
        page.once("dialog", lambda dialog: dialog.accept())
        page.click(".life-bar button.resign")
        page.wait_for_selector('#table-root[data-over="true"]')
        assert "aborted" in page.locator(".summary.final .ending").inner_text()
    finally:
        for context in contexts:
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
        each_moves_once(pages)   # past the rated game's abort window
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


def test_a_rematch_is_an_offer_the_other_player_accepts_or_declines(
        open_page: Any, server_url: str) -> None:
    seated = httpx.post(f"{server_url}/api/tables", json={
        "game": "durak", "seats": ["human", "human"]}).json()
    joined = httpx.post(f"{server_url}/api/tables/{seated['table']}/join", json={}).json()
    host = seat_page(open_page, server_url, seated["table"], 0, seated["token"])
    friend = seat_page(open_page, server_url, seated["table"], 1, joined["token"])
    friend.locator(".life-bar button.resign").wait_for()
    friend.once("dialog", lambda dialog: dialog.accept())
    friend.click(".life-bar button.resign")
    host.locator(".summary.final").wait_for()
    friend.locator(".summary.final").evaluate("(dialog) => { dialog.dataset.seen = 'yes'; }")
    host.click(".summary.final button.rematch")
    # the offer moves nobody: the host waits, the friend is asked
    host.locator(".summary.final button.rematch[disabled]").wait_for()
    assert "Waiting for" in host.locator(".summary.final button.rematch").inner_text()
    friend.locator(".summary.final .rematch-offer").wait_for()
    assert "offers a rematch" in friend.locator(".rematch-offer").inner_text()
    # in the dialog already open, which changes in place: it does not pop up again, and its
    # buttons do not move under the friend's pointer
    assert friend.locator('.summary.final[data-seen="yes"] .rematch-offer').count() == 1
    assert "/table/" + seated["table"] in host.url and "/table/" + seated["table"] in friend.url
    friend.click(".summary.final button.decline-rematch")
    host.locator(".toast", has_text="declined the rematch").wait_for()
    host.locator(".summary.final button.rematch:not([disabled])").wait_for()
    # offered again and accepted: both move to the new table, in their own seats
    host.click(".summary.final button.rematch")
    friend.locator(".summary.final button.rematch.accept").click()
    for page, seat in ((host, "0"), (friend, "1")):
        page.wait_for_function("old => !location.pathname.endsWith(old)", arg=seated["table"])
        page.locator(f'#table-root[data-seat="{seat}"]').wait_for()
    assert host.url == friend.url


def test_the_lobby_makes_a_rated_table_for_people_only(browser: Any, server_url: str) -> None:
    guest = browser.new_context()
    try:   # a guest is not offered "Rated" (the server would refuse the table)
        page = guest.new_page()
        page.goto(server_url + "/")
        page.click("#game-durak")
        page.select_option("#players", "2")
        page.select_option("#seat-1", "human")
        page.wait_for_selector("button.play-computer")
        page.wait_for_timeout(1000)   # the lobby has asked who this is
        assert page.locator("#rated").count() == 0
    finally:
        guest.close()
    context = browser.new_context()
    try:
        assert context.request.post(f"{server_url}/api/account/register", data={
            "username": "ana_rated", "password": "correct horse battery"}).ok
        page = context.new_page()
        page.goto(server_url + "/")
        page.click("#game-durak")
        page.select_option("#players", "2")
        page.select_option("#seat-1", "bot:random")
        assert page.locator("#rated").count() == 0   # no rated table with a bot
        page.select_option("#seat-1", "human")
        page.locator("#rated").wait_for()   # offered once the lobby knows the account
        page.check("#rated")
        page.click("button.create")
        table = page.locator(".created input.invite-link").input_value().rsplit("/table/", 1)[1]
        listed = {t["id"]: t["rated"] for t in httpx.get(f"{server_url}/api/tables").json()}
        assert listed[table] is True
    finally:
        context.close()
