"""Common passwords are refused at registration (422 ``password_common``): those on the
shipped list in any case, a listed word with a short ending, and their letter-for-digit
spellings; the list is package data."""

from __future__ import annotations

import tomllib
from pathlib import Path

from fastapi.testclient import TestClient
from playerkit import app_client, fresh, register

from cardtable.server.people import passwords

__all__ = ["app_client"]   # the fixture

ROOT = Path(__file__).resolve().parents[2]


def refusal(client: TestClient, password: str) -> tuple[int, str | None]:
    answer = register(fresh(client), "darya", password)
    return answer.status_code, answer.json().get("code")


def test_passwords_on_the_list_are_refused_in_any_case(app_client: TestClient) -> None:
    for password in ("12345678", "password", "PASSWORD", "Qwertyuiop", "iloveyou"):
        assert refusal(app_client, password) == (422, "password_common"), password
    assert "12345678" in passwords.common() and "password" in passwords.common()


def test_a_listed_word_with_a_short_ending_is_refused(app_client: TestClient) -> None:
    for password in ("Password1", "dragon2000", "123qwerty!", "football 99", "Durak2024"):
        assert refusal(app_client, password) == (422, "password_common"), password


def test_letter_for_digit_spellings_of_a_listed_word_are_refused(
        app_client: TestClient) -> None:
    for password in ("P@ssw0rd", "p4ssw0rd!", "l3tm31n1", "$unsh1ne"):
        assert refusal(app_client, password) == (422, "password_common"), password


def test_passwords_from_real_breaches_and_short_patterns_are_refused(
        app_client: TestClient) -> None:
    """What the project's own list lacked, from zxcvbn's lists of breached passwords and
    its patterns: each guessed in under 10^8 tries."""
    for password in ("Abcd@1234", "12qwaszx", "azertyui", "ghbdtnbr"):
        assert password.lower() not in passwords.common()
        assert refusal(app_client, password) == (422, "password_common"), password


def test_a_password_holding_the_username_backwards_or_spelled_out_is_refused(
        app_client: TestClient) -> None:
    """Strong enough as they stand (each is taken by another username), but each spells
    the account's own: backwards, with marks between its letters, or as part of it."""
    for password in ("velvet rehsav anchor", "V-A-S-H-E-R tulip 9"):
        assert register(fresh(app_client), "vasher", password).json()["code"] == (
            "password_common"), password
        assert register(fresh(app_client), f"other_{len(password)}", password).status_code == (
            201), password
    answer = register(fresh(app_client), "qz7_kavrolith_ux", "kavrolith")
    assert answer.json()["code"] == "password_common"


def test_a_good_password_is_taken(app_client: TestClient) -> None:
    answer = register(fresh(app_client), "darya", "tulip velvet anchor")
    assert answer.status_code == 201 and answer.json()["username"] == "darya"
    # a listed word inside a longer password of one's own is no common password
    assert register(fresh(app_client), "anna_k", "my dragon sleeps at noon").status_code == 201


def test_the_list_is_package_data_of_lower_case_entries() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = data["tool"]["setuptools"]["package-data"]["cardtable"]
    assert f"server/people/{passwords.FILE}" in shipped
    listed = passwords.common()
    assert len(listed) >= 1000
    assert all(entry == entry.casefold() and entry == entry.strip() for entry in listed)


def test_the_server_hashes_at_argon2s_recommended_cost() -> None:
    """The suite hashes cheaply in its own process (``tests/cheap_passwords.py``); a server
    process hashes with argon2id at the library's recommended cost, its dummy hash (the
    cost of an unknown name's sign-in) too."""
    import subprocess
    import sys

    from argon2 import PasswordHasher, extract_parameters

    shown = subprocess.run(
        [sys.executable, "-c", "from cardtable.server.web import accounts as a; "
         "print(a.hash_password('pw')); print(a._DUMMY)"],
        capture_output=True, text=True, check=True).stdout.split()
    recommended = PasswordHasher()
    for digest in shown:
        assert digest.startswith("$argon2id$")
        parameters = extract_parameters(digest)
        assert (parameters.time_cost, parameters.memory_cost, parameters.parallelism) == (
            recommended.time_cost, recommended.memory_cost, recommended.parallelism)
