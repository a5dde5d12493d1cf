"""A newcomer's first ten minutes on a phone (what a newcomer meets), in English and in
Persian: open the site, play the computer at Pasur to the end, open the analysis from the
end dialog, then reload in the middle of a second game and find the whole move log.  It
prints the clicks and the time to the first move (docs/players.md keeps the figures)."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    PHONE,
    click_pasur_move,
    play_to_the_end,
    table_root,
    turn_now,
    wait_for_next_version,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server_url(roomy_server_url: str) -> str:
    """This module's tables are made on a web table with no rate of new tables."""
    return roomy_server_url

COUNT_CLICKS = """() => {
  window.clicks = 0;
  document.addEventListener('click', (e) => { if (e.isTrusted) window.clicks += 1; }, true);
}"""

LOCALES = {"en": "en-US", "fa": "fa-IR"}


def log_lines(page: Any) -> list[str]:
    return page.locator(".move-log li.log-line").all_inner_texts()


def my_moves(page: Any, count: int) -> None:
    """Play ``count`` of this seat's moves (the first legal one each time)."""
    for _ in range(count):
        assert wait_for_turn_or_end(page), "the game ended first"
        version, moves = turn_now(page)
        click_pasur_move(page, moves[0], via_table=False)
        wait_for_next_version(page, version)


@pytest.mark.slow   # a measure (a whole match on a phone, 20-35 s a language): -m slow
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_newcomers_first_minutes_on_a_phone(open_page: Any, server_url: str,
                                              lang: str) -> None:
    page = open_page("/", viewport=PHONE, locale=LOCALES[lang], reduced_motion=True)
    assert page.locator("html").get_attribute("lang") == lang
    page.evaluate(COUNT_CLICKS)
    page.locator('li.computer-game[data-game="pasur"] button.play-computer').click()
    page.wait_for_url("**/table/*")
    table = page.url.rsplit("/table/", 1)[1]
    my_moves(page, 1)
    to_first_move = page.evaluate("[performance.now(), window.clicks]")
    played = 1 + play_to_the_end(page, "pasur", seed=30)
    dialog = page.locator(".summary.final")
    dialog.wait_for()
    clicks_to_the_end = page.evaluate("window.clicks")
    dialog.locator("a.analyse").click()
    page.wait_for_url(f"**/#/analyse/{table}")
    page.locator("#analysis .analysis-running, #analysis-moves").first.wait_for()

    # a second game, reloaded in the middle: the log is whole again
    page.goto(f"{server_url}/")
    page.locator('li.computer-game[data-game="pasur"] button.play-computer').click()
    page.wait_for_url("**/table/*")
    my_moves(page, 3)
    before = log_lines(page)
    assert len(before) >= 3
    page.reload()
    table_root(page).wait_for()
    page.wait_for_function("n => document.querySelectorAll('.move-log li.log-line').length >= n",
                           arg=len(before))
    assert log_lines(page)[:len(before)] == before
    print(f"\n[{lang}] first move at {to_first_move[0] / 1000:.1f} s after opening the site, "
          f"{to_first_move[1]} clicks; the game to its end: {played} moves of mine, "
          f"{clicks_to_the_end} clicks")
