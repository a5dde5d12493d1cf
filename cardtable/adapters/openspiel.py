"""Pasur and Transfer Durak as OpenSpiel games, and OpenSpiel's ISMCTS as a cardtable bot.

Importing this module registers two Python games with ``pyspiel``:

- ``python_pasur``: one hand of Pasur; parameters ``preset`` ("standard", "wikipedia",
  "turkish", "multicapture"), ``players`` (2 to 4, as the preset allows) and ``leader``
  (the seat that is dealt and plays first, default 0);
- ``python_transfer_durak``: one game of Transfer Durak; parameters ``preset``
  ("transfer"), ``players`` (2 to 6), ``dealer`` (default 0), ``loser`` (the previous
  game's durak, who deals while its left neighbour leads; -1, the default, for a first
  game led by the lowest trump) and ``max_moves`` (default 1000: a game still going after
  that many decisions ends as a draw).

Both deal at chance nodes card by card and number their actions as docs/research.md says
(``cardtable.adapters.pasur``, ``cardtable.adapters.durak``).

>>> import pyspiel
>>> game = pyspiel.load_game("python_pasur", {"players": 2})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()
(105, 52, 2)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
>>> durak = pyspiel.load_game("python_transfer_durak(players=3)")
>>> durak.num_distinct_actions(), durak.min_utility(), durak.max_utility()
(3200, -1.0, 1.0)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from .. import bots, games
from ..game import GameState, IllegalMove, make_rng
from .base import Episode
from .durak import NUM_ACTIONS as DURAK_ACTIONS
from .durak import DurakEpisode
from .pasur import NUM_ACTIONS as PASUR_ACTIONS
from .pasur import PasurEpisode, max_points

__all__ = ["DURAK", "PASUR", "CardtableGame", "CardtableState", "OpenSpielISMCTSBot",
           "load", "state_of"]

PASUR = "python_pasur"
DURAK = "python_transfer_durak"

_PRIVATE = {pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
            pyspiel.PrivateInfoType.NONE: "none",
            pyspiel.PrivateInfoType.ALL_PLAYERS: "all"}


def _game_type(short_name: str, long_name: str, players: tuple[int, int],
               parameters: dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=players[0],
        max_num_players=players[1],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters)


_PASUR_TYPE = _game_type(PASUR, "Pasur (cardtable)", (2, 4),
                         {"preset": "standard", "players": 2, "leader": 0})
_DURAK_TYPE = _game_type(DURAK, "Transfer Durak (cardtable)", (2, 6),
                         {"preset": "transfer", "players": 2, "dealer": 0, "loser": -1,
                          "max_moves": 1000})

_PASUR_DECISIONS_PER_PLAY = 43
"""A play is a card, at most 41 cards named and a stop: a bound, far above real plays."""


class CardtableGame(pyspiel.Game):
    """A pyspiel game whose states wrap a cardtable episode."""

    def __init__(self, game_type: pyspiel.GameType, info: pyspiel.GameInfo,
                 params: dict[str, Any], template: Episode) -> None:
        super().__init__(game_type, info, params)
        self._template = template

    def new_initial_state(self) -> CardtableState:
        return CardtableState(self, self._template.copy())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> EpisodeObserver:
        return EpisodeObserver(self._template, iig_obs_type, params)


class PasurGame(CardtableGame):
    """``python_pasur``: one hand of Pasur (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PASUR_TYPE.parameter_specification, **(params or {})}
        template = PasurEpisode(params["preset"], params["players"], params["leader"])
        bound = float(max_points(template.rules, template.sides))
        info = pyspiel.GameInfo(
            num_distinct_actions=PASUR_ACTIONS,
            max_chance_outcomes=52,
            num_players=template.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=48 * _PASUR_DECISIONS_PER_PLAY)
        super().__init__(_PASUR_TYPE, info, params, template)


class DurakGame(CardtableGame):
    """``python_transfer_durak``: one game of Transfer Durak (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DURAK_TYPE.parameter_specification, **(params or {})}
        loser = params["loser"]
        template = DurakEpisode(params["preset"], params["players"], params["dealer"],
                                None if loser == -1 else loser, params["max_moves"])
        info = pyspiel.GameInfo(
            num_distinct_actions=DURAK_ACTIONS,
            max_chance_outcomes=52,
            num_players=template.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=template.max_moves)
        super().__init__(_DURAK_TYPE, info, params, template)


class CardtableState(pyspiel.State):
    """A pyspiel state holding one cardtable episode (``state.episode``).

    Everything it says comes from the episode: the deal as chance nodes, the actions, the
    returns, and, through the observer, the strings and tensors of each seat.
    """

    def __init__(self, game: CardtableGame, episode: Episode) -> None:
        super().__init__(game)
        self._episode = episode

    @property
    def episode(self) -> Episode:
        return self._episode

    def current_player(self) -> int:
        return self._episode.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._episode.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._episode.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._episode.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._episode.action_text(action, player)

    def is_terminal(self) -> bool:
        return self._episode.is_terminal()

    def returns(self) -> list[float]:
        return self._episode.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> CardtableState:
        """A state ``player_id`` cannot tell from this one, its hidden cards dealt afresh
        (what OpenSpiel's Python ISMCTS asks for)."""
        seed = int(probability_sampler() * 2**53)
        return resample_state(self, player_id, random.Random(seed))

    def __str__(self) -> str:
        return str(self._episode)


def resample_state(state: CardtableState, player: int, rng: random.Random) -> CardtableState:
    """``state`` with the cards ``player`` cannot see dealt afresh, as a new pyspiel state
    built by applying the resampled actions (so its history is a true history)."""
    resampled = state.episode.resample(player, rng)
    out = state.get_game().new_initial_state()
    for action in resampled.history:
        out.apply_action(action)
    return out


class EpisodeObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)
    over an episode's layouts.  Perfect recall gives the information state; otherwise the
    observation.  ``private_info`` picks whose private cards are shown."""

    def __init__(self, template: Episode, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"the cardtable observers take no parameters, not {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info:
            raise ValueError("the cardtable observers always include public information")
        self.kind = "information_state" if iig_obs_type.perfect_recall else "observation"
        self.private = _PRIVATE[iig_obs_type.private_info]
        self.tensor, self.dict = template.layout(self.kind, self.private).new()

    def set_from(self, state: CardtableState, player: int) -> None:
        self.tensor.fill(0.0)
        state.episode.write(self.dict, player, self.kind, self.private)

    def string_from(self, state: CardtableState, player: int) -> str:
        return state.episode.string(player, self.kind, self.private)


pyspiel.register_game(_PASUR_TYPE, PasurGame)
pyspiel.register_game(_DURAK_TYPE, DurakGame)


def load(game: str, **params: Any) -> pyspiel.Game:
    """``load("pasur", players=3, preset="wikipedia")``: a pyspiel game by cardtable name.

    >>> load("durak", players=4).num_players()
    4
    """
    names = {"pasur": PASUR, "durak": DURAK, PASUR: PASUR, DURAK: DURAK,
             "transfer_durak": DURAK}
    if game not in names:
        raise ValueError(f"no OpenSpiel game {game!r}; the games are: pasur, durak")
    return pyspiel.load_game(names[game], params)


# -- mirroring a cardtable state into pyspiel --------------------------------------------


def _pasur_episode(state: GameState) -> PasurEpisode:
    """Replay a Pasur hand (or a match's current hand) as an episode: its deck, card by
    card, and its moves as actions."""
    hand = getattr(state, "hand", state)
    if hand.deck is None:
        raise ValueError("this Pasur hand was built from a position and has no deal to "
                         "replay; the OpenSpiel bot plays hands dealt with Hand.new or a Match")
    preset = games.get("pasur").preset_of(hand.rules)
    if preset is None:
        raise ValueError("python_pasur is loaded by preset, and these rules are not one of "
                         "the presets")
    episode = PasurEpisode(preset, hand.players, hand.leader)
    deck = [card.index for card in hand.deck]
    four = 4 * hand.players
    for action in deck[:four + 4]:
        episode.apply(action)
    at = four + 4
    for move in hand.move_stack:
        for action in episode.actions_for(move):
            episode.apply(action)
        if episode.is_chance_node():
            for action in deck[at:at + four]:
                episode.apply(action)
            at += four
    return episode


def _durak_episode(state: GameState) -> DurakEpisode:
    """Replay a Durak game as an episode: its deck and its moves."""
    if state.deck is None:
        raise ValueError("this Durak game has no deck to replay (it was built from a "
                         "position or determinized); the OpenSpiel bot plays dealt games")
    preset = games.get("durak").preset_of(state.rules)
    if preset is None:
        raise ValueError("python_transfer_durak is loaded by preset, and these rules are not "
                         "one of the presets")
    problem = "no replay tried"
    for loser in (None, state.dealer):
        episode = DurakEpisode(preset, state.players, state.dealer, loser,
                               max(1000, 2 * len(state.move_stack) + 1))
        try:
            for card in state.deck:
                episode.apply(card.index)
            for move in state.move_stack:
                episode.apply(episode.actions_for(move)[0])
        except IllegalMove as error:
            problem = str(error)
            continue
        if episode.engine.view(None) == state.view(None):
            return episode
        problem = "the replayed game differs from the real one"
    raise ValueError(f"could not replay this Durak game: {problem}")


_MIRRORS = {"pasur": (_pasur_episode, PASUR), "durak": (_durak_episode, DURAK)}


def state_of(state: GameState) -> CardtableState:
    """A pyspiel state mirroring a cardtable game in play (a Pasur ``Match`` or ``Hand``
    dealt from a deck, or a Durak ``Game``), built by replaying its deal and its moves."""
    name = state.view(None)["game"]
    mirror, short_name = _MIRRORS[name]
    episode = mirror(state)
    params = dict(episode.params())
    if short_name == DURAK:
        params["loser"] = -1 if params["loser"] is None else params["loser"]
    out = pyspiel.load_game(short_name, params).new_initial_state()
    for action in episode.history:
        out.apply_action(action)
    return out


class OpenSpielISMCTSBot:
    """A cardtable bot that decides with OpenSpiel's own ISMCTS
    (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random-rollout evaluation).

    ``choose(state)`` mirrors the cardtable state into a pyspiel state, searches
    ``simulations`` times (each from a fresh resampling of the cards the seat cannot see:
    the true hidden cards are never used), and returns the engine's move.  A Pasur move
    that needs a capture choice is searched again for each step.  ``uct_c`` defaults to
    10 for Pasur (returns in points) and 1.5 for Durak (returns of about 1).
    """

    def __init__(self, *, simulations: int = 100, uct_c: float | None = None,
                 rollouts: int = 1, seed: int | random.Random | None = None) -> None:
        if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
            raise ValueError(f"simulations must be a whole number 1 or more, not {simulations!r}")
        self.name = f"openspiel-ismcts:simulations={simulations}"
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.rng = make_rng(seed)

    def choose(self, state: GameState) -> Any:
        seat = state.to_move
        if seat is None:
            raise ValueError("there is no move to choose: the game is over")
        mirror = state_of(state)
        game = mirror.get_game()
        name = state.view(None)["game"]
        uct_c = self.uct_c if self.uct_c is not None else (10.0 if name == "pasur" else 1.5)
        numpy_rng = np.random.RandomState(self.rng.getrandbits(32))
        resample_rng = random.Random(self.rng.getrandbits(64))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts,
                                                random_state=numpy_rng)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c, self.simulations,
                               random_state=numpy_rng,
                               final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        bot.set_resampler(lambda s, player: resample_state(s, player, resample_rng))
        made = len(mirror.episode.moves)
        while len(mirror.episode.moves) == made:
            mirror.apply_action(int(bot.step(mirror)))
        move = mirror.episode.moves[-1][1]
        if move not in state.legal_moves():
            raise AssertionError(f"the mirrored game chose {move}, which is not legal here")
        return move


def _make_bot(*, seed: int | random.Random | None = None, **options: Any) -> OpenSpielISMCTSBot:
    return OpenSpielISMCTSBot(seed=seed, **options)


bots.register("openspiel-ismcts", _make_bot)
