"""My games: ``GET /api/history?mine=true`` lists the finished games of the
player asking, paged, beside every game on the server; each test on SQLite and on
PostgreSQL."""

from __future__ import annotations

from fastapi.testclient import TestClient
from playerkit import app_client, fresh

__all__ = ["app_client"]   # the fixture


def resigned_game(browser: TestClient) -> str:
    """A game against a bot, ended at once by resigning: its table's id."""
    made = browser.post("/api/tables", json={"game": "durak",
                                             "seats": ["human", "bot:random"]}).json()
    assert browser.post(f"/api/tables/{made['table']}/resign",
                        json={"token": made["token"]}).status_code == 200
    return str(made["table"])


def ids(answer: object) -> list[str]:
    assert isinstance(answer, list)
    return [entry["id"] for entry in answer]


def test_my_games_are_the_players_own_latest_first_and_paged(app_client: TestClient) -> None:
    darya, anna = fresh(app_client), fresh(app_client)
    for browser in (darya, anna):
        browser.get("/api/me")
    mine = [resigned_game(darya) for _ in range(3)]
    theirs = resigned_game(anna)

    everyone = ids(darya.get("/api/history").json())
    assert set(everyone) == {*mine, theirs}
    assert ids(darya.get("/api/history?mine=true").json()) == mine[::-1]
    assert ids(darya.get("/api/history?mine=true&limit=2").json()) == mine[:0:-1]
    assert ids(darya.get("/api/history?mine=true&limit=2&offset=2").json()) == mine[:1]
    assert ids(anna.get("/api/history?mine=true").json()) == [theirs]
    entry = darya.get("/api/history?mine=true&limit=1").json()[0]
    assert entry["seats"][0]["kind"] == "human" and entry["summary"]["ended"] == "resigned"
    # nobody asking: nobody's games (and no guest made for it)
    stranger = fresh(app_client)
    assert stranger.get("/api/history?mine=true").json() == []
    assert "cardtable_session" not in stranger.cookies
    assert darya.get("/api/history?mine=maybe").status_code == 422
