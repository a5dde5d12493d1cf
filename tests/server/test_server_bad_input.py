"""No input reaches a 500: bodies with NaN, numbers too big for the
database, messages nested too deeply, tokens too long; and the OpenAPI description says
what every refusal looks like."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create

NOT_JSON_NUMBERS = [
    b'{"game": "durak", "players": NaN}',
    b'{"game": "durak", "players": Infinity}',
    b'{"game": NaN}',
    b'{"game": "durak", "options": {"first_round_limit": NaN}}',
    b'{"game": "pasur", "options": {"target": -Infinity}}',
    b'{"game": "durak", "seats": [NaN, "human"]}',
    b'{"game": "durak", "players": 1e400}',
    b'{"game": "durak", "players": 100000000000000000000000000000000000000000}',
]


@pytest.mark.parametrize("body", NOT_JSON_NUMBERS, ids=[b.decode() for b in NOT_JSON_NUMBERS])
def test_a_body_with_numbers_json_cannot_carry_is_refused_with_422(
        client: TestClient, body: bytes) -> None:
    response = client.post("/api/tables", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    answer = response.json()
    assert isinstance(answer["detail"], str) and answer["code"] == "invalid_request"
    assert client.get("/api/health").json()["tables"] == 0


@pytest.mark.parametrize("query", [
    "offset=10000000000000000000000", "offset=-1", "offset=1000001",
    "limit=10000000000000000000000", "limit=0", "game=" + "x" * 40, "offset=NaN"])
@pytest.mark.parametrize("path", ["/api/tables", "/api/history"])
def test_a_listing_past_its_bounds_is_refused_with_422(client: TestClient, path: str,
                                                       query: str) -> None:
    response = client.get(f"{path}?{query}")
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_request"


def test_the_listings_take_their_largest_offset(client: TestClient) -> None:
    assert client.get("/api/history?offset=1000000").json() == []
    assert client.get("/api/tables?offset=1000000&limit=200").json() == []


def test_a_message_nested_too_deeply_is_refused_and_the_socket_plays_on(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "human"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        state = player.state()
        for nested in ("[" * 2000 + "]" * 2000, "[" * 3000 + '{"type": "ping"}'):
            player.send(nested)
            error = player.next_of("error")
            assert error["code"] == "bad_message" and "nested too deeply" in error["reason"]
            assert player.state()["version"] == state["version"]
        player.send({"type": "ping"})
        assert player.next_of("pong")["type"] == "pong"


@pytest.mark.parametrize("length", [65, 5000])
def test_a_token_too_long_holds_no_seat_and_is_told_so(client: TestClient,
                                                       length: int) -> None:
    seated = create(client, game="durak", seats=["human", "human"])
    with connect(client, seated["table"], "t" * length) as ws:
        player = Player(ws)
        error = player.receive()
        assert error["code"] == "no_seat" and "no seat" in error["reason"]
        with pytest.raises(ConnectionError, match="4403"):
            player.receive()


def test_an_unknown_table_with_a_long_id_is_told_so(client: TestClient) -> None:
    with connect(client, "x" * 3000) as ws:
        player = Player(ws)
        assert player.receive()["code"] == "not_found"
        with pytest.raises(ConnectionError, match="4404"):
            player.receive()


# -- the description ----------------------------------------------------------------------

REFUSALS = [
    ("/api/tables", "post", {"422", "429"}),
    ("/api/tables", "get", {"422"}),
    ("/api/tables/{table_id}", "get", {"404"}),
    ("/api/tables/{table_id}/join", "post", {"404", "409", "422"}),
    ("/api/tables/{table_id}/record", "get", {"404", "409"}),
    ("/api/tables/{table_id}/replay", "get", {"404", "409"}),
    ("/api/history", "get", {"422"}),
]


@pytest.mark.parametrize(("path", "method", "statuses"), REFUSALS,
                         ids=[f"{m} {p}" for p, m, _ in REFUSALS])
def test_the_openapi_description_names_every_refusal_with_its_shape(
        client: TestClient, path: str, method: str, statuses: set[str]) -> None:
    schema = client.get("/openapi.json").json()
    answers = schema["paths"][path][method]["responses"]
    assert statuses <= set(answers)
    for status in statuses:
        body = answers[status]["content"]["application/json"]["schema"]
        assert body == {"$ref": "#/components/schemas/Problem"}
    problem = schema["components"]["schemas"]["Problem"]
    assert set(problem["required"]) == {"detail", "code"}


def test_a_refusal_has_a_reason_and_a_code(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    missing = client.get("/api/tables/nosuchtable")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    seated = create(client, game="durak", seats=["human", "human"])
    early = client.get(f"/api/tables/{seated['table']}/record")
    assert early.status_code == 409 and early.json()["code"] == "not_over"
