"""Words, not engine notation: lesson hints and puzzle answers say the move in words, rule
sets and rating pools go by their names; Persian digits throughout a Persian page (one
number-formatting function); and a sound on moves, on until muted, the mute remembered."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browserkit import click_pasur_move, create_table, legal_moves, table_root

from cardtable.analysis import lessons, puzzles

pytestmark = pytest.mark.browser

NOTATION = re.compile(r" x |\bdefend |\battack [^w]")


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_a_lesson_hint_says_the_move_in_words(open_page, game: str) -> None:
    course = lessons.course(game)
    step = next(s for s in course if " x " in s.goals[0]) if game == "pasur" else course[1]
    page = open_page(f"/#/learn/{game}/{step.key}", reduced_motion=True)
    page.wait_for_selector(f'#lesson-panel[data-step="{step.key}"]')
    page.click(".actions button.hint")
    page.wait_for_selector("#lesson-hint[data-move]")
    move = page.locator("#lesson-hint").get_attribute("data-move")
    text = page.locator("#lesson-hint").text_content()
    words = {"pasur": ("Hint: play ", "Hint: lay "),
             "durak": ("Hint: beat ", "Hint: attack with ", "Hint: transfer with ",
                       "Hint: take the cards", "Hint: pass", "Hint: show ")}[game]
    assert text.startswith(words), text
    assert not NOTATION.search(text.split(".")[0]), text
    assert move not in text or " " not in move, (move, text)


def test_a_puzzle_answer_is_said_in_words(open_page) -> None:
    index, puzzle = next((i, p) for i, p in enumerate(puzzles.load(game="pasur"))
                         if " x " in p["answer"])
    page = open_page(f"/#/puzzle/pasur/{index + 1}", reduced_motion=True)
    page.wait_for_selector(f'#puzzle-panel[data-puzzle="{puzzle["id"]}"]')
    page.wait_for_selector('#table-root[data-my-turn="true"]')
    wrong = next(m for m in puzzle["values"] if m != puzzle["answer"])
    click_pasur_move(page, wrong, via_table=False)
    page.wait_for_selector('#puzzle-verdict[data-right="false"]')
    card, _, taken = puzzle["answer"].partition(" x ")
    said = f"play {card} to take {' and '.join(taken.split())}" if len(taken.split()) < 3 else None
    verdict = page.locator("#puzzle-verdict").text_content()
    assert verdict.startswith("✗ Not the best move. The best: play "), verdict
    if said:
        assert verdict.endswith(f"{said}."), verdict
        assert page.locator("#puzzle-why").text_content().startswith(f"The best move: {said}.")
    values = page.locator("#puzzle-values li").all_text_contents()
    assert len(values) == len(puzzle["values"])
    assert all(v.startswith(("Play ", "Lay ")) and " x " not in v for v in values), values


def test_rule_sets_and_rating_pools_go_by_their_names(open_page) -> None:
    page = open_page("/")
    page.wait_for_selector("#quick-preset")
    page.select_option("#quick-game", "pasur")
    options = page.locator("#quick-preset option").all_text_contents()
    assert "Standard (two players, to 62)" in options, options
    assert "standard" not in options
    board = {"pools": ["durak/transfer/2p", "pasur/standard/3+p"], "pool": "durak/transfer/2p",
             "entries": [{"rank": 1, "id": "p1", "username": "ana", "name": "Ana", "rating": 1534,
                          "provisional": False, "games": 12}]}
    page.route("**/api/leaderboard*", lambda route: route.fulfill(json=board))
    page.goto(page.url.split("#")[0] + "#leaderboard")
    page.wait_for_selector("select#pool")
    assert page.locator("select#pool option").all_text_contents() == [
        "Transfer Durak · two players",
        "Pasur · Standard (two players, to 62) · three or more players"]
    assert page.locator("select#pool").input_value() == "durak/transfer/2p"


def test_a_persian_page_writes_every_number_in_persian_digits(open_page) -> None:
    page = open_page("/", locale="fa-IR", reduced_motion=True)
    page.wait_for_selector("#quick-preset")
    shown = page.evaluate("""async () => {
      const clock = window.cardtableModules.get("/js/clock.js");
      const { num } = window.cardtableModules.get("/js/i18n.js");
      return [clock.clockText(65), clock.clockText(7), clock.ratingText(1534),
              num(5, { minimumIntegerDigits: 2 })];
    }""")
    assert shown == ["۱:۰۵", "۰:۰۷", "۱۵۳۴", "۰۵"]
    create_table(page, "pasur", seats=["human", "bot:random"])
    page.click(".created .open-table")
    page.wait_for_selector('#table-root[data-my-turn="true"]')
    numbers = page.locator(".scores td, .seat-count, .pile-count, .deal-round, .facts li, "
                           ".whose-turn").all_text_contents()
    assert numbers and not any(re.search(r"[0-9]", text) for text in numbers), numbers
    assert any(re.search(r"[۰-۹]", text) for text in numbers), numbers
    labels = page.locator(".hand-cards button.card").evaluate_all(
        "cs => cs.map(c => c.getAttribute('aria-label'))")
    assert all(re.search(r"\([۱-۹]\)", label) for label in labels), labels
    # the move log's numbers too (an ordered list's markers)
    assert page.evaluate("getComputedStyle(document.querySelector('.move-log ol'))"
                         ".listStyleType") == "persian"


FAKE_AUDIO = """(() => {
  window.tones = [];
  class FakeAudio {
    constructor() { this.currentTime = 0; this.destination = {}; }
    createOscillator() {
      const tone = { frequency: { value: 0 }, connect: (next) => next, stop() {},
                     start: () => window.tones.push(tone.frequency.value) };
      return tone;
    }
    createGain() {
      return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
               connect: (next) => next };
    }
  }
  window.AudioContext = FakeAudio;
})();"""


def test_the_sound_on_moves_is_on_until_muted_and_the_mute_is_remembered(open_page) -> None:
    page = open_page("/", reduced_motion=True)
    page.context.add_init_script(FAKE_AUDIO)
    page.reload()
    create_table(page, "pasur", seats=["human", "bot:random"])
    page.click(".created .open-table")
    button = page.locator(".table-head button.sound-toggle")
    assert button.get_attribute("aria-pressed") == "true"   # on for a newcomer
    page.wait_for_selector('#table-root[data-my-turn="true"]')
    version = table_root(page).get_attribute("data-version")
    click_pasur_move(page, legal_moves(page)[0], via_table=False)
    page.wait_for_function("v => document.querySelector('#table-root').dataset.version !== v "
                           "&& window.tones.length > 0", arg=version)
    button.click()   # mute
    assert button.get_attribute("aria-pressed") == "false"
    page.reload()
    page.wait_for_selector('#table-root[data-my-turn="true"]')
    assert page.locator(".table-head button.sound-toggle").get_attribute("aria-pressed") == "false"
    version = table_root(page).get_attribute("data-version")
    click_pasur_move(page, legal_moves(page)[0], via_table=False)
    page.wait_for_function(
        "v => document.querySelector('#table-root').dataset.version !== v", arg=version)
    page.wait_for_selector('#table-root[data-my-turn="true"], #table-root[data-over="true"]')
    assert page.evaluate("window.tones") == []


def answer_with(board: dict) -> Any:
    return lambda route: route.fulfill(json=board)


def test_a_provisional_ratings_question_mark_is_said_in_words(open_page) -> None:
    page = open_page("/")
    page.wait_for_selector("#quick-preset")
    entry = {"rank": 1, "id": "p1", "username": "ana", "name": "Ana", "rating": 1553,
             "games": 3}
    for provisional in (False, True):
        board = {"pools": ["durak/transfer/2p"], "pool": "durak/transfer/2p",
                 "entries": [{**entry, "provisional": provisional}]}
        page.unroute("**/api/leaderboard*")
        page.route("**/api/leaderboard*", answer_with(board))
        page.goto(page.url.split("#")[0] + "#home")
        page.goto(page.url.split("#")[0] + "#leaderboard")
        page.wait_for_selector("td.rating-value")
        shown = page.locator("td.rating-value").inner_text()
        note = page.locator(".provisional-note")
        if provisional:
            assert shown == "1553?" and note.inner_text().startswith("A “?” after a rating")
        else:
            assert shown == "1553" and note.count() == 0
