"""The page's type check stays in step with the protocol and covers every module."""

from __future__ import annotations

import pytest

from cardtable.server.core.protocol import schema
from cardtable.server.web.app import STATIC
from cardtable.server.web.pagetypes import TYPES_FILE, jsdoc


def test_the_page_checks_against_the_protocol_the_server_speaks() -> None:
    written = TYPES_FILE.read_text(encoding="utf-8")
    assert written == jsdoc(schema()), (
        "the protocol changed: run `python -m cardtable.server.web.pagetypes`")
    for name in ("WireState", "WireError", "WireClientMessage", "WireServerMessage"):
        assert f"}} {name}" in written


def test_every_module_of_the_page_is_type_checked() -> None:
    unchecked = [path.relative_to(STATIC).as_posix() for path in (STATIC / "js").rglob("*.js")
                 if not path.read_text(encoding="utf-8").startswith("// @ts-check\n")]
    assert unchecked == []


def test_a_type_shared_by_both_directions_must_agree() -> None:
    same = {"$defs": {"A": {"type": "string"}}, "oneOf": [{"$ref": "#/$defs/A"}]}
    other = {"$defs": {"A": {"type": "integer"}}, "oneOf": [{"$ref": "#/$defs/A"}]}
    assert "@typedef {string} WireA" in jsdoc({"client": same, "server": same})
    with pytest.raises(ValueError, match="WireA"):
        jsdoc({"client": same, "server": other})
