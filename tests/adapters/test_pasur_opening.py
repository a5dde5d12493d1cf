"""The episode's opening table follows the engine's rule (``cardtable.pasur.opening_step``),
the table dealt again included: the hands stay, the table's cards go back into the stock
in everyone's sight, and chance nodes deal the table again."""

from __future__ import annotations

import random

from adapter_helpers import card, deal, deck

from cardtable.adapters.base import CHANCE
from cardtable.adapters.pasur import PasurEpisode
from cardtable.cards import mask_of, parse_cards
from cardtable.game import rules_with
from cardtable.pasur import PRESETS

TABLE_AGAIN = rules_with(PRESETS["standard"], {"opening_jacks": "redeal_table"})
HANDS = ("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥")


def test_a_jack_on_the_opening_table_deals_the_table_again_and_the_hands_stay():
    episode = deal(PasurEpisode(rules=TABLE_AGAIN), deck(*HANDS, "J♦ 2♥ 4♦ K♣")[:12])
    assert episode.current_player() == CHANCE
    outcomes = {action for action, _ in episode.chance_outcomes()}
    assert len(outcomes) == 44 and card("J♦").index in outcomes   # the table is back
    assert "table dealt again: 2♥ 4♦ J♦ K♣" in episode.string(0, "information_state")
    assert "redealt" not in episode.string(0, "information_state")
    deal(episode, parse_cards("2♠ 5♥ 6♠ K♠"))
    assert episode.current_player() == 0
    engine = episode.engine
    assert [str(c) for c in engine.hands[0]] == ["3♦", "7♣", "9♠", "K♥"]
    assert [str(c) for c in engine.hands[1]] == ["5♣", "6♦", "8♠", "Q♥"]
    assert sorted(engine.table) == sorted(parse_cards("2♠ 5♥ 6♠ K♠"))
    views = episode.layout("information_state").views(episode.tensor(1, "information_state"))
    assert all(views["returned"][c.index] == 1.0 for c in parse_cards("J♦ 2♥ 4♦ K♣"))


def test_a_table_dealt_again_may_hold_a_jack_again_and_is_dealt_again():
    episode = deal(PasurEpisode(rules=TABLE_AGAIN), deck(*HANDS, "J♦ 2♥ 4♦ K♣")[:12])
    deal(episode, parse_cards("J♠ 5♥ 6♠ K♠"))
    assert episode.current_player() == CHANCE
    assert episode.string(0, "information_state").count("table dealt again") == 2


def test_a_resample_never_puts_a_card_sent_back_from_the_table_in_a_first_hand():
    episode = deal(PasurEpisode(rules=TABLE_AGAIN), deck(*HANDS, "J♦ 2♥ 4♦ K♣")[:12])
    deal(episode, parse_cards("2♠ 5♥ 6♠ K♠"))
    sent_back = mask_of(parse_cards("J♦ 2♥ 4♦ K♣"))
    rng = random.Random(4)
    for _ in range(30):
        world = episode.resample(0, rng)
        assert world.string(0, "information_state") == episode.string(0, "information_state")
        assert not mask_of(world.engine.hands[1]) & sent_back


def test_an_episode_dealing_the_table_again_replays_from_its_history():
    rng = random.Random(9)
    replayed = 0
    for _ in range(40):
        episode = PasurEpisode(rules=TABLE_AGAIN)
        while not episode.is_terminal():
            episode.apply(episode.sample_chance(rng) if episode.is_chance_node()
                          else rng.choice(episode.legal_actions()))
        if "table dealt again" not in episode.string(0, "information_state"):
            continue
        again = PasurEpisode.replay(episode.params(), episode.history)
        assert str(again) == str(episode) and again.points() == episode.points()
        replayed += 1
    assert replayed >= 5
