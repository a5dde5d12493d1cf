"""The learned policy's features and its numpy actor."""

from __future__ import annotations

import numpy as np
from adapter_helpers import card, deal, deck

from cardtable.adapters.learned import MLPPolicy
from cardtable.adapters.pasur import PER_CARD, PasurEpisode, PasurFeatures


def _cards(x: np.ndarray) -> np.ndarray:
    return x[:52 * PER_CARD].reshape(52, PER_CARD)


def test_a_cards_features_say_what_it_takes_now_and_only_held_cards_have_any():
    # seat 0: 7♣ 3♦ 9♠ K♥; the table 2♥ 2♠ 4♦ K♣.  Column 3 is the cards a play takes,
    # the played card with them, in fours.
    episode = deal(PasurEpisode(), deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣"))
    x = PasurFeatures(episode)(episode.tensor(0))
    per_card = _cards(x)
    held = {card(t).index for t in ("7♣", "3♦", "9♠", "K♥")}
    assert set(np.flatnonzero(per_card[:, 0])) == held
    assert per_card[card("K♥").index, 3] == 2 / 4        # K♥ x K♣
    assert per_card[card("9♠").index, 3] == 2 / 4        # 9♠ x 2♥ (or 2♠): 9 + 2
    assert per_card[card("3♦").index, 3] == 4 / 4        # 3♦ x 2♥ 2♠ 4♦: 3 + 2 + 2 + 4
    assert per_card[card("K♥").index, 2] == 1 / 4        # one club taken: K♣


def test_the_features_are_the_same_whatever_the_opponent_holds():
    first = deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣")
    second = list(first)
    i, j = second.index(card("8♠")), second.index(card("A♠"))
    second[i], second[j] = second[j], second[i]
    a, b = deal(PasurEpisode(), first), deal(PasurEpisode(), second)
    features = PasurFeatures(a)
    assert np.array_equal(features(a.tensor(0)), features(b.tensor(0)))


def test_the_numpy_actor_plays_only_legal_actions():
    rng = np.random.default_rng(1)
    weights = {"card_w0": rng.normal(size=(8, PER_CARD)), "card_b0": rng.normal(size=8),
               "card_w1": rng.normal(size=(1, 8)), "card_b1": rng.normal(size=1),
               "take": np.ones(1), "stop": np.ones(1), "bias": rng.normal(size=105),
               "base": np.array([329])}
    policy = MLPPolicy(weights)
    episode = deal(PasurEpisode(), deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣"))
    features = PasurFeatures(episode)
    while not episode.is_terminal() and not episode.is_chance_node():
        x = episode.tensor(episode.current_player())
        action = policy.act(np.concatenate([x, features(x)]), episode.legal_mask())
        assert action in episode.legal_actions()
        episode.apply(action)


def test_the_shipped_policy_plays_whole_hands_in_the_arena():
    from cardtable import arena

    run = arena.run("pasur", ["learned", "beginner"], games=2, hands=True, seed=5)
    assert [r.moves for r in run.results] == [48, 48]


def test_the_learned_bot_plays_durak_with_its_own_weights():
    from cardtable import bots, games

    durak = games.get("durak")
    state = durak.start(durak.presets["transfer"], players=2, seed=1)
    assert bots.make("learned").choose(state) in state.legal_moves()


# -- Durak: a policy over the legal moves' slots --------------------------------------------


def _durak_at_decision(seed: int, moves: int):
    import random

    from cardtable.adapters.durak import DurakEpisode

    rng = random.Random(seed)
    episode = DurakEpisode()
    episode.apply_chance(rng)
    for _ in range(moves):
        episode.apply(rng.choice(episode.legal_actions()))
    return episode, rng


def test_durak_move_features_say_what_each_legal_move_spends():
    from cardtable.adapters.durak import DurakMoveFeatures, move_of
    from cardtable.durak import MoveKind
    from cardtable.durak.tables import STRENGTH

    episode, _ = _durak_at_decision(4, 1)       # the defender answers the lead
    features, actions = DurakMoveFeatures()(episode)
    assert actions == episode.legal_actions()
    assert not features[len(actions):].any()    # empty slots stay empty
    trump = int(episode.engine.trump)
    for row, action in zip(features, actions, strict=False):
        move = move_of(action)
        kinds = ["take", "pass", "attack", "transfer", "defend", "exchange"]
        assert row[:6].tolist() == [float(move.kind == kind) for kind in kinds]
        if move.kind is MoveKind.DEFEND:
            attack, beater = move.cards
            worth = [(STRENGTH[c.index] + (9 if c.suit == trump else 0)) / 23 for c in
                     (attack, beater)]
            assert row[7] == row[8] == np.float32(worth[1])       # the beater is spent
            assert row[10] == np.float32(worth[1] - worth[0])     # worth above the attack
            assert row[10] > 0 or beater.suit == trump


def test_durak_move_features_are_the_same_whatever_the_opponent_holds():
    """Two deals the mover cannot tell apart give the same features."""
    from cardtable.adapters.durak import DurakMoveFeatures

    episode, rng = _durak_at_decision(9, 3)
    seat = episode.current_player()
    other = episode.resample(seat, rng)
    assert other.history != episode.history
    one, actions = DurakMoveFeatures()(episode)
    two, same = DurakMoveFeatures()(other)
    assert actions == same and np.array_equal(one, two)


def test_a_slot_policy_plays_whole_durak_games_with_legal_moves(tmp_path):
    from cardtable import games
    from cardtable.adapters.durak import PER_MOVE
    from cardtable.adapters.learned import LearnedBot

    rng = np.random.default_rng(2)
    path = tmp_path / "durak.npz"
    np.savez(path, move_w0=rng.normal(size=(8, PER_MOVE)), move_b0=rng.normal(size=8),
             move_w1=rng.normal(size=(1, 8)), move_b1=rng.normal(size=1),
             base=np.array([497]))
    durak = games.get("durak")
    state = durak.start(durak.presets["transfer"], players=2, seed=3)
    bot = LearnedBot(path=str(path))
    while not state.is_over():
        move = bot.choose(state)
        assert move in state.legal_moves()
        state.push(move)


def test_the_durak_policy_refuses_a_game_of_another_size():
    import pytest

    from cardtable import bots, games

    durak = games.get("durak")
    state = durak.start(durak.presets["transfer"], players=3, seed=1)
    with pytest.raises(ValueError, match="reads a tensor of 497 floats"):
        bots.make("learned").choose(state)
