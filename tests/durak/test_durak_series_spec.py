"""Series of games, and the spec the outer layers use."""

import json
import random

import pytest

from cardtable import games
from cardtable.durak import PRESETS, SPEC, Game, Move, Rules, Series
from cardtable.game import rule_options


def finish(game: Game, seed: int = 0) -> Game:
    rng = random.Random(seed)
    while not game.is_over():
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    return game


def test_the_loser_deals_the_next_game_and_losses_are_counted():
    series = Series(Rules(), players=3, seed=2)
    first = finish(series.next_game())
    assert first.dealer == 0 and first.previous_loser is None
    assert first.loser is not None   # this seed's first game has a durak
    second = series.next_game()
    assert second.dealer == first.loser and second.previous_loser == first.loser
    assert second.to_move == (first.loser + 1) % 3
    finish(second, 1)
    counts = [0, 0, 0]
    for game in series.games:
        counts[game.loser] += 1
    assert series.losses == counts and series.draws == 0


def test_after_a_draw_the_dealer_stays():
    series = Series(Rules(), players=2, seed=1, dealer=1)
    finish(series.next_game())
    # draws are rare in random play: end the series' current game with one from a position
    drawn = Game.from_position(Rules(), hands=["9♣", "10♣"], trump="♥", attacker=0)
    drawn.dealer = 1
    drawn.push("attack 9♣")
    drawn.push("defend 9♣ with 10♣")
    series.games.append(drawn)
    assert series.draws == 1
    following = series.next_game()
    assert following.dealer == 1 and following.previous_loser is None


def test_the_next_game_waits_for_the_current_one():
    series = Series(Rules(), players=2, seed=1)
    series.next_game()
    with pytest.raises(ValueError, match="not over yet"):
        series.next_game()


def test_a_game_dealt_after_a_loss_replays_from_its_deck():
    game = finish(Game.new(Rules(), players=4, seed=6, loser=2), 3)
    again = Game.new(Rules(), players=4, deck=game.deck, dealer=game.dealer,
                     loser=game.previous_loser)
    for move in game.move_stack:
        again.push(str(move))
    assert again.hands == game.hands and again.loser == game.loser


def test_the_spec_is_registered():
    assert games.get("durak") is SPEC
    assert SPEC.rules_type is Rules and SPEC.move_type is Move
    assert SPEC.presets is PRESETS and SPEC.rules() == Rules()
    assert SPEC.preset_of(Rules()) == "transfer"
    assert SPEC.rules(options={"passport": True}).passport
    assert SPEC.player_counts == (2, 3, 4, 5, 6)


def test_the_spec_starts_and_replays_a_game_from_its_deck():
    game = finish(SPEC.start(Rules(), players=3, seed=8), 2)
    decks = SPEC.deals(game)
    assert decks == [list(game.deck)]
    again = SPEC.start(Rules(), players=3, decks=decks)
    for move in game.move_stack:
        again.push(again.parse_move(str(move)))
    assert SPEC.summary(again) == SPEC.summary(game)
    summary = SPEC.summary(game)
    assert summary["over"] and json.loads(json.dumps(summary)) == summary
    assert summary["hands_left"][game.loser] > 0 if game.loser is not None else summary["draw"]


def test_a_position_has_no_deck_to_deal():
    game = Game.from_position(Rules(), hands=["9♣", "10♣"], trump="♥", attacker=0)
    assert SPEC.deals(game) == []


def test_every_option_is_documented_in_one_line():
    options = rule_options(Rules)
    assert [o.name for o in options] == [
        "pack_size", "first_round_limit", "first_round_transfer", "passport",
        "late_transfer", "neighbours_only", "partners", "trump_six_exchange", "max_rounds"]
    for option in options:
        assert option.doc and "\n" not in option.doc
    assert {o.name: o.choices for o in options if o.choices} == {
        "pack_size": (24, 36, 52), "first_round_limit": (5, 6)}


def test_rules_refuse_values_they_do_not_know():
    with pytest.raises(ValueError, match="'pack_size' must be one of \\[24, 36, 52\\], not 40"):
        Rules(pack_size=40)
    with pytest.raises(ValueError, match="'passport' is true or false, not 'yes'"):
        Rules(passport="yes")
    with pytest.raises(ValueError, match="'first_round_limit' must be one of"):
        SPEC.rules(options={"first_round_limit": 4})


def test_a_game_survives_a_record_and_replays_exactly():
    from cardtable import records

    game = finish(SPEC.start(SPEC.rules(options={"passport": True, "late_transfer": True}),
                             players=3, seed=5), 1)
    record = records.loads(records.record_of(game, "durak").dumps())
    assert record.rules["passport"] and record.moves == [str(m) for m in game.move_stack]
    replayed = record.replay()
    assert replayed.hands == game.hands and replayed.loser == game.loser
