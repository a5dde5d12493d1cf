"""One click a move: with "look before you play" turned off, a Pasur card with one move
plays on its first click (on, the default, the first click shows what it takes:
test_browser_gestures.py), a card dragged onto the cards it takes plays that capture; in
Durak a lone pass is played by the page (a setting turns that off), a dimmed card says
why, and the prompt follows what was picked first."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browserkit import (
    click_durak_move,
    click_pasur_move,
    legal_moves,
    open_bot_table,
    table_root,
    turn_now,
    wait_for_next_version,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.browser


def by_card(moves: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for move in moves:
        out.setdefault(move.partition(" x ")[0], []).append(move)
    return out


def test_with_look_first_off_a_pasur_card_with_one_move_plays_on_its_first_click(open_page) -> None:
    page, sent = open_bot_table(open_page, "pasur", {"confirm": False})
    assert not page.locator("#setting-confirm").is_checked()
    rng = random.Random(3)
    for _ in range(24):
        assert wait_for_turn_or_end(page)
        options = by_card(legal_moves(page))
        single = [card for card, moves in options.items() if len(moves) == 1]
        version = table_root(page).get_attribute("data-version")
        if single:
            before = len(sent)
            page.click(f'.hand-cards button.card[data-card="{single[0]}"]')
            wait_for_next_version(page, version)
            assert [m["move"] for m in sent[before:]] == options[single[0]]
            return
        click_pasur_move(page, rng.choice(legal_moves(page)), via_table=False)
        wait_for_next_version(page, version)
    pytest.fail("no card with a single move in a whole hand")


def test_the_confirm_setting_asks_before_a_single_move(open_page) -> None:
    page, sent = open_bot_table(open_page, "pasur", {"confirm": True})
    assert page.locator("#setting-confirm").is_checked()
    rng = random.Random(5)
    for _ in range(24):
        assert wait_for_turn_or_end(page)
        options = by_card(legal_moves(page))
        single = [card for card, moves in options.items() if len(moves) == 1]
        version = table_root(page).get_attribute("data-version")
        if single:
            card = f'.hand-cards button.card[data-card="{single[0]}"]'
            page.click(card)
            choice = page.locator(f'.choices button.choice[data-move="{options[single[0]][0]}"]')
            choice.wait_for()
            page.wait_for_timeout(200)
            assert sent == [] or sent[-1]["version"] < int(version)   # nothing went
            page.click(card)   # the second click plays it
            wait_for_next_version(page, version)
            assert sent[-1]["move"] == options[single[0]][0]
            return
        move = rng.choice(legal_moves(page))
        page.click(f'.hand-cards button.card[data-card="{move.partition(" x ")[0]}"]')
        page.click(f'.choices button.choice[data-move="{move}"]')
        wait_for_next_version(page, version)
    pytest.fail("no card with a single move in a whole hand")


def test_a_pasur_card_dragged_onto_a_table_card_takes_it(open_page) -> None:
    page, sent = open_bot_table(open_page, "pasur")
    rng = random.Random(8)
    for _ in range(48):
        if not wait_for_turn_or_end(page):
            break
        legal = legal_moves(page)
        version = table_root(page).get_attribute("data-version")
        for move in legal:
            card, _, rest = move.partition(" x ")
            # a table card that only this one of the card's captures takes
            others = [m for m in legal if m.startswith(card + " x ") and m != move]
            unique = [c for c in rest.split()
                      if not any(c in o.partition(" x ")[2].split() for o in others)]
            if rest and unique:
                page.drag_and_drop(f'.hand-cards button.card[data-card="{card}"]',
                                   f'.table-cards .card[data-card="{unique[0]}"]')
                wait_for_next_version(page, version)
                assert sent[-1]["move"] == move
                return
        click_pasur_move(page, rng.choice(legal), via_table=False)
        wait_for_next_version(page, version)
    pytest.fail("no capture came up in two hands")


def play_durak(page: Any, sent: list, *, seed: int, auto_pass: bool) -> dict:
    """Play a Durak game by clicking; check the dimmed cards' reasons and the prompts on
    the way, and count what the page did by itself."""
    rng = random.Random(seed)
    seen = {"why": 0, "lone_pass": 0, "clicked_pass": 0, "prompt_target": 0}
    while wait_for_turn_or_end(page):
        version, moves = turn_now(page)
        if not moves:
            continue   # the page passed by itself just now
        if moves == ["pass"]:
            seen["lone_pass"] += 1
            if auto_pass:
                wait_for_next_version(page, version)
                continue
            page.wait_for_timeout(300)   # the page waits for the player
            assert table_root(page).get_attribute("data-version") == version
            seen["clicked_pass"] += 1
            page.click('.actions button[data-move="pass"]')
            wait_for_next_version(page, version)
            continue
        dimmed = page.locator(".hand-cards button.card.inactive")
        reasons = dimmed.evaluate_all("cs => cs.map(c => c.dataset.why || '')")
        assert all(reasons), reasons
        seen["why"] += len(reasons)
        defences = [m for m in moves if m.startswith("defend ")]
        if defences and not seen["prompt_target"]:
            attack = defences[0].split()[1]
            page.click(f'.battle button.card[data-card="{attack}"]')
            assert "beats" in page.locator(".prompt").inner_text()
            seen["prompt_target"] += 1
            page.keyboard.press("Escape")
        move = rng.choice(moves)
        if move == "pass":
            seen["clicked_pass"] += 1
        click_durak_move(page, move, via_table=False)
        wait_for_next_version(page, version)
    seen["passes_sent"] = sum(1 for m in sent if m["move"] == "pass")
    return seen


def test_durak_passes_by_itself_when_passing_is_the_only_move(open_page) -> None:
    page, sent = open_bot_table(open_page, "durak")
    seen = play_durak(page, sent, seed=4, auto_pass=True)
    auto = seen["passes_sent"] - seen["clicked_pass"]
    assert auto >= 1, seen
    assert seen["why"] > 0, seen
    assert len({(m["version"], m["move"]) for m in sent}) == len(sent)   # each sent once


def test_with_the_setting_off_a_lone_pass_waits_for_the_player(open_page) -> None:
    page, sent = open_bot_table(open_page, "durak", {"autoPass": False})
    seen = play_durak(page, sent, seed=6, auto_pass=False)
    assert seen["lone_pass"] >= 1, seen   # the case in question came up
    assert seen["passes_sent"] == seen["clicked_pass"], seen
