"""The Durak evaluation that values a playout cut at the end of a round."""

import random

from cardtable import durak
from cardtable.bots.durak_kit import KIT
from cardtable.durak import evaluation as durak_eval


def test_the_shipped_weights_are_the_fitted_ones_and_were_measured():
    import json
    from pathlib import Path

    fitted = json.loads(Path(durak_eval.__file__).with_name("evaluation.json").read_text())
    assert durak_eval.weights() == fitted["weights"]
    assert fitted["held_out"]["log_loss"] < fitted["knowing_nothing"]["log_loss"]


def test_a_seat_with_more_cards_and_fewer_trumps_is_likelier_the_durak():
    game = durak.Game.from_position(hands=["6♠ 7♠", "A♥ K♥ Q♥ 10♠ 9♦ 8♦ 8♣ 9♣"],
                                    trump="♥", attacker=0)
    light, heavy = durak_eval.durak_chances(game)
    assert heavy > 0.5 > light and abs(light + heavy - 1.0) < 1e-9


def test_a_seat_that_is_out_is_never_the_durak():
    game = durak.Game.from_position(hands=["6♠ 7♠", "", "8♦ 9♦ 10♦"], trump="♥", attacker=0)
    chances = durak_eval.durak_chances(game)
    assert chances[1] == 0.0 and abs(sum(chances) - 1.0) < 1e-9


def test_a_horizon_stops_a_playout_at_the_end_of_the_round_and_values_it():
    game = durak.Game.new(durak.PRESETS["transfer"], players=2, seed=3)
    assert KIT.context(game, 0) is None and not KIT.cutoff(game, None)
    stop = KIT.context(game, 0, horizon=0)
    luck = random.Random(1)
    while not KIT.cutoff(game, stop):
        game.push(KIT.playout(game, luck))
    assert game.round_number == 2 and not game.is_over()
    rewards = KIT.rewards(game, stop)
    chances = durak_eval.durak_chances(game)
    assert rewards == [1 - 2 * chances[0], 1 - 2 * chances[1]]
    assert KIT.rewards(game, None) == [0.0, 0.0]   # a playout cut short without a horizon
