"""A match: hands until a side wins, leads passing round, replays, undo and hidden cards."""

from __future__ import annotations

import json
import random

import pytest
from pasur_helpers import PRESET_NAMES, rules

from cardtable import records
from cardtable.game import IllegalMove, rules_with
from cardtable.pasur import PRESETS, SPEC, Match


def play_match(match: Match, rng: random.Random) -> list[list[int]]:
    """Play at random to the end; the totals after each hand."""
    after = []
    while not match.is_over():
        finished = len(match.finished_hands)
        match.push(rng.choice(match.legal_moves()))
        if len(match.finished_hands) > finished:
            after.append(match.totals)
    return after


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_match_ends_when_a_side_reaches_the_target_alone_at_the_top(preset):
    players = 2 if preset == "standard" else 3
    match = Match.new(PRESETS[preset], players=players, seed=11)
    after = play_match(match, random.Random(11))
    target = PRESETS[preset].target
    for totals in after[:-1]:  # every earlier hand: nobody there, or a tie at the top
        best = max(totals)
        assert best < target or totals.count(best) > 1
    final = after[-1]
    assert max(final) >= target and final.count(max(final)) == 1
    assert match.winner == final.index(max(final)) and match.to_move is None
    assert match.legal_moves() == []
    with pytest.raises(IllegalMove, match="the match is over"):
        match.push(match.hand.move_stack[-1])


def test_totals_are_the_sum_of_the_hands():
    match = Match.new(PRESETS["standard"], seed=4)
    play_match(match, random.Random(4))
    assert match.totals == [sum(hand.score()[side] for hand in match.finished_hands)
                            for side in range(2)]


def test_a_tie_at_the_top_plays_another_hand():
    short = rules("standard", target=1)
    for seed in range(400):
        match = Match.new(short, seed=seed)
        rng = random.Random(seed)
        while not match.finished_hands:
            match.push(rng.choice(match.legal_moves()))
        first = match.finished_hands[0].score()
        if first[0] == first[1]:
            break
    else:
        pytest.fail("no tied hand found")
    assert match.winner is None and not match.is_over()
    assert match.hand.leader == 1 and len(match.hand.move_stack) == 0
    play_match(match, rng)
    assert match.totals[match.winner] > match.totals[1 - match.winner]


def test_a_fixed_number_of_hands():
    fixed = rules("standard", fixed_hands=2, target=1)
    match = Match.new(fixed, seed=21)
    after = play_match(match, random.Random(21))
    assert len(after) >= 2
    assert all(totals[0] == totals[1] for totals in after[1:-1])
    assert after[-1][match.winner] > after[-1][1 - match.winner]


@pytest.mark.parametrize("preset", ["wikipedia", "turkish"])
def test_the_lead_passes_to_the_next_seat_each_hand(preset):
    match = Match.new(PRESETS[preset], players=3, seed=5)
    play_match(match, random.Random(5))
    for number, hand in enumerate(match.finished_hands):
        assert hand.leader == number % 3
        assert hand.dealer == (hand.leader if preset == "turkish" else (hand.leader - 1) % 3)


def test_each_hand_knows_the_match_totals_before_it():
    capped = rules("multicapture", sur_cap=50)
    match = Match.new(capped, seed=9)
    play_match(match, random.Random(9))
    running = [0, 0]
    for hand in match.finished_hands:
        assert hand.totals == tuple(running)
        running = [t + p for t, p in zip(running, hand.score(), strict=True)]


def test_explicit_decks_replay_a_match():
    match = Match.new(PRESETS["wikipedia"], players=4, seed=2)
    play_match(match, random.Random(2))
    moves = [move for hand in match.finished_hands for move in hand.move_stack]
    again = Match.new(PRESETS["wikipedia"], players=4, decks=match.decks)
    for move in moves:
        again.push(move)
    assert again.totals == match.totals and again.winner == match.winner
    assert again.decks == match.decks and len(match.decks) == len(match.finished_hands)
    assert [list(deck) for deck in match.decks] == SPEC.deals(match)


def test_the_same_seed_and_moves_replay_a_match():
    one, two = Match.new(PRESETS["turkish"], seed=77), Match.new(PRESETS["turkish"], seed=77)
    rng = random.Random(3)
    for _ in range(150):
        move = rng.choice(one.legal_moves())
        one.push(move)
        two.push(str(move))
    assert one.decks == two.decks and one.totals == two.totals
    assert one.hand.hands == two.hand.hands


def test_pop_undoes_back_across_a_hand_boundary():
    match = Match.new(PRESETS["standard"], seed=6)
    rng = random.Random(6)
    while not match.finished_hands:
        match.push(rng.choice(match.legal_moves()))
    last = match.finished_hands[0].move_stack[-1]
    next_deck = match.decks[1]
    assert match.totals == match.finished_hands[0].score()
    assert match.pop() == last
    assert match.finished_hands == [] and match.totals == [0, 0] and match.to_move is not None
    assert len(match.hand.move_stack) == 47 and match.decks == match.decks[:1]
    match.push(last)
    assert match.decks[1] == next_deck  # the next hand is dealt the same again


def test_pop_undoes_the_end_of_the_match():
    match = Match.new(rules("standard", target=1), seed=8)
    play_match(match, random.Random(8))
    winner, totals = match.winner, match.totals
    last = match.pop()
    assert not match.is_over() and match.winner is None and match.totals != totals
    match.push(last)
    assert match.winner == winner and match.totals == totals


def test_a_match_view_shows_totals_and_hides_hands():
    match = Match.new(PRESETS["standard"], seed=12)
    rng = random.Random(12)
    for _ in range(60):
        match.push(rng.choice(match.legal_moves()))
    view = match.view(1)
    assert json.loads(json.dumps(view)) == view
    assert view["match"]["totals"] == match.totals and view["match"]["hand_number"] == 2
    assert view["match"]["hand_points"] == [match.finished_hands[0].score()]
    other = {card.text for card in match.hand.hands[0]} | {c.text for c in match.hand.stock}
    assert not other & set(json.dumps(view).replace('"', " ").split())


def test_a_determinized_match_keeps_what_was_seen_and_hides_later_deals():
    match = Match.new(PRESETS["standard"], seed=13)
    rng = random.Random(13)
    for _ in range(70):
        match.push(rng.choice(match.legal_moves()))
    world = match.determinize(0, random.Random(1))
    assert world.totals == match.totals and world.finished_hands == match.finished_hands
    assert world.hand.hands[0] == match.hand.hands[0] and world.hand.table == match.hand.table
    assert world.view(0) == match.view(0)
    assert len(world.decks) == 2 and world.decks[0] == match.decks[0]
    play_match(world, random.Random(2))  # it plays on to an end of its own
    assert world.is_over()
    assert not match.is_over() and len(match.hand.move_stack) == 70 - 48


def test_summary_and_outcome():
    match = Match.new(PRESETS["wikipedia"], players=3, seed=14)
    assert match.outcome() is None
    play_match(match, random.Random(14))
    summary = SPEC.summary(match)
    assert json.loads(json.dumps(summary)) == summary
    assert summary["totals"] == match.totals and summary["winner"] == match.winner
    assert [hand["points"] for hand in summary["hands"]] == [h.score()
                                                             for h in match.finished_hands]
    outcome = match.outcome()
    assert outcome.winners == (match.winner,) and sum(outcome.returns) == 0
    assert outcome.returns[match.winner] == 1.0 and outcome.points == tuple(match.totals)


def test_teams_win_together():
    match = Match.new(PRESETS["multicapture"], players=4, seed=15)
    play_match(match, random.Random(15))
    outcome = match.outcome()
    assert len(match.totals) == 2
    assert outcome.winners == tuple(s for s in range(4) if s % 2 == match.winner)
    assert outcome.returns == tuple(1.0 if s % 2 == match.winner else -1.0 for s in range(4))


def test_the_spec_starts_a_match():
    match = SPEC.start(PRESETS["turkish"], players=2, seed=3, decks=None)
    assert isinstance(match, Match) and match.rules == PRESETS["turkish"]
    assert SPEC.move_type is type(match.legal_moves()[0])


def test_a_table_dealt_again_replays_from_the_decks_a_record_keeps():
    table_again = rules_with(PRESETS["standard"], {"opening_jacks": "redeal_table"})
    # a seed whose first deal opens with a jack (the standard rules replace it)
    seed = next(s for s in range(100) if Match.new(table_again, seed=s).decks[0]
                != Match.new(PRESETS["standard"], seed=s).decks[0])
    match = Match.new(table_again, seed=seed)
    first = match.hand
    assert first.deck[:8] == Match.new(PRESETS["standard"], seed=seed).hand.deck[:8]
    rng = random.Random(seed)
    while not match.is_over():
        match.push(rng.choice(match.legal_moves()))
    record = records.loads(records.record_of(match, "pasur").dumps())
    again = record.replay()   # (checks the replayed result against the recorded one)
    assert again.decks == match.decks and again.move_stack == match.move_stack
    assert again.finished_hands[0].deck == first.deck
