"""The API's schema says what the server refuses (``web.spec``): the border's NUL on every
string, a name's, a username's and a new password's bounds, which games, presets and
player counts go together, and whole-number bounds written as whole numbers; at each
bound the server answers as the schema says (one past it refused with the rule's own
code, the bound itself taken)."""

from __future__ import annotations

import hashlib
import itertools
import re
from typing import Any

from playerkit import fresh

from cardtable import games
from cardtable.server.people.names import MAX_NAME
from cardtable.server.people.players import MAX_PASSWORD, MIN_PASSWORD
from cardtable.server.web.spec import NO_NUL

GOOD = "tulip velvet harbour 71"


def strings(node: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every string schema under ``node``, with where it is."""
    found = []
    if isinstance(node, dict):
        if node.get("type") == "string":
            found.append((where, node))
        for key, value in node.items():
            if key not in ("examples", "example", "default"):
                found += strings(value, f"{where}/{key}")
    elif isinstance(node, list):
        for number, item in enumerate(node):
            found += strings(item, f"{where}/{number}")
    return found


def test_every_string_the_api_takes_refuses_a_nul_as_the_border_does(
        make_client: Any) -> None:
    client = make_client()
    spec = client.get("/openapi.json").json()
    found = strings(spec)
    assert len(found) > 100
    for where, schema in found:
        pattern = schema.get("pattern")
        assert "enum" in schema or "const" in schema or pattern is not None, where
        if pattern is not None:
            assert not re.search(pattern, "a\x00b"), where
    assert spec["components"]["schemas"]["ReadUpTo"]["properties"]["upto"]["anyOf"][0][
        "maximum"] == 2**62   # not 4.611686018427388e+18
    assert "4.611686018427388e+18" not in client.get("/openapi.json").text
    options = spec["components"]["schemas"]["CreateTable"]["properties"]["options"]
    assert options["propertyNames"] == {"pattern": NO_NUL}
    refused = client.post("/api/tables", json={"game": "durak", "options": {"a\x00": 1}})
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid_text")


def test_a_new_accounts_bounds_are_the_schemas_and_the_server_keeps_them(
        make_client: Any) -> None:
    client = make_client()
    new = client.get("/openapi.json").json()["components"]["schemas"]["NewAccount"]
    username, password = new["properties"]["username"], new["properties"]["password"]
    assert (username["minLength"], username["maxLength"]) == (3, 20)
    assert (password["minLength"], password["maxLength"]) == (MIN_PASSWORD, MAX_PASSWORD)
    assert new["additionalProperties"] is False

    hosts = (f"10.1.0.{n}" for n in itertools.count(1))

    def register(name: str, secret: str) -> tuple[int, str | None]:
        answer = fresh(client, next(hosts)).post(
            "/api/account/register", json={"username": name, "password": secret})
        return answer.status_code, answer.json().get("code")

    assert register("ab", GOOD) == (422, "invalid_username")
    assert register("a" * 21, GOOD) == (422, "invalid_username")
    assert not re.fullmatch(username["pattern"], "ab-c")
    assert register("ab-c", GOOD) == (422, "invalid_username")
    short = "Kq7#vB2"
    assert len(short) == MIN_PASSWORD - 1 and register("quince_tree", short)[1] == "weak_password"
    long = "".join(hashlib.sha256(bytes([n])).hexdigest() for n in range(5))[:MAX_PASSWORD + 1]
    assert register("quince_tree", long) == (422, "invalid_password")
    assert register("quince_tree", long[:MAX_PASSWORD])[0] == 201
    assert register("abc", GOOD)[0] == 201


def test_a_names_bounds_are_the_schemas_and_the_server_keeps_them(make_client: Any) -> None:
    client = make_client(tables_per_address="")
    spec = client.get("/openapi.json").json()["components"]["schemas"]
    name = spec["JoinTable"]["properties"]["name"]["anyOf"][0]
    assert (name["minLength"], name["maxLength"], name["format"]) == (1, MAX_NAME,
                                                                      "cardtable-name")
    for text in ("", "   ", "a\tb", "x" * (MAX_NAME + 1), " " * MAX_NAME + "Zoe"):
        assert not re.fullmatch(name["pattern"], text) or len(text) > MAX_NAME, text
        answer = client.post("/api/tables", json={"game": "durak", "seats": [
            "human", "bot:random"], "name": text})
        assert answer.status_code == 422, (text, answer.text)
    made = client.post("/api/tables", json={"game": "durak", "seats": ["human", "bot:random"],
                                            "name": "Z" * MAX_NAME})
    assert made.status_code == 201, made.text


def test_the_games_presets_and_player_counts_the_schema_allows_are_those_dealt(
        make_client: Any) -> None:
    client = make_client(tables_per_address="")
    branches = client.get("/openapi.json").json()["components"]["schemas"][
        "QuickPlayRequest"]["anyOf"]
    allowed = {(b["properties"]["game"]["const"], preset, count)
               for b in branches for preset in b["properties"]["preset"]["enum"]
               for count in b["properties"]["players"]["enum"] if count is not None}
    assert ("durak", "transfer", 6) in allowed and ("durak", None, 7) not in allowed
    for game in games.names():
        spec = games.get(game)
        for preset in spec.presets:
            for players in range(1, 8):
                made = client.post("/api/tables", json={
                    "game": game, "preset": preset, "players": players,
                    "seats": ["human"] + ["bot:random"] * (players - 1)})
                assert (made.status_code == 201) == ((game, preset, players) in allowed), (
                    game, preset, players, made.text)
