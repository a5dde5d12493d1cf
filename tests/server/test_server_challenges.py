"""Challenges by name and by link, follows and blocks, and the inbox: each rule of
``play.challenges`` and ``web.social_api`` on a running app (SQLite; the fake clock)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from clusterkit import OwnRedis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playerkit import fresh, register
from tablekit import Player, wait_until

from cardtable.server.core.clock import FakeClock
from cardtable.server.core.codes import CODES


def account(client: TestClient, name: str, host: str) -> TestClient:
    """A browser signed in as a new account ``name``."""
    browser = fresh(client, host)
    assert register(browser, name).status_code == 201
    return browser


@pytest.fixture
def people(client: TestClient) -> dict[str, TestClient]:
    return {name: account(client, name, f"10.0.0.{i}")
            for i, name in enumerate(("anahita", "bahram", "cyrus"), start=1)}


def challenge(browser: TestClient, **body: Any) -> Any:
    body.setdefault("game", "durak")
    return browser.post("/api/challenges", json=body)


def inbox(browser: TestClient, **query: Any) -> dict[str, Any]:
    answer = browser.get("/api/inbox", params=query)
    assert answer.status_code == 200, answer.text
    return answer.json()


# -- challenges -------------------------------------------------------------------------------
def test_a_challenge_by_name_reaches_the_inbox_and_accepting_seats_both(
        people: dict[str, TestClient]) -> None:
    a, b = people["anahita"], people["bahram"]
    made = challenge(a, to="Bahram", clock={"move": 30, "bank": 120})
    assert made.status_code == 201, made.text
    sent = made.json()
    assert (sent["from"], sent["to"], sent["status"], sent["direction"]) == (
        "anahita", "bahram", "open", "out")
    [notice] = inbox(b)["notices"]
    assert notice["kind"] == "challenge"
    assert notice["data"]["challenge"] == sent["id"] and notice["data"]["from"] == "anahita"
    assert [c["direction"] for c in b.get("/api/challenges").json()] == ["in"]

    answer = b.post(f"/api/challenges/{sent['id']}/accept")
    assert answer.status_code == 200, answer.text
    table, seat = answer.json()["table"], answer.json()["seat"]
    assert seat == 1 and answer.json()["challenge"]["status"] == "accepted"
    assert [(s["table"], s["seat"]) for s in a.get("/api/me").json()["seats"]] == [(table, 0)]
    assert [(s["table"], s["seat"]) for s in b.get("/api/me").json()["seats"]] == [(table, 1)]
    info = a.get(f"/api/tables/{table}").json()
    assert info["status"] == "playing" and info["clock"]["move"] == 30
    assert [s["name"] for s in info["seats"]] == ["anahita", "bahram"]
    # the challenger hears of it, and plays their seat by their session
    told = inbox(a)["notices"][0]
    assert (told["kind"], told["data"]["table"], told["data"]["seat"]) == (
        "challenge_answer", table, 0)
    with a.websocket_connect(f"/ws/tables/{table}?seat=0") as ws:
        assert Player(ws).state()["seat"] == 0
    # answered once: a second accept is refused and changes nothing
    again = b.post(f"/api/challenges/{sent['id']}/accept")
    assert (again.status_code, again.json()["code"]) == (409, "challenge_closed")
    assert len(b.get("/api/me").json()["seats"]) == 1


def test_a_seat_a_challenge_gives_is_not_freed_while_its_player_is_away(
        make_client: Any, clock: FakeClock) -> None:
    client = make_client(claim_grace=5)
    a, b = account(client, "anahita", "10.0.0.1"), account(client, "bahram", "10.0.0.2")
    sent = challenge(a, to="bahram").json()
    table = b.post(f"/api/challenges/{sent['id']}/accept").json()["table"]
    clock.move(60)   # past the claim grace: neither player has connected
    info = client.get(f"/api/tables/{table}").json()
    assert [s["taken"] for s in info["seats"]] == [True, True]


def test_an_open_challenge_is_accepted_by_whoever_has_its_link(
        people: dict[str, TestClient]) -> None:
    a, c = people["anahita"], people["cyrus"]
    sent = challenge(a).json()
    assert sent["to"] is None and sent["link"] == f"/#challenge/{sent['id']}"
    assert c.get(f"/api/challenges/{sent['id']}").json()["from"] == "anahita"
    accepted = c.post(f"/api/challenges/{sent['id']}/accept").json()
    assert accepted["challenge"]["status"] == "accepted" and accepted["seat"] == 1


def test_only_the_challenged_player_answers_and_only_the_sender_cancels(
        people: dict[str, TestClient]) -> None:
    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    sent = challenge(a, to="bahram").json()
    for who, action in ((c, "accept"), (c, "decline"), (b, "cancel"), (a, "decline")):
        answer = who.post(f"/api/challenges/{sent['id']}/{action}")
        assert (answer.status_code, answer.json()["code"]) == (403, "not_your_challenge")
    assert c.get(f"/api/challenges/{sent['id']}").json()["code"] == "no_challenge"
    mine = a.post(f"/api/challenges/{sent['id']}/accept")
    assert mine.json()["code"] == "not_yourself"
    assert b.post(f"/api/challenges/{sent['id']}/decline").json()["status"] == "declined"
    assert inbox(a)["notices"][0]["data"]["status"] == "declined"
    assert a.post(f"/api/challenges/{sent['id']}/cancel").json()["code"] == "challenge_closed"


def test_a_cancelled_challenge_cannot_be_accepted(people: dict[str, TestClient]) -> None:
    a, b = people["anahita"], people["bahram"]
    sent = challenge(a, to="bahram").json()
    assert a.post(f"/api/challenges/{sent['id']}/cancel").json()["status"] == "cancelled"
    refused = b.post(f"/api/challenges/{sent['id']}/accept")
    assert (refused.status_code, refused.json()["code"], refused.json()["status"]) == (
        409, "challenge_closed", "cancelled")
    assert b.get("/api/me").json()["seats"] == []


def test_a_challenge_expires(people: dict[str, TestClient], clock: FakeClock) -> None:
    a, b = people["anahita"], people["bahram"]
    sent = challenge(a, to="bahram").json()
    clock.move(24 * 3600 + 1)
    assert [c["status"] for c in a.get("/api/challenges").json()] == ["expired"]
    refused = b.post(f"/api/challenges/{sent['id']}/accept").json()
    assert (refused["code"], refused["status"]) == ("challenge_closed", "expired")


def test_an_acceptance_a_stopped_process_left_half_done_is_settled_by_what_it_left(
        client: TestClient, people: dict[str, TestClient], clock: FakeClock) -> None:
    """A process stopped between writing ``accepting`` and ``accepted``: with its table
    not made, the challenge is open again; with it made, accepted with that table."""
    a, b = people["anahita"], people["bahram"]
    services = client.app.state.services
    store, challenges = services.social, services.challenges
    unmade = challenge(a, to="bahram").json()["id"]
    assert store.settle(unmade, "accepting", "open", "neverMade001", challenges._now())
    made = challenge(a, to="bahram").json()["id"]
    table = b.post(f"/api/challenges/{made}/accept").json()["table"]
    assert store.settle(made, "accepting", "accepted", table, challenges._now())
    older = challenge(a, to="cyrus").json()["id"]   # left so before its time was kept
    assert store.settle(older, "accepting")
    assert a.get(f"/api/challenges/{older}").json()["status"] == "open"
    # in progress for all anyone knows: nobody answers it meanwhile
    held = b.post(f"/api/challenges/{unmade}/accept").json()
    assert (held["code"], held["status"]) == ("challenge_closed", "accepting")
    clock.move(61)
    assert b.get(f"/api/challenges/{unmade}").json()["status"] == "open"
    listed = {c["id"]: (c["status"], c["table"]) for c in a.get("/api/challenges").json()}
    assert (listed[unmade], listed[made]) == (("open", None), ("accepted", table))
    again = b.post(f"/api/challenges/{unmade}/accept")
    assert again.status_code == 200, again.text
    assert len(b.get("/api/me").json()["seats"]) == 2


def test_hostile_challenges_are_refused_with_stable_codes(
        client: TestClient, people: dict[str, TestClient]) -> None:
    a = people["anahita"]
    cases = [
        ({"to": "nobody_here"}, 404, "no_player"),
        ({"to": "anahita"}, 422, "not_yourself"),
        ({"to": "bahram", "game": "chess"}, 422, "invalid_request"),
        ({"to": "bahram", "players": 9}, 422, "invalid_request"),
        ({"to": "bahram", "options": {"hand_size": 10**9}}, 422, None),
        ({"to": "bahram", "clock": {"days": 4}}, 422, "invalid_request"),
        ({"to": "bahram", "clock": {"days": 1, "move": 3}}, 422, "invalid_request"),
        ({"to": ["bahram"]}, 422, "invalid_request"),
        ({"to": "bahram", "surprise": 1}, 422, "invalid_request"),
    ]
    for body, status, code in cases:
        answer = challenge(a, **body)
        assert answer.status_code == status, (body, answer.text)
        if code is not None:
            assert answer.json()["code"] == code, (body, answer.json())
    assert a.get("/api/challenges").json() == []
    guest = fresh(client, "10.0.0.9")
    guest.get("/api/me")
    assert challenge(guest, to="bahram").json()["code"] == "not_signed_in"
    assert challenge(fresh(client, "10.0.0.8"), to="bahram").status_code == 401


def test_open_challenges_per_account_are_bounded(make_client: Any) -> None:
    client = make_client(challenges_open=2)
    a = account(client, "anahita", "10.0.0.1")
    account(client, "bahram", "10.0.0.2")
    assert [challenge(a, to="bahram").status_code for _ in range(2)] == [201, 201]
    refused = challenge(a, to="bahram")
    assert (refused.status_code, refused.json()["code"], refused.json()["limit"]) == (
        429, "too_many_challenges", 2)


def test_challenges_sent_too_fast_are_refused(make_client: Any) -> None:
    client = make_client(challenges_per_account="3/hour")
    a = account(client, "anahita", "10.0.0.1")
    account(client, "bahram", "10.0.0.2")
    codes = []
    for _ in range(4):
        answer = challenge(a, to="bahram")
        if answer.status_code == 201:
            a.post(f"/api/challenges/{answer.json()['id']}/cancel")
        codes.append(answer.status_code)
    assert codes == [201, 201, 201, 429]


def test_a_player_may_refuse_challenges_from_strangers_or_from_everyone(
        people: dict[str, TestClient]) -> None:
    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    assert b.post("/api/social/settings", json={"challenges": "followed"}).json()[
        "challenges"] == "followed"
    assert challenge(a, to="bahram").json()["code"] == "challenges_refused"
    assert b.post("/api/players/anahita/follow").json() == {"changed": True}
    assert challenge(a, to="bahram").status_code == 201
    assert challenge(c, to="bahram").json()["code"] == "challenges_refused"
    b.post("/api/social/settings", json={"challenges": "nobody"})
    assert challenge(a, to="bahram").json()["code"] == "challenges_refused"
    assert b.get("/api/social/settings").json()["challenges"] == "nobody"


# -- follows and blocks ------------------------------------------------------------------------
def test_a_block_stops_challenges_both_ways(people: dict[str, TestClient]) -> None:
    a, b = people["anahita"], people["bahram"]
    open_one = challenge(a).json()
    assert b.post("/api/players/anahita/block").json() == {"changed": True}
    assert b.post("/api/players/anahita/block").json() == {"changed": False}
    assert challenge(a, to="bahram").json()["code"] == "player_blocked"
    assert challenge(b, to="anahita").json()["code"] == "player_blocked"
    assert b.post(f"/api/challenges/{open_one['id']}/accept").json()["code"] == (
        "player_blocked")
    assert [p["name"] for p in b.get("/api/blocks").json()] == ["anahita"]
    assert b.delete("/api/players/anahita/block").json() == {"changed": True}
    assert challenge(a, to="bahram").status_code == 201


def test_followed_players_show_where_they_play(people: dict[str, TestClient]) -> None:
    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    assert c.post("/api/players/anahita/follow").json() == {"changed": True}
    assert c.post("/api/players/bahram/follow").json() == {"changed": True}
    assert c.post("/api/players/cyrus/follow").json()["code"] == "not_yourself"
    assert c.post("/api/players/nobody_here/follow").json()["code"] == "no_player"
    sent = challenge(a, to="bahram").json()
    table = b.post(f"/api/challenges/{sent['id']}/accept").json()["table"]
    listed = {f["name"]: f for f in c.get("/api/friends").json()}
    assert listed["anahita"]["playing"] == table and listed["anahita"]["watch"] == (
        f"/table/{table}")
    assert listed["anahita"]["online"]
    assert c.delete("/api/players/bahram/follow").json() == {"changed": True}
    assert [f["name"] for f in c.get("/api/friends").json()] == ["anahita"]


def test_a_player_never_seen_is_not_online(people: dict[str, TestClient]) -> None:
    a, c = people["anahita"], people["cyrus"]
    c.post("/api/players/anahita/follow")
    assert [f["online"] for f in c.get("/api/friends").json()] == [False]
    inbox(a)   # a page of hers asks for the inbox
    assert [f["online"] for f in c.get("/api/friends").json()] == [True]


def test_a_player_whose_page_asks_another_process_is_online_on_every_process(
        own_redis: OwnRedis, make_client: Callable[..., TestClient]) -> None:
    """Two processes on one database and one Redis: a page asking one of them for the
    inbox makes its player online in a friends list the other answers."""
    one = make_client(redis_url=own_redis.url)
    two = make_client(redis_url=own_redis.url)
    a, c = account(one, "anahita", "10.0.0.1"), account(two, "cyrus", "10.0.0.3")
    assert c.post("/api/players/anahita/follow").status_code == 200
    assert [f["online"] for f in c.get("/api/friends").json()] == [False]
    inbox(a)   # her page asks process one
    assert [f["online"] for f in c.get("/api/friends").json()] == [True]   # two answers
    own_redis.stop()   # Redis away: process two knows only its own visitors
    assert [f["online"] for f in c.get("/api/friends").json()] == [False]


# -- the inbox ---------------------------------------------------------------------------------
def test_the_inbox_counts_unread_and_marks_read(people: dict[str, TestClient]) -> None:
    a, b = people["anahita"], people["bahram"]
    first = challenge(a, to="bahram").json()
    second = challenge(a, to="bahram").json()
    box = inbox(b)
    assert box["unread"] == 2
    assert [n["data"]["challenge"] for n in box["notices"]] == [second["id"], first["id"]]
    newest = box["notices"][0]["id"]
    assert inbox(b, after=newest)["notices"] == []
    assert b.post("/api/inbox/read", json={"upto": newest - 1}).json() == {"read": 1}
    assert inbox(b)["unread"] == 1
    assert b.post("/api/inbox/read").json() == {"read": 1}
    assert inbox(b)["unread"] == 0
    assert inbox(a)["notices"] == []   # nobody reads another's inbox


def test_a_kind_routed_nowhere_is_not_kept(people: dict[str, TestClient]) -> None:
    a, b = people["anahita"], people["bahram"]
    routes = b.post("/api/social/settings", json={"routes": {"challenge": []}}).json()
    assert routes["routes"]["challenge"] == [] and routes["routes"]["your_move"] == ["inbox"]
    assert challenge(a, to="bahram").status_code == 201
    assert inbox(b)["notices"] == []
    refused = b.post("/api/social/settings", json={"routes": {"challenge": ["pigeon"]}})
    assert refused.status_code == 422


def test_a_waiting_inbox_answers_when_a_notice_comes(people: dict[str, TestClient]) -> None:
    import threading

    a, b = people["anahita"], people["bahram"]
    got: list[dict[str, Any]] = []
    asking = threading.Thread(target=lambda: got.append(inbox(b, wait=20)))
    asking.start()
    sent = challenge(a, to="bahram").json()
    asking.join(timeout=30)
    assert not asking.is_alive()
    assert [n["data"]["challenge"] for n in got[0]["notices"]] == [sent["id"]]


def test_a_block_keeps_chat_lines_apart_at_a_table(people: dict[str, TestClient]) -> None:
    """Both sit at a table (a challenge from before the block); after it, neither is sent
    the other's lines, and a third at the table hears both."""
    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    sent = challenge(a, to="bahram", players=3).json()
    table = b.post(f"/api/challenges/{sent['id']}/accept").json()["table"]
    assert c.post(f"/api/tables/{table}/join").status_code == 200
    b.post("/api/players/anahita/block")
    with a.websocket_connect(f"/ws/tables/{table}?seat=0") as wa, \
            b.websocket_connect(f"/ws/tables/{table}?seat=1") as wb, \
            c.websocket_connect(f"/ws/tables/{table}?seat=2") as wc:
        pa, pb, pc = Player(wa), Player(wb), Player(wc)
        for player in (pa, pb, pc):
            player.state()
        pa.send({"type": "chat", "text": "from anahita"})
        assert pc.next_of("chat")["text"] == "from anahita"
        assert pa.next_of("chat")["text"] == "from anahita"   # her own line comes back
        pb.send({"type": "chat", "text": "from bahram"})
        assert pc.next_of("chat")["text"] == "from bahram"
        pc.send({"type": "chat", "text": "from cyrus"})
        assert pa.next_of("chat")["text"] == "from cyrus"
        assert [m["text"] for m in [pb.next_of("chat"), pb.next_of("chat")]] == [
            "from bahram", "from cyrus"]   # never anahita's, though hers came first
        pb.send({"type": "ping"})
        pb.next_of("pong")
        assert "from bahram" not in [m.get("text") for m in pa.messages]


def test_a_block_takes_the_lines_said_before_it_out_of_the_history(
        people: dict[str, TestClient]) -> None:
    """Lines said before a block: neither of the two is sent the other's when they come
    back to the table; a third is sent every line."""
    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    sent = challenge(a, to="bahram", players=3).json()
    table = b.post(f"/api/challenges/{sent['id']}/accept").json()["table"]
    assert c.post(f"/api/tables/{table}/join").status_code == 200
    with a.websocket_connect(f"/ws/tables/{table}?seat=0") as wa, \
            b.websocket_connect(f"/ws/tables/{table}?seat=1") as wb:
        pa, pb = Player(wa), Player(wb)
        pa.state(), pb.state()
        pa.send({"type": "chat", "text": "from anahita"})
        assert pb.next_of("chat")["text"] == "from anahita"
        pb.send({"type": "chat", "text": "from bahram"})
        assert [pa.next_of("chat")["text"] for _ in range(2)] == [
            "from anahita", "from bahram"]   # her own line comes back first
    assert b.post("/api/players/anahita/block").status_code == 200

    def history(browser: TestClient, seat: int) -> list[str]:
        """The lines a new connection is sent (they come at once, in one send)."""
        with browser.websocket_connect(f"/ws/tables/{table}?seat={seat}") as ws:
            player = Player(ws)
            player.next_of("chat")
            player.send({"type": "ping"})
            player.next_of("pong")
            return [m["text"] for m in player.messages if m.get("type") == "chat"]

    assert history(b, 1) == ["from bahram"]
    assert history(a, 0) == ["from anahita"]
    assert history(c, 2) == ["from anahita", "from bahram"]


def test_quick_play_never_seats_two_players_one_of_whom_blocks_the_other(
        people: dict[str, TestClient]) -> None:
    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    b.post("/api/players/anahita/block")
    wait = {"game": "durak", "players": 2, "bots_after": None}
    first = a.post("/api/quick-play", json=wait).json()
    second = b.post("/api/quick-play", json=wait).json()
    for _ in range(3):
        assert a.get(f"/api/quick-play/{first['ticket']}").json()["status"] == "waiting"
        assert b.get(f"/api/quick-play/{second['ticket']}").json()["status"] == "waiting"
    third = c.post("/api/quick-play", json=wait).json()
    assert third["status"] == "matched"
    now = [a.get(f"/api/quick-play/{first['ticket']}").json(),
           b.get(f"/api/quick-play/{second['ticket']}").json()]
    # one of them sits with cyrus (the fake clock entered both at once: either), the
    # other still waits
    assert sorted(t["table"] == third["table"] for t in now) == [False, True]
    assert sorted(t["status"] for t in now) == ["matched", "waiting"]


def test_match_keeps_a_blocked_pair_apart() -> None:
    from cardtable.server.play.quickplay import Entry, match

    def entry(ticket: str, at: float) -> Entry:
        return Entry(ticket, "durak", "transfer", 2, None, entered=at, polled=at,
                     player={"id": ticket, "name": ticket, "kind": "account"})

    waiting = [entry("a", 0), entry("b", 1), entry("c", 2)]
    assert [[e.ticket for e in g] for g, _ in match(waiting, at=3)] == [["a", "b"]]
    apart = frozenset({frozenset({"a", "b"})})
    assert [[e.ticket for e in g] for g, _ in match(waiting, at=3, apart=apart)] == [
        ["a", "c"]]


def test_a_banned_players_challenges_are_cancelled(client: TestClient,
                                                   people: dict[str, TestClient]) -> None:
    from cardtable.server.store.sanctions import SanctionStore

    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    to_b = challenge(a, to="bahram").json()
    to_a = challenge(c, to="anahita").json()
    admin = account(client, "root_admin", "10.9.9.9")
    SanctionStore(client.app.state.storage).grant("root_admin", "admin", "the test")
    assert admin.post("/api/admin/ban", json={"player": "anahita",
                                              "reason": "spam"}).status_code == 200
    assert [x["status"] for x in b.get("/api/challenges").json()] == ["cancelled"]
    assert b.post(f"/api/challenges/{to_b['id']}/accept").json()["code"] == (
        "challenge_closed")
    assert [x["status"] for x in c.get("/api/challenges").json()] == ["cancelled"]
    assert to_a["status"] == "open"


def test_followers_hear_when_a_followed_player_starts_a_game(
        people: dict[str, TestClient]) -> None:
    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    c.post("/api/players/anahita/follow")
    a.post("/api/players/bahram/follow")   # at the same table: not told of her own game
    sent = challenge(a, to="bahram").json()
    table = b.post(f"/api/challenges/{sent['id']}/accept").json()["table"]
    wait_until(lambda: any(n["kind"] == "friend_game" for n in inbox(c)["notices"]),
               "cyrus's notice")
    [told] = [n for n in inbox(c)["notices"] if n["kind"] == "friend_game"]
    assert (told["data"]["name"], told["data"]["url"]) == ("anahita", f"/table/{table}")
    assert not any(n["kind"] == "friend_game" for n in inbox(a)["notices"])
    assert not any(n["kind"] == "friend_game" for n in inbox(b)["notices"])


def test_a_player_invites_another_to_a_table(people: dict[str, TestClient]) -> None:
    a, b, c = people["anahita"], people["bahram"], people["cyrus"]
    made = a.post("/api/tables", json={"game": "durak", "seats": ["human", "human"]}).json()
    answer = a.post("/api/players/bahram/invite", json={"table": made["table"]})
    assert answer.json() == {"sent": True}
    [notice] = [n for n in inbox(b)["notices"] if n["kind"] == "invite"]
    assert (notice["data"]["from"], notice["data"]["url"]) == (
        "anahita", f"/table/{made['table']}")
    assert a.post("/api/players/bahram/invite", json={"table": "nope"}).json()["code"] == (
        "not_found")
    c.post("/api/players/anahita/block")
    assert a.post("/api/players/cyrus/invite", json={"table": made["table"]}).json()[
        "code"] == "player_blocked"
    assert not any(n["kind"] == "invite" for n in inbox(c)["notices"])


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**12, 10**12)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=50),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=12)
FIELDS = ("to", "game", "preset", "options", "players", "clock", "rated")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.dictionaries(st.sampled_from(FIELDS), JSON | st.sampled_from(
           ["bahram", "durak", "pasur", {"days": 3}, {"move": 5, "bank": 0}, 2, 4])),
       # a lone surrogate cannot be written in a URL at all (no client sends one)
       target=st.text(st.characters(blacklist_characters="/.\\%",
                                    blacklist_categories=("Cs",)), min_size=1,
                      max_size=60), action=st.sampled_from(["accept", "decline", "cancel"]))
def test_a_signed_in_account_s_hostile_requests_are_refused_never_failed(
        people: dict[str, TestClient], body: dict[str, Any], target: str,
        action: str) -> None:
    """Whatever a signed-in account sends to the challenges, follows, blocks, invites and
    settings: an answer, or a refusal with a stable code; never a server error."""
    a = people["anahita"]
    answers = [a.post("/api/challenges", json=body),
               a.post(f"/api/challenges/{quote(target, safe='')}/{action}"),
               a.post(f"/api/players/{quote(target, safe='')}/follow"),
               a.post(f"/api/players/{quote(target, safe='')}/invite", json=body),
               a.post("/api/social/settings", json=body),
               a.get("/api/inbox", params={"after": target, "wait": 0})]
    for answer in answers:
        assert answer.status_code < 500, answer.text
        if answer.status_code >= 400:
            assert answer.json()["code"] in CODES, answer.text
    for made in a.get("/api/challenges").json():
        if made["status"] == "open":
            a.post(f"/api/challenges/{made['id']}/cancel")


def test_challenges_follows_blocks_and_the_inbox_on_postgresql(
        make_client: Any, migrated_database_url: str) -> None:
    client = make_client(database_url=migrated_database_url)
    a, b, c = (account(client, name, f"10.0.1.{i}")
               for i, name in enumerate(("anahita", "bahram", "cyrus"), start=1))
    sent = challenge(a, to="bahram", clock={"days": 2}).json()
    declined = challenge(a, to="bahram").json()
    assert b.post(f"/api/challenges/{declined['id']}/decline").json()["status"] == "declined"
    table = b.post(f"/api/challenges/{sent['id']}/accept").json()["table"]
    assert b.post(f"/api/challenges/{sent['id']}/accept").json()["code"] == "challenge_closed"
    assert [s["seat"] for s in a.get("/api/me").json()["seats"]] == [0]
    assert client.get(f"/api/tables/{table}").json()["clock"] == {"days": 2}
    assert b.post("/api/inbox/read").json()["read"] >= 2   # and "your move", if it is his
    assert inbox(b)["unread"] == 0
    c.post("/api/players/anahita/follow")
    assert [f["playing"] for f in c.get("/api/friends").json()] == [table]
    c.post("/api/players/anahita/block")
    assert challenge(a, to="cyrus").json()["code"] == "player_blocked"
    to_move = client.get(f"/api/tables/{table}").json()["to_move"]
    mover = (a, b)[to_move]
    assert [g["table"] for g in mover.get("/api/your-move").json()] == [table]
