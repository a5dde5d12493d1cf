"""Names shown to others keep one rule at every path that sets one: a seat taken without
a session (making a table, joining one, quick play), a guest's name, an account's; the
rule itself is ``cardtable.server.people.names``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playerkit import register
from tablekit import from_address

from cardtable.server.people.names import MAX_MARKS, MAX_NAME, shown_name_or_code

BAD = {
    "nul": ("Ana\x00", "invalid_text"),   # the border refuses it before any endpoint
    "bel": ("Ana\x07", "name_control"),
    "newline": ("Ana\nBo", "name_control"),
    "right-to-left override": ("Ana\u202e Bo", "name_control"),
    "empty": ("", "invalid_name"),
    "40 spaces": (" " * 40, "invalid_name"),
    "hangul filler": ("\u3164", "name_invisible"),
    "braille blank": ("\u2800\u2800", "name_invisible"),
    "lone zwj": ("\u200d", "name_control"),
    "21 combining marks": ("Z" + "\u0336" * 21, "name_marks"),
    "an account's username": ("DARYA", "name_taken"),
    "a cyrillic a in a latin word": ("D\u0430rya", "name_mixed_scripts"),
    "a greek alpha in a latin word": ("\u0391dmin", "name_mixed_scripts"),
    "a look-alike of an account's username": ("D\u0251rya", "name_confusable"),
    "the word filter beaten by a cyrillic u": ("f\u0443ck", "name_mixed_scripts"),
}
"""Each name the issue named, and the code it is refused with."""

GOOD = {
    "persian": ("پاسور", "پاسور"),
    "russian": ("Дурак", "Дурак"),
    "zoë": ("Zoë", "Zoë"),
    "one combining accent": ("Zoe\u0308", "Zoë"),   # NFC: the same as the one above
    "emoji": ("🃏 Ace", "🃏 Ace"),
    "persian with a zwnj": ("می\u200cخواهم", "می\u200cخواهم"),
    "emoji joined by a zwj": ("👩\u200d💻", "👩\u200d💻"),
    "a russian and a latin word": ("Игорь Igor", "Игорь Igor"),
    "spaces at the ends": ("  Ana  Bo ", "Ana Bo"),
}

ACCOUNT = "Darya"


def nobody(client: TestClient, n: int) -> TestClient:
    """A program with no session, from an address of its own."""
    return from_address(client, f"10.0.{n // 250}.{n % 250 + 1}")


counter = iter(range(10_000))


def create(client: TestClient, name: str) -> tuple[Any, Callable[[], str | None]]:
    made = nobody(client, next(counter)).post(
        "/api/tables", json={"game": "durak", "seats": ["human", "human"], "name": name})
    return made, lambda: client.get(f"/api/tables/{made.json()['table']}").json()[
        "seats"][0]["name"]


def join(client: TestClient, name: str) -> tuple[Any, Callable[[], str | None]]:
    table = nobody(client, next(counter)).post(
        "/api/tables", json={"game": "durak", "seats": ["human", "human"]}).json()["table"]
    joined = nobody(client, next(counter)).post(f"/api/tables/{table}/join",
                                                json={"name": name})
    return joined, lambda: client.get(f"/api/tables/{table}").json()["seats"][1]["name"]


def quick_play(client: TestClient, name: str) -> tuple[Any, Callable[[], str | None]]:
    body = {"game": "durak", "players": 2, "bots_after": None}
    first = nobody(client, next(counter))
    ticket = first.post("/api/quick-play", json={**body, "name": name})

    def shown() -> str | None:
        nobody(client, next(counter)).post("/api/quick-play", json=body)
        matched = first.get(f"/api/quick-play/{ticket.json()['ticket']}").json()
        seats = client.get(f"/api/tables/{matched['table']}").json()["seats"]
        return seats[matched["seat"]]["name"]

    return ticket, shown


def guest(client: TestClient, name: str) -> tuple[Any, Callable[[], str | None]]:
    browser = nobody(client, next(counter))
    browser.get("/api/me")
    return (browser.post("/api/me/name", json={"name": name}),
            lambda: browser.get("/api/me").json()["name"])


PATHS = {"create": create, "join": join, "quick play": quick_play, "guest": guest}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", BAD)
def test_a_bad_name_is_refused_at_every_path_that_sets_one(
        client: TestClient, case: str, path: str) -> None:
    assert register(nobody(client, next(counter)), ACCOUNT).status_code == 201
    name, code = BAD[case]
    answer, _ = PATHS[path](client, name)
    assert (answer.status_code, answer.json()["code"]) == (422, code), answer.text


def test_a_refused_name_makes_no_table_and_keeps_the_guests_name(client: TestClient) -> None:
    made, _ = create(client, "Ana\u202e")
    assert made.status_code == 422 and client.get("/api/tables").json() == []
    browser = nobody(client, next(counter))
    before = browser.get("/api/me").json()["name"]
    assert browser.post("/api/me/name", json={"name": "\u3164"}).status_code == 422
    assert browser.get("/api/me").json()["name"] == before


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", GOOD)
def test_a_good_name_is_kept_and_shown_at_every_path(
        client: TestClient, case: str, path: str) -> None:
    given, kept = GOOD[case]
    answer, shown = PATHS[path](client, given)
    assert answer.status_code in (200, 201), answer.text
    assert shown() == kept


@pytest.mark.parametrize("case", BAD)
def test_registration_takes_none_of_the_bad_names_as_a_username(
        client: TestClient, case: str) -> None:
    # the username is the account's first display name; its rule (3 to 20 of a-z, 0-9, _)
    # is narrower than the display name's, and the taken one is refused in any case
    assert register(nobody(client, next(counter)), ACCOUNT).status_code == 201
    name, code = BAD[case]
    answer = register(nobody(client, next(counter)), name)
    expected = {"invalid_text": (422, "invalid_text"),
                "name_taken": (409, "username_taken")}.get(code, (422, "invalid_username"))
    assert (answer.status_code, answer.json()["code"]) == expected


@pytest.mark.parametrize("name", ["darya", "DARYA", "Ｄａｒｙａ", " Darya "])
def test_no_guest_or_seat_poses_as_an_account_in_any_case_or_width(
        client: TestClient, name: str) -> None:
    assert register(nobody(client, next(counter)), ACCOUNT).status_code == 201
    for path in (create, join, quick_play, guest):
        answer, _ = path(client, name)
        assert (answer.status_code, answer.json()["code"]) == (422, "name_taken"), path


def test_an_account_may_show_its_own_username_but_not_anothers(client: TestClient) -> None:
    darya = nobody(client, next(counter))
    register(darya, ACCOUNT)
    register(nobody(client, next(counter)), "anna_k")
    assert darya.post("/api/me/name", json={"name": "Darya K"}).status_code == 200
    back = darya.post("/api/me/name", json={"name": "DARYA"})
    assert back.status_code == 200 and back.json()["name"] == "DARYA"
    other = darya.post("/api/me/name", json={"name": "Anna_K"})
    assert (other.status_code, other.json()["code"]) == (422, "name_taken")


def test_a_seat_name_is_not_read_when_the_player_has_a_session(client: TestClient) -> None:
    darya = nobody(client, next(counter))
    register(darya, ACCOUNT)
    made = darya.post("/api/tables", json={"game": "durak", "seats": ["human", "human"],
                                           "name": "\u3164"})
    assert made.status_code == 201   # the seat shows the account's name, not this one
    seats = client.get(f"/api/tables/{made.json()['table']}").json()["seats"]
    assert seats[0]["name"] == ACCOUNT


# -- the rule itself ------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "code"), [
    ("Ana\x00", "name_control"),           # the rule refuses it too, behind the border
    ("Ana\u2028Bo", "name_control"),       # a line separator
    ("Ana\u2066Bo", "name_control"),       # a bidi isolate
    ("Ana\u200bBo", "name_control"),       # a zero-width space
    ("Ana\u00ad", "name_control"),         # a soft hyphen
    ("Ana\ue000", "name_control"),         # private use
    ("\u200dAna", "name_control"),         # a joiner joining nothing
    ("dar\u200dya", "name_control"),       # a joiner between Latin letters shows nothing
    ("Дар\u200cья", "name_control"),       # nor between Cyrillic ones
    ("Ana \u200c Bo", "name_control"),
    ("Ana\U000e0067", "name_control"),     # a tag character after no flag
    ("\u115f\u1160\uffa0", "name_invisible"),
    ("\u0301", "name_invisible"),          # a mark on nothing
    ("\u3000\u3164", "name_invisible"),
    (12, "invalid_name"),
    ("x" * (MAX_NAME + 1), "invalid_name"),
])
def test_the_rule_refuses(name: Any, code: str) -> None:
    assert shown_name_or_code(name) == code


@pytest.mark.parametrize(("name", "kept"), [
    ("Z" + "\u0336" * MAX_MARKS, "Z" + "\u0336" * MAX_MARKS),
    ("שָּׁלוֹם", "שָּׁלוֹם"),   # pointed Hebrew: three marks on the shin
    ("Ana\u00a0\u3000Bo", "Ana Bo"),    # every kind of space is one space
    ("x" * MAX_NAME, "x" * MAX_NAME),
    ("\U0001f469\u200d\U0001f373", "\U0001f469\u200d\U0001f373"),   # an emoji sequence
    ("\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
     "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"),  # Scotland
])
def test_the_rule_keeps(name: str, kept: str) -> None:
    assert shown_name_or_code(name) == kept


def test_more_marks_on_one_character_than_the_bound_are_refused() -> None:
    assert shown_name_or_code("Z" + "\u0336" * (MAX_MARKS + 1)) == "name_marks"
    # the bound is per character: marks on every letter of a word are fine
    assert shown_name_or_code("Z\u0336" * 10) == "Z\u0336" * 10


@pytest.mark.parametrize("name", ["admin", "Moderator", "System", "Deleted player 3f9a",
                                  "ＡＤＭＩＮ", "Mod-erator", "cardtable_team"])
def test_a_name_that_passes_for_the_sites_own_voice_is_refused(
        client: TestClient, name: str) -> None:
    browser = nobody(client, next(counter))
    answer = browser.post("/api/me/name", json={"name": name})
    assert (answer.status_code, answer.json()["code"]) == (422, "name_reserved"), answer.text
    username = "".join(char for char in name.lower() if char.isascii() and (
        char.isalnum() or char == "_"))
    if len(username) >= 3:
        answer = register(nobody(client, next(counter)), username)
        assert (answer.status_code, answer.json()["code"]) == (422, "name_reserved")


def test_a_password_holding_the_username_is_refused(client: TestClient) -> None:
    answer = nobody(client, next(counter)).post("/api/account/register", json={
        "username": "darya_k", "password": "my name is Darya_K!"})
    assert (answer.status_code, answer.json()["code"]) == (422, "password_common")


def test_a_name_that_looks_like_an_accounts_username_is_refused(client: TestClient) -> None:
    """Confusable skeletons (UTS #39): a whole-Cyrillic ``сосо`` beside the account
    ``coco``, ``rnary`` beside ``mary``, ``bi11`` beside ``bill``, at every path; the
    account itself may show its own username's look-alike, and a name that only shares
    letters is taken."""
    for username in ("coco", "mary", "bill"):
        assert register(nobody(client, next(counter)), username).status_code == 201
    for alike in ("\u0441\u043e\u0441\u043e", "rnary", "bi11", "Bi1l"):
        for path in PATHS.values():
            answer, _ = path(client, alike)
            assert (answer.status_code, answer.json().get("code")) == (
                422, "name_confusable"), (alike, answer.text)
    answer, shown = guest(client, "Coconut")
    assert answer.status_code == 200 and shown() == "Coconut"
    owner = nobody(client, next(counter))
    assert register(owner, "rnarco").status_code == 201
    assert owner.post("/api/me/name", json={"name": "marco"}).status_code == 200


def test_a_username_that_looks_like_a_taken_one_is_refused(client: TestClient) -> None:
    assert register(nobody(client, next(counter)), "bill").status_code == 201
    for alike in ("bi11", "bil1", "Bi1l"):
        answer = register(nobody(client, next(counter)), alike)
        assert (answer.status_code, answer.json().get("code")) == (
            409, "username_confusable"), alike
    assert register(nobody(client, next(counter)), "billy").status_code == 201


def test_a_username_or_name_that_looks_like_an_accounts_display_name_is_refused(
        client: TestClient) -> None:
    """The account ``zed_k`` shows itself as ``Mary``: a sign-up as ``rnary`` or ``MARY``
    would pass for it, and is refused with a sentence naming whom it looks like (the
    guest who tried stays a guest); so is a guest or a seat called ``rnary``.  Once
    ``zed_k`` shows another name, ``mary`` is free."""
    zed = nobody(client, next(counter))
    assert register(zed, "zed_k").status_code == 201
    assert zed.post("/api/me/name", json={"name": "Mary"}).status_code == 200
    for alike in ("rnary", "MARY", "Mary"):
        hopeful = nobody(client, next(counter))
        hopeful.get("/api/me")
        answer = register(hopeful, alike)
        assert (answer.status_code, answer.json().get("code")) == (
            409, "username_confusable"), (alike, answer.text)
        assert "'Mary'" in answer.json()["detail"]
        assert "choose another" in answer.json()["detail"]
        assert hopeful.get("/api/me").json()["kind"] == "guest"
    for path in PATHS.values():
        answer, _ = path(client, "rnary")
        assert (answer.status_code, answer.json().get("code")) == (
            422, "name_confusable"), answer.text
        assert "'Mary'" in answer.json()["detail"]
    assert zed.post("/api/me/name", json={"name": "rnary"}).status_code == 200   # its own
    assert zed.post("/api/me/name", json={"name": "Zed"}).status_code == 200
    assert register(nobody(client, next(counter)), "mary").status_code == 201


@pytest.mark.parametrize(("name", "code"), [
    ("M0derator", "name_reserved"), ("Adm\u0131n", "name_reserved"),   # a dotless i
    ("SYST\u0395M", "name_mixed_scripts")])                            # a Greek E
def test_the_sites_own_voice_is_refused_in_look_alike_letters(
        client: TestClient, name: str, code: str) -> None:
    answer = nobody(client, next(counter)).post("/api/me/name", json={"name": name})
    assert (answer.status_code, answer.json()["code"]) == (422, code), answer.text


def test_the_word_filter_reads_a_name_as_it_looks() -> None:
    from cardtable.server.people.words import offending
    assert offending("f\u057dck", name=True) == "fuck"   # an Armenian letter for the u
    assert offending("f\u057dck") is None                # a chat line is read word by word


def test_accounts_made_before_the_skeletons_are_found_by_theirs(tmp_path: Path) -> None:
    """The migration that adds each username's skeleton fills it in for the accounts
    already there, so an old account is as safe from look-alikes as a new one."""
    from alembic import command
    from alembic.config import Config

    from cardtable.server.store.players import PlayerStore
    from cardtable.server.store.storage import Storage, sqlite_url

    storage = Storage(sqlite_url(tmp_path))
    here = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "store"
    config = Config(str(here / "alembic.ini"))
    config.set_main_option("script_location", str(here / "migrations"))
    with storage.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0013_origins")
        connection.exec_driver_sql(
            "INSERT INTO players (id, kind, name, username, username_key, password_hash, "
            "created) VALUES ('old', 'account', 'Coco', 'Coco', 'coco', 'x', "
            "'2026-01-01 00:00:00.000000')")
        connection.exec_driver_sql(
            "INSERT INTO players (id, kind, name, username, username_key, password_hash, "
            "created) VALUES ('shown', 'account', 'Mary', 'zed_k', 'zed_k', 'x', "
            "'2026-01-01 00:00:00.000000')")
    storage.migrate()
    try:
        found = PlayerStore(storage).by_skeleton("\u0441\u043e\u0441\u043e")
        assert found is not None and found.id == "old"
        assert PlayerStore(storage).by_skeleton("Cocoa") is None
        by_name = PlayerStore(storage).by_skeleton("rnary")
        assert by_name is not None and by_name.id == "shown"
    finally:
        storage.close()
