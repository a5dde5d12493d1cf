"""Every rule option of every game has a bound at the server: a whole
number its least and largest value, a choice or a yes/no the game's own values; a table
asking for more is refused with 422 and a stable code, and nothing is made."""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablekit import MACHINE_SPEED, Player, connect, create, play_out

from cardtable import games
from cardtable.game import rule_options
from cardtable.server.core.bounds import RULE_BOUNDS, RULE_MINIMUMS, Limits, rule_bound_rows
from cardtable.server.core.settings import add_flags, from_flags

ROOT = Path(__file__).resolve().parents[2]

GAMES = ("pasur", "durak")


def out_of_bounds(game: str) -> list[tuple[str, str, Any, str]]:
    """For every option of ``game``: (game, option, a value past its bound, the code that
    refuses it).  A value the game's own rules refuse is ``invalid_request``."""
    spec = games.get(game)
    cases = []
    for option in rule_options(spec.rules_type):
        name, default = option.name, option.default
        values: list[tuple[Any, str]]
        if option.choices is not None:
            values = [(99 if isinstance(option.choices[0], int) else "nonsense",
                       "invalid_request")]
        elif isinstance(default, bool):
            values = [("yes", "invalid_request")]
        elif isinstance(default, tuple):
            values = [([5], "invalid_request")]
        else:
            values = [(RULE_BOUNDS[name] + 1, "rule_option_out_of_bounds")]
            least = RULE_MINIMUMS.get(name, 0)
            values.append((least - 1, "rule_option_below_bounds" if least > 0
                           else "invalid_request"))
        for value, code in values:
            if code != "invalid_request":
                try:   # past the server's bound, but a value the game itself refuses
                    spec.rules(None, {name: value})
                except ValueError:
                    code = "invalid_request"
            cases.append((game, name, value, code))
    return cases


CASES = [case for game in GAMES for case in out_of_bounds(game)]


def test_every_whole_number_option_of_every_game_has_a_bound() -> None:
    for game in GAMES:
        for option in rule_options(games.get(game).rules_type):
            if option.type in ("int", "int | None") and option.choices is None:
                assert option.name in Limits().rule_bounds, (game, option.name)


@pytest.mark.parametrize(("game", "option", "value", "code"), CASES,
                         ids=[f"{g}-{o}-{v}" for g, o, v, _ in CASES])
def test_an_option_out_of_its_bound_is_refused_and_nothing_is_made(
        client: TestClient, game: str, option: str, value: Any, code: str) -> None:
    response = client.post("/api/tables", json={
        "game": game, "seats": ["bot:random", "bot:random"], "options": {option: value}})
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == code
    assert option in response.json()["detail"]
    if code.startswith("rule_option_"):
        assert response.json()["option"] == option
        limit = RULE_BOUNDS[option] if code.endswith("out_of_bounds") else RULE_MINIMUMS[option]
        assert response.json()["limit"] == limit
    assert client.get("/api/health").json()["tables"] == 0


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("end", ["least", "largest"])
def test_every_option_at_its_bound_is_accepted(make_client: Callable[..., TestClient],
                                               game: str, end: str) -> None:
    client = make_client(bot_delay=600)
    numbers = {o.name for o in rule_options(games.get(game).rules_type)
               if o.name in RULE_BOUNDS and o.choices is None}
    numbers.discard("opening_same_face_redeal")   # its own values: 0, 2, 3, 4
    options = {name: RULE_BOUNDS[name] if end == "largest" else RULE_MINIMUMS.get(name, 0)
               for name in numbers}
    seated = create(client, game=game, seats=["human", "bot:random"], options=options)
    rules = client.get(f"/api/tables/{seated['table']}").json()["rules"]
    assert {name: rules[name] for name in options} == options


def test_an_option_the_server_does_not_bound_keeps_its_default(
        make_client: Callable[..., TestClient]) -> None:
    bounds = dict(RULE_BOUNDS)
    del bounds["max_rounds"]
    client = make_client(bot_delay=600, **{**MACHINE_SPEED, "rule_bounds": bounds})
    refused = client.post("/api/tables", json={
        "game": "durak", "seats": ["human", "bot:random"], "options": {"max_rounds": 50}})
    assert refused.status_code == 422
    assert refused.json()["code"] == "rule_option_not_bounded"
    assert refused.json()["option"] == "max_rounds"
    assert "keeps its default (500), not 50" in refused.json()["detail"]
    create(client, game="durak", seats=["human", "bot:random"], options={"max_rounds": 500})
    durak = next(g for g in client.get("/api/games").json() if g["name"] == "durak")
    shown = {o["name"]: (o["minimum"], o["maximum"]) for o in durak["options"]}
    assert shown["max_rounds"] == (None, None) and shown["pack_size"] == (None, None)


def test_the_lobby_shows_the_least_and_largest_value_of_every_bounded_option(
        client: TestClient) -> None:
    pasur = next(g for g in client.get("/api/games").json() if g["name"] == "pasur")
    shown = {o["name"]: (o["minimum"], o["maximum"]) for o in pasur["options"]}
    assert shown["target"] == (1, 1000) and shown["max_hands"] == (1, 500)
    assert shown["ace_points"] == (0, 100) and shown["jack"] == (None, None)


def test_the_least_values_are_a_flag_and_refuse_below_them(
        make_client: Callable[..., TestClient]) -> None:
    parser = argparse.ArgumentParser()
    add_flags(parser)
    limits = from_flags(parser, parser.parse_args(["--rule-minimums",
                                                 "target=30,max_rounds=50"]))
    assert limits.rule_minimums == {"target": 30, "max_rounds": 50}
    assert limits.rule_bounds == RULE_BOUNDS
    client = make_client(**{**MACHINE_SPEED, "rule_minimums": limits.rule_minimums})
    refused = client.post("/api/tables", json={
        "game": "pasur", "seats": ["bot:random", "bot:random"], "options": {"target": 29}})
    assert refused.status_code == 422
    assert (refused.json()["code"], refused.json()["limit"]) == ("rule_option_below_bounds", 30)
    assert "'target' is at least 30 at this server, not 29" in refused.json()["detail"]


def test_the_docs_table_of_rule_bounds_is_the_servers() -> None:
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- rule bounds: begin -->\n(.*?)<!-- rule bounds: end -->", text,
                      re.DOTALL)
    assert found is not None
    rows = ["| game | option | a table made here may have |", "|---|---|---|"]
    for game in games.names():
        for option, allowed in rule_bound_rows(games.get(game).rules_type, Limits()):
            rows.append(f"| {game} | `{option}` | {allowed} |")
    assert found.group(1).strip().splitlines() == rows


# -- every game ends --------------------------------------------------------------------------

NO_POINTS = {"ace_points": 0, "jack_points": 0, "two_clubs_points": 0,
             "ten_diamonds_points": 0, "seven_diamonds_points": 0, "bonus_points": 0,
             "sur_points": 0}


@pytest.mark.parametrize(("game", "options", "drawn"), [
    ("pasur", NO_POINTS, "drawn: these rules score no points, so no hand could change the "
                         "totals"),
    ("durak", {"max_rounds": 1}, "draw: the round limit (1, the rule option max_rounds) was "
                                 "reached with no durak"),
], ids=["pasur-no-points", "durak-round-limit"])
def test_a_table_whose_rules_cannot_reach_a_winner_ends_drawn_saying_why(
        client: TestClient, game: str, options: dict, drawn: str) -> None:
    seated = create(client, game=game, seats=["human", "bot:random"], options=options)
    with connect(client, seated["table"], seated["token"]) as ws:
        final = play_out(Player(ws), random.Random(8))
    assert final["summary"]["drawn"] == drawn and final["summary"]["over"] is True
    info = client.get(f"/api/tables/{seated['table']}").json()
    assert info["status"] == "over" and info["summary"]["drawn"] == drawn
    if game == "pasur":
        assert final["summary"]["winners"] == [] and len(final["summary"]["hands"]) == 1
    else:
        assert final["summary"]["draw"] is True and final["summary"]["rounds"] == 1
