"""What every research episode offers: actions as ints, chance nodes, tensors and strings.

An *episode* is one game as research frameworks see it: the deal is a run of chance nodes
(one card each), every decision is an int from a fixed numbering, and each seat gets an
observation and an information state as text and as a flat float32 tensor built only
from what that seat may see.  The OpenSpiel, PettingZoo and Gymnasium adapters are thin
shells around episodes, so they agree on all of this.

Seat numbers are the engine's; ``current_player()`` is ``CHANCE`` (-1) at a chance node
and ``TERMINAL`` (-4) at the end, the values OpenSpiel uses.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, ClassVar, Self

import numpy as np

from ..game import IllegalMove
from . import tensors

__all__ = ["CHANCE", "KINDS", "TERMINAL", "Episode", "IllegalMove", "Layout"]

CHANCE = -1
"""``current_player()`` at a chance node (a card is being dealt)."""
TERMINAL = -4
"""``current_player()`` once the episode is over."""
DEAL, PLAY, OVER = 0, 1, 2
"""An episode's phases: cards being dealt by chance, seats deciding, over."""

KINDS = ("observation", "information_state")
"""The two views of a seat: what it sees now, and everything it has seen (its recall)."""

PRIVATE = ("single", "none", "all")
"""Whose private cards a view holds: the seat's own (the normal case), nobody's (the
public view) or everybody's (a perfect-information view, for analysis only)."""


class Layout:
    """A flat float32 tensor cut into named pieces (the OpenSpiel observer convention).

    >>> layout = Layout([("hand", (52,)), ("surs", (2,))])
    >>> layout.size, layout.names
    (54, ['hand', 'surs'])
    >>> tensor, views = layout.new()
    >>> views["surs"][:] = 1
    >>> float(tensor.sum())
    2.0
    """

    def __init__(self, pieces: Sequence[tuple[str, tuple[int, ...]]]) -> None:
        self.pieces = [(name, tuple(shape)) for name, shape in pieces]
        self.names = [name for name, _ in self.pieces]
        self._cuts = []
        at = 0
        for name, shape in self.pieces:
            self._cuts.append((name, shape, at, at + math.prod(shape)))
            at += math.prod(shape)
        self.size = at

    def new(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zero tensor and a dict of named views into it (writing a view writes it)."""
        tensor = np.zeros(self.size, np.float32)
        return tensor, self.views(tensor)

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        return {name: tensor[start:stop].reshape(shape)
                for name, shape, start, stop in self._cuts}

    def offsets(self) -> dict[str, tuple[int, int]]:
        """Where each piece sits in the flat tensor: ``name -> (start, stop)``."""
        return {name: (start, stop) for name, _, start, stop in self._cuts}


nth_card = tensors.nth_card
"""The index of the ``n``-th card (from 0, lowest first) in a 52-bit mask."""


def bits(views: np.ndarray, mask: int) -> None:
    """Set ``views[i] = 1`` for every card index ``i`` in a 52-bit mask."""
    while mask:
        low = mask & -mask
        views[low.bit_length() - 1] = 1.0
        mask ^= low


class Episode:
    """One game as a sequence of int actions, chance deals included.

    Subclasses implement the game; this class holds what all of them share: replay,
    copying (``copy.deepcopy`` calls ``copy``, pickling replays the actions), tensors
    from layouts, and sampling chance outcomes.
    """

    game: ClassVar[str]
    """The cardtable game's name (``cardtable.games``)."""
    num_actions: ClassVar[int]
    max_chance_outcomes: ClassVar[int] = 52
    uct_c: ClassVar[float]
    """OpenSpiel's ISMCTS exploration constant by default: on the scale of the returns."""
    openspiel_parameters: ClassVar[dict[str, Any]]
    layout_version: ClassVar[int] = 1
    """The version of this game's tensor layouts (pieces, their order and sizes) and of
    its action numbering.  It goes up, by one, with any change to either, and only then:
    a model trained on one version reads the same tensors until it changes.  The pyspiel
    game takes it as the ``layout_version`` parameter and refuses any other version."""
    """The pyspiel game's parameters with their defaults (what ``from_openspiel`` reads)."""
    gymnasium_env: ClassVar[tuple[str, str, str] | None] = None
    """The Gymnasium environment of this game: its class name in
    ``cardtable.adapters.gymnasium``, its registered id, and what one episode is."""
    count_pieces: ClassVar[tuple[str, ...]] = ()
    _lists: ClassVar[tuple[str, ...]] = ()
    """The list attributes a copy gets its own of (besides ``history``)."""

    players: int
    history: list[int]
    _phase: int
    """``DEAL`` (a chance node deals a card), ``PLAY`` (a seat decides) or ``OVER``."""
    _layouts: dict[tuple[str, ...], Any]
    """Layouts and their offsets by view, shared by an episode and its copies."""

    # -- to implement -----------------------------------------------------------------

    def params(self) -> dict[str, Any]:
        """The keyword arguments that make a fresh episode of the same game."""
        raise NotImplementedError

    def current_player(self) -> int:
        if self._phase == PLAY:
            return self._inner().to_move
        return CHANCE if self._phase == DEAL else TERMINAL

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move, ascending (chance: the cards to deal)."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def apply(self, action: int) -> None:
        """Play one action (a decision, or the card a chance node deals).

        An illegal action raises ``IllegalMove`` saying why and changes nothing.
        """
        raise NotImplementedError

    def returns(self) -> list[float]:
        raise NotImplementedError

    def copy(self) -> Self:
        """An independent copy: the lists in ``_lists`` and the engine state are its own."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = self.history[:]
        for name in self._lists:
            setattr(other, name, getattr(self, name)[:])
        self._copy_more(other)
        return other

    def _copy_more(self, other: Self) -> None:
        """Copy what ``copy`` leaves shared: the engine state (``_inner``) and the like."""
        raise NotImplementedError

    def _inner(self) -> Any:
        """The engine's state being played (a Pasur hand, a Durak game)."""
        raise NotImplementedError

    @property
    def engine(self) -> Any:
        """The engine's state, for bots that choose engine moves (``None`` before the deal
        is complete)."""
        raise NotImplementedError

    def legal_moves(self) -> list[Any]:
        """The engine moves open to the seat to move (empty at chance nodes)."""
        raise NotImplementedError

    def actions_for(self, move: Any) -> list[int]:
        """The actions that make an engine ``move`` from a decision node."""
        raise NotImplementedError

    def move_so_far(self) -> list[int]:
        """The actions already given for a move not made yet (a Pasur capture being
        chosen); empty at the start of a move.  The move began that many actions ago."""
        return []

    @property
    def moves(self) -> list[tuple[int, Any]]:
        """(seat, move) for every move made so far."""
        raise NotImplementedError

    def resample(self, seat: int, rng: random.Random) -> Self:
        """An episode ``seat`` cannot tell from this one, its hidden cards dealt afresh."""
        raise NotImplementedError

    @classmethod
    def from_state(cls, state: Any) -> Self:
        """The episode of a cardtable game in play: its deal replayed card by card and its
        moves as actions (what the OpenSpiel bot searches from)."""
        raise NotImplementedError

    def utility_range(self) -> tuple[float, float]:
        """The lowest and the highest return a seat can get (OpenSpiel's utility range;
        the lowest is the default penalty for an illegal action)."""
        raise NotImplementedError

    def max_game_length(self) -> int:
        """A bound on the decisions in one episode (OpenSpiel's ``max_game_length``)."""
        raise NotImplementedError

    def max_chance_nodes(self) -> int | None:
        """A bound on the chance nodes of one episode, or ``None`` where there is none
        (OpenSpiel's ``max_chance_nodes_in_history``)."""
        return None

    def action_text(self, action: int, player: int | None = None) -> str:
        raise NotImplementedError

    def learned_features(self) -> Any:
        """What the learned policy reads beside the tensor (``adapters.learned``): a
        callable from an observation tensor to features; a game without one refuses."""
        raise ValueError(f"no learned policy plays {type(self).__name__}'s game")

    def layout(self, kind: str = "observation", private: str = "single") -> Layout:
        raise NotImplementedError

    def write(self, views: dict[str, np.ndarray], seat: int, kind: str = "observation",
              private: str = "single") -> None:
        """Fill the (zeroed) views of ``layout(kind, private)`` for ``seat``."""
        raise NotImplementedError

    def pieces(self, seat: int, kind: str = "observation", private: str = "single"
               ) -> tuple[tuple[int, ...], tuple[Any, ...]] | None:
        """The tensor of ``layout(kind, private)`` for ``seat`` as flat ``(offset, card
        mask)`` and ``(offset, value)`` pairs (``tensors.encode``), or ``None`` where only
        ``write`` gives it.  Both give the same tensor; ``write`` is the reference."""
        return None

    def string(self, seat: int, kind: str = "observation", private: str = "single") -> str:
        raise NotImplementedError

    # -- stepping many episodes in one call (cardtable.adapters.vector) -----------------

    @classmethod
    def vector_stepper(cls, opponent: str, kind: str) -> Any:
        """``step(items, actions, observations, masks, status, seat, template)``: many
        episodes of this game stepped in one call, each other seat played by ``opponent``,
        the ``kind`` view and the mask written into rows (the vector environment's batched
        step); ``None`` where the game has none for them (the vector then steps each
        environment in Python)."""
        return None

    def vector_item(self, state: bytearray) -> tuple[Any, ...]:
        """What the game's ``vector_stepper`` reads and keeps of this episode, with
        ``state``, its opponents' generator."""
        raise NotImplementedError

    def vector_synced(self, status: int) -> None:
        """This episode's own fields brought up to date after a ``vector_stepper`` step that
        left it with ``status`` (0: a seat decides, 1: over, 2: cut short)."""
        raise NotImplementedError

    def why_not(self, action: int) -> str:
        """Why ``action`` is not legal now (what ``apply`` raises), nothing changed."""
        try:
            self.copy().apply(action)
        except IllegalMove as error:
            return str(error)
        raise ValueError(f"{action} is legal now")

    # -- shared -------------------------------------------------------------------------

    # the phase says it without asking the engine whose turn it is (``current_player``)
    def is_terminal(self) -> bool:
        return self._phase == OVER

    def is_chance_node(self) -> bool:
        return self._phase == DEAL

    def legal_mask(self) -> np.ndarray:
        """The legal actions as a 0/1 int8 vector of length ``num_actions``."""
        mask = np.zeros(self.num_actions, np.int8)
        if not self.is_chance_node():
            mask[self.legal_actions()] = 1
        return mask

    def cached_layout(self, kind: str = "observation", private: str = "single") -> Layout:
        """``layout(kind, private)``, made once per episode and its copies."""
        key = (kind, private)
        layout = self._layouts.get(key)
        if layout is None:
            layout = self._layouts[key] = self.layout(kind, private)
        return layout

    def tensor_size(self, kind: str = "observation", private: str = "single") -> int:
        """The size of ``layout(kind, private)``, worked out once per episode and copies."""
        key = ("size", kind, private)
        size = self._layouts.get(key)
        if size is None:
            size = self._layouts[key] = self.cached_layout(kind, private).size
        return int(size)

    def offsets(self, kind: str = "observation", private: str = "single"
                ) -> dict[str, int]:
        """Where each piece of ``layout(kind, private)`` starts (what ``pieces`` reads)."""
        key = ("offsets", kind, private)
        found = self._layouts.get(key)
        if found is None:
            found = {name: start for name, (start, _) in
                     self.cached_layout(kind, private).offsets().items()}
            self._layouts[key] = found
        return found

    def encode(self, out: np.ndarray, seat: int, kind: str = "observation",
               private: str = "single") -> np.ndarray:
        """Write the tensor of ``kind`` for ``seat`` into ``out`` (a float32 vector of the
        layout's size, zeroed first) and return it: by the compiled core where it writes
        it (``_in_core``), in one call where the episode gives ``pieces``, through
        ``write`` otherwise."""
        if self._in_core(out, seat, kind, private) is not NotImplemented:
            return out
        found = self.pieces(seat, kind, private)
        if found is not None:
            tensors.encode(out, *found)
            return out
        out.fill(0.0)
        self.write(self.cached_layout(kind, private).views(out), seat, kind, private)
        return out

    def tensor(self, seat: int, kind: str = "observation", private: str = "single"
               ) -> np.ndarray:
        """The flat float32 tensor of ``kind`` for ``seat``."""
        out = np.empty(self.cached_layout(kind, private).size, np.float32)
        return self.encode(out, seat, kind, private)

    def tensor_list(self, seat: int, kind: str = "observation", private: str = "single"
                    ) -> list[float]:
        """The tensor of ``kind`` for ``seat`` as a list of floats (pyspiel's form), built
        in one call by the compiled core or from ``pieces`` where the episode gives them."""
        written = self._in_core(self.tensor_size(kind, private), seat, kind, private)
        if written is not NotImplemented:
            tensor: list[float] = written
            return tensor
        found = self.pieces(seat, kind, private)
        if found is not None:
            return tensors.as_list(self.cached_layout(kind, private).size, *found)
        listed: list[float] = self.tensor(seat, kind, private).tolist()
        return listed

    def _in_core(self, out: Any, seat: int, kind: str, private: str) -> Any:
        """The tensor written by the game's compiled core into ``out`` (a buffer, or a
        size: a new list), or ``NotImplemented`` where the core does not write it."""
        return NotImplemented

    def sample_chance(self, rng: random.Random) -> int:
        """A chance outcome drawn with the node's probabilities (all equal here)."""
        outcomes = self.chance_outcomes()
        return outcomes[rng.randrange(len(outcomes))][0]

    def apply_chance(self, rng: random.Random) -> None:
        """Deal at chance nodes with ``rng`` until a seat has to decide (or the end)."""
        while self.current_player() == CHANCE:
            self.apply(self.sample_chance(rng))

    @classmethod
    def from_openspiel(cls, params: dict[str, Any]) -> Self:
        """A fresh episode from the pyspiel game's parameters (``openspiel_parameters``)."""
        return cls(**params)

    def openspiel_params(self) -> dict[str, Any]:
        """This episode's parameters as the pyspiel game takes them."""
        return dict(self.params())

    @classmethod
    def replay(cls, params: dict[str, Any], actions: Sequence[int]) -> Self:
        """A fresh episode with ``actions`` applied in order."""
        episode = cls(**params)
        for action in actions:
            episode.apply(int(action))
        return episode

    def __deepcopy__(self, memo: dict) -> Self:
        return self.copy()

    def __reduce__(self) -> tuple:
        return (_replay, (type(self), self.params(), tuple(self.history)))

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) \
                or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1}, not {seat!r}")

    @staticmethod
    def _check_view(kind: str, private: str) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        if private not in PRIVATE:
            raise ValueError(f"private must be one of {PRIVATE}, not {private!r}")


def _replay(cls: type[Episode], params: dict[str, Any], actions: tuple[int, ...]) -> Episode:
    return cls.replay(params, actions)
