"""Outside agents at cardtable's tables: a ``pyspiel.Bot`` made by ``module:function`` plays
in the arena and on the ladder, and OpenSpiel's own baselines in the same form.

``cardtable arena pasur --bots mypkg.agent:make,hard`` imports ``mypkg.agent`` and calls
``make(game, player_id)`` (with ``seed=`` too if it takes one) for a ``pyspiel.Bot`` of a
cardtable pyspiel game.  At each of its turns the agent is given a pyspiel state in which
the cards its seat cannot see are dealt afresh (it never sees the true hidden cards), and
it steps until its move is made (a Pasur capture can take several actions).

OpenSpiel's baselines, as such functions (``cardtable.adapters.agents:NAME``):
``uniform_random`` (``pyspiel.make_uniform_random_bot``), ``mcts`` (OpenSpiel's Python
``MCTSBot``, random rollouts, searching one resampled deal per move: on the true state it
would see every card) and ``ismcts`` (OpenSpiel's Python ``ISMCTSBot``, a fresh resample
per simulation).

>>> from cardtable import arena
>>> run = arena.run("pasur", ["cardtable.adapters.agents:uniform_random", "beginner"],
...                 games=2, hands=True, seed=1)
>>> [result.moves for result in run.results]
[48, 48]
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from .. import bots
from ..game import GameState, make_rng
from .openspiel import CardtableGame, resample_state, state_of

__all__ = ["AgentBot", "ismcts", "load_entry", "mcts", "uniform_random"]

MAX_STEPS = 64
"""An agent that has not finished its move after this many actions is stopped."""


def load_entry(entry: str) -> Callable[..., Any]:
    """The function ``module:function`` names; a clear ``ValueError`` if there is none."""
    module_name, colon, function = entry.strip().partition(":")
    if not colon or not module_name or not function.isidentifier():
        raise ValueError(f"an outside agent is module:function, not {entry!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import the agent's module {module_name!r}: {error}") from None
    make = getattr(module, function, None)
    if not callable(make):
        raise ValueError(f"{module_name} has no function {function!r}")
    return make


class AgentBot:
    """An outside ``pyspiel.Bot`` as a cardtable bot (the ``agent`` kind)."""

    def __init__(self, *, entry: str, seed: int | random.Random | None = None) -> None:
        self.entry = entry.strip()
        self.name = self.entry
        self.make = load_entry(self.entry)
        self.rng = make_rng(seed)
        try:
            self._seeded = "seed" in inspect.signature(self.make).parameters
        except (TypeError, ValueError):
            self._seeded = False
        self._agents: dict[tuple[str, int], Any] = {}

    def _agent(self, game: pyspiel.Game, seat: int) -> Any:
        key = (str(game), seat)
        agent = self._agents.get(key)
        if agent is None:
            extra = {"seed": self.rng.getrandbits(31)} if self._seeded else {}
            agent = self.make(game, seat, **extra)
            if not callable(getattr(agent, "step", None)):
                raise ValueError(f"{self.entry} returned {agent!r}, which has no step(state)")
            self._agents[key] = agent
        return agent

    def choose(self, state: GameState[Any]) -> Any:
        seat = state.to_move
        if seat is None:
            raise ValueError("there is no move to choose: the game is over")
        seen = resample_state(state_of(state), seat, self.rng)
        agent = self._agent(seen.get_game(), seat)
        made = len(seen.episode.moves)
        for _ in range(MAX_STEPS):
            action = agent.step(seen)
            if isinstance(action, bool) or not isinstance(action, int | np.integer) \
                    or int(action) not in seen.legal_actions():
                raise ValueError(f"{self.entry} chose {action!r}, which is not a legal action")
            seen.apply_action(int(action))
            if len(seen.episode.moves) > made:
                move = seen.episode.moves[-1][1]
                if move not in state.legal_moves():
                    raise AssertionError(f"{move} was legal in the agent's deal, not here")
                return move
        raise ValueError(f"{self.entry} did not finish its move in {MAX_STEPS} actions")


def _make_agent(*, seed: int | random.Random | None = None, **options: Any) -> AgentBot:
    return AgentBot(seed=seed, **options)


bots.register("agent", _make_agent)


# -- OpenSpiel's baselines as outside agents ---------------------------------------------

def uniform_random(game: pyspiel.Game, player_id: int, seed: int = 0) -> pyspiel.Bot:
    """OpenSpiel's uniform random bot."""
    return pyspiel.make_uniform_random_bot(player_id, seed)


class _Resampling(pyspiel.Bot):
    """Runs a bot on a deal resampled from its player's information, so a bot that reads
    the whole state (OpenSpiel's ``MCTSBot``) sees no card its player cannot see."""

    def __init__(self, inner: pyspiel.Bot, player_id: int, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.inner = inner
        self.player_id = player_id
        self.rng = random.Random(seed)

    def step(self, state: pyspiel.State) -> int:
        return int(self.inner.step(resample_state(state, self.player_id, self.rng)))

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass


def mcts(game: pyspiel.Game, player_id: int, seed: int = 0,
         simulations: int = 100) -> pyspiel.Bot:
    """OpenSpiel's Python MCTS (random rollouts) on one resampled deal per move."""
    _check_game(game)
    rng = np.random.RandomState(seed)
    evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    inner = os_mcts.MCTSBot(game, game.episode.uct_c, simulations, evaluator,
                            random_state=rng, solve=False)
    return _Resampling(inner, player_id, seed)


def ismcts(game: pyspiel.Game, player_id: int, seed: int = 0,
           simulations: int = 100) -> pyspiel.Bot:
    """OpenSpiel's Python IS-MCTS (random rollouts), each simulation on a fresh resample."""
    _check_game(game)
    rng = np.random.RandomState(seed)
    resample_rng = random.Random(seed)
    evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = os_ismcts.ISMCTSBot(game, evaluator, game.episode.uct_c, simulations,
                              random_state=rng,
                              final_policy_type=os_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    bot.set_resampler(lambda s, player: resample_state(s, player, resample_rng))
    return bot


def _check_game(game: pyspiel.Game) -> None:
    if not isinstance(game, CardtableGame):
        raise ValueError(f"these baselines play cardtable's games, not {game}")
