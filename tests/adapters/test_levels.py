"""cardtable's levels as players in the researcher's loop: a pyspiel bot, a PettingZoo
policy; they see only what their seat has seen and finish the moves they begin."""

from __future__ import annotations

import random

import numpy as np
import pytest
from adapter_helpers import card, deal, deck
from open_spiel.python.algorithms import evaluate_bots

from cardtable import bots
from cardtable.adapters import openspiel
from cardtable.adapters.levels import LevelPlayer
from cardtable.adapters.pasur import TAKE, PasurEpisode
from cardtable.adapters.pettingzoo import ladder_policy, pasur_v0, transfer_durak_v0


class Peeker:
    """A bot that cheats: it plays the card whose index matches the opponents' true
    cards.  Through the level players it must not be able to tell two deals apart."""

    name = "peeker"

    def __init__(self, *, seed=None):
        pass

    def choose(self, state):
        seat = state.to_move
        hidden = sum(c.index for other in range(state.players) if other != seat
                     for c in state.hands[other])
        moves = sorted(state.legal_moves(), key=str)
        return moves[hidden % len(moves)]


bots.register("peeker", Peeker)


def _state(game, cards):
    state = game.new_initial_state()
    for c in cards:
        if not state.is_chance_node():
            break
        state.apply_action(c.index)
    return state


@pytest.mark.parametrize("game_name", ["pasur", "durak"])
def test_cardtable_bots_play_a_whole_game_in_openspiels_evaluate_bots(game_name):
    game = openspiel.load(game_name)
    players = [openspiel.CardtableBot(game, 0, "easy", seed=1),
               openspiel.CardtableBot(game, 1, "beginner", seed=2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), players,
                                          np.random.RandomState(7))
    assert sum(returns) == pytest.approx(0.0)
    assert any(r != 0 for r in returns) or game_name == "durak"


def test_a_cardtable_bot_is_a_pyspiel_bot_and_plays_a_search_level():
    import pyspiel

    game = openspiel.load("pasur")
    bot = openspiel.CardtableBot(game, 0, "medium:iterations=20", seed=3)
    assert isinstance(bot, pyspiel.Bot)
    state = _state(game, deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣"))
    assert bot.step(state) in state.legal_actions()


def test_a_cardtable_bot_cannot_see_the_opponents_hidden_cards():
    """A bot that reads the true hands, played through CardtableBot, chooses the same in
    two deals that differ only in a card the opponent holds (the seat cannot tell)."""
    game = openspiel.load("pasur")
    first = deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣")
    second = list(first)
    i, j = second.index(card("8♠")), second.index(card("A♠"))
    second[i], second[j] = second[j], second[i]
    chosen = {openspiel.CardtableBot(game, 0, "peeker", seed=5).step(_state(game, cards))
              for cards in (first, second)}
    assert len(chosen) == 1
    # the peeker itself, given the true states, tells them apart
    direct = {Peeker().choose(_state(game, cards).episode.engine) for cards in (first, second)}
    assert len(direct) == 2


def test_a_capture_choice_is_given_action_by_action_and_makes_the_levels_move():
    episode = deal(PasurEpisode(), deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣"))
    expected = bots.make("beginner").choose(episode.engine)
    assert len(episode.actions_for(expected)) > 1      # a capture chosen in steps
    player = LevelPlayer("beginner", seed=2)
    made = len(episode.moves)
    while len(episode.moves) == made:
        episode.apply(player.action(episode, 0))
    assert episode.moves[-1] == (0, expected)


def test_a_level_finishes_a_capture_someone_else_began():
    episode = deal(PasurEpisode(), deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣"))
    episode.apply(card("7♣").index)                   # 7♣: 7 + 4 or 7 + 2 + 2
    episode.apply(TAKE + card("2♥").index)            # names 2♥: 7♣ x 2♥ 2♠ follows
    assert episode.moves[-1][1].index == card("7♣").index
    episode = deal(PasurEpisode(), deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣"))
    episode.apply(card("7♣").index)
    assert episode.move_so_far() == [card("7♣").index]
    action = LevelPlayer("random", seed=1).action(episode, 0)
    episode.apply(action)
    assert str(episode.moves[-1][1]).startswith("7♣ x")


@pytest.mark.parametrize(("level", "error"), [
    ("grandmaster", "no bot 'grandmaster'"),
    ("", "a level is a bot name"),
    ("ismcts:iterations=0", "iterations"),
])
def test_a_bad_level_is_refused_with_its_reason(level, error):
    game = openspiel.load("pasur")
    with pytest.raises(ValueError, match=error):
        openspiel.CardtableBot(game, 0, level)
    with pytest.raises(ValueError, match=error):
        ladder_policy(level)


def test_a_cardtable_bot_refuses_a_wrong_seat_a_wrong_turn_and_another_game():
    import pyspiel

    game = openspiel.load("pasur")
    for player in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="player_id"):
            openspiel.CardtableBot(game, player, "easy")
    with pytest.raises(ValueError, match="cardtable's games"):
        openspiel.CardtableBot(pyspiel.load_game("kuhn_poker"), 0, "easy")
    state = _state(game, deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣"))
    with pytest.raises(ValueError, match="not player 1's turn"):
        openspiel.CardtableBot(game, 1, "easy").step(state)


@pytest.mark.parametrize("module", [pasur_v0, transfer_durak_v0], ids=["pasur", "durak"])
def test_ladder_policies_play_a_wrapped_pettingzoo_game_to_its_end(module):
    env = module.env()
    env.reset(seed=11)
    policies = {"player_0": ladder_policy("easy", seed=1),
                "player_1": ladder_policy("beginner", seed=2)}
    steps = 0
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = policies[agent](env, agent)
        assert observation["action_mask"][action] == 1
        env.step(action)
        steps += 1
    episode = env.unwrapped.episode
    assert episode.is_terminal() and steps >= len(episode.moves)
    assert sum(episode.returns()) == pytest.approx(0.0)


def test_a_ladder_policy_refuses_another_environment_and_an_unknown_agent():
    policy = ladder_policy("easy")
    env = pasur_v0.env()
    env.reset(seed=1)
    with pytest.raises(ValueError, match="no agent 'player_9'"):
        policy(env, "player_9")
    with pytest.raises(ValueError, match="cardtable's PettingZoo"):
        policy(random.Random(), "player_0")
