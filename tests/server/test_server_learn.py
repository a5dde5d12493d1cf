"""The school's API: lessons, puzzles and the analysis of a finished game."""

from __future__ import annotations

import random
import time

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create, play_together

from cardtable.analysis import lessons, puzzles


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_course_and_its_steps_in_a_language(client: TestClient, lang: str) -> None:
    course = client.get("/api/learn/durak", params={"lang": lang}).json()
    steps = lessons.course("durak")
    assert [s["key"] for s in course["steps"]] == [s.key for s in steps]
    assert course["steps"][0]["text"] == steps[0].text[lang]
    step = client.get(f"/api/learn/durak/{steps[1].key}", params={"lang": lang}).json()
    assert step["seat"] == 1 and steps[1].goals[0] in step["legal_moves"]
    assert step["view"]["seat"] == 1 and "hands" not in step["view"]


def test_checking_a_lesson_move(client: TestClient) -> None:
    step = lessons.course("pasur")[0]
    right = client.post(f"/api/learn/pasur/{step.key}/check",
                        json={"move": step.goals[0]}).json()
    assert (right["right"], right["reason"], right["done"]) == (True, "Right.", False)
    # the learner's view once the move is played: the 4♣ taken, nobody else's hand
    after = right["after"]
    assert after["seat"] == 0 and after["move"] == step.goals[0]
    assert "4♣" not in after["view"]["table"] and "hands" not in after["view"]
    assert after["view"]["hand"] == ["K♠"]
    wrong = client.post(f"/api/learn/pasur/{step.key}/check",
                        json={"move": "K♠", "lang": "ru"}).json()
    assert not wrong["right"] and wrong["reason"].startswith("Так можно")
    assert "after" not in wrong


@pytest.mark.parametrize(("method", "url", "body", "status", "code"), [
    ("get", "/api/learn/chess", None, 404, "no_game"),
    ("get", "/api/learn/durak/nosuchstep", None, 404, "no_step"),
    ("get", "/api/learn/durak?lang=xx", None, 422, "bad_lang"),
    ("post", "/api/learn/durak/attack/check", {"move": "x" * 200}, 422, "invalid_request"),
    ("post", "/api/learn/durak/attack/check", {"move": "pass", "lang": "zz"}, 422, "bad_lang"),
    ("get", "/api/puzzles/chess", None, 404, "no_game"),
    ("post", "/api/puzzles/nosuch/answer", {"move": "pass"}, 404, "no_puzzle"),
    ("get", "/api/tables/nosuch/analysis", None, 404, "no_analysis"),
    ("get", "/api/tables/..a.b/analysis", None, 404, "not_found"),
    ("post", "/api/tables/nosuch/analysis", None, 404, "not_found"),
])
def test_bad_requests_are_refused_with_a_code(client: TestClient, method: str, url: str,
                                              body: dict | None, status: int,
                                              code: str) -> None:
    response = getattr(client, method)(url, **({"json": body} if body is not None else {}))
    assert response.status_code == status, response.text
    assert response.json()["code"] == code and response.json()["detail"]


def test_a_puzzle_hides_its_answer_until_answered(client: TestClient) -> None:
    shown = client.get("/api/puzzles/durak").json()
    stored = next(p for p in puzzles.load(game="durak") if p["id"] == shown["id"])
    assert "answer" not in shown and stored["answer"] in shown["legal_moves"]
    assert "hands" not in shown["view"]
    answered = client.post(f"/api/puzzles/{shown['id']}/answer",
                           json={"move": stored["answer"]}).json()
    assert answered["right"] and answered["answer"] == stored["answer"]
    bad = client.post(f"/api/puzzles/{shown['id']}/answer", json={"move": "nonsense"})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_move"


def test_a_finished_game_is_analysed_in_the_background(make_client) -> None:
    client = make_client()
    client.app.state.analyses.iterations = 20
    client.app.state.analyses.hindsight = False   # the exact endgames: slow on a busy machine
    seated = create(client, game="durak", seats=["human", "bot:random"])
    refused = client.post(f"/api/tables/{seated['table']}/analysis")
    assert refused.status_code == 409 and refused.json()["code"] == "not_over"
    with connect(client, seated["table"], seated["token"]) as ws:
        play_together({seated["seat"]: Player(ws)}, [], random.Random(2))
    started = client.post(f"/api/tables/{seated['table']}/analysis")
    assert started.status_code == 202 and started.json()["status"] in ("running", "done")
    for _ in range(600):
        status = client.get(f"/api/tables/{seated['table']}/analysis").json()
        if status["status"] == "done":
            break
        assert status["status"] == "running"
        time.sleep(0.5)
    record = client.get(f"/api/tables/{seated['table']}/record").json()
    moves = status["analysis"]["moves"]
    assert [m["move"] for m in moves] == record["moves"]
    assert status["analysis"]["unit"] == "chance of being the durak"
    again = client.post(f"/api/tables/{seated['table']}/analysis")
    assert again.json()["status"] == "done"   # stored: not analysed twice


def test_a_lesson_hint_explains_the_easy_bots_move(client: TestClient) -> None:
    step = lessons.course("durak")[1]
    given = client.get(f"/api/learn/durak/{step.key}/hint", params={"lang": "pt"}).json()
    assert given["move"] in step.goals and given["level"] == "easy"
    assert "bate" in given["text"] and 1 <= len(given["choices"]) <= 3
