"""GET /api/tables/{id}/replay: a finished game step by step, every hand face up."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create, play_together

from cardtable import records

OPTIONS = {"pasur": {"target": 1}, "durak": {}}


def finish(client: TestClient, game: str, seed: int) -> tuple[dict, Player, Player, dict]:
    """A person (random moves) against a bot, with a watcher; every state is kept."""
    seated = create(client, game=game, options=OPTIONS[game], seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws, \
            connect(client, seated["table"]) as watching:
        player, watcher = Player(ws), Player(watching)
        final = play_together({seated["seat"]: player}, [watcher], random.Random(seed))
    return seated, player, watcher, final


def by_version(player: Player) -> dict[int, dict]:
    return {state["version"]: state for state in player.states}


def test_the_replay_is_refused_before_the_end_and_shows_no_hand(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    response = client.get(f"/api/tables/{seated['table']}/replay")
    assert response.status_code == 409
    assert "not over" in response.json()["detail"]
    assert "steps" not in response.text and "hands" not in response.text


def test_the_replay_of_an_unknown_table_is_404(client: TestClient) -> None:
    response = client.get("/api/tables/nosuchtable/replay")
    assert response.status_code == 404
    assert "nosuchtable" in response.json()["detail"]


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_the_replay_shows_the_table_as_it_was_after_every_move(client: TestClient,
                                                                game: str) -> None:
    seated, player, watcher, final = finish(client, game, seed=3)
    replay = client.get(f"/api/tables/{seated['table']}/replay").json()
    record = records.loads(client.get(f"/api/tables/{seated['table']}/record").text)
    steps = replay["steps"]

    assert replay["game"] == game and replay["players"] == 2
    assert replay["record"]["moves"] == record.moves
    assert len(steps) == len(record.moves) + 1 == final["version"] + 1
    assert [step["index"] for step in steps] == list(range(len(steps)))
    assert steps[0]["seat"] is None and steps[0]["move"] is None
    assert [step["move"] for step in steps[1:]] == record.moves

    # What the watcher and the person were sent live is what the replay shows.
    watched, played = by_version(watcher), by_version(player)
    assert len(watched) > len(steps) // 2, "the watcher missed most states"
    for version, state in watched.items():
        step = steps[version]
        assert step["view"] == state["view"], f"the view differs at step {version}"
        assert step["to_move"] == state["to_move"]
        if version:
            assert (step["seat"], step["move"]) == (state["last_move"]["seat"],
                                                  state["last_move"]["move"])
    for version, state in played.items():
        assert steps[version]["hands"][seated["seat"]] == state["view"]["hand"]

    # After the end every hand is shown, each as large as the table said it was.
    for step in steps:
        assert len(step["hands"]) == 2
        sizes = [len(hand) for hand in step["hands"]]
        assert sizes == step["view"]["hand_sizes"], f"step {step['index']}"
    assert any(sum(len(h) for h in step["hands"]) for step in steps)

    assert [step["result"] is None for step in steps] == [True] * (len(steps) - 1) + [False]
    assert steps[-1]["result"] == record.result == final["summary"]


def test_the_replay_is_sent_compressed_when_the_client_accepts_it(client: TestClient) -> None:
    seated, _, _, _ = finish(client, "durak", seed=5)
    url = f"/api/tables/{seated['table']}/replay"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    squeezed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert squeezed.headers["content-encoding"] == "gzip"
    assert int(squeezed.headers["content-length"]) < len(plain.content) // 4
    assert json.loads(squeezed.content) == plain.json()  # httpx unpacks it


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_a_resigned_game_is_replayed_to_its_resignation(client: TestClient, game: str) -> None:
    # the replay of a resigned game answered 500
    seated = create(client, game=game, seats=["human", "bot:random"])
    resigned = client.post(f"/api/tables/{seated['table']}/resign",
                           json={"token": seated["token"]})
    assert resigned.status_code == 200
    answer = client.get(f"/api/tables/{seated['table']}/replay")
    assert answer.status_code == 200, answer.text
    steps = answer.json()["steps"]
    assert steps[-1]["result"]["ended"] == "resigned"
    assert steps[-1]["result"]["resigned"] == seated["seat"]
    assert all(step["result"] is None for step in steps[:-1])
    record = records.loads(client.get(f"/api/tables/{seated['table']}/record").text)
    assert record.result is not None and record.result["ended"] == "resigned"
