"""No byte stops the site: a NUL character anywhere in a request is
refused at the border with 422 ``invalid_text`` and changes nothing, on SQLite and on
PostgreSQL (which cannot store one); a body too large to be anyone's is refused with 413;
and one quick-play group that cannot be seated does not stop the others being matched."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tablekit import Player, connect, create

from cardtable.server.core.border import MAX_BODY

# (method, path, JSON body): each held a NUL and answered a plain-text 500 on PostgreSQL
NUL_REQUESTS: list[tuple[str, str, Any]] = [
    ("POST", "/api/account/login", {"username": "a\u0000b", "password": "x" * 12}),
    ("POST", "/api/account/register", {"username": "eve\u0000", "password": "long enough pw"}),
    ("GET", "/api/players/a%00b", None),
    ("GET", "/api/tables/a%00b", None),
    ("GET", "/api/tables?game=a%00", None),
    ("GET", "/api/history?game=a%00", None),
    ("GET", "/api/leaderboard?pool=a%00", None),
    ("POST", "/api/tables", {"game": "durak", "seats": ["human", "bot"], "name": "a\u0000"}),
    ("POST", "/api/quick-play", {"game": "durak", "players": 2, "name": "n\u0000"}),
    ("POST", "/api/tables", {"game": "durak", "options": {"a\u0000": 1}}),
]


@pytest.fixture(params=["sqlite", "postgresql"])
def any_client(request: pytest.FixtureRequest,
               make_client: Callable[..., TestClient]) -> TestClient:
    if request.param == "sqlite":
        return make_client()
    return make_client(database_url=request.getfixturevalue("migrated_database_url"))


@pytest.mark.parametrize(("method", "path", "body"), NUL_REQUESTS,
                         ids=[f"{m} {p}" for m, p, _ in NUL_REQUESTS])
def test_a_nul_anywhere_is_refused_at_the_border_and_changes_nothing(
        any_client: TestClient, method: str, path: str, body: Any) -> None:
    response = any_client.request(method, path, json=body)
    assert response.status_code == 422, response.text
    answer = response.json()
    assert answer["code"] == "invalid_text"
    assert "NUL" in answer["detail"]
    health = any_client.get("/api/health").json()
    assert health["tables"] == 0
    assert any_client.get("/api/leaderboard").status_code == 200
    # the site goes on: a good request right after is answered
    assert any_client.post("/api/account/register", json={
        "username": "after", "password": "a long password"}).status_code == 201


@pytest.mark.parametrize("body", [
    b'{"username": "a\\u0000b", "password": "xxxxxxxxxxxx"}',  # escaped in a JSON string
    b'{"username": "a\x00b", "password": "xxxxxxxxxxxx"}',  # raw
])
def test_a_nul_escaped_or_raw_in_a_body_is_refused(client: TestClient, body: bytes) -> None:
    response = client.post("/api/account/login", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["code"] == "invalid_text"


def test_an_escaped_backslash_before_u0000_is_text_not_a_nul(client: TestClient) -> None:
    # the six characters \u0000 written as text are a fine (if odd) password
    response = client.post("/api/account/register", json={
        "username": "literal", "password": "\\u0000 is not a nul"})
    assert response.status_code == 201, response.text


def test_a_body_larger_than_any_endpoint_reads_is_refused_with_413(
        client: TestClient) -> None:
    big = b'{"game": "durak", "name": "' + b"x" * (MAX_BODY + 1) + b'"}'
    response = client.post("/api/tables", content=big,
                           headers={"content-type": "application/json"})
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "too_large"
    assert client.get("/api/health").json()["tables"] == 0


def test_a_socket_message_with_a_nul_is_refused_and_the_socket_plays_on(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "human"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        before = player.state()
        player.send('{"type": "chat", "text": "hi\\u0000there"}')
        error = player.next_of("error")
        assert error["code"] == "bad_message"
        assert "NUL" in error["reason"]
        player.send({"type": "ping"})
        assert player.next_of("pong")["type"] == "pong"
        versions = {m["version"] for m in player.messages if m["type"] == "state"}
        assert versions == {before["version"]}


def test_a_socket_with_a_nul_in_its_address_is_closed_before_it_opens(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot"])
    address = f"/ws/{seated['table']}?token=a%00b"
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(address) as ws:
        ws.receive_text()
    assert refused.value.code == 1008


def test_a_quick_play_group_that_cannot_be_seated_does_not_stop_the_others(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    queue = client.app.state.quickplay  # type: ignore[attr-defined]
    seat = queue._seat

    async def seat_or_fail(group: list, bots: int) -> None:
        if group[0].players == 3:
            raise ValueError("a fault in this group's tickets")
        await seat(group, bots)

    monkeypatch.setattr(queue, "_seat", seat_or_fail)
    bad = {"game": "durak", "players": 3, "bots_after": None}
    good = {"game": "durak", "players": 2, "bots_after": None}
    broken = [client.post("/api/quick-play", json=bad).json() for _ in range(3)]
    one = client.post("/api/quick-play", json=good).json()
    two = client.post("/api/quick-play", json=good).json()
    deadline = time.monotonic() + 20  # a bound on the wait, not a timing
    while client.get(f"/api/quick-play/{one['ticket']}").json()["status"] != "matched":
        assert time.monotonic() < deadline, "the good pair was never matched"
        time.sleep(0.1)
    first = client.get(f"/api/quick-play/{one['ticket']}").json()
    second = client.get(f"/api/quick-play/{two['ticket']}").json()
    assert first["table"] == second["table"]
    for ticket in broken:
        assert client.get(f"/api/quick-play/{ticket['ticket']}").json()["status"] == "cancelled"


# (method, path, raw JSON body): each held a lone surrogate and answered a 500 traceback
SURROGATE_REQUESTS: list[tuple[str, bytes]] = [
    ("/api/tables", b'{"game": "durak", "seats": ["human", "bot:a\\ud800b"]}'),
    ("/api/tables", b'{"game": "durak", "seats": ["human", "bot"], "takeover": "bot:\\udfff"}'),
    ("/api/tables", b'{"game": "durak", "seats": ["human", "bot"], "name": "\\uDBFF"}'),
    ("/api/tables", b'{"game": "durak", "options": {"\\ud800": 1}}'),
    ("/api/account/register", b'{"username": "eve\\ud83d", "password": "long enough pw"}'),
    ("/api/account/login", b'{"username": "eve", "password": "\\udc00 long enough"}'),
    ("/api/quick-play", b'{"game": "durak", "players": 2, "name": "n\\ud800"}'),
    # the surrogate's own bytes, as if it were a character: json.loads lets them through
    ("/api/tables", b'{"game": "durak", "seats": ["human", "bot:a\xed\xa0\x80b"]}'),
]


@pytest.mark.parametrize(("path", "body"), SURROGATE_REQUESTS,
                         ids=[f"{p} {b!r}" for p, b in SURROGATE_REQUESTS])
def test_a_lone_surrogate_anywhere_in_a_body_is_refused_and_changes_nothing(
        any_client: TestClient, path: str, body: bytes) -> None:
    response = any_client.post(path, content=body,
                               headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    answer = response.json()
    assert answer["code"] == "invalid_text"
    assert "surrogate" in answer["detail"]
    assert any_client.get("/api/health").json()["tables"] == 0
    assert any_client.post("/api/tables", json={
        "game": "durak", "seats": ["human", "bot"]}).status_code == 201


def test_a_whole_surrogate_pair_is_a_character_and_is_welcome(client: TestClient) -> None:
    # U+1F0A1 (a playing card) escaped as its UTF-16 pair, as JSON.stringify may send it
    body = b'{"game": "durak", "seats": ["human", "bot"], "name": "aces \\ud83c\\udca1"}'
    response = client.post("/api/tables", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 201, response.text


def test_a_socket_message_with_a_lone_surrogate_is_refused_and_the_socket_plays_on(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "human"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        before = player.state()
        player.send('{"type": "chat", "text": "hi\\ud800there"}')
        error = player.next_of("error")
        assert error["code"] == "bad_message"
        assert "surrogate" in error["reason"]
        player.send({"type": "ping"})
        assert player.next_of("pong")["type"] == "pong"
        versions = {m["version"] for m in player.messages if m["type"] == "state"}
        assert versions == {before["version"]}


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("OPTIONS", "/api/account/login", "POST"),
    ("PUT", "/api/account/tokens", "DELETE, POST"),
    ("DELETE", "/api/tables", "GET, HEAD, POST"),
    ("PATCH", "/api/quick-play/poll", "POST"), ("GET", "/api/account/login", "POST"),
    ("GET", "/api/quick-play", "POST")])
def test_a_method_a_path_does_not_answer_is_405_naming_the_ones_it_does(
        make_client: Callable[..., TestClient], tmp_path: Path, method: str, path: str,
        allow: str) -> None:
    """Its ``Allow`` lists every method of the path (the page's files, which answer GET
    anywhere, were named alone before: ``GET, HEAD`` for a POST-only endpoint)."""
    (tmp_path / "pages").mkdir()
    client = make_client(static_dir=tmp_path / "pages")
    answer = client.request(method, path)
    assert answer.status_code == 405 and answer.json()["code"] == "method_not_allowed"
    assert answer.headers["allow"] == allow


def test_a_whole_number_written_with_a_point_is_a_whole_number(client: TestClient) -> None:
    """JSON Schema's ``integer`` takes ``2.0``, so the API that publishes one does; ``2.5``,
    ``true`` and ``"2"`` stay refused, with the request's code."""
    body = {"game": "durak", "preset": "transfer", "bots_after": None}
    assert client.post("/api/quick-play", json={**body, "players": 2.0}).status_code == 201
    for bad in (2.5, True, "2", 1.0):
        refused = client.post("/api/quick-play", json={**body, "players": bad})
        assert refused.status_code == 422 and refused.json()["code"] == "invalid_request"
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    [players, _] = schemas["QuickPlayRequest"]["properties"]["players"]["anyOf"]
    assert players == {"type": "integer", "minimum": 2, "maximum": 16}   # bounds, as bounds


def test_the_schema_names_the_languages_a_lesson_speaks(client: TestClient) -> None:
    [lang] = [p for p in client.get("/openapi.json").json()["paths"]["/api/learn/{game}"]
              ["get"]["parameters"] if p["name"] == "lang"]
    assert lang["schema"]["enum"] == ["en", "ru", "pt", "fa"]
    assert client.get("/api/learn/durak?lang=xx").json()["code"] == "bad_lang"


@pytest.mark.parametrize(("path", "body"), [
    ("/api/account/login", {"username": "darya", "password": "x" * 12, "remember": True}),
    ("/api/account/register", {"username": "darya", "password": "x" * 12, "extra": "\u0000"}),
    ("/api/account/reset", {"name": "darya", "more": 1})])
def test_a_field_the_account_endpoints_do_not_read_is_refused(
        client: TestClient, path: str, body: dict[str, Any]) -> None:
    """The schema says so (no other property), and the answer says which."""
    answer = client.post(path, json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] in ("invalid_request", "invalid_text")
    assert client.get("/api/me").json()["kind"] == "guest"
