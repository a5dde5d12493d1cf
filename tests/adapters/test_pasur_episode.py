"""Pasur as an episode: the deal as chance nodes, the two-step action numbering, returns."""

from __future__ import annotations

import random

import pytest
from adapter_helpers import advance, card, deal, deck

from cardtable.adapters.base import CHANCE, TERMINAL
from cardtable.adapters.pasur import NUM_ACTIONS, STOP, TAKE, PasurEpisode
from cardtable.game import IllegalMove
from cardtable.pasur import PRESETS, Hand

# seat 0's four cards, seat 1's four, then the four opening table cards
SEVEN_ON_TWOS = ("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣")


def test_numbering_has_a_card_a_table_card_and_stop():
    assert (NUM_ACTIONS, TAKE, STOP) == (105, 52, 104)
    episode = PasurEpisode()
    assert episode.action_text(card("7♣").index) == "play 7♣"
    assert episode.action_text(TAKE + card("2♠").index) == "take 2♠"
    assert episode.action_text(STOP) == "stop"
    assert episode.action_text(card("7♣").index, CHANCE) == "deal 7♣"


def test_the_deal_is_one_chance_node_per_card_in_the_engine_deal_order():
    episode = PasurEpisode()
    cards = deck(*SEVEN_ON_TWOS)
    for k, dealt in enumerate(cards[:12]):
        assert episode.current_player() == CHANCE
        assert len(episode.chance_outcomes()) == 52 - k
        assert all(p == pytest.approx(1 / (52 - k)) for _, p in episode.chance_outcomes())
        episode.apply(dealt.index)
    assert episode.current_player() == 0
    engine = episode.engine
    assert [str(c) for c in engine.hands[0]] == ["3♦", "7♣", "9♠", "K♥"]
    assert [str(c) for c in engine.hands[1]] == ["5♣", "6♦", "8♠", "Q♥"]
    assert [str(c) for c in engine.table] == ["2♥", "2♠", "4♦", "K♣"]


def test_a_card_with_one_legal_move_is_played_at_once():
    episode = deal(PasurEpisode(), deck(*SEVEN_ON_TWOS))
    episode.apply(card("3♦").index)   # 3 + 4 + 2 + 2 = 11: one way (4♦ 2♠ 2♥)
    assert episode.current_player() == 1
    assert str(episode.moves[-1][1]) == "3♦ x 2♥ 2♠ 4♦"


def test_several_captures_ask_which_naming_the_taken_cards_lowest_first():
    episode = deal(PasurEpisode(), deck(*SEVEN_ON_TWOS))
    episode.apply(card("7♣").index)          # 7 + 4 or 7 + 2 + 2
    assert episode.current_player() == 0
    assert [episode.action_text(a) for a in episode.legal_actions()] == ["take 2♥", "take 4♦"]
    assert episode.choosing == (card("7♣"), [])
    episode.apply(TAKE + card("2♥").index)   # only 2♥ 2♠ starts with 2♥: made at once
    assert episode.current_player() == 1
    assert str(episode.moves[-1][1]) == "7♣ x 2♥ 2♠"
    assert [str(c) for c in episode.engine.table] == ["4♦", "K♣"]


def test_stop_leaves_the_card_on_the_table_where_capture_is_not_forced():
    episode = deal(PasurEpisode("turkish"), deck(*SEVEN_ON_TWOS))
    episode.apply(card("K♥").index)          # take K♣, or stay: the turkish choice
    assert [episode.action_text(a) for a in episode.legal_actions()] == ["take K♣", "stop"]
    episode.apply(STOP)
    assert str(episode.moves[-1][1]) == "K♥"
    assert card("K♥") in episode.engine.table


def test_stop_takes_just_the_sets_named_with_multiple_sets():
    hands = ("5♣ 3♦ 9♠ K♥", "5♦ 7♦ 8♠ Q♥", "6♦ 6♥ 10♣ K♣")
    episode = deal(PasurEpisode("multicapture"), deck(*hands))
    episode.apply(card("5♣").index)          # 5 + 6 twice: one six, the other, or both
    assert [episode.action_text(a) for a in episode.legal_actions()] == ["take 6♦", "take 6♥"]
    episode.apply(TAKE + card("6♦").index)
    assert [episode.action_text(a) for a in episode.legal_actions()] == ["take 6♥", "stop"]
    both = episode.copy()
    episode.apply(STOP)
    assert str(episode.moves[-1][1]) == "5♣ x 6♦"
    both.apply(TAKE + card("6♥").index)
    assert str(both.moves[-1][1]) == "5♣ x 6♦ 6♥"


def test_an_illegal_action_is_refused_with_a_reason_and_changes_nothing():
    episode = deal(PasurEpisode(), deck(*SEVEN_ON_TWOS))
    before = (episode.history[:], episode.legal_actions(), str(episode))
    with pytest.raises(IllegalMove, match="does not hold 5♣"):
        episode.apply(card("5♣").index)
    with pytest.raises(IllegalMove, match="plays a card first"):
        episode.apply(STOP)
    assert (episode.history, episode.legal_actions(), str(episode)) == before
    episode.apply(card("7♣").index)
    with pytest.raises(IllegalMove, match="cannot take just nothing"):
        episode.apply(STOP)
    with pytest.raises(IllegalMove, match="cannot take 2♠ next"):
        episode.apply(TAKE + card("2♠").index)   # 2♥ comes first in 2♠ 2♥
    with pytest.raises(IllegalMove, match="cannot be dealt now"):
        PasurEpisode().apply(60)


def test_every_engine_move_round_trips_through_its_actions():
    rng = random.Random(11)
    checked = 0
    for preset, players in (("standard", 2), ("turkish", 3), ("multicapture", 2),
                            ("multicapture", 4)):
        for _ in range(6):
            episode = advance(PasurEpisode(preset, players), rng, rng.randrange(40))
            if episode.is_terminal() or episode.choosing:
                continue
            for move in episode.legal_moves():
                trial = episode.copy()
                for action in trial.actions_for(move):
                    assert action in trial.legal_actions()
                    trial.apply(action)
                assert trial.moves[-1] == (episode.current_player(), move)
                checked += 1
    assert checked > 50


def test_each_later_deal_round_is_dealt_at_chance_nodes_when_the_hands_run_out():
    episode = PasurEpisode()
    advance(episode, random.Random(2), 0)
    rng = random.Random(3)
    plays = 0
    while plays < 8:
        before = len(episode.moves)
        episode.apply(rng.choice(episode.legal_actions()))
        plays += len(episode.moves) - before
    assert episode.current_player() == CHANCE
    assert len(episode.chance_outcomes()) == 40   # the stock: 52 - 8 in hands - 4 on the table
    for _ in range(8):
        assert episode.current_player() == CHANCE
        episode.apply(episode.sample_chance(rng))
    assert episode.current_player() == 0
    assert [len(h) for h in episode.engine.hands] == [4, 4]
    assert episode.engine.deal_round == 2


def test_a_jack_on_the_opening_table_goes_back_and_a_chance_node_replaces_it():
    hands = ("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "J♦ 2♥ 4♦ K♣")
    episode = deal(PasurEpisode("standard"), deck(*hands)[:12])
    assert episode.current_player() == CHANCE
    outcomes = [action for action, _ in episode.chance_outcomes()]
    assert card("J♦").index not in outcomes     # its own replacement it cannot be
    assert len(outcomes) == 40
    episode.apply(card("3♣").index)
    assert episode.current_player() == 0
    assert [str(c) for c in episode.engine.table] == ["2♥", "3♣", "4♦", "K♣"]
    assert "returned to the stock: J♦" in episode.string(1, "information_state")
    views = episode.layout("information_state").views(episode.tensor(1, "information_state"))
    assert views["returned"][card("J♦").index] == 1.0
    assert episode.hidden_from(1) >> card("J♦").index & 1   # back in the unseen stock


def test_a_redeal_starts_the_deal_over():
    hands = ("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ K♦", "Q♣ Q♦ Q♥ 2♣")   # three queens: turkish redeals
    episode = deal(PasurEpisode("turkish"), deck(*hands)[:12])
    assert episode.current_player() == CHANCE
    assert len(episode.chance_outcomes()) == 52
    assert "redealt 1 times" in episode.string(0, "information_state")


def test_a_second_jack_after_a_replacement_redeals_under_replace_one():
    hands = ("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "J♦ 2♥ 4♦ K♣")
    episode = deal(PasurEpisode("wikipedia"), deck(*hands)[:12])
    assert len(episode.chance_outcomes()) == 40
    episode.apply(card("J♠").index)
    assert len(episode.chance_outcomes()) == 52


def test_replaying_the_chance_cards_in_the_engine_deals_the_same_hand():
    rng = random.Random(5)
    compared = 0
    for _ in range(30):
        episode = advance(PasurEpisode(), rng, 10_000)
        if "returned" in episode.string(0, "information_state") \
                or "redealt" in episode.string(0, "information_state"):
            continue   # the engine fixes an opening table with its own generator
        chance = [a for a, kind in zip(episode.history, _kinds(episode), strict=True) if kind]
        hand = Hand.new(PRESETS["standard"], deck=[_card(a) for a in chance])
        for _, move in episode.moves:
            hand.push(move)
        points = hand.score()
        assert episode.points() == points
        assert episode.returns() == [points[0] - points[1], points[1] - points[0]]
        compared += 1
    assert compared > 15


def test_returns_are_zero_sum_and_in_points():
    rng = random.Random(8)
    for preset, players in (("wikipedia", 3), ("turkish", 4), ("multicapture", 3)):
        episode = advance(PasurEpisode(preset, players), rng, 10_000)
        assert episode.current_player() == TERMINAL
        returns = episode.returns()
        assert sum(returns) == pytest.approx(0.0)
        points = episode.points()
        side = 0
        others = [p for s, p in enumerate(points) if s != side]
        assert returns[0] == pytest.approx(points[side] - sum(others) / len(others))


def test_the_preset_must_allow_the_player_count():
    with pytest.raises(ValueError, match="standard rules are for 2 players"):
        PasurEpisode("standard", players=3)
    with pytest.raises(ValueError, match="leader must be a seat"):
        PasurEpisode(leader=2)


def _card(index: int):
    from cardtable.cards import CARDS
    return CARDS[index]


def _kinds(episode: PasurEpisode) -> list[bool]:
    """Which actions of the history were chance outcomes, found by replaying it."""
    fresh = PasurEpisode(**episode.params())
    out = []
    for action in episode.history:
        out.append(fresh.is_chance_node())
        fresh.apply(action)
    return out


def test_the_observation_follows_the_engine_at_every_step():
    """Hand, table, piles and surs in the tensor are the engine's, move after move."""
    rng = random.Random(13)
    for preset, players in (("standard", 2), ("multicapture", 4), ("turkish", 3)):
        episode = PasurEpisode(preset, players)
        layout = episode.layout("observation", "all")
        while not episode.is_terminal():
            if episode.is_chance_node():
                episode.apply(episode.sample_chance(rng))
                continue
            engine = episode.engine
            views = layout.views(episode.tensor(0, "observation", "all"))
            for seat, held in enumerate(engine.hands):
                assert _cards_in(views["hands"][seat]) == sorted(held)
            assert _cards_in(views["table"]) == sorted(engine.table)
            for side, pile in enumerate(engine.captured):
                assert _cards_in(views["captured"][side]) == sorted(pile)
            assert list(views["surs"]) == engine.surs
            episode.apply(rng.choice(episode.legal_actions()))
        views = layout.views(episode.tensor(0, "observation", "all"))
        assert sum(len(_cards_in(views["captured"][side])) for side in range(episode.sides)) \
            == 52 - len(_cards_in(views["table"]))


def _cards_in(plane):
    from cardtable.cards import CARDS
    return [CARDS[i] for i in range(52) if plane[i]]


@pytest.mark.parametrize("preset, players", [("standard", 2), ("wikipedia", 3),
                                              ("turkish", 4), ("multicapture", 2)])
def test_dealing_without_a_step_per_card_is_dealing_a_chance_node_at_a_time(preset, players):
    """``apply_chance`` deals each round, whatever the opening table brings, with the same
    draws as the shared one step per chance node, hand after hand."""
    from cardtable.adapters.base import Episode

    for seed in range(15):
        fast, steps = PasurEpisode(preset, players), PasurEpisode(preset, players)
        rng_fast, rng_steps = random.Random(seed), random.Random(seed)
        while not fast.is_terminal():
            fast.apply_chance(rng_fast)
            Episode.apply_chance(steps, rng_steps)
            assert fast.history == steps.history and fast._chance == steps._chance
            if fast.is_terminal():
                break
            action = rng_fast.choice(fast.legal_actions())
            assert action == rng_steps.choice(steps.legal_actions())
            fast.apply(action)
            steps.apply(action)
        assert fast.returns() == steps.returns()
