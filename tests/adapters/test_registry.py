"""The adapters find every game through its GameSpec: its episode, its OpenSpiel and
PettingZoo names, and the facts the episode class gives (no table of games of their own)."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pyspiel
import pytest

from cardtable import durak, games
from cardtable.adapters import openspiel
from cardtable.adapters.episode import episode_class, make
from cardtable.adapters.pettingzoo.env import CardtableAECEnv, env_name, lowest_return

RESEARCH = [name for name in games.names() if games.get(name).episode is not None]


def test_both_games_name_an_episode_and_their_framework_names():
    assert RESEARCH == ["pasur", "durak"]
    assert [games.get(n).openspiel_name for n in RESEARCH] == ["python_pasur",
                                                               "python_transfer_durak"]
    assert [env_name(n) for n in RESEARCH] == ["pasur_v0", "transfer_durak_v0"]


@pytest.mark.parametrize("name", RESEARCH)
def test_the_pyspiel_game_type_is_built_from_the_spec_and_the_episode(name):
    spec = games.get(name)
    episode = episode_class(name)
    kind = pyspiel.load_game(spec.openspiel_name).get_type()
    assert kind.short_name == spec.openspiel_name
    assert kind.long_name == f"{spec.title} (cardtable)"
    assert (kind.min_num_players, kind.max_num_players) == (min(spec.player_counts),
                                                            max(spec.player_counts))
    assert kind.parameter_specification == {**episode.openspiel_parameters,
                                            "layout_version": episode.layout_version}


@pytest.mark.parametrize("name", RESEARCH)
def test_the_utility_range_and_the_illegal_penalty_come_from_the_episode(name):
    episode = make(name)
    game = openspiel.load(name)
    assert (game.min_utility(), game.max_utility()) == episode.utility_range()
    assert lowest_return(episode) == game.min_utility() < 0 < game.max_utility()
    assert game.max_game_length() == episode.max_game_length()
    assert CardtableAECEnv(name).metadata["name"] == env_name(name)


@pytest.mark.parametrize(("name", "alias"), [("pasur", "python_pasur"),
                                              ("durak", "transfer_durak"),
                                              ("durak", "python_transfer_durak")])
def test_load_takes_the_cardtable_name_or_the_pyspiel_name(name, alias):
    assert str(openspiel.load(alias, players=2)) == str(openspiel.load(name, players=2))


def test_a_game_without_an_episode_or_an_unknown_game_is_refused_by_name(monkeypatch):
    with pytest.raises(ValueError, match="no episode for 'chess'; the games are: pasur, durak"):
        make("chess")
    with pytest.raises(ValueError, match="no OpenSpiel game 'chess'"):
        openspiel.load("chess")
    bare = dataclasses.replace(games.get("durak"), episode=None)
    real_get = games.get
    monkeypatch.setattr(games, "get", lambda name: bare if name == "durak" else real_get(name))
    with pytest.raises(ValueError, match=r"no episode for 'durak'; the games are: pasur$"):
        make("durak")


@pytest.mark.parametrize("name", ["python_pasur", "python_transfer_durak"])
def test_an_unpickled_game_is_the_same_game_and_deals(name):
    game = pyspiel.load_game(name, {"players": 3} if "durak" in name else {})
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.num_players() == game.num_players()
    assert again.new_initial_state().chance_outcomes() == \
        game.new_initial_state().chance_outcomes()


def test_state_of_mirrors_a_durak_game_in_play():
    game = durak.Game.new(durak.PRESETS["transfer"], players=3, seed=4)
    rng = random.Random(1)
    for _ in range(12):
        game.push(rng.choice(game.legal_moves()))
    mirror = openspiel.state_of(game)
    assert mirror.current_player() == game.to_move
    assert mirror.get_game().num_players() == 3
    assert sorted(map(str, mirror.episode.legal_moves())) == sorted(map(str, game.legal_moves()))
    assert [m for _, m in mirror.episode.moves] == list(game.move_stack)


def test_the_openspiel_bot_explores_on_the_scale_of_the_games_returns():
    assert episode_class("pasur").uct_c == 10.0 and episode_class("durak").uct_c == 1.5
