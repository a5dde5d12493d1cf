"""Points at the end of a hand: counting cards, the big bonus and surs, preset by preset."""

from __future__ import annotations

import json

import pytest
from pasur_helpers import PRESET_NAMES, rules

from cardtable.cards import mask_of, parse_cards
from cardtable.pasur import PRESETS, Hand, bonus_side, card_points, hand_points, sur_points


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_counting_cards(preset):
    standard = PRESETS[preset]
    assert card_points(mask("A♣ A♦ A♥ A♠"), standard) == 4
    assert card_points(mask("J♣ J♦ J♥ J♠"), standard) == 4
    assert card_points(mask("2♣"), standard) == 2
    assert card_points(mask("10♦"), standard) == 3
    assert card_points(mask("2♦ 10♣ 7♦ K♠ Q♠ 5♥"), standard) == 0


def test_counting_card_variations():
    assert card_points(mask("10♦"), rules("standard", ten_diamonds_points=2)) == 2
    assert card_points(mask("7♦"), rules("standard", seven_diamonds_points=1)) == 1


@pytest.mark.parametrize("preset, bonus", [
    ("standard", "clubs"), ("wikipedia", "clubs"), ("turkish", "cards"),
    ("multicapture", "clubs")])
def test_the_seven_point_bonus_goes_to_the_most_clubs_or_cards(preset, bonus):
    clubs_side = mask("A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣")            # 8 clubs, 8 cards
    cards_side = mask("9♣ 10♣ J♣ Q♣ K♣ A♦ 2♦ 3♦ 4♦ 5♦")       # 5 clubs, 10 cards
    winner = bonus_side([clubs_side, cards_side], PRESETS[preset])
    assert winner == (0 if bonus == "clubs" else 1)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_tie_for_the_most_gives_the_bonus_to_nobody(preset):
    three_way = [mask("A♣ 2♣ 3♣ 4♣ 5♣ A♦"), mask("6♣ 7♣ 8♣ 9♣ 10♣ 2♦"),
                 mask("J♣ Q♣ K♣ 3♦ 4♦ 5♦")]
    assert bonus_side(three_way, PRESETS[preset]) is None  # 5-5-3 clubs, 6-6-6 cards


@pytest.mark.parametrize("preset, minimum", [
    ("standard", 7), ("wikipedia", 0), ("turkish", 0), ("multicapture", 7)])
def test_the_clubs_bonus_needs_seven_clubs_where_the_source_says_so(preset, minimum):
    # Three sides with 6, 4 and 3 clubs: the most, but short of seven.
    split = [mask("A♣ 2♣ 3♣ 4♣ 5♣ 6♣ A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦"), mask("7♣ 8♣ 9♣ 10♣"),
             mask("J♣ Q♣ K♣")]
    assert bonus_side(split, PRESETS[preset]) == (None if minimum == 7 else 0)


@pytest.mark.parametrize("preset", ["standard", "turkish"])
def test_net_surs_three_against_one_is_ten_points(preset):
    # playpasur and the Turkish text both give this example.
    assert sur_points([3, 1], PRESETS[preset]) == [10, 0]
    assert sur_points([1, 3], PRESETS[preset]) == [0, 10]
    assert sur_points([2, 2], PRESETS[preset]) == [0, 0]


@pytest.mark.parametrize("preset", ["wikipedia", "multicapture"])
def test_every_sur_scores_five_where_surs_do_not_cancel(preset):
    assert sur_points([3, 1], PRESETS[preset]) == [15, 5]


def test_net_surs_with_three_sides_count_beyond_the_most_of_any_other():
    net = rules("turkish")
    assert sur_points([3, 1, 2], net) == [5, 0, 0]
    assert sur_points([2, 2, 1], net) == [0, 0, 0]
    assert sur_points([0, 4, 1], net) == [0, 15, 0]


def test_the_sur_cap_stops_sur_points_at_fifty_match_points():
    capped = rules("multicapture", sur_cap=50)
    assert sur_points([2, 1], capped, totals=[50, 49]) == [0, 5]
    assert sur_points([2, 1], capped, totals=[12, 61]) == [10, 0]
    assert sur_points([2, 1], PRESETS["multicapture"], totals=[50, 61]) == [10, 5]
    net_capped = rules("standard", sur_cap=50)
    assert sur_points([3, 1], net_capped, totals=[55, 10]) == [0, 0]


@pytest.mark.parametrize("preset", ["standard", "wikipedia", "multicapture"])
def test_a_hand_gives_twenty_points_plus_surs_when_the_bonus_is_won(preset):
    everything = mask_of(parse_cards("A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ "
                                     "A♦ 10♦ J♦ A♥ J♥ A♠ J♠"))
    rest = mask_of(parse_cards("2♦ 3♦ 4♦ 5♦"))
    points = hand_points([everything, rest], [1, 0], PRESETS[preset])
    assert sum(points) == 20 + 5 and points[1] == 0


def test_a_hand_s_score_sheet_lists_each_part():
    hand = Hand.from_position(PRESETS["standard"], hands=["7♥", "9♦"], table="4♠",
                              captured=["A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 10♦", "J♣ J♦"], surs=[2, 1])
    hand.push(hand.parse_move("7h"))
    hand.push(hand.parse_move("9d"))  # left on the table, then swept to side 0
    sheet = hand.score_sheet()
    assert json.loads(json.dumps(sheet)) == sheet
    ours, theirs = sheet
    assert ours["clubs"] == 7 and ours["bonus"] == 7 and ours["ten_diamonds"]
    assert ours["card_points"] == 1 + 2 + 3 and ours["cards"] == 11
    assert ours["surs"] == 2 and ours["sur_points"] == 5  # no sur in the last deal round
    assert ours["points"] == 6 + 7 + 5 == hand.score()[0]
    assert theirs["points"] == 2 == hand.score()[1]
