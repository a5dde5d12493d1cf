"""Every match of Pasur ends: a match that no side has won after
``max_hands`` hands is drawn, and one whose rules score no point at all is drawn after its
first hand (or its ``fixed_hands``), instead of playing 0-0 hands for ever."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.game import IllegalMove, rules_with
from cardtable.pasur import PRESETS, Match, Rules, summary

HAND_MOVES = 48
"""Moves in a hand: one per card dealt to the players (52 less the 4 opening cards)."""

NO_POINTS = {"ace_points": 0, "jack_points": 0, "two_clubs_points": 0,
             "ten_diamonds_points": 0, "seven_diamonds_points": 0, "bonus_points": 0,
             "sur_points": 0}


def play(match: Match, rng: random.Random) -> int:
    moves = 0
    while not match.is_over():
        match.push(rng.choice(match.legal_moves()))
        moves += 1
    return moves


def test_a_match_whose_rules_score_nothing_is_drawn_after_one_hand() -> None:
    match = Match.new(rules_with(PRESETS["standard"], NO_POINTS), seed=3)
    moves = play(match, random.Random(3))
    assert moves == HAND_MOVES and len(match.finished_hands) == 1
    assert match.totals == [0, 0] and match.winner is None
    outcome = match.outcome()
    assert outcome is not None and outcome.is_draw and outcome.returns == (0.0, 0.0)
    reason = "drawn: these rules score no points, so no hand could change the totals"
    assert outcome.reason == reason
    assert summary(match)["drawn"] == reason and summary(match)["over"] is True
    assert match.view(0)["match"]["drawn"] == reason and match.legal_moves() == []


def test_a_match_of_fixed_hands_that_scores_nothing_plays_them_then_is_drawn() -> None:
    match = Match.new(rules_with(PRESETS["standard"], {**NO_POINTS, "fixed_hands": 3}),
                      seed=4)
    assert play(match, random.Random(4)) == 3 * HAND_MOVES
    assert len(match.finished_hands) == 3 and match.outcome().is_draw  # type: ignore[union-attr]


@pytest.mark.parametrize(("changes", "scores"), [
    ({}, False),
    ({"seven_diamonds_points": 1}, True),
    ({"bonus_points": 7, "bonus_minimum": 7}, True),
    ({"bonus_points": 7, "bonus_minimum": 14}, False),   # more than the 13 clubs
    ({"bonus_points": 7, "bonus_minimum": 14, "bonus": "cards"}, True),
    ({"sur_points": 5}, True),
    ({"sur_points": 5, "sur_cap": 0}, False),   # every side has 0 points or more
])
def test_the_rules_say_whether_a_hand_can_score_at_all(changes: dict, scores: bool) -> None:
    assert rules_with(PRESETS["standard"], {**NO_POINTS, **changes}).scores_points is scores


def test_a_match_nobody_has_won_after_max_hands_is_drawn_with_its_totals() -> None:
    match = Match.new(rules_with(PRESETS["standard"], {"target": 1000, "max_hands": 2}),
                      seed=5)
    assert play(match, random.Random(5)) == 2 * HAND_MOVES
    outcome = match.outcome()
    assert outcome is not None and outcome.winners == () and outcome.returns == (0.0, 0.0)
    assert outcome.points == tuple(match.totals) and sum(match.totals) > 0
    assert outcome.reason == ("drawn: the hand limit (2, the rule option max_hands) was "
                              "reached with no winner")
    with pytest.raises(IllegalMove, match="the match is over: drawn: the hand limit"):
        match.push("x")


def test_undoing_the_last_move_of_a_drawn_match_takes_the_draw_back() -> None:
    match = Match.new(rules_with(PRESETS["standard"], NO_POINTS), seed=6)
    last = None
    rng = random.Random(6)
    while not match.is_over():
        last = rng.choice(match.legal_moves())
        match.push(last)
    assert match.pop() == last
    assert not match.is_over() and match.outcome() is None and "drawn" not in summary(match)
    match.push(last)
    assert match.outcome().is_draw   # type: ignore[union-attr]


def test_the_standard_match_keeps_its_target_and_a_cap_of_200_hands() -> None:
    assert PRESETS["standard"].max_hands == 200 and Rules().max_hands == 200
    match = Match.new(PRESETS["standard"], seed=1)
    play(match, random.Random(1))
    assert match.winner in (0, 1) and "drawn" not in summary(match)


@pytest.mark.parametrize(("changes", "said"), [
    ({"max_hands": 0}, "'max_hands' must be 1 or more, not 0"),
    ({"max_hands": 5, "fixed_hands": 6}, "'fixed_hands' (6) cannot be more than 'max_hands' (5)"),
])
def test_the_cap_is_a_whole_number_no_smaller_than_the_fixed_hands(changes: dict,
                                                                   said: str) -> None:
    with pytest.raises(ValueError) as refused:
        rules_with(PRESETS["standard"], changes)
    assert said in str(refused.value)


# -- every rule set ends ---------------------------------------------------------------------

POINTS = st.sampled_from([0, 0, 1, 2, 5, 100])


@st.composite
def legal_rules(draw: st.DrawFn) -> tuple[Rules, int]:
    """Rules with every option drawn within the server's bounds (``Limits``), and a player
    count they allow; ``max_hands`` kept small so that each example plays quickly."""
    max_hands = draw(st.integers(1, 4))
    counts = draw(st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=3, unique=True))
    options = {
        "player_counts": tuple(counts),
        "teams_of_four": draw(st.booleans()), "dealer_leads": draw(st.booleans()),
        "clockwise": draw(st.booleans()),
        "opening_jacks": draw(st.sampled_from(
            ["replace", "replace_one", "redeal", "redeal_table", "stay"])),
        "opening_same_face_redeal": draw(st.sampled_from([0, 2, 3, 4])),
        "opening_any_face_redeal": draw(st.booleans()),
        "forced_capture": draw(st.booleans()), "multi_sets": draw(st.booleans()),
        "king_queen_take_all": draw(st.booleans()),
        "jack": draw(st.sampled_from(["sweep", "sweep_all", "eleven"])),
        "kids": draw(st.booleans()),
        "sur_by": draw(st.sampled_from(["number", "number_or_jack", "not_jack", "any"])),
        "sur_in_last_deal": draw(st.booleans()),
        "sur_scoring": draw(st.sampled_from(["net", "each"])),
        "sur_points": draw(POINTS), "sur_cap": draw(st.none() | st.integers(0, 1000)),
        "bonus": draw(st.sampled_from(["clubs", "cards"])), "bonus_points": draw(POINTS),
        "bonus_minimum": draw(st.integers(0, 52)), "ace_points": draw(POINTS),
        "jack_points": draw(POINTS), "two_clubs_points": draw(POINTS),
        "ten_diamonds_points": draw(POINTS), "seven_diamonds_points": draw(POINTS),
        "target": draw(st.integers(1, 1000)),
        "fixed_hands": draw(st.none() | st.integers(1, max_hands)),
        "max_hands": max_hands,
    }
    return Rules(**options), draw(st.sampled_from(counts))


@settings(max_examples=40, deadline=None)
@given(legal_rules(), st.integers(0, 2**32))
def test_random_play_under_any_legal_rules_ends_within_max_hands(
        drawn: tuple[Rules, int], seed: int) -> None:
    rules, players = drawn
    match = Match.new(rules, players=players, seed=seed)
    moves = play(match, random.Random(seed))
    assert len(match.finished_hands) <= rules.max_hands
    assert moves <= rules.max_hands * HAND_MOVES
    outcome = match.outcome()
    assert outcome is not None and (outcome.winners or summary(match)["drawn"])
