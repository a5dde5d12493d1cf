"""A game as a JSON file: rules, seats, the decks dealt, every move; and exact replay.

The same format comes from ``cardtable play --save``, ``cardtable arena --save-games`` and
the web table, so any game can be replayed, shared and studied.  See ``docs/records.md``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import enum
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import games
from .cards import Card, CardError
from .game import GameSpec, GameState, IllegalMove, rules_with

__all__ = [
    "FORMAT",
    "VERSION",
    "Record",
    "RecordError",
    "jsonable",
    "load",
    "loads",
    "options_from_json",
    "record_of",
    "rules_from_dict",
    "rules_to_dict",
]

FORMAT = "cardtable-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed; says where (line) and why."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line else reason)


@dataclass
class Record:
    """One game: enough to deal it again and replay every move."""

    game: str
    rules: dict[str, Any]
    players: int
    decks: list[list[str]]
    moves: list[str]
    preset: str | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    setup: dict[str, Any] = field(default_factory=dict)
    started: str | None = None
    finished: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    _move_lines: list[int] = field(default_factory=list, repr=False, compare=False)

    def names(self) -> list[str]:
        """Every seat's name, ``Seat N`` (counted from 1) where the record has none.

        >>> Record("pasur", {}, 2, [], [], seats=[{"name": "Ana"}]).names()
        ['Ana', 'Seat 2']
        """
        named = [seat.get("name") if isinstance(seat, dict) else None for seat in self.seats]
        named += [None] * (self.players - len(named))
        return [name if isinstance(name, str) and name else f"Seat {i + 1}"
                for i, name in enumerate(named[:self.players])]

    # -- building -------------------------------------------------------------------------
    @property
    def spec(self) -> GameSpec:
        return games.get(self.game)

    def rules_object(self) -> Any:
        """The game's ``Rules`` for this record."""
        return rules_from_dict(self.spec, self.rules)

    def start(self) -> GameState:
        """The game as dealt, before any move."""
        decks = [[Card.parse(text) for text in deck] for deck in self.decks]
        try:
            return self.spec.start(self.rules_object(), players=self.players, decks=decks,
                                   **self.setup)
        except (TypeError, ValueError) as error:
            raise RecordError(f"the game cannot be dealt from this record: {error}") from None

    def states(self) -> Iterator[tuple[int, str | None, GameState]]:
        """(index, move text, state after it) for the start and after every move."""
        state = self.start()
        yield 0, None, state
        for index, text in enumerate(self.moves, 1):
            try:
                move = state.parse_move(text)
                state.push(move)
            except (IllegalMove, CardError, ValueError) as error:
                line = self._move_lines[index - 1] if index - 1 < len(self._move_lines) else None
                raise RecordError(f"move {index} ({text!r}) cannot be played: {error}",
                                  line) from None
            yield index, text, state

    def replay(self, *, check: bool = True) -> GameState:
        """Play every move again; with ``check``, the result must match the stored one."""
        *_, (_, _, state) = self.states()
        if check and self.result is not None:
            result = jsonable(self.spec.summary(state))
            if result != self.result:
                raise RecordError(f"the replayed result {result} differs from the "
                                  f"recorded result {self.result}")
        return state

    # -- text -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "preset": self.preset,
            "rules": self.rules,
            "players": self.players,
            "setup": self.setup,
            "seats": self.seats,
            "started": self.started,
            "finished": self.finished,
            "result": self.result,
            "decks": self.decks,
            "moves": self.moves,
        }
        data.update(self.extra)
        return data

    def dumps(self) -> str:
        """JSON with one move per line, so errors can name the line of a move."""
        data = self.to_dict()
        moves = data.pop("moves")
        decks = data.pop("decks")
        head = json.dumps(data, ensure_ascii=False, indent=1)[:-2]
        deck_lines = ",\n".join("  " + json.dumps(deck, ensure_ascii=False) for deck in decks)
        move_lines = ",\n".join("  " + json.dumps(move, ensure_ascii=False) for move in moves)
        return (f"{head},\n \"decks\": [\n{deck_lines}\n ],\n"
                f" \"moves\": [\n{move_lines}\n ]\n}}\n")

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")


def rules_to_dict(rules: Any) -> dict[str, Any]:
    """Every option of a ``Rules`` value as JSON-able data."""
    return jsonable(dataclasses.asdict(rules))


def rules_from_dict(spec: GameSpec, data: dict[str, Any]) -> Any:
    """A ``Rules`` value from its JSON form; tuples come back as tuples.

    >>> from cardtable import games
    >>> spec = games.get("durak")
    >>> rules = spec.presets[spec.default_preset]
    >>> rules_from_dict(spec, rules_to_dict(rules)) == rules
    True
    """
    base = spec.presets[spec.default_preset]
    unknown = set(data) - {f.name for f in dataclasses.fields(base)}
    if unknown:
        raise RecordError(f"unknown rule options for {spec.title}: {', '.join(sorted(unknown))}")
    try:
        return rules_with(base, options_from_json(base, data))
    except (TypeError, ValueError) as error:
        raise RecordError(f"the rules cannot be used: {error}") from None


def options_from_json(base: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Rule options as JSON gives them, in the types of ``base``: JSON has no tuples, so a
    list becomes a tuple (or frozenset) where ``base`` holds one.

    >>> from cardtable import games
    >>> base = games.get("pasur").presets["standard"]
    >>> options_from_json(base, {"player_counts": [2, 4], "target": 62})
    {'player_counts': (2, 4), 'target': 62}
    """
    out = {}
    for name, value in options.items():
        current = getattr(base, name, None)
        if isinstance(current, tuple | frozenset) and isinstance(value, list):
            value = type(current)(value)
        out[name] = value
    return out


def record_of(state: GameState, game: str, *, seats: Sequence[dict[str, Any]] = (),
              started: str | None = None, **extra: Any) -> Record:
    """The record of a game played so far (moves from its move stack)."""
    spec = games.get(game)
    rules = state.rules
    moves = [str(move) for move in _all_moves(state)]
    over = state.is_over()
    return Record(
        game=game,
        preset=spec.preset_of(rules),
        rules=rules_to_dict(rules),
        players=state.players,
        seats=list(seats),
        decks=[[card.text for card in deck] for deck in spec.deals(state)],
        setup=jsonable(spec.setup(state)),
        moves=moves,
        result=jsonable(spec.summary(state)) if over else None,
        started=started,
        finished=_now() if over else None,
        extra=dict(extra),
    )


def _all_moves(state: GameState) -> list[Any]:
    history = getattr(state, "history", None)
    if callable(history):
        return list(history())
    return list(state.move_stack)


def loads(text: str) -> Record:
    """Read a record; a wrong format, version, game or card is refused with the line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error.msg}", error.lineno) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a cardtable record (the \"format\" must be {FORMAT!r})", 1)
    if data.get("version") != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not supported "
                          f"(this cardtable reads version {VERSION})",
                          _line_of(text, '"version"'))
    for key, kind in (("game", str), ("rules", dict), ("players", int), ("decks", list),
                      ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise RecordError(f"the record needs {key!r} as {kind.__name__}",
                              _line_of(text, f'"{key}"'))
    try:
        games.get(data["game"])
    except ValueError as error:
        raise RecordError(str(error), _line_of(text, '"game"')) from None
    deck_lines = _item_lines(text, "decks")
    for number, deck in enumerate(data["decks"]):
        if not isinstance(deck, list):
            raise RecordError(f"deck {number + 1} is not a list of cards",
                              _at(deck_lines, number))
        for card in deck:
            try:
                Card.parse(card)
            except CardError as error:
                raise RecordError(f"deck {number + 1}: {error}", _at(deck_lines, number)) from None
    known = {f.name for f in dataclasses.fields(Record)}
    record = Record(
        game=data["game"],
        preset=data.get("preset"),
        rules=data["rules"],
        players=data["players"],
        seats=data.get("seats") or [],
        setup=data.get("setup") or {},
        decks=data["decks"],
        moves=[str(m) for m in data["moves"]],
        result=data.get("result"),
        started=data.get("started"),
        finished=data.get("finished"),
        extra={k: v for k, v in data.items() if k not in known | {"format", "version"}},
    )
    record._move_lines = _item_lines(text, "moves")
    return record


def load(path: str | Path) -> Record:
    """Read a record file."""
    return loads(Path(path).read_text(encoding="utf-8"))


def _at(lines: list[int], index: int) -> int | None:
    return lines[index] if index < len(lines) else None


def _line_of(text: str, key: str) -> int | None:
    at = _top_level(text).get(key.strip('"'))
    return text.count("\n", 0, at) + 1 if at is not None else None


def _top_level(text: str) -> dict[str, int]:
    """The offset of each top-level value of a JSON object, by key."""
    decoder = json.JSONDecoder()
    places: dict[str, int] = {}
    pos = text.find("{") + 1
    while 0 < pos < len(text):
        pos = _skip(text, pos, " \t\r\n,")
        if pos >= len(text) or text[pos] != '"':
            break
        key, pos = decoder.raw_decode(text, pos)
        pos = _skip(text, pos, " \t\r\n:")
        places[key] = pos
        try:
            _, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            break
    return places


def _skip(text: str, pos: int, chars: str) -> int:
    while pos < len(text) and text[pos] in chars:
        pos += 1
    return pos


def _item_lines(text: str, key: str) -> list[int]:
    """The line on which each item of the top-level array ``key`` starts."""
    at = _top_level(text).get(key)
    if at is None or text[at:at + 1] != "[":
        return []
    decoder = json.JSONDecoder()
    lines: list[int] = []
    pos = at + 1
    while True:
        pos = _skip(text, pos, " \t\r\n,")
        if pos >= len(text) or text[pos] == "]":
            return lines
        lines.append(text.count("\n", 0, pos) + 1)
        try:
            _, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return lines


def jsonable(value: Any) -> Any:
    """Plain JSON data: cards as their text, enums as their value, tuples and sets as
    lists, and anything else JSON cannot hold as its text.

    >>> from cardtable.cards import Card
    >>> jsonable({"hand": (Card.parse("10D"),), 3: frozenset()})
    {'hand': ['10♦'], '3': []}
    """
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(item) for item in value]
    if isinstance(value, Card):
        return value.text
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
