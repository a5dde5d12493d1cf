"""The table socket's messages as JSDoc types, for the page's type check.

``/api/protocol.json`` describes every message both ways as JSON Schema (``protocol``).
:func:`jsdoc` writes the same as ``@typedef`` comments in a plain script, which the page's
modules name in their own JSDoc (``@param {WireState} message``) and ``tsc --noEmit``
(``tools/page``) checks them against.  The file is kept in the repository, in step with the
protocol by a test; ``python -m cardtable.server.web.pagetypes`` writes it again.

Every type is named ``Wire`` and the schema's name (``WireState``, ``WireError``), so
none hides one of the browser's own (``Error``).

>>> print(jsdoc({"client": {"$defs": {}, "oneOf": [{"$ref": "#/$defs/Ping"}]},
...              "server": {"$defs": {"Ping": {"properties": {
...                  "type": {"const": "ping"}, "n": {"type": "integer", "description": "a"}},
...                  "required": ["type"], "title": "Ping", "type": "object"}}}})
... .split("\\n\\n", 1)[1])
/** @typedef {WirePing} WireClientMessage */
<BLANKLINE>
/** @typedef {never} WireServerMessage */
<BLANKLINE>
/**
 * @typedef {object} WirePing
 * @property {"ping"} type
 * @property {number} [n] a
 */
<BLANKLINE>
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["TYPES_FILE", "jsdoc", "main"]

TYPES_FILE = Path(__file__).resolve().parents[3] / "tools" / "page" / "protocol.js"
"""Where the page's type check finds the protocol's types."""

HEAD = ("// The table socket's messages (GET /api/protocol.json) as JSDoc types, for tsc.\n"
        "// Written by `python -m cardtable.server.web.pagetypes`; do not edit.")


def _name(ref: str) -> str:
    return "Wire" + ref.rsplit("/", 1)[-1]


Schema = Mapping[str, object]
"""A JSON Schema object, as ``/api/protocol.json`` gives it."""


def _schema(value: object) -> Schema:
    """``value`` as a schema (a JSON object; anything else: the empty schema)."""
    return value if isinstance(value, dict) else {}


def _items(value: object) -> list[object]:
    """``value`` as a list (anything else: an empty one)."""
    return value if isinstance(value, list) else []


def _type(schema: Schema) -> str:
    """One JSON Schema as a TypeScript type (as JSDoc reads it)."""
    if "$ref" in schema:
        return _name(str(schema["$ref"]))
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in _items(schema["enum"]))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " | ".join(dict.fromkeys(_type(_schema(part))
                                            for part in _items(schema[key])))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(_type({**schema, "type": one}) for one in kind)
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "null":
        return "null"
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(_type(_schema(item))
                                   for item in _items(schema["prefixItems"])) + "]"
        items = _type(_schema(schema.get("items")))
        return f"Array<{items}>"
    if kind == "object":
        extra = schema.get("additionalProperties")
        if "properties" not in schema:
            inner = _type(extra) if isinstance(extra, dict) else "any"
            return f"Object<string, {inner}>"
        required = _items(schema.get("required"))
        fields = "; ".join(f"{name}{'' if name in required else '?'}: {_type(_schema(part))}"
                           for name, part in _schema(schema["properties"]).items())
        return "{ " + fields + " }"
    return "any"


def _typedef(name: str, schema: Schema) -> str:
    if schema.get("type") != "object" or "properties" not in schema:
        return f"/** @typedef {{{_type(schema)}}} {_name(name)} */\n"
    lines = ["/**", f" * @typedef {{object}} {_name(name)}"]
    required = _items(schema.get("required"))
    for field, value in _schema(schema["properties"]).items():
        part = _schema(value)
        about = " ".join(str(part.get("description", "")).split())
        shown = field if field in required else f"[{field}]"
        lines.append(f" * @property {{{_type(part)}}} {shown}" + (f" {about}" if about else ""))
    lines.append(" */")
    return "\n".join(lines) + "\n"


def jsdoc(protocol: Schema) -> str:
    """The protocol (both unions, as ``/api/protocol.json`` gives them) as JSDoc types."""
    parts = [HEAD + "\n"]
    defs: dict[str, Schema] = {}
    for side in ("client", "server"):
        union = _schema(protocol[side])
        for name, value in _schema(union.get("$defs")).items():
            part = _schema(value)
            if defs.get(name, part) != part:
                raise ValueError(f"{_name(name)} means two things, one each way")
            defs[name] = part
        members = _items(union.get("oneOf") or union.get("anyOf"))
        joined = " | ".join(_type(_schema(member)) for member in members) or "never"
        parts.append(f"/** @typedef {{{joined}}} Wire{side.title()}Message */\n")
    parts.extend(_typedef(name, defs[name]) for name in sorted(defs))
    return "\n".join(parts)


def main() -> None:
    """Write the types file (or print it with ``-``)."""
    from ..core.protocol import schema

    text = jsdoc(schema())
    if sys.argv[1:] == ["-"]:
        sys.stdout.write(text)
    else:
        TYPES_FILE.write_text(text, encoding="utf-8")
        print(f"wrote {TYPES_FILE}")


if __name__ == "__main__":
    main()
