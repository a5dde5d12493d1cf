"""Bots for every game: ``make(spec)`` turns a spec string into a bot.

A bot decides only from what its seat has seen: ``state.view(seat)`` and samples of the
hidden cards dealt afresh from what that seat cannot see.  Every bot plays both games,
every rule preset and every player count.

The kinds: ``random``; ``basic`` (the immediate best, the search's playout policy);
``greedy`` (one per game, from the tactics players use); ``ismcts`` (information-set
Monte Carlo tree search; options ``iterations``, ``seconds``, ``c``, ``playout``,
``solver``, ``solver_nodes``, ``solver_seconds``, ``infer``, ``paired``, ``horizon``,
``pimc``, ``depth``).  The levels
are named configurations of those (see ``LEVELS`` and docs/bots.md); a level takes the
same options as its kind.

>>> from cardtable import bots
>>> bot = bots.make("random", seed=1)
>>> bot.name
'random'
>>> bots.make("ismcts:iterations=2000", seed=1).iterations
2000
>>> bots.make("medium").name
'medium'
"""

from __future__ import annotations

import functools
import inspect
import math
import random
from collections.abc import Callable
from typing import Any, Protocol

from ..game import GameState, make_rng
from .ismcts import ISMCTSBot, kit_of

__all__ = ["LEVELS", "BasicBot", "Bot", "GreedyBot", "ISMCTSBot", "RandomBot",
           "choose_within", "make", "parse_spec", "register", "specs", "split_specs"]


class Bot(Protocol):
    """Chooses a move for the seat to move."""

    name: str

    def choose(self, state: GameState[Any]) -> Any: ...


class RandomBot:
    """Plays a uniformly random legal move: the baseline every other bot must beat."""

    def __init__(self, *, seed: int | random.Random | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = make_rng(seed)

    def choose(self, state: GameState[Any]) -> Any:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("there is no move to choose: the game is over")
        return moves[self.rng.randrange(len(moves))]


class GreedyBot:
    """The tactics players use, one set per game (chosen by the view's "game" key)."""

    def __init__(self, *, seed: int | random.Random | None = None, name: str = "greedy") -> None:
        self.name = name
        self.rng = make_rng(seed)

    def choose(self, state: GameState[Any]) -> Any:
        seat = state.to_move
        if seat is None:
            raise ValueError("there is no move to choose: the game is over")
        return kit_of(state).greedy(state, seat)


class BasicBot:
    """The immediate best move and nothing more: the playout policy of the search.

    Pasur: the capture worth most now, else leave the card worth least, never looking at
    what is left for the next player.  Durak: the cheapest card to attack and to beat.
    """

    def __init__(self, *, seed: int | random.Random | None = None, name: str = "basic") -> None:
        self.name = name
        self.rng = make_rng(seed)

    def choose(self, state: GameState[Any]) -> Any:
        if state.to_move is None:
            raise ValueError("there is no move to choose: the game is over")
        return kit_of(state).basic(state, None)


LEVELS: dict[str, tuple[str, dict[str, Any], str]] = {
    "beginner": ("basic", {}, "takes the best capture or the cheapest card it sees now"),
    "easy": ("greedy", {}, "the greedy tactics player"),
    "medium": ("ismcts", {"budget": "medium", "seconds": 2.0, "depth": 1, "solver": True,
                          "solver_nodes": 20_000, "solver_seconds": 2.0},
               "ISMCTS one move deep (flat Monte Carlo), 200 iterations (500 in Durak): "
               "every reply is the playout policy's, and an exact alpha-beta search of "
               "20 000 positions at most once nothing is hidden (time caps of 2 s only as a "
               "safety net)"),
    "hard": ("ismcts", {"budget": "hard", "seconds": 5.0, "infer": True, "solver": True,
                        "solver_nodes": 30_000, "solver_seconds": 5.0},
             "ISMCTS, 500 iterations (1000 in Durak), reading the other players' moves "
             "(infer), and the exact endgame search of 30 000 positions at most (caps 5 s)"),
    "expert": ("ismcts", {"budget": "expert", "seconds": 8.0, "infer": True, "paired": True,
                          "solver": True, "solver_nodes": 50_000, "solver_seconds": 5.0},
               "ISMCTS, 3000 iterations (2500 in Durak), reading the other players' moves, "
               "every root move tried on the same deals (paired), and the exact endgame "
               "search of 50 000 positions at most (caps 8 s and 5 s)"),
}
"""Each level: (the bot kind, its options, what it is).  A search level's iterations are
its game's (``budget``: the kit's ``budgets`` name them, so that no module here names a
game)."""


def _level(level: str) -> Callable[..., Bot]:
    kind, preset, _ = LEVELS[level]

    def factory(*, seed: int | random.Random | None = None, **options: Any) -> Bot:
        settings = {**preset, **options}
        if "iterations" in options:
            settings.pop("budget", None)   # the caller's own budget, in every game
        return _FACTORIES[kind](seed=seed, name=level, **settings)

    return factory


_FACTORIES: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "basic": BasicBot,
    "greedy": GreedyBot,
    "ismcts": ISMCTSBot,
}
for _name in LEVELS:
    _FACTORIES[_name] = _level(_name)


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot kind: ``factory(seed=..., **options)`` returns the bot."""
    _FACTORIES[name] = factory


def specs() -> list[str]:
    """The bot kinds and levels ``make`` knows, with those other packages offer."""
    from importlib.metadata import entry_points

    names = list(_FACTORIES)
    names += [p.name for p in entry_points(group="cardtable.bots") if p.name not in names]
    return names


def split_specs(text: str) -> list[str]:
    """Bot specs from a comma-separated list, where a spec's own options also use commas:
    a piece with ``=`` and no ``:`` continues the spec before it.

    >>> split_specs("hard:iterations=500,seconds=2,medium, greedy")
    ['hard:iterations=500,seconds=2', 'medium', 'greedy']
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece:
            if not specs or ":" not in specs[-1]:
                raise ValueError(f"bot option {piece!r} follows no bot: write it as "
                                 "kind:name=value, e.g. ismcts:iterations=500")
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A spec's bot name and its options, read as ``make`` reads them (numbers as numbers,
    ``true``/``false`` as yes/no); a number that is not finite is refused.

    >>> parse_spec("ismcts:iterations=500,c=0.7,infer=true")
    ('ismcts', {'iterations': 500, 'c': 0.7, 'infer': True})
    >>> parse_spec("mypkg.agent:make")        # an outside agent (module:function)
    ('agent', {'entry': 'mypkg.agent:make'})
    >>> parse_spec("ismcts:c=nan")
    Traceback (most recent call last):
    ...
    ValueError: bot option c=nan is not a finite number
    """
    name, _, rest = spec.strip().partition(":")
    if _is_entry_point(name, rest):
        return "agent", {"entry": spec.strip()}
    options: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = pair.partition("=")
        if not eq:
            raise ValueError(f"bot option {pair!r} must look like name=value")
        number = _number(value.strip())
        if isinstance(number, float) and not math.isfinite(number):
            raise ValueError(f"bot option {key.strip()}={value.strip()} is not a finite number")
        options[key.strip()] = number
    return name.strip(), options


def _is_entry_point(name: str, rest: str) -> bool:
    """``mypkg.agent:make``: an outside agent's module and function (no ``=``), played by
    the ``agent`` kind (an edge package offers it: OpenSpiel bots, cardtable.adapters)."""
    rest = rest.strip()
    return (bool(rest) and rest.isidentifier() and name.strip() not in _FACTORIES
            and all(part.isidentifier() for part in name.strip().split(".")))


def make(spec: str, *, seed: int | random.Random | None = None) -> Bot:
    """A bot from a spec: ``"random"``, ``"greedy"``, ``"ismcts:iterations=2000"``, a level.

    Options after the colon are ``name=value`` pairs separated by commas; a value out of
    its range (``iterations=0``, ``c=-1``, ``seconds=inf``) raises ``ValueError``.
    """
    name, options = parse_spec(spec)
    factory = _FACTORIES.get(name) or _plugin(name)
    if factory is None:
        raise ValueError(f"no bot {name!r}; the bots are: {', '.join(_FACTORIES)}")
    try:
        return factory(seed=seed, **options)
    except TypeError as error:
        raise ValueError(f"bot {name!r} does not take those options: {error}") from None


def choose_within(bot: Bot, state: GameState[Any], deadline: float) -> Any:
    """The bot's move, its search stopped at ``deadline`` (a ``time.perf_counter()``
    value) if it can stop itself (``choose`` takes ``deadline``, as the search bots'
    does); any other bot is simply asked.

    >>> import time
    >>> from cardtable import games
    >>> state = games.get("durak").start(games.get("durak").presets["transfer"], players=2,
    ...                                  seed=1)
    >>> move = choose_within(make("ismcts:iterations=10000000", seed=1), state,
    ...                      time.perf_counter() + 0.05)
    >>> move in state.legal_moves()
    True
    """
    if _takes_deadline(type(bot)):
        return bot.choose(state, deadline=deadline)  # type: ignore[call-arg]
    return bot.choose(state)


@functools.cache
def _takes_deadline(kind: type[Any]) -> bool:
    try:
        return "deadline" in inspect.signature(kind.choose).parameters
    except (AttributeError, TypeError, ValueError):
        return False


def _plugin(name: str) -> Callable[..., Bot] | None:
    """A bot another package offers through the ``cardtable.bots`` entry point group.

    Bots that need third-party libraries (OpenSpiel's ISMCTS in cardtable.adapters) live at
    the edges; this finds them by name without the engine importing them up front.
    """
    from importlib.metadata import entry_points

    for point in entry_points(group="cardtable.bots", name=name):
        try:
            point.load()
        except ImportError as error:
            raise ValueError(f"bot {name!r} needs a package that is not installed: {error}"
                             " (pip install 'cardtable[research]')") from None
        return _FACTORIES.get(name)
    return None


def _number(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
