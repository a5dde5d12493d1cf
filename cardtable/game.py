"""What every game offers: the shared protocol, outcomes and illegal-move errors.

Both Pasur and Transfer Durak follow one small shape, in the spirit of python-chess's
``Board``, so that bots, the arena, records, the terminal, the web table and the research
adapters are written once for both games.  This module names that shape; it holds no
rules of its own.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

__all__ = [
    "MOVE_ERRORS",
    "AmbiguousMove",
    "GameRules",
    "GameSpec",
    "GameState",
    "IllegalMove",
    "InvalidMove",
    "Measure",
    "MoveLike",
    "Outcome",
    "RuleOption",
    "SingleHand",
    "check_options",
    "load_path",
    "make_rng",
    "rule_options",
    "rules_with",
]


class InvalidMove(ValueError):
    """Text that is not a move at all (no such card, no such word).  Nothing changes."""


class IllegalMove(ValueError):
    """A move the rules do not allow now.  The message says why; the state is unchanged."""


class AmbiguousMove(ValueError):
    """Text that names more than one legal move; the message lists them.  Nothing changes."""


MOVE_ERRORS: tuple[type[ValueError], ...] = (InvalidMove, IllegalMove, AmbiguousMove)
"""Everything a player's move can be refused with: catch these, not every ``ValueError``."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game came out.

    ``returns`` has one number per seat and sums to zero: what research code and search
    bots maximise.  ``winners`` lists the winning seats (empty for a draw).  ``points``
    is per side where the game scores points (Pasur), else ``None``.
    """

    returns: tuple[float, ...]
    winners: tuple[int, ...]
    reason: str
    points: tuple[int, ...] | None = None

    @property
    def is_draw(self) -> bool:
        return not self.winners


@runtime_checkable
class MoveLike(Protocol):
    """A move: a small immutable value whose text form round-trips through ``parse``."""

    def __str__(self) -> str: ...


M = TypeVar("M")
S = TypeVar("S", bound="GameState[Any]")


@runtime_checkable
class GameRules(Protocol):
    """What every game's ``Rules`` offers besides its own options (a frozen dataclass)."""

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players these rules can deal for."""
        ...

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` saying why if these rules cannot deal for ``players``."""
        ...


@runtime_checkable
class GameState(Protocol[M]):
    """The shape every game state has (a Pasur hand or match, a Durak game).

    Generic over the game's move type ``M``; every method below is kept by every game,
    and ``tests/test_contract.py`` checks each registered game against it.
    """

    players: int

    @property
    def rules(self) -> Any:
        """The rules in force (the game's ``Rules``)."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat that decides now; ``None`` once the game is over."""
        ...

    @property
    def move_stack(self) -> Sequence[M]:
        """Every move pushed and not popped, oldest first."""
        ...

    def legal_moves(self) -> list[M]: ...

    def push(self, move: M | str, *, seat: int | None = None) -> None:
        """Play ``move`` (a legal move object or its text); with ``seat``, only if that
        seat is to move.  Raise ``InvalidMove``, ``IllegalMove`` or ``AmbiguousMove``
        (state unchanged) if it cannot be played now."""
        ...

    def pop(self) -> M:
        """Undo the last move and return it."""
        ...

    def copy(self: S, *, stack: bool = True) -> S:
        """An independent state; ``stack=False`` drops the undo history (faster)."""
        ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as plain JSON-able data."""
        ...

    def determinize(self: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with everything ``seat`` has seen; the hidden cards
        are dealt afresh from ``rng`` (required: a search must be repeatable)."""
        ...

    def parse_move(self, text: str) -> M:
        """Read a move in text form, in the context of this state."""
        ...


Measure = tuple[tuple[int, ...] | None, int, int | None]
"""What the arena counts of a finished game: (points per seat or ``None``, hands played,
the losing seat or ``None``)."""


def _wins_only(state: Any) -> Measure:
    return None, 1, None


def _no_setup(state: Any) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class SingleHand:
    """A game that can also be played one hand at a time (the arena's ``--hands``)."""

    start: Callable[..., GameState[Any]]
    """``start(rules, players=, seed=)``: one hand, dealt as a match's first hand."""
    measure: Callable[[Any], Measure]
    deals: Callable[[Any], list[list[Any]]]
    """The hand's deck, in the form ``GameSpec.start(decks=...)`` takes (a match whose
    first hand is this one)."""


def load_path(path: str) -> Any:
    """The object a dotted path names: ``"package.module:NAME"`` or ``"package.module"``."""
    module, _, name = path.partition(":")
    target = importlib.import_module(module)
    return getattr(target, name) if name else target


@dataclass(frozen=True)
class RuleOption:
    """One option of a game's ``Rules``: its name, type, default and one-line meaning."""

    name: str
    type: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None


def rule_options(rules_type: type) -> list[RuleOption]:
    """Every option of a ``Rules`` dataclass, read from its fields' metadata."""
    out = []
    for field in dataclasses.fields(rules_type):
        default = field.default if field.default is not dataclasses.MISSING else None
        out.append(RuleOption(
            name=field.name,
            type=field.type if isinstance(field.type, str) else getattr(field.type, "__name__",
                                                                         str(field.type)),
            default=default,
            doc=field.metadata.get("doc", ""),
            choices=field.metadata.get("choices"),
        ))
    return out


def check_options(rules: Any) -> None:
    """Refuse a ``Rules`` value whose options are not of their kind, saying which: a value
    outside an option's ``choices``, a yes/no option that is not ``True`` or ``False``, a
    count that is not a whole number 0 or more (``None`` where the option allows it).

    Each game's ``Rules.__post_init__`` calls this, so every way of making rules (a
    preset, ``rules_with``, a record, the lobby's form) is checked in one place.
    """
    for option in dataclasses.fields(rules):
        value = getattr(rules, option.name)
        choices = option.metadata.get("choices")
        if choices is not None:
            if (isinstance(value, bool) and not all(isinstance(c, bool) for c in choices)) \
                    or value not in choices:
                raise ValueError(f"rule option {option.name!r} must be one of "
                                 f"{list(choices)}, not {value!r}")
            continue
        if isinstance(option.default, bool):
            if type(value) is not bool:
                raise ValueError(f"rule option {option.name!r} is true or false, "
                                 f"not {value!r}")
        elif option.type in ("int", "int | None"):
            if value is None and option.type == "int | None":
                continue
            if type(value) is not int or value < 0:
                raise ValueError(f"rule option {option.name!r} is a whole number "
                                 f"0 or more, not {value!r}")


def rules_with(base: Any, options: dict[str, Any] | None) -> Any:
    """``base`` with some options changed; an unknown option or a bad value says which
    (the values are checked by the ``Rules`` itself, with ``check_options``)."""
    if not options:
        return base
    known = {f.name for f in dataclasses.fields(base)}
    for name in options:
        if name not in known:
            raise ValueError(f"unknown rule option {name!r}; the options are: "
                             + ", ".join(sorted(known)))
    try:
        return dataclasses.replace(base, **options)
    except TypeError as error:   # a value the Rules' own checks trip over
        raise ValueError(f"these rule options cannot be used: {error}") from None


def make_rng(seed: int | random.Random | None) -> random.Random:
    """A generator from a seed, or the generator itself; ``None`` seeds from the OS."""
    if isinstance(seed, random.Random):
        return seed
    return random.Random(seed)


@dataclass(frozen=True)
class GameSpec:
    """What the outer layers need to know of a game; each game package exports one as SPEC.

    The server, the command line, the arena, records and adapters look a game up by name
    in ``cardtable.games`` and use only this, never ``if game == "pasur"``.
    """

    name: str
    title: str
    rules_type: type
    presets: Mapping[str, Any]
    default_preset: str
    player_counts: tuple[int, ...]
    default_players: int
    start: Callable[..., GameState[Any]]
    """``start(rules, *, players, seed=None, decks=None, **setup)``: the whole game a table
    plays (a Pasur match, a Durak game).  ``decks`` is what ``deals`` returned for a game,
    and with ``setup(game)`` replays its deals exactly."""
    deals: Callable[[Any], list[list[Any]]]
    """The decks actually dealt so far, in the order ``start(decks=...)`` takes them."""
    summary: Callable[[Any], dict[str, Any]]
    """A JSON-able result of a finished (or unfinished) game, for records and the page."""
    move_type: type
    setup: Callable[[Any], dict[str, Any]] = _no_setup
    """Keyword arguments of ``start`` besides the decks that a replay needs (e.g. who
    dealt a Durak game after the first); JSON-able."""

    # -- the outer layers' plug-ins: dotted paths, imported only when a layer asks ------
    kit: str | None = None
    """The bots' kit (``cardtable.bots.Kit``): ``"module:KIT"``; ``None``: only the
    bots that need no kit (random, the scripted ones) play this game."""
    screen: str | None = None
    """The terminal's drawing module for this game (``screen`` and ``final``)."""
    episode: str | None = None
    """The research adapters' episode class (``cardtable.adapters.base.Episode``)."""
    openspiel_name: str | None = None
    """The short name the game is registered under in pyspiel."""
    pettingzoo_name: str | None = None
    """The PettingZoo environment's name (``metadata["name"]``)."""
    learn: str | None = None
    """The school's plug-in (``cardtable.analysis``): the units analysis reports in, hint
    wording, lessons: ``"module:LEARN"``; ``None``: no analysis, hints or lessons."""

    # -- what the arena counts -----------------------------------------------------------
    measure: Callable[[Any], Measure] = _wins_only
    """Per finished game: points per seat, hands played, the losing seat."""
    loser: str | None = None
    """What the game calls the one seat that loses, where it has one ("durak"): the arena
    reports each bot's rate of being it, under that name."""
    single_hand: SingleHand | None = None
    """One hand at a time, for games made of hands."""

    @property
    def has_loser(self) -> bool:
        """One seat loses the game (the durak), rather than the best winning."""
        return self.loser is not None

    def plugin(self, name: str) -> Any:
        """The object one of the outer layers' plug-ins names (``"kit"``, ``"screen"``,
        ``"episode"``), imported now; a game without it says so."""
        path = getattr(self, name)
        if path is None:
            raise ValueError(f"{self.title} has no {name}")
        return load_path(path)

    def check_players(self, rules: Any, players: int) -> None:
        """Refuse a player count the game or these rules cannot deal for, saying why."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number, not {players!r}")
        if players not in self.player_counts:
            raise ValueError(f"{self.title} is for "
                             f"{', '.join(map(str, self.player_counts))} players, "
                             f"not {players}")
        rules.check_players(players)

    def rules(self, preset: str | None = None, options: dict[str, Any] | None = None) -> Any:
        """The rules of a preset with some options changed."""
        preset = preset or self.default_preset
        if preset not in self.presets:
            raise ValueError(f"{self.title} has no preset {preset!r}; the presets are: "
                             + ", ".join(self.presets))
        return rules_with(self.presets[preset], options)

    def preset_of(self, rules: Any) -> str | None:
        """The name of the preset these rules are exactly, if any."""
        for name, preset in self.presets.items():
            if preset == rules:
                return name
        return None
