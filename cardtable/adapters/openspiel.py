"""cardtable's games as OpenSpiel games, and OpenSpiel's ISMCTS as a cardtable bot.

Importing this module registers with ``pyspiel`` every cardtable game whose ``GameSpec``
names a research episode and an OpenSpiel name: ``python_pasur`` (one hand of Pasur) and
``python_transfer_durak`` (one game of Transfer Durak).  Each game's parameters and their
defaults are its episode's ``openspiel_parameters`` (``cardtable.adapters.pasur``,
``cardtable.adapters.durak``; docs/research.md lists them).  The deal is played at chance
nodes card by card and the actions are numbered as docs/research.md says.

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

import copy
import functools
import random
import threading
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from .. import bots, games
from ..game import GameSpec, GameState, make_rng
from .base import CHANCE, TERMINAL, Episode
from .levels import LevelPlayer

__all__ = ["CardtableBot", "CardtableGame", "CardtableState", "OpenSpielISMCTSBot",
           "game_type", "load", "state_of"]

_PRIVATE = {pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
            pyspiel.PrivateInfoType.NONE: "none",
            pyspiel.PrivateInfoType.ALL_PLAYERS: "all"}


def game_type(spec: GameSpec, episode: type[Episode]) -> pyspiel.GameType:
    """The pyspiel game type of a cardtable game: its facts from the spec and episode."""
    assert spec.openspiel_name is not None
    return pyspiel.GameType(
        short_name=spec.openspiel_name,
        long_name=f"{spec.title} (cardtable)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=min(spec.player_counts),
        max_num_players=max(spec.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**episode.openspiel_parameters,
                                 "layout_version": episode.layout_version})


class CardtableGame(pyspiel.Game):
    """A pyspiel game whose states wrap a cardtable episode.

    Each registered game is a subclass made by ``_register`` with its ``game_type`` and
    ``episode`` class; its static facts come from a template episode built from the
    parameters.
    """

    game_type: pyspiel.GameType
    episode: type[Episode]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**self.game_type.parameter_specification, **(params or {})}
        version = params["layout_version"]
        if version != self.episode.layout_version:
            raise ValueError(f"{self.game_type.short_name} has tensor layout and action "
                             f"numbering version {self.episode.layout_version} only, not "
                             f"{version!r}")
        template = self.episode.from_openspiel(
            {k: v for k, v in params.items() if k != "layout_version"})
        low, high = template.utility_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.episode.num_actions,
            max_chance_outcomes=self.episode.max_chance_outcomes,
            num_players=template.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=template.max_game_length())
        super().__init__(self.game_type, info, params)
        self._template = template

    def max_chance_nodes_in_history(self) -> int:
        """The episode's bound on chance nodes where it has one (Durak: the pack); else
        pyspiel's default, the maximum game length, which is then no bound (Pasur: a
        redeal may repeat)."""
        bound = self._template.max_chance_nodes()
        return super().max_chance_nodes_in_history() if bound is None else bound

    def new_initial_state(self) -> CardtableState:
        cloning = _CLONING.__dict__
        episode = cloning.pop("episode", None) if cloning else None
        return CardtableState(self, self._template.copy() if episode is None else episode)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> EpisodeObserver:
        return EpisodeObserver(self._template, iig_obs_type, params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Unpickled by loading the game again from its name and parameters, through this
        module (so a process that unpickles it needs no import first)."""
        return _load_game, (str(self),)


def _load_game(name: str) -> pyspiel.Game:
    """``pyspiel.load_game`` once this module has registered the games (for unpickling)."""
    return pyspiel.load_game(name)


class CardtableState(pyspiel.State):
    """A pyspiel state holding one cardtable episode (``state.episode``).

    Everything it says comes from the episode: the deal as chance nodes, the actions, the
    returns, and, through the observer, the strings and tensors of each seat.
    """

    def __init__(self, game: CardtableGame, episode: Episode) -> None:
        super().__init__(game)
        self._episode = episode

    def __setattr__(self, name: str, value: Any) -> None:
        """Setting ``_episode`` sets the episode's own methods on the state under pyspiel's
        names (``_BOUND``), so a call from pyspiel's C++ or from Python reaches the episode
        with no method of the state between (a method a call, several calls a decision).
        A clone (pyspiel copies the state's attributes one by one) and an unpickled state
        set those names from the old state's: that is ignored, and ``_episode`` binds them
        to the state's own episode."""
        if name == "_episode":
            mine = self.__dict__
            mine["_episode"] = value
            methods = _METHODS.get(type(value))
            if methods is None:
                methods = _METHODS[type(value)] = tuple(
                    (ours, getattr(type(value), theirs)) for ours, theirs in _BOUND.items())
            for ours, method in methods:
                mine[ours] = _EpisodeMethod(method, value)
        elif name not in _BOUND:
            super().__setattr__(name, value)

    def clone(self) -> CardtableState:
        """pyspiel's ``clone`` (which keeps the history), its new state made with a copy of
        this episode (``_CLONING``) rather than a fresh one that each attribute of this
        state is then deep-copied onto: the episode's methods would be copied only to be
        bound afresh.  Any other attribute is deep-copied, as pyspiel does."""
        mine = self.__dict__
        kept = dict(mine)
        episode = kept.get("_episode")
        if episode is not None:
            _CLONING.episode = episode.copy()
        mine.clear()
        try:
            twin: CardtableState = pyspiel.State.clone(self)
        finally:
            _CLONING.__dict__.clear()
            mine.update(kept)
        for name, value in kept.items():
            if name != "_episode" and name not in _BOUND:
                setattr(twin, name, copy.deepcopy(value))
        return twin

    @property
    def episode(self) -> Episode:
        return self._episode

    def current_player(self) -> int:
        return self._episode.current_player()

    # pyspiel answers these from C++ by calling back into Python several times (a tensor:
    # a fresh initial state to learn the size, the observer twice, a copy per piece); a
    # Python caller gets the same answers from the episode in one step.  C++ callers
    # (OpenSpiel's C++ algorithms) still go through the trampolines and the observer.

    def is_chance_node(self) -> bool:
        return self._episode.is_chance_node()

    def is_player_node(self) -> bool:
        return self._episode.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """pyspiel's ``LegalActions``: none at the end, the cards to deal at a chance node
        (whoever asks), the mover's actions, and none for another seat."""
        episode = self._episode
        if player is None:   # (none at the end, the cards to deal at a chance node)
            return episode.legal_actions()
        mover = episode.current_player()
        if mover == TERMINAL:
            return []
        if mover == CHANCE or player is None or player == mover:
            return episode.legal_actions()
        if player < 0:
            raise pyspiel.SpielError(f"legal actions asked for pseudo-player {player}")
        return []

    def observation_tensor(self, player: int | None = None) -> list[float]:
        # (``_tensor`` written out: asked at every decision)
        episode = self._episode
        if player is None:
            player = episode.current_player()
        if not 0 <= player < episode.players:
            raise pyspiel.SpielError(f"player = {player}: a tensor is for a seat from 0 to "
                                     f"{episode.players - 1}")
        return episode.tensor_list(player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor("information_state", player)

    def _tensor(self, kind: str, player: int | None) -> list[float]:
        """pyspiel's tensor of ``kind`` for ``player`` (the mover by default), as its
        default observers give it (the seat's own cards)."""
        episode = self._episode
        if player is None:
            player = episode.current_player()
        if not 0 <= player < episode.players:
            raise pyspiel.SpielError(f"player = {player}: a tensor is for a seat from 0 to "
                                     f"{episode.players - 1}")
        return episode.tensor_list(player, kind)

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


_BOUND = {"current_player": "current_player", "is_chance_node": "is_chance_node",
          "is_terminal": "is_terminal", "_apply_action": "apply"}
"""The state's methods that are the episode's own (state name: episode name), set on each
state by ``CardtableState.__setattr__``; the methods of the class above say what they do.
These are the ones asked at every action (``apply_action`` calls ``current_player`` and
``_apply_action``); each costs a clone a little, so the rarer ones stay methods."""


_CLONING = threading.local()
"""``episode``: the episode the state a clone makes takes (``CardtableState.clone``:
pyspiel's clone asks the game for a new initial state first), in place of a copy of the
template; one a thread, so another thread's new state never takes it."""
_METHODS: dict[type, tuple[tuple[str, Any], ...]] = {}
"""The state's name and the episode class's method, for each of ``_BOUND``, by class."""


class _EpisodeMethod(functools.partial):
    """An episode's method bound to it, as set on its pyspiel state (``_BOUND``).  It is
    not copied or pickled with the state: the copy and the unpickled state bind their own
    episode's (``CardtableState.__setattr__``)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> None:
        return None

    def __reduce__(self) -> tuple[Any, ...]:
        return _unbound, ()


def _unbound() -> None:
    """What an ``_EpisodeMethod`` unpickles as (the state binds its episode's afresh)."""
    return None


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
        self._initial: dict[int, np.ndarray] = {}
        self._last: tuple[list[int], int, np.ndarray] | None = None

    def set_from(self, state: CardtableState, player: int) -> None:
        # pyspiel's observation_tensor() sets the observer twice, first from a fresh
        # initial state, then from the state asked about: the initial tensors and the last
        # one are kept (two episodes of one game with one history are one position)
        history = state.episode.history
        known = self._initial.get(player) if not history else None
        if known is None and self._last is not None and self._last[1] == player \
                and self._last[0] == history:
            known = self._last[2]
        if known is not None:
            np.copyto(self.tensor, known)
            return
        state.episode.encode(self.tensor, player, self.kind, self.private)
        if history:
            self._last = (history[:], player, self.tensor.copy())
        else:
            self._initial[player] = self.tensor.copy()

    def string_from(self, state: CardtableState, player: int) -> str:
        return state.episode.string(player, self.kind, self.private)


def _register(spec: GameSpec) -> None:
    """Register ``spec``'s game with pyspiel, as a subclass of ``CardtableGame`` (pyspiel
    keeps the class to the end of the process; a class, unlike a plain function, outlives
    the interpreter's teardown safely)."""
    episode = spec.plugin("episode")
    kind = game_type(spec, episode)
    game_class = type(f"CardtableGame_{spec.name}", (CardtableGame,),
                      {"game_type": kind, "episode": episode, "__module__": __name__,
                       "__doc__": f"``{kind.short_name}``: {spec.title} as a pyspiel game."})
    pyspiel.register_game(kind, game_class)


def _research_games() -> list[GameSpec]:
    """Every registered game that names an episode and an OpenSpiel name."""
    specs = [games.get(name) for name in games.names()]
    return [spec for spec in specs if spec.episode and spec.openspiel_name]


for _spec in _research_games():
    _register(_spec)


def load(game: str, **params: Any) -> pyspiel.Game:
    """``load("pasur", players=3, preset="wikipedia")``: a pyspiel game by cardtable name
    (or by its pyspiel name, with or without ``python_``).

    >>> load("durak", players=4).num_players()
    4
    """
    for spec in _research_games():
        short = spec.openspiel_name
        assert short is not None
        if game in (spec.name, short, short.removeprefix("python_")):
            return pyspiel.load_game(short, params)
    raise ValueError(f"no OpenSpiel game {game!r}; the games are: "
                     + ", ".join(spec.name for spec in _research_games()))


# -- mirroring a cardtable state into pyspiel --------------------------------------------


def state_of(state: GameState) -> CardtableState:
    """A pyspiel state mirroring a cardtable game in play (a Pasur ``Match`` or ``Hand``
    dealt from a deck, or a Durak ``Game``), built by replaying its deal and its moves."""
    spec = games.get(state.view(None)["game"])
    episode = spec.plugin("episode").from_state(state)
    out = pyspiel.load_game(spec.openspiel_name, episode.openspiel_params()).new_initial_state()
    for action in episode.history:
        out.apply_action(action)
    return out


class OpenSpielISMCTSBot:
    """A cardtable bot that decides with OpenSpiel's own ISMCTS
    (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random-rollout evaluation).

    ``choose(state)`` mirrors the cardtable state into a pyspiel state, searches
    ``simulations`` times (each from a fresh resampling of the cards the seat cannot see:
    the true hidden cards are never used), and returns the engine's move.  A move made of
    several actions (a Pasur capture choice) is searched again for each step.  ``uct_c``
    defaults to the episode's (``Episode.uct_c``: 10 for Pasur's returns in points, 1.5 for
    Durak's returns of about 1).
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
        uct_c = self.uct_c if self.uct_c is not None else type(mirror.episode).uct_c
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


class CardtableBot(pyspiel.Bot):
    """A cardtable level as a ``pyspiel.Bot``: ``CardtableBot(game, player_id, "hard")``.

    ``level`` is any cardtable bot spec (``random``, ``beginner`` ... ``expert``, or a kind
    with options such as ``ismcts:iterations=200``).  It plays ``player_id`` of a cardtable
    game loaded through pyspiel, from what that player has seen: the cards it cannot see
    are dealt afresh before the level is asked (``cardtable.adapters.levels``), so it
    plays the same whatever the opponents really hold.  It works with OpenSpiel's
    ``evaluate_bots`` and anything else that calls ``step``.

    >>> from open_spiel.python.algorithms import evaluate_bots
    >>> game = load("pasur")
    >>> players = [CardtableBot(game, 0, "easy", seed=1), CardtableBot(game, 1, "random", seed=2)]
    >>> returns = evaluate_bots.evaluate_bots(game.new_initial_state(), players,
    ...                                       np.random.RandomState(3))
    >>> sum(returns)
    0.0
    """

    def __init__(self, game: pyspiel.Game, player_id: int, level: str = "hard",
                 seed: int | random.Random | None = None) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, CardtableGame):
            raise ValueError(f"CardtableBot plays cardtable's games, not {game}")
        players = game.num_players()
        if isinstance(player_id, bool) or not isinstance(player_id, int) \
                or not 0 <= player_id < players:
            raise ValueError(f"player_id must be 0 to {players - 1}, not {player_id!r}")
        self.game = game
        self.player_id = player_id
        self.player = LevelPlayer(level, seed)
        self.level = level

    def step(self, state: pyspiel.State) -> int:
        if not isinstance(state, CardtableState):
            raise ValueError("CardtableBot plays the states of cardtable's pyspiel games")
        if state.current_player() != self.player_id:
            raise ValueError(f"it is not player {self.player_id}'s turn")
        return self.player.action(state.episode, self.player_id)

    def restart_at(self, state: pyspiel.State) -> None:
        self.player.restart()

    def restart(self) -> None:
        self.player.restart()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to note: the level reads the state when asked."""

    def provides_policy(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"CardtableBot({self.game}, {self.player_id}, {self.level!r})"


def _make_bot(*, seed: int | random.Random | None = None, **options: Any) -> OpenSpielISMCTSBot:
    return OpenSpielISMCTSBot(seed=seed, **options)


bots.register("openspiel-ismcts", _make_bot)
