"""The engine's fast paths against the plain rules: the memory of options gives what
``capture_options`` gives, in the same order, and stays bounded; the deal's sorting
network sorts; a hand's one-pass scoring adds up as the score sheet does."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import CARDS, Card, cards_of, mask_of
from cardtable.pasur import (
    PRESETS,
    Hand,
    Move,
    Rules,
    _options,
    capture_options,
    hand_points,
    move_options,
)
from cardtable.pasur._options import OptionMemory
from cardtable.pasur.captures import RANK_MASKS
from cardtable.pasur.deal import sort_blocks
from cardtable.pasur.scoring import bonus_side, card_points, score_sheet, sur_points

SETTINGS = list(itertools.product([True, False], [True, False], [True, False],
                                  ["sweep", "sweep_all", "eleven"], [True, False]))


def rules_of(setting: tuple) -> Rules:
    forced, multi, take_all, jack, kids = setting
    return Rules(forced_capture=forced, multi_sets=multi, king_queen_take_all=take_all,
                 jack=jack, kids=kids)


def plain_options(rules: Rules, index: int, table: int) -> list[tuple[int, int]]:
    """The options by the plain rule: the card left on the table first when it may stay,
    then every capture in mask order, as (card index, mask taken)."""
    taken = [mask_of(cards) for cards in capture_options(CARDS[index], cards_of(table), rules)]
    stays = [] if taken and rules.forced_capture else [(index, 0)]
    return stays + [(index, mask) for mask in taken]


def tables(rng: random.Random, count: int) -> list[int]:
    """Random tables, many of them a table seen before with a card more or less (so that
    the memories by plain table and by union are hit as well as missed)."""
    found = [0]
    for _ in range(count):
        if rng.random() < 0.5:
            table = rng.choice(found) ^ 1 << rng.randrange(52)
        else:
            pool = range(52) if rng.random() < 0.5 else range(24)
            table = 0
            for card in rng.sample(pool, rng.choice([1, 2, 3, 4, 5, 6, 8, 10])):
                table |= 1 << card
        found.append(table)
    return found


@pytest.mark.parametrize("setting", SETTINGS)
def test_remembered_options_are_the_plain_rule_s_options_in_order(setting):
    memory = OptionMemory(*setting)
    rules = rules_of(setting)
    rng = random.Random(SETTINGS.index(setting))
    for _ in range(2):  # the second time round, from the memories
        for table in tables(rng, 60):
            for index in range(52):
                if table >> index & 1:
                    continue
                plain = plain_options(rules, index, table)
                assert [mask for _, mask in plain if mask] == memory.captures(index, table)
                found = memory.options(index, table)
                assert [(m.index, m.taken) for m in found] == plain
                assert all(type(m) is Move and m.bit == 1 << m.index for m in found)


def test_the_public_options_are_the_memory_s():
    rules = PRESETS["standard"]
    options = move_options(rules)
    table = mask_of(Card.parse(text) for text in ("6♦", "6♥", "5♠", "A♣"))
    five = Card.parse("5♣").index
    assert options(five, table) == OptionMemory.of(rules).options(five, table)
    assert [str(m) for m in options(five, table)] == ["5♣ x A♣ 5♠", "5♣ x 6♦", "5♣ x 6♥"]


def test_the_memories_stay_bounded(monkeypatch):
    monkeypatch.setattr(_options, "_KEEP", 200)
    memory = OptionMemory(True, False, False, "sweep", False)
    rules = rules_of((True, False, False, "sweep", False))
    rng = random.Random(5)
    for table in tables(rng, 1500):
        for index in range(40):
            if not table >> index & 1:
                assert [(m.index, m.taken) for m in memory.options(index, table)] == \
                    plain_options(rules, index, table)
    assert sum(map(len, memory.known)) <= 200
    assert sum(map(len, memory.plains)) + sum(map(len, memory.by_union)) <= 200
    assert len(memory.lists) <= 100


def test_a_sweeping_jack_s_move_is_one_object():
    memory = OptionMemory(True, False, False, "sweep", False)
    table = RANK_MASKS[3] | RANK_MASKS[7] | 1 << 41
    first = memory.options(40, table)
    again = memory.looks[40](table & memory.reach[40])
    assert again is not None and first == again and first[0] is again[0]
    assert Move.parse(str(first[0])) is first[0]
    assert memory.looks[40](0) == (Move(Card.parse("J♣")),)


def test_the_deal_sorts_each_block_of_four():
    rng = random.Random(11)
    for _ in range(300):
        order = list(range(52))
        rng.shuffle(order)
        assert sort_blocks(order) == tuple(bytes(sorted(order[at:at + 4]))
                                           for at in range(0, 52, 4))


def test_a_jack_counting_eleven_takes_no_lone_number_card_nor_everything():
    # The engine's fast path for kings and queens once caught these jacks too.
    eleven = dataclasses.replace(PRESETS["standard"], jack="eleven")
    hand = Hand.from_position(eleven, hands=["J♦", "2♣"], table="4♥")
    assert hand.legal_moves() == [Move.parse("J♦")]
    several = dataclasses.replace(PRESETS["multicapture"], jack="eleven")
    hand = Hand.from_position(several, hands=["J♦", "2♣"], table="J♠ J♥ 5♣")
    assert set(map(str, hand.legal_moves())) == {"J♦ x J♥", "J♦ x J♥ J♠", "J♦ x J♠"}


@given(st.lists(st.integers(min_value=0, max_value=51), unique=True),
       st.integers(min_value=2, max_value=4), st.lists(st.integers(0, 5), min_size=4,
                                                        max_size=4),
       st.sampled_from(list(PRESETS)), st.booleans())
@settings(max_examples=300, deadline=None)
def test_a_hand_s_points_in_one_pass_are_the_score_sheet_s(cards, sides, surs, preset, cap):
    # hand_points is card_points, bonus_side and sur_points written as one loop.
    rules = dataclasses.replace(PRESETS[preset], sur_cap=50 if cap else None)
    captured = [0] * sides
    for k, index in enumerate(cards):
        captured[k % sides] |= 1 << index
    surs = surs[:sides]
    totals = [40, 55, 10, 70][:sides]
    bonus = bonus_side(captured, rules)
    expected = [card_points(mask, rules) + (rules.bonus_points if side == bonus else 0) + sur
                for side, (mask, sur) in enumerate(zip(captured, sur_points(surs, rules, totals),
                                                       strict=True))]
    assert hand_points(captured, surs, rules, totals) == expected
    assert [line["points"] for line in score_sheet(captured, surs, rules, totals)] == expected
