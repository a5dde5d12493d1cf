"""Every ending and warning said once, to the player: a time-out is a banner with what
follows from it, the end dialog's title says how the game went for the player ("You won",
"You lost", "You forfeited; the computer finished for you and lost"), the history names a
resignation, Undo is offered only where it can work, and a reloaded table makes no sound
before the player touches it (a browser refuses an AudioContext then, with a warning)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from browserkit import click_pasur_move, create_table, legal_moves, table_root, wait_for_turn_or_end

pytestmark = pytest.mark.browser

TITLES = """async ([lang, cases]) => {
  const i18n = window.cardtableModules.get('/js/i18n.js');
  const { endTitle } = window.cardtableModules.get('/js/endings.js');
  await i18n.setLanguage(lang, { remember: false });
  return cases.map(([summary, seat]) => endTitle(summary, seat));
}"""

CASES = [
    [{"winners": [0], "totals": [63, 40]}, 0],                        # Pasur, won
    [{"winners": [1], "totals": [40, 63]}, 0],                        # Pasur, lost
    [{"winners": [], "totals": [62, 62]}, 0],                         # Pasur, a draw
    [{"loser": 1, "draw": False}, 0],                                 # Durak, not the durak
    [{"loser": 0, "draw": False}, 0],                                 # Durak, the durak
    [{"loser": 1, "draw": False, "forfeits": [0]}, 0],                # forfeited, bot won
    [{"loser": 0, "draw": False, "forfeits": [0]}, 0],                # forfeited, bot lost
    [{"ended": "resigned", "resigned": 0, "loser": 0}, 0],            # resigned
    [{"loser": 0, "draw": False}, None],                              # a watcher
    [{"ended": "abandoned"}, 0],                                      # nobody came back
]


@pytest.mark.parametrize("lang", ["en", "pt", "fa", "ru"])
def test_the_end_dialog_says_how_the_game_went_for_the_player(open_page: Any, lang: str) -> None:
    page = open_page("/")
    page.wait_for_function("() => window.cardtableModules?.get('/js/endings.js')")
    titles = page.evaluate(TITLES, [lang, CASES])
    english = page.evaluate(TITLES, ["en", CASES])
    won, lost, draw, not_durak, durak, forfeit_won, forfeit_lost, resigned, watcher, gone = titles
    assert won == not_durak and lost == durak and len({won, lost, draw}) == 3
    assert forfeit_won != forfeit_lost and resigned not in (won, lost)
    assert watcher == gone   # no outcome to say: "Game over"
    assert not any("{" in title for title in titles), titles
    if lang == "en":
        assert titles[:3] == ["You won", "You lost", "A draw"]
        assert forfeit_lost == "You forfeited; the computer finished for you and lost"
        assert watcher == "Game over"
    else:
        assert [a != b for a, b in zip(titles, english, strict=True)] == [True] * len(titles)


def seat_page(open_page: Any, server_url: str, table: str, seat: int, token: str) -> Any:
    page = open_page("/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"cardtable.seat.{table}", json.dumps({"seat": seat, "token": token})])
    page.goto(f"{server_url}/table/{table}")
    return page


def test_a_time_out_is_a_banner_that_says_what_follows(open_page: Any, server_url: str) -> None:
    seated = httpx.post(f"{server_url}/api/tables", json={
        "game": "durak", "seats": ["human", "bot:random"], "takeover": "bot:random",
        "clock": {"move": 1, "bank": 0}}).json()
    page = seat_page(open_page, server_url, seated["table"], seated["seat"], seated["token"])
    # nobody clicks: the first time-out's banner, then (unless the game ended first) the
    # second's; read in one look each time, the game moving on meanwhile
    seen = page.wait_for_function("""() => {
        const banner = document.querySelector('.banner.timed-out');
        if (banner) return [banner.dataset.left, banner.textContent];
        return document.querySelector('#table-root')?.dataset.over === 'true' ? ['over'] : null;
    }""", timeout=30_000).json_value()
    if seen[0] != "over":
        assert seen[0] in ("2", "1"), seen
        assert seen[1].startswith("Your time ran out, so the computer played for you. "), seen
        assert seen[1].endswith(f"{seen[0]} more time-out{'s' if seen[0] == '2' else ''} in a "
                                "row and it plays your seat to the end."), seen
        assert page.locator(".banner.timed-out").count() <= 1   # said once
    # the third forfeits the seat: no banner, no undo or hint for a seat a bot plays
    page.wait_for_function("""() => document.querySelector('.life-bar .gone-note')
        || document.querySelector('#table-root')?.dataset.over === 'true'""", timeout=30_000)
    if table_root(page).get_attribute("data-over") != "true":
        assert page.locator(".banner.timed-out").count() == 0
        assert page.locator(".actions button.undo, .actions button.hint").count() == 0
    page.wait_for_selector('#table-root[data-over="true"]', timeout=60_000)
    title = page.locator("#summary-title").inner_text()
    assert title.startswith("You forfeited; the computer finished for you"), title
    # said once: the dialog's lines do not say the forfeit again
    assert page.locator(".summary.final .ending", has_text="You forfeited").count() == 0


def test_undo_is_offered_once_there_is_a_move_to_take_back(open_page: Any) -> None:
    page = open_page("/", reduced_motion=True)
    create_table(page, "pasur", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    if table_root(page).get_attribute("data-version") == "0":
        assert page.locator(".actions button.undo").count() == 0   # nothing to take back
    version = table_root(page).get_attribute("data-version")
    click_pasur_move(page, legal_moves(page)[0], via_table=False)
    page.wait_for_function("v => document.querySelector('#table-root').dataset.version !== v",
                           arg=version)
    assert wait_for_turn_or_end(page)
    page.locator(".actions button.undo").wait_for()


def test_a_resigned_game_in_the_history_says_who_resigned(open_page: Any, server_url: str) -> None:
    page = open_page("/", reduced_motion=True)
    create_table(page, "pasur", seats=["human", "bot:random"])
    page.click(".created .open-table")
    page.locator(".life-bar button.resign").wait_for()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(".life-bar button.resign")
    page.wait_for_selector('#table-root[data-over="true"]')
    assert page.locator("#summary-title").inner_text() == "You resigned: you lost"
    table = page.url.rsplit("/table/", 1)[1]
    page.goto(f"{server_url}/#history")
    item = page.locator(f'.history-item[data-table="{table}"]')
    item.wait_for()
    result = item.locator("div div", has_text="Result").first.inner_text()
    # who resigned, then the winner without the points where the play stopped ("0 : 0")
    assert " resigned · Winner: " in result and " : " not in result, result


def test_a_reloaded_table_makes_no_sound_before_the_player_touches_it(open_page: Any) -> None:
    page = open_page("/", reduced_motion=True)
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text)
            if message.type in ("warning", "error") else None)
    create_table(page, "pasur", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    page.reload()
    assert wait_for_turn_or_end(page)   # the turn's tone would sound here
    page.wait_for_timeout(300)
    assert not [w for w in warnings if "AudioContext" in w], warnings
