"""The history's replay: a finished game drawn step by step, every hand face up.

The page is compared with GET /api/tables/{id}/replay at every step of a finished Pasur
match and a finished Durak game: the table's cards, each seat's hand, the stock, who just
moved and what, and the result at the end.  Durak is replayed in Persian (right to left:
the left arrow steps forward).
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import PHONE, screenshot

pytestmark = pytest.mark.browser

PERSIAN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")
OPTIONS = {"pasur": {"target": 1}, "durak": {}}

DRAWN = """() => {
  const root = document.querySelector("#replay-table");
  const cards = (el) => el
    ? [...el.querySelectorAll(".card[data-card]")].map((c) => c.dataset.card) : null;
  const hands = {};
  for (const box of root.querySelectorAll(".seat-box")) {
    hands[box.dataset.seat] = cards(box.querySelector(".open-hand"));
  }
  const text = (sel) => root.querySelector(sel)?.textContent ?? null;
  return {
    step: Number(root.dataset.step),
    pasurTable: cards(root.querySelector(".felt .table-cards")),
    durakTable: [...root.querySelectorAll(".felt .battle .pair")].map(cards),
    hands,
    mover: [...root.querySelectorAll(".seat-box.just-moved")].map((b) => Number(b.dataset.seat)),
    toMove: [...root.querySelectorAll(".seat-box.to-move")].map((b) => Number(b.dataset.seat)),
    move: root.querySelector(".info .last-move .last")?.dataset.move ?? null,
    stock: text(".felt .pile-count") ?? text(".felt .stock-count"),
    trump: root.querySelector(".trump-suit")?.dataset.suit ?? null,
    totals: [...root.querySelectorAll(".info .scores:not(.hands) td.total")]
      .map((td) => td.textContent),
    result: text(".replay-result .result-line"),
    count: document.querySelector(".replay-controls .step-count").textContent,
  };
}"""


def digits(text: str) -> list[int]:
    return [int(part) for part in "".join(c if c.isdigit() else " "
                                           for c in text.translate(PERSIAN_DIGITS)).split()]


def finished_game(page: Any, server_url: str, game: str) -> tuple[str, dict]:
    """A table of two bots, played to the end; its id and its replay from the API."""
    answer = page.request.post(f"{server_url}/api/tables", data={
        "game": game, "options": OPTIONS[game], "seats": ["bot:random", "bot:random"]})
    assert answer.ok, answer.text()
    table = answer.json()["table"]
    for _ in range(300):
        if page.request.get(f"{server_url}/api/tables/{table}").json()["over"]:
            break
        page.wait_for_timeout(100)
    answer = page.request.get(f"{server_url}/api/tables/{table}/replay")
    assert answer.ok, answer.text()
    return table, answer.json()


def check_step(page: Any, game: str, step: dict, last: int) -> dict:
    """The drawn table equals the endpoint's data for this step."""
    drawn = page.evaluate(DRAWN)
    view = step["view"]
    where = f"step {step['index']}"
    assert drawn["step"] == step["index"], where
    assert digits(drawn["count"]) == [step["index"], last], where
    if game == "pasur":
        assert drawn["pasurTable"] == view["table"], where
        assert digits(drawn["stock"]) == [view["stock_size"]], where
        assert [digits(total)[0] for total in drawn["totals"]] == view["match"]["totals"], where
    else:
        pairs = [[card for card in pair if card] for pair in view["table"]]
        assert drawn["durakTable"] == pairs, where
        assert digits(drawn["stock"]) == [view["stock"]], where
        assert drawn["trump"] == {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}[view["trump"]], where
    for seat, hand in enumerate(step["hands"]):
        assert sorted(drawn["hands"][str(seat)]) == sorted(hand), f"{where}, seat {seat}"
    if step["index"]:
        assert drawn["mover"] == [step["seat"]], where
        assert drawn["move"] == step["move"], where
    else:
        assert drawn["mover"] == [] and drawn["move"] is None, where
    over = step["result"] is not None
    assert drawn["toMove"] == ([] if over or step["to_move"] is None else [step["to_move"]]), where
    assert (drawn["result"] is not None) == over, where
    return drawn


def open_replay(page: Any, table: str) -> None:
    page.click("nav a[data-nav=history]")
    page.click(".history-tabs button.all")   # a game of bots: in All games, not My games
    item = page.locator(f'.history-item[data-table="{table}"]')
    item.wait_for()
    item.locator("button.replay").click()
    page.wait_for_selector('#replay-table[data-step="0"]')


def test_a_finished_pasur_match_replays_step_by_step(open_page, server_url) -> None:
    page = open_page("/")
    table, replay = finished_game(page, server_url, "pasur")
    steps = replay["steps"]
    last = len(steps) - 1
    assert last == len(replay["record"]["moves"])
    open_replay(page, table)
    assert page.locator(".move-list li").count() == last

    check_step(page, "pasur", steps[0], last)
    screenshot(page, "replay-pasur-en-desktop-deal")
    captured = None
    for step in steps[1:]:
        page.click(".replay-controls button.next")
        check_step(page, "pasur", step, last)
        if captured is None and " x " in step["move"] and step["index"] > 4:
            captured = step["index"]
            screenshot(page, "replay-pasur-en-desktop-capture")
    assert captured is not None, "no capture in the whole match"

    page.click(".replay-controls button.back")
    check_step(page, "pasur", steps[last - 1], last)
    page.keyboard.press("Home")
    check_step(page, "pasur", steps[0], last)
    page.keyboard.press("ArrowRight")
    check_step(page, "pasur", steps[1], last)
    page.click(".replay-controls button.to-end")
    drawn = check_step(page, "pasur", steps[last], last)
    winners = steps[last]["result"]["winners"]
    assert drawn["result"].startswith("Winner: " if winners else "A draw")
    assert page.locator(".move-list li.current").get_attribute("data-step") == str(last)
    screenshot(page, "replay-pasur-en-desktop-end")

    # The page's other languages draw the same step, in their own words.
    page.click(f'.move-list li[data-step="{captured}"] button')
    for lang, word in (("ru", "Ход"), ("pt", "Jogada")):
        page.select_option("#language", lang)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        assert check_step(page, "pasur", steps[captured], last)["count"].startswith(word)
        screenshot(page, f"replay-pasur-{lang}-desktop")


def test_a_finished_durak_game_replays_step_by_step_in_persian(open_page, server_url) -> None:
    page = open_page("/", locale="fa-IR")
    table, replay = finished_game(page, server_url, "durak")
    steps = replay["steps"]
    last = len(steps) - 1
    open_replay(page, table)
    assert page.locator("html").get_attribute("dir") == "rtl"

    check_step(page, "durak", steps[0], last)
    shot = None
    for step in steps[1:]:
        page.keyboard.press("ArrowLeft")  # right to left: the left arrow goes forward
        check_step(page, "durak", step, last)
        if shot is None and step["move"].startswith("defend") and step["index"] > 6:
            shot = step["index"]
            screenshot(page, "replay-durak-fa-desktop-defence")
    page.keyboard.press("ArrowLeft")  # past the end: stays at the end
    check_step(page, "durak", steps[last], last)
    page.keyboard.press("ArrowRight")
    check_step(page, "durak", steps[last - 1], last)
    page.click(".replay-controls button.to-end")
    drawn = check_step(page, "durak", steps[last], last)
    assert "دوراک" in drawn["result"]  # "... is the durak" or "nobody is the durak"
    screenshot(page, "replay-durak-fa-desktop-end")

    phone = open_page(f"/#replay/{table}", locale="en-US", viewport=PHONE)
    phone.wait_for_selector('#replay-table[data-step="0"]')
    phone.click(f'.move-list li[data-step="{shot or last // 2}"] button')
    check_step(phone, "durak", steps[shot or last // 2], last)
    screenshot(phone, "replay-durak-en-phone")


def test_an_unfinished_game_has_no_replay_and_the_page_says_why(open_page, server_url) -> None:
    page = open_page("/")
    answer = page.request.post(f"{server_url}/api/tables", data={
        "game": "durak", "seats": ["human", "bot:random"]})
    table = answer.json()["table"]
    page.goto(f"{server_url}/#replay/{table}")
    error = page.locator(".replay .error")
    error.wait_for()
    # the server's refusal (code not_over), said in the page's words
    assert "once the game is over" in error.inner_text()
    assert page.locator("#replay-table").count() == 0
