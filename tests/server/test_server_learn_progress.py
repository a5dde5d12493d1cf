"""The school's progress, kept for the player (guest or account) in the database: each
test on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from playerkit import app_client, fresh, login, register

from cardtable.analysis import lessons

__all__ = ["app_client"]   # the fixture

PASUR = lessons.course("pasur")
DURAK = lessons.course("durak")


def solve(client: TestClient, game: str, step: lessons.Step) -> dict:
    answer = client.post(f"/api/learn/{game}/{step.key}/check", json={"move": step.goals[0]})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_guest_s_right_moves_are_kept_and_wrong_ones_are_not(app_client: TestClient) -> None:
    me = app_client.get("/api/me").json()
    assert app_client.get("/api/learn/progress").json() == {"player": me["id"], "games": {}}
    wrong = app_client.post(f"/api/learn/pasur/{PASUR[0].key}/check", json={"move": "K♠"})
    assert wrong.json()["right"] is False and wrong.json()["done"] is False
    answer = solve(app_client, "pasur", PASUR[1])
    assert (answer["right"], answer["reason"], answer["done"]) == (True, "Right.", True)
    solve(app_client, "pasur", PASUR[0])
    solve(app_client, "pasur", PASUR[1])   # again: kept once
    solve(app_client, "durak", DURAK[2])
    done = app_client.get("/api/learn/progress").json()["games"]
    # in the course's order, whatever the order they were done in
    assert done == {"pasur": [PASUR[0].key, PASUR[1].key], "durak": [DURAK[2].key]}
    one_game = app_client.get("/api/learn/progress", params={"game": "durak"}).json()
    assert one_game["games"] == {"durak": [DURAK[2].key]}


def test_without_a_player_a_move_is_judged_but_nothing_is_kept(
        app_client: TestClient) -> None:
    nobody = fresh(app_client)
    assert solve(nobody, "durak", DURAK[0])["done"] is False
    assert nobody.get("/api/learn/progress").json() == {"player": None, "games": {}}
    assert "set-cookie" not in nobody.get("/api/learn/progress").headers


def test_a_guest_who_registers_keeps_their_progress_and_finds_it_on_another_device(
        app_client: TestClient) -> None:
    guest = app_client.get("/api/me").json()
    solve(app_client, "durak", DURAK[0])
    assert register(app_client, "Darya").status_code == 201
    solve(app_client, "durak", DURAK[1])
    account = app_client.get("/api/learn/progress").json()
    assert account == {"player": guest["id"],
                       "games": {"durak": [DURAK[0].key, DURAK[1].key]}}
    elsewhere = fresh(app_client)
    assert login(elsewhere, "darya").status_code == 200
    assert elsewhere.get("/api/learn/progress").json() == account


def test_another_player_s_progress_is_not_seen(app_client: TestClient) -> None:
    app_client.get("/api/me")
    solve(app_client, "pasur", PASUR[0])
    other = fresh(app_client)
    other_id = other.get("/api/me").json()["id"]
    assert other.get("/api/learn/progress").json() == {"player": other_id, "games": {}}
    solve(other, "pasur", PASUR[2])
    assert app_client.get("/api/learn/progress").json()["games"] == {"pasur": [PASUR[0].key]}
    # the progress has no player parameter: it is always the asking player's own
    named = app_client.get("/api/learn/progress", params={"player": other_id}).json()
    assert named["games"] == {"pasur": [PASUR[0].key]}


@pytest.mark.parametrize(("method", "url", "body", "status", "code"), [
    ("get", "/api/learn/progress?game=chess", None, 404, "no_game"),
    ("get", f"/api/learn/progress?game={'x' * 40}", None, 422, "invalid_request"),
    ("post", "/api/learn/chess/eleven/check", {"move": "7♦ x 4♣"}, 404, "no_game"),
    ("post", "/api/learn/pasur/nosuchstep/check", {"move": "7♦ x 4♣"}, 404, "no_step"),
    ("post", "/api/learn/pasur/eleven/check", {"move": "7♦ x 4♣", "lang": "xx"}, 422,
     "bad_lang"),
])
def test_a_bad_game_or_step_is_refused_with_a_code_and_nothing_is_kept(
        app_client: TestClient, method: str, url: str, body: dict | None, status: int,
        code: str) -> None:
    app_client.get("/api/me")
    answer = getattr(app_client, method)(url, **({"json": body} if body else {}))
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code and answer.json()["detail"]
    assert app_client.get("/api/learn/progress").json()["games"] == {}
