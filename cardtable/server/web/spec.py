"""The API's OpenAPI document made to say what the server enforces beyond each model.

FastAPI writes each endpoint's schema from its models; two rules hold for every request
whatever its model says, and the document states them here, once, for every operation:

- **No NUL and no lone surrogate in any text** (``core.border`` refuses either anywhere in
  a request with 422 ``invalid_text``): every string that has no pattern of its own gets
  ``NO_NUL`` (a string with a pattern of its own or an ``enum`` is left as it is), and an object
  that takes keys of the client's choosing (a table's rule ``options``) or fields its model
  ignores says its keys follow it too and its values are JSON without NUL (``JSON``).
- **A bound is the number it is**: FastAPI's own models keep ``minimum`` and ``maximum``
  as floats, so ``2**62`` came out as ``4.611686018427388e+18``, and a client that reads
  it as a float takes 4611686018427387999 for within it; a whole-number bound of an
  integer is written as an integer.

>>> doc = {"components": {"schemas": {"A": {"type": "object", "properties": {
...     "name": {"type": "string", "maxLength": 5}, "n": {"type": "integer", "maximum": 4.0},
...     "kind": {"type": "string", "enum": ["x"]},
...     "options": {"type": "object", "additionalProperties": True}}}}}}
>>> props = state_rules(doc)["components"]["schemas"]["A"]["properties"]
>>> props["name"]["pattern"] == NO_NUL, props["n"]["maximum"], "pattern" in props["kind"]
(True, 4, False)
>>> props["options"]["additionalProperties"], props["options"]["propertyNames"] == {
...     "pattern": NO_NUL}
({'$ref': '#/components/schemas/TextWithoutNul'}, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, cast

from fastapi import FastAPI
from pydantic import Field, JsonValue
from pydantic.config import JsonDict

from ... import bots, games
from ...game import RuleOption, rule_options
from ..core.bounds import Limits, OutOfBounds, check_rules
from ..people.names import MAX_NAME
from ..people.players import MAX_PASSWORD, MIN_PASSWORD
from ..play.seating import plan_table

__all__ = ["JSON", "NAME_PATTERN", "NO_NUL", "Name", "NewPassword", "Username", "install",
           "seating", "state_rules"]

NO_NUL = "^[^\\u0000]*$"
"""A string without a NUL (a JSON Schema pattern, read alike by ECMA-262's, Python's and
Rust's regular expressions).  A lone surrogate is refused too, but no pattern can say so:
JSON Schema's validators read a pattern's ``\\ud800`` as a character they cannot hold."""

JSON = "TextWithoutNul"
"""The component of any JSON value whose strings and keys hold no NUL."""

JSON_SCHEMA: dict[str, object] = {
    "description": "any JSON value whose strings and keys hold no NUL character",
    "anyOf": [{"type": "string", "pattern": NO_NUL}, {"type": "number"},
              {"type": "boolean"}, {"type": "null"},
              {"type": "array", "items": {"$ref": f"#/components/schemas/{JSON}"}},
              {"type": "object", "propertyNames": {"pattern": NO_NUL},
               "additionalProperties": {"$ref": f"#/components/schemas/{JSON}"}}]}

_CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029"
NAME_PATTERN = f"^[^{_CONTROLS}]*[^\\s{_CONTROLS}][^{_CONTROLS}]*$"
"""A name's characters as a pattern can say them: no control character or line separator,
and one that is not a space (``people.names`` holds the rest: see ``Name``)."""

Name = Annotated[str, Field(
    json_schema_extra={"minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN,
                       "format": "cardtable-name"},
    description=f"a name shown to others, at most {MAX_NAME} characters: no control or "
                "format character (a zero-width joiner only between two characters that "
                "it joins), something that shows, at most 3 combining marks on a "
                "character, each word in one alphabet (Latin with Han, kana or Hangul "
                "allowed), no reserved or listed word, and not confusable with another "
                "player's name or a username (docs/players.md)")]
"""A name shown to others, as the schema states it.  ``people.names.shown_name`` is the
whole rule, and refuses with its own codes (``invalid_name``, ``name_control`` ...), so the
bounds are the schema's words, not pydantic's checks; its format ``cardtable-name`` names
the part no pattern can say."""

Username = Annotated[str, Field(
    json_schema_extra={"minLength": 3, "maxLength": 20, "pattern": "^[A-Za-z0-9_]{3,20}$",
                       "format": "cardtable-username"},
    description="3 to 20 letters (a-z), digits or _, unique without regard to case, not "
                "a reserved word (admin, moderator, system ...) nor confusable with "
                "another account's username (docs/players.md)")]
"""A new account's username (``people.players.check_username``, ``invalid_username``)."""

NewPassword = Annotated[str, Field(
    json_schema_extra={"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD,
                       "pattern": NO_NUL, "format": "password"},
    description=f"{MIN_PASSWORD} to {MAX_PASSWORD} characters, not on the lists of "
                "breached passwords, not a short pattern of keys or a word with digits, "
                "and not holding the username (docs/players.md)")]
"""A password an account may take (``people.players.check_password``: ``weak_password``,
``invalid_password``, ``password_common``)."""


@functools.cache
def seat_kinds() -> list[str]:
    """What a seat may be: ``human`` or a bot the server offers as shipped and can make
    (``bot:NAME``; an operator's ``bots`` setting offers others)."""
    made = []
    for name in (name for name in bots.specs() if name in DEFAULT_LIMITS.bots):
        try:
            bots.make(name, seed=0)
        except (ValueError, TypeError, ImportError):
            continue   # a bot that needs what the request cannot give (an agent's entry)
        made.append(f"bot:{name}")
    return ["human", *made]


@functools.cache
def player_counts() -> list[tuple[str, list[str | None], list[int]]]:
    """Each game's presets with the player counts they deal for (the default preset also
    as none or an empty name): ``(game, presets, counts)``."""
    found = []
    for game in games.names():
        spec = games.get(game)
        for preset in spec.presets:
            counts = []
            for players in spec.player_counts:
                try:
                    spec.check_players(spec.rules(preset), players)
                except ValueError:
                    continue
                counts.append(players)
            names: list[str | None] = [preset]
            if preset == spec.default_preset:
                names += [None, ""]
            found.append((game, names, counts))
    return found


DEFAULT_LIMITS = Limits.model_validate({})
"""The server's limits as shipped: the schema's bounds of rule options are these (an
operator's own ``rule_bounds`` narrow or widen what a table made there may have)."""


def _values(option: RuleOption, least: int, bound: int | None) -> list[object]:
    """The values of a rule option worth trying: every choice, both yes/no, a
    whole-number option's least, default and largest (at most 64 of them: each)."""
    if option.choices is not None:
        return list(option.choices)
    if isinstance(option.default, bool):
        return [False, True]
    if isinstance(option.default, int) or "int" in option.type:
        if bound is None:
            found: list[object] = [option.default]
        elif bound - least <= 64:
            found = list(range(least, bound + 1))
        else:
            found = [least, bound]
        return found + ([None] if "None" in option.type else [])
    return []   # a list or a word without choices: not offered through the schema


def _accepted(game: str, preset: str, players: int, name: str, value: object) -> bool:
    try:
        plan = plan_table(game, preset, {name: value}, players, ["human"] * players)
        check_rules(plan.rules, DEFAULT_LIMITS)
    except (ValueError, TypeError, OutOfBounds):
        return False
    return True


@functools.cache
def option_schemas(game: str, preset: str, players: int) -> dict[str, dict[str, object]]:
    """Each rule option a table of ``game``, ``preset`` and ``players`` may change, with
    the values it may take there alone (within the server's default bounds), as JSON
    Schema properties.  Two options may still refuse each other: the game says why."""
    spec, limits = games.get(game), DEFAULT_LIMITS
    found: dict[str, dict[str, object]] = {}
    for option in rule_options(spec.rules_type):
        least = limits.rule_minimums.get(option.name, 0)
        bound = limits.rule_bounds.get(option.name)
        values = [value for value in _values(option, least, bound)
                  if _accepted(game, preset, players, option.name, value)]
        if not values:
            continue
        wide = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        if bound is not None and bound - least > 64 and wide == [least, bound]:
            whole: dict[str, object] = {"type": "integer", "minimum": least, "maximum": bound}
            found[option.name] = ({"anyOf": [whole, {"type": "null"}]} if None in values
                                  else whole)
        else:
            found[option.name] = {"enum": values}
        found[option.name]["description"] = option.doc
    return found


def seating(seats: bool, examples: list[dict[str, object]]) -> Callable[[JsonDict], None]:
    """A model's ``json_schema_extra`` stating which games, presets and player counts go
    together (and, with ``seats``, that a table's seats are as many as its players, each
    ``human`` or a bot the server has, as its ``takeover``): the request is one of these
    branches; ``examples`` go beside them.  Rule ``options`` may narrow the counts further
    (the game says why)."""
    def extra(schema: JsonDict) -> None:
        branches: list[object] = []
        for game, presets, counts in player_counts():
            for count in counts:
                shape: dict[str, object] = {
                    "game": {"const": game}, "preset": {"enum": presets},
                    "players": {"enum": [count, None]},
                    "options": {"type": "object", "additionalProperties": False,
                                "properties": option_schemas(game, str(presets[0]), count)}}
                if seats:
                    shape["seats"] = {"anyOf": [{"type": "null"}, {
                        "type": "array", "minItems": count, "maxItems": count,
                        "items": {"enum": seat_kinds()}}]}
                    shape["takeover"] = {"enum": [*seat_kinds()[1:], None]}
                branches.append({"properties": shape})
        # JSON by construction (dicts, lists, strings and numbers): pydantic's type for it
        # is a recursive alias that the literals above do not spell out
        schema["anyOf"] = cast("JsonValue", branches)
        schema["examples"] = cast("JsonValue", examples)
    return extra


def _whole(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _state(node: object) -> None:
    if isinstance(node, list):
        for item in node:
            _state(item)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if kind == "string" and not {"pattern", "enum", "const"} & node.keys():
        node["pattern"] = NO_NUL
    if kind == "integer":
        for bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if bound in node:
                node[bound] = _whole(node[bound])
    if kind == "object" and (node.get("additionalProperties") in (True, {}) or (
            "properties" in node and "additionalProperties" not in node)):
        # keys of the client's choosing (rule options), or fields the model ignores
        node["propertyNames"] = {"pattern": NO_NUL}
        node["additionalProperties"] = {"$ref": f"#/components/schemas/{JSON}"}
    for key, value in node.items():
        if key not in ("examples", "example", "default", "const", "enum"):
            _state(value)


def state_rules(document: dict[str, object]) -> dict[str, object]:
    """``document`` (an OpenAPI document) with the rules above stated, in place."""
    _state(document.get("paths", {}))
    _state(document.get("components", {}))
    components = document.setdefault("components", {})
    if isinstance(components, dict):
        schemas = components.setdefault("schemas", {})
        if isinstance(schemas, dict):
            schemas[JSON] = JSON_SCHEMA
    return document


def install(app: FastAPI) -> None:
    """Make ``app``'s ``/openapi.json`` (and ``app.openapi()``) state the rules."""
    plain: Callable[[], dict[str, object]] = app.openapi

    def openapi() -> dict[str, object]:
        if app.openapi_schema is None:
            app.openapi_schema = state_rules(plain())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
