"""A newcomer's first steps: the computer in one tap from the landing page, the
end dialog's Analyse and Replay, my games beside all games, the games in play listed in
the lobby with a way back in, and an invited friend seated on opening the link."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browserkit import PHONE, screenshot, table_root

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server_url(roomy_server_url: str) -> str:
    """This module's tables are made on a web table with no rate of new tables."""
    return roomy_server_url


def play_the_computer(page: Any, game: str, level: str | None = None) -> str:
    """Tap "Play the computer" for ``game`` on the landing page; the table's id."""
    row = page.locator(f'li.computer-game[data-game="{game}"]')
    if level is not None:
        row.locator("select.level").select_option(level)
    row.locator("button.play-computer").click()
    page.wait_for_url("**/table/*")
    table_root(page).wait_for()
    return str(page.url.rsplit("/table/", 1)[1])


def my_token(page: Any, table: str) -> str:
    held = page.evaluate("key => localStorage.getItem(key)", f"cardtable.seat.{table}")
    return str(json.loads(held)["token"])


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_computer_is_one_tap_from_the_landing_page(open_page: Any, server_url: str,
                                                       lang: str) -> None:
    page = open_page("/", viewport=PHONE)
    page.select_option("#language", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    rows = page.locator("li.computer-game")
    rows.first.wait_for()
    assert rows.evaluate_all("rows => rows.map(r => r.dataset.game)") == ["pasur", "durak"]
    for game in ("pasur", "durak"):
        row = page.locator(f'li.computer-game[data-game="{game}"]')
        about = row.locator("p.about").inner_text()
        assert len(about) > 40 and "home." not in about      # a sentence, not a key
        assert row.locator("a.learn").get_attribute("href") == f"/#/learn/{game}"
        assert row.locator("select.level").input_value() == "easy"
    if lang == "fa":
        assert page.locator("html").get_attribute("dir") == "rtl"
        assert page.locator("#computer-title").inner_text() == "بازی با کامپیوتر"
        assert "۱۱" in page.locator('li.computer-game[data-game="pasur"] p.about').inner_text()
    screenshot(page, f"landing-{lang}-phone")
    table = play_the_computer(page, "pasur", level="beginner")
    # straight to the table, seated, the cards dealt: no "Open the table" on the way
    page.locator('#table-root[data-seat="0"]').wait_for()
    page.locator(".hand-cards button.card").first.wait_for()
    seats = page.request.get(f"{server_url}/api/tables/{table}").json()["seats"]
    assert [(seat["kind"], seat["bot"]) for seat in seats] == [("human", None),
                                                              ("bot", "beginner")]
    page.goto(f"{server_url}/")   # the level chosen is kept for next time
    assert page.locator("#level-pasur").input_value() == "beginner"


def test_the_learn_link_opens_the_games_course(open_page: Any) -> None:
    page = open_page("/")
    page.locator('li.computer-game[data-game="durak"] a.learn').click()
    page.wait_for_function("() => document.body.dataset.screen === 'learn'")
    # the course's first step (the page names it in the address once the course is read)
    page.wait_for_function("() => location.hash.startsWith('#/learn/durak/')")
    assert "/#/learn/durak/" in page.url


def test_the_end_dialog_offers_analysis_and_replay_with_the_reason(
        open_page: Any, server_url: str) -> None:
    page = open_page("/")
    table = play_the_computer(page, "durak")
    page.locator('#table-root[data-seat="0"]').wait_for()
    resigned = page.request.post(f"{server_url}/api/tables/{table}/resign",
                                 data={"token": my_token(page, table)})
    assert resigned.ok
    dialog = page.locator(".summary.final")
    dialog.wait_for()
    screenshot(page, "end-dialog-en-desktop")
    assert dialog.locator("#summary-title").inner_text() == "You resigned: you lost"
    assert dialog.locator("a.analyse").inner_text() == "Analyse the game"
    assert dialog.locator("a.replay").get_attribute("href") == f"/#replay/{table}"
    dialog.locator("a.analyse").click()
    page.wait_for_function("() => document.body.dataset.screen === 'analysis'")
    assert page.url.endswith(f"/#/analyse/{table}")
    page.go_back()
    page.locator(".summary.final a.replay").click()
    page.wait_for_function("() => document.body.dataset.screen === 'replay'")
    assert page.url.endswith(f"/#replay/{table}")


def test_my_games_are_paged_beside_all_games(open_page: Any, server_url: str) -> None:
    page = open_page("/")
    mine = resigned_games(page, server_url, 21)
    theirs = resigned_games(open_page("/"), server_url, 1)   # someone else's, the latest
    page.goto(f"{server_url}/#history")
    items = page.locator(".history-item")
    page.locator('.history-tabs button.mine[aria-pressed="true"]').wait_for()
    items.first.wait_for()
    shown = items.evaluate_all("items => items.map(i => i.dataset.table)")
    assert shown == mine[::-1][:20]
    page.click(".pager button.older")
    page.wait_for_function("() => document.querySelectorAll('.history-item').length === 1")
    assert items.evaluate_all("items => items.map(i => i.dataset.table)") == mine[:1]
    screenshot(page, "history-mine-en-desktop")
    assert page.locator(".pager button.older").is_disabled()
    page.click(".history-tabs button.all")
    page.locator('.history-tabs button.all[aria-pressed="true"]').wait_for()
    page.wait_for_function(
        "id => document.querySelector('.history-item')?.dataset.table === id", arg=theirs[0])
    assert items.count() == 20 and page.locator(".pager button.older").is_enabled()


def resigned_games(page: Any, server_url: str, count: int) -> list[str]:
    """``count`` games of this page's player against a bot, each resigned at once."""
    page.locator("li.computer-game").first.wait_for()
    assert page.request.get(f"{server_url}/api/me").ok   # the guest, in the page's cookie
    tables = []
    for _ in range(count):
        made = page.request.post(f"{server_url}/api/tables", data={
            "game": "durak", "seats": ["human", "bot:random"]}).json()
        assert page.request.post(f"{server_url}/api/tables/{made['table']}/resign",
                                 data={"token": made["token"]}).ok
        tables.append(made["table"])
    return tables


def test_the_lobby_lists_my_games_in_play_with_a_way_back(open_page: Any,
                                                          server_url: str) -> None:
    page = open_page("/")
    table = play_the_computer(page, "durak")
    page.locator('#table-root[data-seat="0"]').wait_for()
    page.goto(f"{server_url}/")
    mine = page.locator(f'.my-games .table-item[data-table="{table}"]')
    mine.wait_for()
    assert page.locator("#mine-title").inner_text() == "Your games in play"
    mine.locator("a.back-in").click()
    page.wait_for_url(f"**/table/{table}")
    page.locator('#table-root[data-seat="0"]').wait_for()
    stranger = open_page("/")   # another person has no games in play
    stranger.locator("li.computer-game").first.wait_for()
    assert stranger.locator(".my-games .table-item").count() == 0
    assert stranger.locator(".my-games").is_hidden()


def test_a_table_made_before_the_first_visit_is_known_is_still_mine(browser: Any,
                                                                  server_url: str) -> None:
    """A newcomer who taps "Play the computer" before the page has learnt who they are
    (their first ``/api/me``, which makes their guest, still on its way) gets a seat that is
    theirs: the lobby lists it under "Your games in play" afterwards."""
    context = browser.new_context(locale="en-US")
    context.set_default_timeout(20_000)
    held: list[Any] = []
    context.route("**/api/me", lambda route: held.append(route) if not held
                  else route.continue_())
    try:
        page = context.new_page()
        page.goto(f"{server_url}/")
        page.locator("li.computer-game button.play-computer").first.wait_for()
        assert held, "the page asks who its visitor is on the first visit"
        page.locator('li.computer-game[data-game="durak"] button.play-computer').click()
        page.wait_for_timeout(700)      # time enough for a table to be made, were it asked
        held[0].continue_()
        page.wait_for_url("**/table/*")
        table = page.url.rsplit("/table/", 1)[1]
        page.locator('#table-root[data-seat="0"]').wait_for()
        page.goto(f"{server_url}/")
        page.locator(f'.my-games .table-item[data-table="{table}"]').wait_for()
    finally:
        context.close()


def test_an_invited_friend_is_seated_on_opening_the_link(open_page: Any,
                                                         server_url: str) -> None:
    host = open_page("/")
    host.locator("li.computer-game").first.wait_for()
    made = host.request.post(f"{server_url}/api/tables", data={
        "game": "durak", "seats": ["human", "human", "human"], "players": 3}).json()
    # someone who chose Watch in the lobby watches, seat free or not
    watcher = open_page("/")
    watcher.locator(f'.table-item[data-table="{made["table"]}"] button.watch').click()
    watcher.wait_for_url(f"**/table/{made['table']}?watch")
    watcher.locator("#table-root[data-version]").wait_for()
    watcher.locator(".banner.spectator button.join").wait_for()
    assert table_root(watcher).get_attribute("data-seat") == ""
    # the friend opens the invite link, and sits: no button to find first
    friend = open_page(f"/table/{made['table']}")
    friend.locator('#table-root[data-seat="1"]').wait_for()
    seats = friend.request.get(f"{server_url}/api/tables/{made['table']}").json()["seats"]
    assert [seat["taken"] for seat in seats] == [True, True, False]
    assert table_root(watcher).get_attribute("data-seat") == ""
