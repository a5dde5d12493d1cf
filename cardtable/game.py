"""What every game offers: the shared protocol, outcomes and illegal-move errors.

Both Pasur and Transfer Durak follow one small shape, in the spirit of python-chess's
``Board``, so that bots, the arena, records, the terminal, the web table and the research
adapters are written once for both games.  This module names that shape; it holds no
rules of its own.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "GameSpec",
    "GameState",
    "IllegalMove",
    "MoveLike",
    "Outcome",
    "RuleOption",
    "make_rng",
    "rule_options",
    "rules_with",
]


class IllegalMove(ValueError):
    """A move the rules do not allow now.  The message says why; the state is unchanged."""


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


@runtime_checkable
class GameState(Protocol):
    """The shape every game state has (a Pasur hand or match, a Durak game)."""

    players: int

    @property
    def to_move(self) -> int | None:
        """The seat that decides now; ``None`` once the game is over."""

    def legal_moves(self) -> list[Any]: ...

    def push(self, move: Any) -> None:
        """Play ``move``; raise ``IllegalMove`` (state unchanged) if it is not legal now."""

    def pop(self) -> Any:
        """Undo the last move and return it."""

    def copy(self) -> GameState: ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator), as plain JSON-able data."""

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """A full state consistent with everything ``seat`` has seen."""

    def parse_move(self, text: str) -> Any:
        """Read a move in text form, in the context of this state."""


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


def rules_with(base: Any, options: dict[str, Any] | None) -> Any:
    """``base`` with some options changed; an unknown option or a bad value says which."""
    if not options:
        return base
    known = {f.name: f for f in dataclasses.fields(base)}
    for name, value in options.items():
        if name not in known:
            raise ValueError(f"unknown rule option {name!r}; the options are: "
                             + ", ".join(sorted(known)))
        current = getattr(base, name)
        choices = known[name].metadata.get("choices")
        if choices is not None and value not in choices:
            raise ValueError(f"rule option {name!r} must be one of {list(choices)}, "
                             f"not {value!r}")
        if isinstance(current, bool) and not isinstance(value, bool):
            raise ValueError(f"rule option {name!r} is true or false, not {value!r}")
        if (isinstance(current, int) and not isinstance(current, bool)
                and (isinstance(value, bool) or not isinstance(value, int))
                and value is not None):
            raise ValueError(f"rule option {name!r} is a whole number, not {value!r}")
    return dataclasses.replace(base, **options)


def make_rng(seed: int | random.Random | None) -> random.Random:
    """A generator from a seed, or the generator itself; ``None`` seeds from the OS."""
    if isinstance(seed, random.Random):
        return seed
    return random.Random(seed)


def seat_order(first: int, players: int) -> Sequence[int]:
    """Seats in turn order starting from ``first``."""
    return [(first + i) % players for i in range(players)]


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
    start: Callable[..., GameState]
    """``start(rules, *, players, seed=None, decks=None, **setup)``: the whole game a table
    plays (a Pasur match, a Durak game).  ``decks`` is what ``deals`` returned for a game,
    and with ``setup(game)`` replays its deals exactly."""
    deals: Callable[[Any], list[list[Any]]]
    """The decks actually dealt so far, in the order ``start(decks=...)`` takes them."""
    summary: Callable[[Any], dict]
    """A JSON-able result of a finished (or unfinished) game, for records and the page."""
    move_type: type
    setup: Callable[[Any], dict] = lambda state: {}
    """Keyword arguments of ``start`` besides the decks that a replay needs (e.g. who
    dealt a Durak game after the first); JSON-able."""

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
