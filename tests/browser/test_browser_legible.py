"""Legible and roomy: the leaderboard's names readable (contrast of the drawn colours at
least 4.5:1), the move log's numbers never clipped, the analysis board fits a phone
without sideways scrolling, and a slow network shows the page's frame (header and
navigation, in the reader's language) before the page's modules have arrived."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from accesskit import drawn_contrast, play_first_moves, seated_table
from browserkit import DESKTOP, PHONE, screenshot, wait_for_turn_or_end
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_browser_players import unique

pytestmark = pytest.mark.browser
pytest.importorskip("PIL")

LOCALES = {"en": "en-US", "fa": "fa-IR"}


def test_the_leaderboard_is_readable(open_page) -> None:
    name = unique("legible")
    # the board of an established pool (a rated game's ratings are provisional: not ranked)
    board = {"pools": ["durak/transfer/2p"], "pool": "durak/transfer/2p", "entries": [
        {"rank": rank, "id": f"p{rank}", "username": who, "name": who, "rating": rating,
         "provisional": False, "games": 14} for rank, (who, rating) in
        enumerate(((name, 1621), (unique("reader"), 1544)), start=1)]}
    page = open_page("/")
    page.route("**/api/leaderboard*", lambda route: route.fulfill(json=board))
    page.goto(page.url.split("#")[0] + "#leaderboard")
    page.locator("table.board bdi", has_text=name).wait_for()
    cells = page.locator("table.board th, table.board td a, table.board td:not(:has(a))")
    assert cells.count() >= 8
    ratios = {cells.nth(i).inner_text(): drawn_contrast(cells.nth(i)) for i in range(cells.count())}
    assert min(ratios.values()) >= 4.5, ratios
    screenshot(page, "leaderboard-desktop")


# Adds the probe lines the log lacks, each marked with this try's number: the log draws its
# lines again on any state (an opponent's connection, a bot's late move), which takes them away.
PROBES = """([kinds, round]) => { const list = document.querySelector('.move-log .log-lines');
  for (const kind of kinds) {
    if (list.querySelector(`li[data-probe="${kind}"][data-round="${round}"]`)) continue;
    const line = document.createElement('li');
    line.className = `log-line ${kind}`; line.dataset.probe = kind; line.dataset.round = round;
    line.textContent = `A line of the kind ${kind}`; list.append(line); } }"""


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_every_kind_of_log_line_is_readable_on_the_panel(open_page, server_url: str,
                                                         game: str) -> None:
    page = seated_table(open_page, server_url, game)
    play_first_moves(page, 1)
    assert wait_for_turn_or_end(page)   # the table waits for the player
    kinds = ["lay", "capture", "sur", "end", "gone", "attack", "defend", "take", "pass"]
    ratios: dict[str, float] = {}
    page.set_default_timeout(3000)
    for attempt in range(10):   # a measure counts only if its line was never drawn again
        page.evaluate(PROBES, [kinds, attempt])
        for kind in kinds:
            if kind in ratios:
                continue
            line = page.locator(f'.move-log li[data-probe="{kind}"][data-round="{attempt}"]')
            try:
                ratio = drawn_contrast(line)
            except (PlaywrightTimeout, ValueError):
                # the log drew its lines again meanwhile: the probe is gone (a detached
                # line has no computed colour); the next attempt puts the probes back
                break
            if line.count() == 1:
                ratios[kind] = ratio
        if len(ratios) == len(kinds):
            break
    assert set(ratios) == set(kinds), f"measured only {sorted(ratios)}"
    assert min(ratios.values()) >= 4.5, ratios


# The marker of an <ol>'s line ("12.", "۱۲." in Persian) hangs in the list's start padding;
# the log scrolls, so a marker wider than that padding is cut off.  The widest marker the
# log can show, measured in the list's own font, against that padding.
MARKER_ROOM = """list => {
  const style = getComputedStyle(list);
  const lines = list.querySelectorAll(':scope > li').length;
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
  probe.style.font = getComputedStyle(list.querySelector('li'), '::marker').font || style.font;
  const persian = getComputedStyle(list).listStyleType === 'persian';
  probe.textContent = (persian ? lines.toLocaleString('fa-IR', {useGrouping: false})
                               : String(lines)) + '. ';
  document.body.append(probe);
  const widest = probe.getBoundingClientRect().width;
  probe.remove();
  return { lines, widest, room: parseFloat(style.paddingInlineStart) };
}"""


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("fa", PHONE)])
def test_the_move_log_numbers_are_never_clipped(open_page, server_url: str, lang: str,
                                                viewport: dict) -> None:
    page = seated_table(open_page, server_url, "pasur", locale=LOCALES[lang], viewport=viewport)
    play_first_moves(page, 6)
    page.wait_for_function("() => document.querySelectorAll('.move-log li.log-line').length >= 12")
    room = page.locator(".move-log .log-lines").evaluate(MARKER_ROOM)
    assert room["lines"] >= 12
    assert room["widest"] <= room["room"], room
    # and the widest the log ever holds (400 lines) fits too
    page.evaluate("""() => { const list = document.querySelector('.move-log .log-lines');
      while (list.children.length < 400) list.append(list.lastElementChild.cloneNode(true)); }""")
    room = page.locator(".move-log .log-lines").evaluate(MARKER_ROOM)
    assert room["lines"] == 400 and room["widest"] <= room["room"], room
    screenshot(page, f"pasur-{lang}-move-log-numbers")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_analysis_board_fits_a_phone(open_page, analysed_pasur: str, lang: str) -> None:
    page = open_page(f"/#/analyse/{analysed_pasur}", locale=LOCALES[lang], viewport=PHONE,
                     reduced_motion=True)
    page.wait_for_selector('#analysis-status[data-done="true"]')
    page.click("#analysis-moves button.show-move")
    page.wait_for_selector("#replay-table[data-step]")
    widths = page.evaluate("""() => ({ scroll: document.documentElement.scrollWidth,
                                       width: document.documentElement.clientWidth })""")
    assert widths["scroll"] <= widths["width"], widths
    # the moves' table itself is whole on the screen: no column out of sight
    box = page.locator("#analysis-moves").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= widths["width"]
    screenshot(page, f"analysis-{lang}-phone")


FRAME_SHOWN = """word => {
  const header = document.getElementById('header');
  const lobby = document.querySelector('#header nav a[data-nav="lobby"]');
  return !!lobby && lobby.textContent === word && lobby.getBoundingClientRect().width > 0
    && getComputedStyle(header).backgroundColor === 'rgb(16, 38, 63)';
}"""


@pytest.mark.parametrize(("lang", "word"), [("en", "Lobby"), ("fa", "سالن")])
def test_a_slow_network_shows_the_frame_before_the_page(browser: Any, server_url: str,
                                                        lang: str, word: str) -> None:
    context = browser.new_context(locale=LOCALES[lang], viewport=DESKTOP)
    try:
        # a returning visitor's page, which names its script (a first visit's carries the
        # script inside it, and draws its screen with the page)
        first = httpx.get(server_url + "/").text
        script = re.search(r'data-script="([^"]+)"', first)
        assert script, "a first visit's page carries its script"
        context.add_cookies([{"name": "cardtable_assets", "value": script.group(1),
                              "url": server_url}])
        page = context.new_page()
        network = context.new_cdp_session(page)
        network.send("Network.enable")
        network.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": 2000, "downloadThroughput": -1,
            "uploadThroughput": -1})
        page.goto(server_url + "/", wait_until="commit")
        # the header, styled and in the reader's words, while the page's modules are on
        # their way: app.js has not drawn a screen yet
        page.wait_for_function(FRAME_SHOWN, arg=word, timeout=60_000)
        assert page.evaluate("document.body.dataset.screen") is None
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")
        assert page.locator("#header nav a").count() >= 4   # lobby, learn, history, players...
    finally:
        context.close()
