"""Table chat: the players' room and the spectators' room apart, quick phrases, the length
limit, control characters out, the rate limit, the creator's switch, history; on SQLite
and on PostgreSQL."""

from __future__ import annotations

from fastapi.testclient import TestClient
from playerkit import app_client, fresh, register
from tablekit import Player, connect

__all__ = ["app_client"]   # the fixture


def table_for_two(client: TestClient) -> tuple[dict, dict]:
    made = client.post("/api/tables", json={"game": "durak",
                                            "seats": ["human", "human"]}).json()
    joined = fresh(client).post(f"/api/tables/{made['table']}/join").json()
    return made, joined


def chat(player: Player) -> dict:
    return player.next_of("chat", timeout=10)


def error(player: Player) -> dict:
    return player.next_of("error", timeout=10)


def test_players_and_spectators_talk_in_rooms_of_their_own(app_client: TestClient) -> None:
    register(app_client, "darya")
    made, joined = table_for_two(app_client)
    table = made["table"]
    with connect(app_client, table, made["token"]) as a, \
            connect(app_client, table, joined["token"]) as b, \
            connect(app_client, table) as w1, connect(app_client, table) as w2:
        first, second, watcher, other_watcher = Player(a), Player(b), Player(w1), Player(w2)
        first.send({"type": "chat", "text": "<b>hi</b> & good luck"})
        heard = chat(second)
        assert heard["room"] == "players" and heard["seat"] == 0
        assert heard["name"] == "darya" and heard["text"] == "<b>hi</b> & good luck"
        assert chat(first)["text"] == heard["text"]   # the sender sees it too
        watcher.send({"type": "chat", "text": "take the trump!"})
        assert chat(other_watcher)["room"] == "spectators"
        assert chat(watcher)["text"] == "take the trump!"
        first.send({"type": "chat", "phrase": "good_game"})
        assert chat(second)["phrase"] == "good_game"
        # the watchers never heard the players, nor the players the watchers
        assert all(m.get("room") != "players" for m in watcher.messages + other_watcher.messages)
        assert all(m.get("room") != "spectators" for m in first.messages + second.messages)


def test_a_message_is_at_most_200_characters_and_loses_its_control_characters(
        app_client: TestClient) -> None:
    made, _ = table_for_two(app_client)
    with connect(app_client, made["table"], made["token"]) as a:
        player = Player(a)
        player.send({"type": "chat", "text": "x" * 201})
        assert error(player)["code"] == "chat_too_long"
        player.send({"type": "chat", "text": "\u202e\x00 \n"})
        assert error(player)["code"] == "bad_message"
        player.send({"type": "chat", "phrase": "<script>"})
        assert error(player)["code"] == "bad_message"
        player.send({"type": "chat", "text": "y" * 200})
        assert chat(player)["text"] == "y" * 200
        player.send({"type": "chat", "text": "a\x07b\u202ec"})
        assert chat(player)["text"] == "abc"


def test_chat_is_rate_limited_per_seat_however_many_sockets_it_opens(
        app_client: TestClient) -> None:
    tables = app_client.app.state.tables
    tables.settings = tables.settings.model_copy(update={"chat_per_window": "2/minute"})
    made, _ = table_for_two(app_client)
    with connect(app_client, made["table"], made["token"]) as a, \
            connect(app_client, made["table"], made["token"]) as b, \
            connect(app_client, made["table"], made["token"]) as c:
        one, two, three = Player(a), Player(b), Player(c)
        one.send({"type": "chat", "text": "one"})
        assert chat(one)["text"] == "one"
        two.send({"type": "chat", "text": "two"})
        assert [chat(two)["text"] for _ in range(2)] == ["one", "two"]
        three.send({"type": "chat", "text": "three"})   # a third socket is no new rate
        assert error(three)["code"] == "chat_rate_limited"


def test_chat_is_rate_limited_per_connection(app_client: TestClient) -> None:
    tables = app_client.app.state.tables
    tables.settings = tables.settings.model_copy(update={"chat_per_window": "2/minute"})
    made, _ = table_for_two(app_client)
    with connect(app_client, made["table"], made["token"]) as a:
        player = Player(a)
        for word in ("one", "two"):
            player.send({"type": "chat", "text": word})
            assert chat(player)["text"] == word
        player.send({"type": "chat", "text": "three"})
        assert error(player)["code"] == "chat_rate_limited"


def test_the_creator_turns_the_players_chat_off_and_only_the_creator(
        app_client: TestClient) -> None:
    made, joined = table_for_two(app_client)
    table = made["table"]
    with connect(app_client, table, made["token"]) as a, \
            connect(app_client, table, joined["token"]) as b:
        creator, guest = Player(a), Player(b)
        guest.send({"type": "chat_off", "off": True})
        assert error(guest)["code"] == "not_creator"
        creator.send({"type": "chat_off", "off": True})
        assert guest.next_of("chat_setting")["off"] is True
        guest.send({"type": "chat", "text": "hello?"})
        assert error(guest)["code"] == "chat_off"
    # the setting is kept: a new connection is told, and the chat stays off
    with connect(app_client, table, joined["token"]) as b:
        guest = Player(b)
        assert guest.next_of("chat_setting")["off"] is True
        creator_ws = connect(app_client, table, made["token"])
        with creator_ws as a:
            Player(a).send({"type": "chat_off", "off": False})
            assert guest.next_of("chat_setting")["off"] is False
            guest.send({"type": "chat", "text": "back"})
            assert chat(guest)["text"] == "back"


def test_a_new_connection_gets_its_rooms_recent_messages(app_client: TestClient) -> None:
    made, joined = table_for_two(app_client)
    table = made["table"]
    with connect(app_client, table, made["token"]) as a:
        player = Player(a)
        player.send({"type": "chat", "text": "first"})
        chat(player)
    with connect(app_client, table, joined["token"]) as b:
        assert chat(Player(b))["text"] == "first"
    with connect(app_client, table) as w:
        watcher = Player(w)
        watcher.state()
        watcher.send({"type": "ping"})
        watcher.next_of("pong")
        assert not any(m["type"] == "chat" for m in watcher.messages)


def test_anonymous_spectators_cannot_chat_and_an_account_has_one_rate(
        app_client: TestClient) -> None:
    """a stranger opening watcher sockets cannot spam a table."""
    tables = app_client.app.state.tables
    tables.settings = tables.settings.model_copy(update={"chat_per_window": "2/minute"})
    made, _ = table_for_two(app_client)
    table = made["table"]
    stranger = fresh(app_client, "10.0.3.1")
    with connect(stranger, table) as w:
        watcher = Player(w)
        watcher.send({"type": "chat", "text": "buy cheap chips"})
        assert error(watcher)["code"] == "chat_accounts_only"
    darya = fresh(app_client, "10.0.3.2")
    assert register(darya, "darya").status_code == 201
    with connect(darya, table) as w1, connect(darya, table) as w2:
        one, two = Player(w1), Player(w2)
        one.send({"type": "chat", "text": "nice"})
        assert chat(one)["text"] == chat(two)["text"] == "nice"
        two.send({"type": "chat", "text": "very nice"})
        assert chat(two)["text"] == "very nice"
        one.send({"type": "chat", "text": "third"})   # a second socket is no new rate
        assert error(one)["code"] == "chat_rate_limited"
    with connect(stranger, table) as w:   # nothing the stranger said was kept
        watcher = Player(w)
        watcher.send({"type": "ping"})
        watcher.next_of("pong")
        assert [m["text"] for m in watcher.messages if m["type"] == "chat"] == [
            "nice", "very nice"]
