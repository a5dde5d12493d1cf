"""Puzzles on the real table (/#/puzzle/GAME[/N]) and the analysis board of a finished game
(/#/analyse/ID[/MOVE]), in English and in Persian (right to left); the old school page
(/learn.html) forwards there.  The lessons are on the table: test_browser_learn_table.py."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from browserkit import GAMES_FOR_A_LABEL, click_durak_move, click_pasur_move

from cardtable.analysis import puzzles

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "fa": "fa-IR"}
LABELS = {"en": {"inaccuracy": "inaccuracy", "mistake": "mistake", "blunder": "blunder"},
          "fa": {"inaccuracy": "بی‌دقتی", "mistake": "اشتباه", "blunder": "اشتباه فاحش"}}
ANALYSIS_WAIT_MS = 600_000


def call(server_url: str, method: str, path: str, body: dict | None = None) -> Any:
    """One request to the test server; a 429 (this run's other tables of bots, on the one
    address every test comes from) is waited out as its Retry-After says, a few times."""
    request = urllib.request.Request(server_url + path, method=method,
                                     data=json.dumps(body).encode() if body else None,
                                     headers={"Content-Type": "application/json"})
    for _ in range(10):
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            if error.code != 429:
                raise
            refused = json.loads(error.read())
            time.sleep(min(float(error.headers.get("Retry-After") or 1), 5))
    raise AssertionError(f"{method} {path} was refused ten times: {refused}")


def shown_puzzle(page: Any) -> dict[str, Any]:
    """The stored puzzle the page shows (its answer and values), by the table's id."""
    page.wait_for_selector("#puzzle-panel")
    shown = page.locator("#table-root").get_attribute("data-puzzle")
    return next(p for p in puzzles.load() if p["id"] == shown)


def click_move(page: Any, game: str, move: str) -> None:
    if game == "pasur":
        click_pasur_move(page, move, via_table=False)
    else:
        click_durak_move(page, move, via_table=False)


def plain(text: str) -> str:
    """Text as the server wrote it: Western digits, a full stop for the decimal sign, a
    hyphen for the minus, no direction marks."""
    text = text.translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹٫\u2212", "0123456789.-"))
    return re.sub("[\u200e\u200f\u2066-\u2069]", "", text)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_puzzle_on_the_table_wrong_then_the_next_one_right(open_page, lang: str) -> None:
    page = open_page("/#/puzzle/pasur/1", locale=LOCALES[lang], reduced_motion=True)
    first = shown_puzzle(page)
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")
    table = page.locator("#table-root")
    assert table.get_attribute("data-game") == "pasur"
    assert table.get_attribute("data-my-turn") == "true"   # the live table's own drawing
    digits = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹") if lang == "fa" else {}
    # the shipped puzzles and those found in games analysed on this server so far
    served = page.evaluate("fetch('/api/puzzles/pasur').then(r => r.json()).then(j => j.count)")
    assert served >= len(puzzles.load(game="pasur"))
    count = str(served).translate(digits)
    assert page.locator(".lesson-where").text_content() == {
        "en": f"Puzzle 1 of {count}", "fa": f"معمای ۱ از {count}"}[lang]

    # a wrong answer: the answer said and marked on the table, why, and every move's value
    wrong = next(m for m in first["values"] if m != first["answer"])
    click_move(page, "pasur", wrong)
    page.wait_for_selector('#puzzle-verdict[data-right="false"]')
    why = puzzles.why(first, wrong, lang)
    # the server's words, their numbers written as the page writes its own (Persian
    # digits and decimal sign in Persian: "۰٫۳", not "۰.۳"; a card's rank stays a card)
    shown_why = page.locator("#puzzle-why").text_content()
    shown_yours = page.locator("#puzzle-yours").text_content()
    assert why["why"] in plain(shown_why) and why["yours"] in plain(shown_yours)
    if lang == "fa":
        assert not re.search(r"[0-9](?![0-9]*[♣♦♥♠])|[۰-۹]\.[۰-۹]", shown_why + shown_yours)
    assert table.get_attribute("data-answer") == first["answer"]
    assert table.get_attribute("data-my-turn") == "false"   # one try
    answer_card = first["answer"].split(" x ")[0]
    assert page.locator(f'.hand-cards .card.puzzle-answer[data-card="{answer_card}"]').count() == 1
    values = page.locator("#puzzle-values li")
    assert values.count() == len(first["values"])
    assert values.first.get_attribute("data-move") == first["answer"]   # the best first
    assert page.locator(f'#puzzle-values li.played[data-move="{wrong}"]').count() == 1

    # the table after the best move, and back to the puzzle
    hand = page.locator(f'.hand-cards .card[data-card="{answer_card}"]')
    page.click("#puzzle-after")
    page.wait_for_selector('#table-root[data-after="true"]')
    assert hand.count() == 0
    assert page.locator("#puzzle-after").get_attribute("aria-pressed") == "true"
    assert page.locator("#puzzle-after").text_content() == {
        "en": "Show the puzzle again", "fa": "نمایش دوباره‌ی معما"}[lang]
    page.click("#puzzle-after")
    page.wait_for_selector('#table-root[data-after="false"]')
    assert hand.count() == 1 and page.locator("#puzzle-values li").count() == len(first["values"])

    # the next puzzle, answered right
    assert page.locator("#next-puzzle").text_content() == {"en": "Next puzzle",
                                                          "fa": "معمای بعد"}[lang]
    page.click("#next-puzzle")
    page.wait_for_selector(f'#puzzle-panel:not([data-puzzle="{first["id"]}"])')
    assert page.url.endswith("#/puzzle/pasur/2")
    second = shown_puzzle(page)
    click_move(page, "pasur", second["answer"])
    page.wait_for_selector('#puzzle-verdict[data-right="true"]')
    assert page.locator("#puzzle-yours").count() == 0
    assert page.locator("#puzzle-why").text_content()

    # and the daily one
    page.click("#daily-puzzle")
    page.wait_for_selector('#puzzle-panel[data-daily="true"]')
    assert page.url.endswith("#/puzzle/pasur")


def test_the_daily_puzzle_is_solved_from_the_lessons(open_page) -> None:
    page = open_page("/#/learn", reduced_motion=True)
    page.click('.lesson-course[data-game="durak"] a.puzzle')
    page.wait_for_selector('#puzzle-panel[data-daily="true"]')
    assert page.url.endswith("#/puzzle/durak")
    assert page.locator('nav a[data-nav="learn"]').get_attribute("aria-current") == "page"
    shown = shown_puzzle(page)
    click_move(page, "durak", shown["answer"])
    page.wait_for_selector('#puzzle-verdict[data-right="true"]')
    assert page.locator("#puzzle-values li").count() == len(shown["values"])
    # another language: the answer's reason is said again in it
    page.select_option("#language", "ru")
    page.wait_for_function("t => document.querySelector('#puzzle-why')?.textContent.includes(t)",
                           arg=puzzles.why(shown, shown["answer"], "ru")["why"])
    assert page.locator("#puzzle-verdict").text_content().endswith(
        "Верно: это единственный явно лучший ход.")


@pytest.fixture(scope="module")
def analysed_table(server_url: str) -> dict[str, Any]:
    """A Durak game between two easy bots, played to the end and analysed (one for every
    test here: the later pages find the analysis stored); its record and analysis."""
    for _ in range(GAMES_FOR_A_LABEL):   # dealt at random: a game may have no sure label
        table = call(server_url, "POST", "/api/tables",
                     {"game": "durak", "seats": ["bot:easy", "bot:easy"]})["table"]
        for _ in range(600):
            if call(server_url, "GET", f"/api/tables/{table}")["over"]:
                break
            time.sleep(0.2)
        call(server_url, "POST", f"/api/tables/{table}/analysis")
        for _ in range(ANALYSIS_WAIT_MS // 500):
            now = call(server_url, "GET", f"/api/tables/{table}/analysis")
            if now["status"] == "done":
                break
            time.sleep(0.5)
        if now["status"] == "done" and any(m["label"] for m in now["analysis"]["moves"]):
            break
    record = call(server_url, "GET", f"/api/tables/{table}/record")
    return {"table": table, "record": record, "analysis": now["analysis"]}


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_analysis_board_graphs_labels_and_the_replay(open_page, analysed_table: dict,
                                                         lang: str) -> None:
    table, analysis = analysed_table["table"], analysed_table["analysis"]
    page = open_page(f"/#/analyse/{table}", locale=LOCALES[lang], reduced_motion=True)
    page.wait_for_selector('#analysis-status[data-done="true"]', timeout=ANALYSIS_WAIT_MS)
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")
    judged = [m for m in analysis["moves"] if m["choices"] > 1]
    labelled = [m for m in judged if m["label"]]
    # a graph per seat, described for screen readers, its labelled moves marked
    for seat, series in analysis["series"].items():
        graph = page.locator(f'.analysis-graph[data-seat="{seat}"]')
        assert graph.get_attribute("data-points") == str(len(series))
        assert graph.locator("svg title").first.text_content()
        assert graph.locator("svg desc").text_content()
        marked = [m for m in labelled if m["seat"] == int(seat) and m["expected"] is not None]
        assert graph.locator(".mark").count() == len(marked)
        # the game runs the way the page reads: from the right in Persian
        xs = [float(point.split(",")[0]) for point in
              graph.locator("polyline.series").get_attribute("points").split()]
        assert len(xs) >= 2 and (xs[0] > xs[-1] if lang == "fa" else xs[0] < xs[-1])
        first = float(graph.locator(".axis-note.first").get_attribute("x"))
        assert (first > 320) == (lang == "fa")
    # every judged move, with both judgements and its label in the page's language
    rows = page.locator("#analysis-moves tbody tr")
    assert rows.count() == len(judged)
    for move in labelled:
        row = page.locator(f'#analysis-moves tr[data-index="{move["index"]}"]')
        assert row.get_attribute("data-label") == move["label"]
        assert row.locator("td.label .label-word").text_content() == LABELS[lang][move["label"]]
    assert page.locator("#analysis-moves td.hindsight-loss").count() == len(judged)
    page.check("#analysis-only-labelled")
    assert page.locator("#analysis-moves tbody tr:visible").count() == len(labelled)
    page.uncheck("#analysis-only-labelled")

    # a move chosen shows the table after it, on the game's replay
    chosen = (labelled or judged)[-1]
    page.click(f'#analysis-moves tr[data-index="{chosen["index"]}"] button.show-move')
    page.wait_for_selector(f'#replay-table[data-step="{chosen["index"]}"]')
    last = page.locator("#replay-table .last-move .last")
    assert last.get_attribute("data-move") == chosen["move"]
    assert page.url.endswith(f"#/analyse/{table}/{chosen['index']}")
    assert page.locator(f'#analysis-moves tr[data-index="{chosen["index"]}"]').get_attribute(
        "aria-current") == "true"
    # and what the analysis says of it, over the table
    current = page.locator("#analysis-current")
    assert current.get_attribute("data-index") == str(chosen["index"])
    if chosen["label"]:
        assert LABELS[lang][chosen["label"]] in current.text_content()
    if lang == "en" and labelled:
        # drawn again in another language, at the same move
        page.select_option("#language", "fa")
        cell = f'#analysis-moves tr[data-index="{labelled[0]["index"]}"] td.label .label-word'
        page.wait_for_function("([sel, word]) => document.querySelector(sel)?.textContent === word",
                               arg=[cell, LABELS["fa"][labelled[0]["label"]]])
        assert page.locator("#replay-table").get_attribute("data-step") == str(chosen["index"])
        assert current.get_attribute("data-index") == str(chosen["index"])
        assert page.locator(".analysis-graph svg").first.get_attribute(
            "data-direction") == "rtl"


def test_there_are_labelled_moves_to_show(analysed_table: dict) -> None:
    """The game the board is tested on has labels to show (else its checks of the labels
    would check nothing): easy bots make mistakes."""
    assert any(m["label"] for m in analysed_table["analysis"]["moves"])


def test_the_replay_and_the_old_school_page_lead_to_the_board(open_page,
                                                              analysed_table: dict) -> None:
    table = analysed_table["table"]
    page = open_page(f"/#replay/{table}")
    link = page.locator(".replay a.analyse")
    link.wait_for()
    link.click()
    page.wait_for_url(f"**/#/analyse/{table}")
    page.wait_for_selector('#analysis-status[data-done="true"]')
    assert page.locator('nav a[data-nav="history"]').get_attribute("aria-current") == "page"
    # a link to a move opens the board there; the replay's keys step on, and the address
    # follows
    at = open_page(f"/#/analyse/{table}/3")
    at.wait_for_selector('#replay-table[data-step="3"]')
    at.wait_for_selector('#analysis-status[data-done="true"]')
    at.keyboard.press("ArrowRight")
    at.wait_for_selector('#replay-table[data-step="4"]')
    assert at.url.endswith(f"#/analyse/{table}/4")
    old = open_page(f"/learn.html?analyse={table}&lang=fa")
    old.wait_for_url(f"**/#/analyse/{table}")
    old.wait_for_selector("#analysis-moves")
    assert old.evaluate("document.documentElement.dir") == "rtl"
    puzzle = open_page("/learn.html?game=durak&puzzle=1&n=1&lang=fa")
    puzzle.wait_for_url("**/#/puzzle/durak/2")
    puzzle.wait_for_selector('#puzzle-panel[data-index="1"]')


def test_only_my_mistakes(open_page, analysed_table: dict) -> None:
    """The player's own seat (here: a seat's token kept on this device for seat 2) is
    chosen at first; with "only labelled", only that seat's labelled moves are listed."""
    table, analysis = analysed_table["table"], analysed_table["analysis"]
    page = open_page("/")
    page.evaluate("id => localStorage.setItem(`cardtable.seat.${id}`, "
                  "JSON.stringify({seat: 1, token: 'kept'}))", table)
    page.goto(page.url.split("#")[0] + f"#/analyse/{table}")
    page.wait_for_selector('#analysis-status[data-done="true"]')
    assert page.locator("#analysis-whose").input_value() == "1"
    mine = [m for m in analysis["moves"] if m["choices"] > 1 and m["seat"] == 1]
    assert page.locator("#analysis-moves tbody tr:visible").count() == len(mine)
    page.check("#analysis-only-labelled")
    shown = page.locator("#analysis-moves tbody tr:visible")
    assert shown.count() == len([m for m in mine if m["label"]])
    assert "(You)" in page.locator('.analysis-graph[data-seat="1"] figcaption').text_content()


def test_a_game_not_analysable_says_why(open_page) -> None:
    page = open_page("/#/analyse/NoSuchTable")
    page.wait_for_selector("#analysis .error[role=alert]")
    assert page.locator("#analysis-status").count() == 0


def test_every_school_word_is_in_every_language(open_page) -> None:
    page = open_page("/")
    page.wait_for_selector("#main")
    missing = page.evaluate("""async () => {
      const { ALL_STRINGS, loadLanguage } = window.cardtableModules.get("/js/i18n.js");
      await Promise.all(["pt", "fa", "ru"].map(loadLanguage));   // each from its own file
      const keys = (lang) => Object.keys(ALL_STRINGS[lang])
        .filter((k) => k.startsWith("puzzle.") || k.startsWith("analysis."));
      const english = keys("en");
      return Object.keys(ALL_STRINGS).map((lang) =>
        [lang, english.filter((k) => !keys(lang).includes(k)).join(",")]);
    }""")
    assert dict(missing) == {"en": "", "ru": "", "pt": "", "fa": ""}
