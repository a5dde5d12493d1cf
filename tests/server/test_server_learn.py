"""The school's API: lessons, puzzles and the analysis of a finished game."""

from __future__ import annotations

import json
import os
import random
import time

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create, play_together

from cardtable import analysis, records
from cardtable.analysis import lessons, puzzles
from cardtable.server.play import analyses as learn_api


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


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_a_puzzle_answer_says_why_in_the_players_language(client: TestClient, game: str) -> None:
    stored = puzzles.load(game=game)[0]
    wrong = next(m for m in stored["values"] if m != stored["answer"])
    url = f"/api/puzzles/{stored['id']}/answer"
    right = client.post(url, json={"move": stored["answer"], "lang": "en"}).json()
    assert right["right"] and right["why"] and "yours" not in right
    assert set(right["shown"]) == set(stored["values"])
    missed = client.post(url, json={"move": wrong, "lang": "fa"}).json()
    assert not missed["right"] and missed["answer"] == stored["answer"]
    assert missed["why"] != right["why"]            # the same reason, in Persian
    assert missed["yours"] and missed["yours"] != missed["why"]
    refused = client.post(url, json={"move": stored["answer"], "lang": "xx"})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_lang"


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_an_answered_puzzle_shows_the_position_after_its_answer(client: TestClient,
                                                                game: str) -> None:
    """Right or wrong, the answer comes with the table once the best move is played, as
    the puzzle's seat sees it: the answer's card gone from the hand, no other hand shown."""
    stored = puzzles.load(game=game)[0]
    shown = client.get(f"/api/puzzles/{game}?index=0").json()
    wrong = next(m for m in stored["values"] if m != stored["answer"])
    for move in (stored["answer"], wrong):
        after = client.post(f"/api/puzzles/{stored['id']}/answer",
                            json={"move": move}).json()["after"]
        assert (after["seat"], after["move"]) == (stored["seat"], stored["answer"])
        played = [word for word in stored["answer"].split() if word in shown["view"]["hand"]]
        assert played and not set(played) & set(after["view"]["hand"])
        assert len(after["view"]["hand"]) == len(shown["view"]["hand"]) - len(played)
        assert set(after["view"]) == set(shown["view"]) and "hands" not in after["view"]


def test_a_finished_game_is_analysed_in_the_background(
        make_client, monkeypatch: pytest.MonkeyPatch) -> None:
    def not_here(*args: object, **kwargs: object) -> None:
        raise AssertionError("a move was judged in the server's own process")

    client = make_client()
    client.app.state.analyses.iterations = 20
    client.app.state.analyses.hindsight = False   # the exact endgames: slow on a busy machine
    seated = create(client, game="durak", seats=["human", "bot:random"])
    refused = client.post(f"/api/tables/{seated['table']}/analysis")
    assert refused.status_code == 409 and refused.json()["code"] == "not_over"
    with connect(client, seated["table"], seated["token"]) as ws:
        play_together({seated["seat"]: Player(ws)}, [], random.Random(2))
    monkeypatch.setattr(analysis, "judge", not_here)
    started = client.post(f"/api/tables/{seated['table']}/analysis")
    assert started.status_code == 202 and started.json()["status"] in ("running", "done")
    seen = []
    for _ in range(600):
        status = client.get(f"/api/tables/{seated['table']}/analysis").json()
        if status["status"] == "done":
            break
        assert status["status"] == "running"
        seen.append((status["done"], status["total"]))
        time.sleep(0.5)
    monkeypatch.undo()
    record = client.get(f"/api/tables/{seated['table']}/record").json()
    moves = status["analysis"]["moves"]
    assert [m["move"] for m in moves] == record["moves"]
    assert status["analysis"]["unit"] == "chance of being the durak"
    # the progress counts up to the moves of the game
    assert all(done <= (total or len(moves)) for done, total in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    # judged in the bot processes' background worker (the server's judge would have
    # failed), with the same result as the whole analysis in one process, seeded alike
    workers = client.app.state.tables.runner.workers
    assert workers.background_pid() not in (None, os.getpid())
    # the server gives the judge the smallest budget that judges this game, when 20 is less
    finished = records.loads(json.dumps(record))
    used = max(20, analysis.smallest_iterations(finished.start(), finished.moves)[0])
    assert status["analysis"]["iterations"] == used
    alone = analysis.analyse_record(finished, iterations=used, seed=0,
                                    hindsight=False, nodes=learn_api.ANALYSIS_NODES)
    assert moves == [j.to_dict() for j in alone]
    # the graph's series: each seat's expected result, the other seat's turned round
    series = status["analysis"]["series"]
    assert series["0"] == [round(v, 4) for v in analysis.series("durak", alone, 0, [0, 1])]
    assert len(series["0"]) == len(series["1"]) == sum(j.expected is not None for j in alone)
    again = client.post(f"/api/tables/{seated['table']}/analysis")
    assert again.json()["status"] == "done"   # stored: not analysed twice


def test_an_analysis_move_past_its_own_limit_fails_the_analysis(
        make_client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learn_api, "ANALYSIS_MOVE_LIMIT", 0.0)   # no move can be judged
    client = make_client()
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        play_together({seated["seat"]: Player(ws)}, [], random.Random(3))
    assert client.post(f"/api/tables/{seated['table']}/analysis").status_code == 202
    for _ in range(600):
        answer = client.get(f"/api/tables/{seated['table']}/analysis")
        if answer.status_code != 200:
            break
        assert answer.json() == {"status": "running", "done": 0, "total": answer.json()["total"]}
        time.sleep(0.2)
    assert answer.status_code == 500 and answer.json()["code"] == "analysis_failed"
    workers = client.app.state.tables.runner.workers
    # each lane's job killed (past its limit, or stopped with the analysis), not waited for
    assert 1 <= workers.killed <= workers.background_count and not workers.background_pids()
    # asked again, it starts afresh
    assert client.post(f"/api/tables/{seated['table']}/analysis").json()["status"] == "running"


def test_an_analysis_past_its_budget_of_work_stops_before_the_next_move(
        make_client) -> None:
    client = make_client(analysis_seconds=7.5)
    assert client.app.state.analyses.seconds == 7.5   # the setting is the analyses' budget
    client.app.state.analyses.seconds = 0.0   # spent before the first move
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        play_together({seated["seat"]: Player(ws)}, [], random.Random(3))
    assert client.post(f"/api/tables/{seated['table']}/analysis").status_code == 202
    for _ in range(600):
        answer = client.get(f"/api/tables/{seated['table']}/analysis")
        if answer.status_code != 200:
            break
        time.sleep(0.2)
    assert answer.status_code == 500 and answer.json()["code"] == "analysis_failed"
    assert "over its 0 seconds of work" in answer.json()["detail"]
    workers = client.app.state.tables.runner.workers
    assert workers.killed == 0   # no move's job was started, so none was killed


def test_a_lesson_hint_explains_the_easy_bots_move(client: TestClient) -> None:
    step = lessons.course("durak")[1]
    given = client.get(f"/api/learn/durak/{step.key}/hint", params={"lang": "pt"}).json()
    assert given["move"] in step.goals and given["level"] == "easy"
    assert "bate" in given["text"] and 1 <= len(given["choices"]) <= 3


class _Inline:
    """Bot workers that run a background job in this process (the job's own code is what
    is tested here; the worker processes have tests of their own)."""

    async def background(self, job: object, limit: float) -> object:
        return job.run({})   # type: ignore[attr-defined]


def test_puzzles_found_in_an_analysed_game_join_the_puzzle_pages(make_client,
                                                                  tmp_path) -> None:
    shipped = puzzles.load(game="durak")
    source = shipped[0]   # its record ends at a proved position: the game "played" here
    record_text = json.dumps(source["record"])
    client = make_client(data_dir=tmp_path / "one")
    analyses = client.app.state.analyses
    before = client.get("/api/puzzles/durak").json()["count"]
    assert before == len(shipped)

    async def find() -> None:
        assert analyses.store.claim("t1", analyses.owner, 60) == "mine"  # its analysis
        await analyses._find_puzzles("t1", record_text, _Inline())

    client.portal.call(find)
    kept = analyses.store.all_puzzles()   # kept in the database, beside the analysis
    assert [p["answer"] for p in kept] == [source["answer"]]
    lower = not analysis.learn_of("durak").higher_is_better   # the chance of being the durak
    assert all(puzzles.unique(p["values"], p["margin"], higher_is_better=not lower)
               == p["answer"] for p in kept)
    # a found puzzle with an id of its own is served after the shipped ones
    kept[0]["id"] = "durak-found-1"
    analyses.store.keep_puzzles("t1", kept)
    again = make_client(data_dir=tmp_path / "one")   # a restarted server reads them
    count = again.get("/api/puzzles/durak").json()["count"]
    assert count == before + 1
    last = again.get("/api/puzzles/durak", params={"index": count - 1}).json()
    assert last["id"] == "durak-found-1" and "hands" not in last["view"]
    answered = again.post("/api/puzzles/durak-found-1/answer",
                          json={"move": source["answer"]}).json()
    assert answered["right"] and answered["why"]
