"""The engine's memories of options and its deal: the fast paths give what the plain
rules give, in the same order, and stay bounded."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from cardtable.cards import Card
from cardtable.pasur import PRESETS, Hand, captures
from cardtable.pasur.captures import RANK_MASKS, CaptureRules, Move
from cardtable.pasur.hand import _sort_blocks

SETTINGS = list(itertools.product([True, False], [True, False], [True, False],
                                  ["sweep", "sweep_all", "eleven"], [True, False]))


def plain_rules(cap: CaptureRules, index: int, table: int) -> list[tuple[int, int]]:
    """The options by ``captures`` (no memory): the card left on the table first when it
    may stay, then every capture in mask order."""
    taken = cap.captures(index, table)
    stays = [] if taken and cap.forced else [(index, 0)]
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
def test_remembered_options_are_the_rules_options_in_order(setting):
    cap = CaptureRules(*setting)
    rng = random.Random(SETTINGS.index(setting))
    for _ in range(2):  # the second time round, from the memories
        for table in tables(rng, 150):
            for index in range(52):
                if table >> index & 1:
                    continue
                found = cap.options(index, table)
                assert [(m.index, m.taken) for m in found] == plain_rules(cap, index, table)
                assert all(type(m) is Move and m.bit == 1 << m.index for m in found)


def test_the_memories_stay_bounded(monkeypatch):
    monkeypatch.setattr(captures, "_KEEP", 200)
    cap = CaptureRules(True, False, False, "sweep", False)
    rng = random.Random(5)
    for table in tables(rng, 3000):
        for index in range(40):
            if not table >> index & 1:
                assert [(m.index, m.taken) for m in cap.options(index, table)] == \
                    plain_rules(cap, index, table)
    assert sum(map(len, cap.known)) <= 200
    assert sum(map(len, cap.plains)) + sum(map(len, cap.by_union)) <= 200
    assert len(cap.lists) <= 100


def test_a_sweeping_jack_s_move_is_one_object():
    cap = CaptureRules(True, False, False, "sweep", False)
    table = RANK_MASKS[3] | RANK_MASKS[7] | 1 << 41
    first = cap.options(40, table)
    again = cap.looks[40](table & cap.reach[40])
    assert first == again and first[0] is again[0]
    assert Move.parse(str(first[0])) is first[0]
    assert cap.looks[40](0) == (Move(Card.parse("J♣")),)


def test_the_deal_sorts_each_block_of_four():
    rng = random.Random(11)
    for _ in range(300):
        order = list(range(52))
        rng.shuffle(order)
        assert _sort_blocks(order) == tuple(bytes(sorted(order[at:at + 4]))
                                            for at in range(0, 52, 4))


def test_a_jack_counting_eleven_takes_no_lone_number_card_nor_everything():
    # The engine's fast path for kings and queens once caught these jacks too.
    eleven = dataclasses.replace(PRESETS["standard"], jack="eleven")
    hand = Hand.from_position(eleven, hands=["J♦", "2♣"], table="4♥")
    assert hand.legal_moves() == [Move.parse("J♦")]
    several = dataclasses.replace(PRESETS["multicapture"], jack="eleven")
    hand = Hand.from_position(several, hands=["J♦", "2♣"], table="J♠ J♥ 5♣")
    assert set(map(str, hand.legal_moves())) == {"J♦ x J♥", "J♦ x J♥ J♠", "J♦ x J♠"}
