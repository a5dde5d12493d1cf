"""Every event seen: the live move log in words for both games, and opponents' moves said
to screen readers (the sound on moves: test_browser_words.py)."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    click_durak_move,
    click_pasur_move,
    create_table,
    play_to_the_end,
    screenshot,
    table_root,
    turn_now,
    wait_for_next_version,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.browser

LISTEN = """() => {
  window.said = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => { if (region.textContent) window.said.push(region.textContent); })
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


def log_lines(page: Any) -> list[str]:
    return page.locator(".move-log li.log-line").all_inner_texts()


def test_the_pasur_log_says_each_move_and_who_took_the_last_cards(open_page) -> None:
    page = open_page("/", reduced_motion=True)
    create_table(page, "pasur", seats=["human", "bot:random"], options={"target": "1"})
    page.click(".created .open-table")
    page.wait_for_selector("#table-root")
    page.evaluate(LISTEN)
    played = play_to_the_end(page, "pasur", seed=12)
    page.locator(".summary.final").wait_for()
    page.click(".summary.final button.close-summary")
    lines = log_lines(page)
    moves = [line for line in lines if line.startswith(("You:", "Seat 2"))]
    # every move of the hand, each once (48 = both players' 24 cards)
    assert len([m for m in moves if ":" in m and "Sur" not in m]) >= 2 * played - 1
    assert any("You: " in line and "to the table" in line for line in lines)
    assert any(" takes " in line for line in lines)
    ends = [line for line in lines if line.startswith("End of hand 1")]
    assert len(ends) == 1, lines[-5:]
    assert "go to" in ends[0] or "the table is clear" in ends[0]
    said = page.evaluate("window.said")
    assert any(text.startswith("Seat 2") for text in said), said[:5]
    assert not any(text.startswith("You:") for text in said)   # not my own moves
    screenshot(page, "pasur-en-desktop-move-log")


def test_the_durak_log_marks_each_round_and_who_leads_next(open_page) -> None:
    page = open_page("/", reduced_motion=True)
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    page.wait_for_selector("#table-root")
    play_to_the_end(page, "durak", seed=21)
    page.locator(".summary.final").wait_for()
    page.click(".summary.final button.close-summary")
    lines = log_lines(page)
    assert any("attack with" in line for line in lines)
    rounds = [line for line in lines if line.startswith("Round over")]
    assert rounds and all("Next to lead: " in line for line in rounds)
    assert any("beaten off" in line or "took the cards" in line for line in rounds)
    assert page.locator(".move-log li.log-line.end").count() == len(rounds)


def _my_turns(page: Any, game: str, turns: int) -> dict[str, list[str]]:
    """Play ``turns`` of this seat's moves (the first legal one each time); the log's lines
    at each of its turns, by the table's version then."""
    seen: dict[str, list[str]] = {}
    for _ in range(turns + 1):
        assert wait_for_turn_or_end(page)
        version, moves = turn_now(page)
        seen[version] = log_lines(page)
        if len(seen) > turns:
            break
        if game == "pasur":
            click_pasur_move(page, moves[0], via_table=False)
        else:
            click_durak_move(page, moves[0], via_table=False)
        wait_for_next_version(page, version)
    return seen


def _pasur_against_a_bot(open_page: Any) -> Any:
    """A page seated at a new Pasur table against a random bot."""
    page = open_page("/", reduced_motion=True)
    create_table(page, "pasur", seats=["human", "bot:random"])
    page.click(".created .open-table")
    page.wait_for_selector("#table-root")
    return page


def test_the_log_comes_back_whole_after_a_reload(open_page) -> None:
    page = _pasur_against_a_bot(open_page)
    seen = _my_turns(page, "pasur", 5)
    version, before = list(seen.items())[-1]
    assert len([line for line in before if line.startswith("You:")]) == 5
    page.reload()
    assert wait_for_turn_or_end(page)
    assert table_root(page).get_attribute("data-version") == version
    page.wait_for_function("n => document.querySelectorAll('.move-log li.log-line').length >= n",
                           arg=len(before))
    assert log_lines(page) == before
    assert page.locator(".move-log li.log-empty").count() == 0   # no "No moves yet"


def test_moves_taken_back_leave_the_log_and_new_ones_join_it(open_page) -> None:
    page = _pasur_against_a_bot(open_page)
    seen = _my_turns(page, "pasur", 3)
    versions = list(seen)
    page.click(".actions button.undo")
    # the table goes back to this seat's last decision, and so does the log
    page.wait_for_function("v => document.querySelector('#table-root').dataset.version === v",
                           arg=versions[-2])
    assert wait_for_turn_or_end(page)
    assert log_lines(page) == seen[versions[-2]]
    _, moves = turn_now(page)
    click_pasur_move(page, moves[-1], via_table=False)
    wait_for_next_version(page, versions[-2])
    card = moves[-1].partition(" x ")[0]
    page.wait_for_function("n => document.querySelectorAll('.move-log li.log-line').length > n",
                           arg=len(seen[versions[-2]]))
    added = log_lines(page)[len(seen[versions[-2]]):]
    assert added[0].startswith("You:") and card in added[0], added


def test_an_empty_log_says_so_without_a_number_and_legibly(open_page: Any) -> None:
    """"No moves yet." is no move: no "1." before it, and as readable as the moves."""
    page = open_page("/")
    page.wait_for_function("() => window.cardtableModules?.get('/js/movelog.js')")
    shown = page.evaluate("""() => {
      const { MoveLog } = window.cardtableModules.get('/js/movelog.js');
      const log = new MoveLog();
      const panel = document.createElement("div");
      panel.className = "info";
      panel.append(log.el);
      document.getElementById("main").append(panel);
      log.render();
      const line = log.el.querySelector("li");
      const style = getComputedStyle(line);
      return [line.textContent, style.listStyleType, style.color,
              getComputedStyle(log.el).color];
    }""")
    text, marker, colour, log_colour = shown
    assert text == "No moves yet." and marker == "none"
    assert colour == log_colour   # the log's own colour, not the page's grey
