"""Look before you play, one gesture a move: a Pasur card whose move is not forced shows
what it would take on the first tap and plays on the second (the default setting for a
newcomer); a Durak card is dragged onto the table or onto the attack card it beats, or
tapped and then the table tapped; and the Durak prompt says what the player may do."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browserkit import (
    click_durak_move,
    click_pasur_move,
    create_table,
    legal_moves,
    open_bot_table,
    screenshot,
    table_root,
    turn_now,
    wait_for_next_version,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_a_pasur_card_shows_what_it_takes_on_the_first_tap_and_plays_on_the_second(
        open_page) -> None:
    page, sent = open_bot_table(open_page, "pasur")   # a newcomer: no setting stored
    assert page.locator("#setting-confirm").is_checked()
    rng = random.Random(11)
    for _ in range(60):
        assert wait_for_turn_or_end(page)
        legal = legal_moves(page)
        by_card: dict[str, list[str]] = {}
        for move in legal:
            by_card.setdefault(move.partition(" x ")[0], []).append(move)
        single = [moves[0] for moves in by_card.values() if len(moves) == 1 and " x " in moves[0]]
        version = table_root(page).get_attribute("data-version")
        if single and len(by_card) > 1:
            move = single[0]
            card, _, taken = move.partition(" x ")
            before = len(sent)
            page.click(f'.hand-cards button.card[data-card="{card}"]')
            # nothing sent: the card is chosen, the cards it would take are marked, and
            # the prompt says the move in words
            assert len(sent) == before
            assert table_root(page).get_attribute("data-version") == version
            marked = page.locator(".table-cards .card.capturable").evaluate_all(
                "cs => cs.map(c => c.dataset.card)")
            assert sorted(marked) == sorted(taken.split())
            prompt = page.locator(".prompt").inner_text()
            assert prompt.startswith(f"Play {card} to take "), prompt
            assert "tap it again to play" in prompt
            chosen = page.locator(f'.hand-cards button.card.selected[data-card="{card}"]')
            assert chosen.count() == 1
            screenshot(page, "pasur-en-desktop-look-first")
            page.click(f'.hand-cards button.card[data-card="{card}"]')   # the second tap plays
            wait_for_next_version(page, version)
            assert [m["move"] for m in sent[before:]] == [move]
            return
        click_pasur_move(page, rng.choice(legal), via_table=False)
        wait_for_next_version(page, version)
    pytest.fail("no card with a single capture in sixty turns")


def open_attacks(page: Any) -> list[str]:
    return page.locator(".battle .pair:not(.beaten) > .card").evaluate_all(
        "cs => cs.map(c => c.dataset.card)")


def check_prompt(page: Any, legal: list[str]) -> str:
    """The prompt says, in words, every kind of move the player may make now."""
    prompt = page.locator(".prompt").inner_text()
    said = prompt.lower()
    assert prompt, legal
    kinds = {move.split()[0] for move in legal}
    assert ("take" in said) == ("take" in kinds), (prompt, legal)
    transfers = [m for m in legal if m.startswith("transfer ") and "show" not in m]
    assert ("transfer with" in said) == bool(transfers), prompt
    for move in transfers:
        assert move.split()[1] in prompt, (prompt, legal)
    for move in legal:
        if move.startswith("defend "):
            assert move.split()[1] in prompt and "beat " in said, (prompt, legal)
    if "attack" in kinds:
        table = page.locator(".battle .pair:not(.leaving-pair)").count()
        assert ("throw in" if table else "attack with a card") in said, prompt
    if "pass" in kinds:
        assert "say done" in said or "pass" in said, prompt
    assert not any(word in prompt for word in (" x ", "defend ")), prompt
    return prompt


def test_durak_one_gesture_a_move_and_the_prompt_says_what_you_may_do(open_page) -> None:
    """Drag a card onto the table to attack, onto the attack card it beats to beat it, and
    tap a card then the table; the prompt in words at every turn on the way."""
    page, sent = open_bot_table(open_page, "durak", {"autoPass": False})
    rng = random.Random(21)
    done: set[str] = set()
    prompts = []
    for turn in range(300):
        if not wait_for_turn_or_end(page) or done == {"drag_attack", "drag_beat", "tap_table"}:
            break
        version, legal = turn_now(page)
        if not legal:
            continue
        prompts.append(check_prompt(page, legal))
        before = len(sent)
        single_attacks = [m for m in legal if m.startswith("attack ") and len(m.split()) == 2]
        defences = [m for m in legal if m.startswith("defend ")]
        if single_attacks and "drag_attack" not in done:
            move = single_attacks[0]
            page.drag_and_drop(f'.hand-cards button.card[data-card="{move.split()[1]}"]', ".battle")
            done.add("drag_attack")
        elif single_attacks and "tap_table" not in done:
            move = single_attacks[-1]
            page.click(f'.hand-cards button.card[data-card="{move.split()[1]}"]')
            assert page.locator(".battle.can-play").get_attribute("data-move") == move
            assert "Tap the table to attack with" in page.locator(".prompt").inner_text()
            screenshot(page, "durak-en-desktop-tap-the-table")
            page.click(".battle", position={"x": 4, "y": 4})
            done.add("tap_table")
        elif defences and "drag_beat" not in done:
            move = defences[0]
            attack, beater = move.split()[1], move.split()[3]
            page.drag_and_drop(f'.hand-cards button.card[data-card="{beater}"]',
                               f'.battle .card[data-card="{attack}"]')
            done.add("drag_beat")
        else:
            move = rng.choice(legal)
            click_durak_move(page, move, via_table=turn % 2 == 1)
        wait_for_next_version(page, version)
        assert [m["move"] for m in sent[before:]] == [move]
    assert done == {"drag_attack", "drag_beat", "tap_table"}, (done, prompts)


def test_a_durak_defender_is_told_to_beat_transfer_or_take(open_page) -> None:
    """On a Persian page too: the prompt names the cards to beat and says "take" in words."""
    page = open_page("/", locale="fa-IR", reduced_motion=True)
    page.evaluate("() => localStorage.setItem('cardtable.settings', '{\"autoPass\": false}')")
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    rng = random.Random(5)
    for _ in range(200):
        assert wait_for_turn_or_end(page)
        version, legal = turn_now(page)
        if "take" in legal:
            prompt = page.locator(".prompt").inner_text()
            assert "بردارید" in prompt, prompt   # "take"
            # the attacks a card of the hand beats; where none does (and there is no
            # transfer), every open attack, as the reason to take
            beatable = {move.split()[1] for move in legal if move.startswith("defend ")}
            transfers = any(move.startswith("transfer") for move in legal)
            named = beatable or (set() if transfers else set(open_attacks(page)))
            for attack in named:
                assert attack in prompt, (prompt, legal)
            assert prompt.endswith("."), prompt
            screenshot(page, "durak-fa-desktop-beat-or-take")
            return
        click_durak_move(page, rng.choice(legal), via_table=False)
        wait_for_next_version(page, version)
    pytest.fail("never the defender in two hundred turns")
