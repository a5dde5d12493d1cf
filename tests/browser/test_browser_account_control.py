"""The account's control in the page: from the account screen to "Account
settings"; change the password, sign out everywhere, delete the account; the password
reset's page takes the link's token out of the address bar; Persian right to left."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from browserkit import screenshot

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
NEW = "a new and better secret"


def origin(page: Any) -> str:
    return "/".join(page.url.split("/")[:3])


def signed_in(open_page: Any, **options: Any) -> tuple[Any, str]:
    """A page that registered a new account through the account screen."""
    page = open_page("/#account", **options)
    name = f"ctl_{secrets.token_hex(3)}"
    page.fill("#register input[name=username]", name)
    page.fill("#register input[name=password]", PASSWORD)
    page.click("#register button[type=submit]")
    page.locator("#sign-out").wait_for()
    return page, name


def test_a_new_password_and_signing_out_everywhere_from_the_page(open_page: Any) -> None:
    page, name = signed_in(open_page)
    page.click("#account-control-link")
    page.locator("#change-password").wait_for()
    assert page.title().startswith("Account settings")
    page.fill("#current-password", PASSWORD)
    page.fill("#new-password", "password1")
    page.click("#change-password button[type=submit]")
    assert page.locator("p.error").inner_text() == (
        "Could not do that: That password is one of the most common ones, the first an "
        "attacker would try; choose another (a few words of your own make a good one).")
    page.fill("#current-password", PASSWORD)
    page.fill("#new-password", NEW)
    page.click("#change-password button[type=submit]")
    assert page.locator("p.done").inner_text() == \
        "Password changed; 0 other sessions were signed out."
    screenshot(page, "account-control")
    page.click("#sign-out-everywhere")
    page.locator("p.done", has_text="Signed out everywhere").wait_for()
    page.locator("#account-badge", has_text="Guest").wait_for()
    signed = page.request.post(origin(page) + "/api/account/login",
                               data={"username": name, "password": NEW})
    assert signed.status == 200


def test_deleting_the_account_from_the_page(open_page: Any) -> None:
    page, name = signed_in(open_page)
    page.goto(page.url.split("#")[0] + "#account/control")
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-account button[type=submit]")
    page.locator("p.done", has_text="Your account is deleted.").wait_for()
    page.locator("#account-badge", has_text="Guest").wait_for()
    assert page.request.get(f"{origin(page)}/api/players/{name}").status == 404


def test_the_reset_page_hides_the_token_and_says_a_bad_link_in_words(open_page: Any) -> None:
    page = open_page("/#reset=not-a-real-token")
    page.locator("#new-password").wait_for()
    assert page.url.endswith("/#reset")   # the token left the address bar
    page.fill("#reset-password", NEW)
    page.click("#new-password button[type=submit]")
    assert page.locator("p.error").inner_text() == ("Could not do that: This reset link is "
                                                    "wrong, already used or out of date: "
                                                    "ask for a new one.")
    page.goto(page.url.split("#")[0] + "#account")
    page.click("#forgot-password")
    page.locator("#ask-reset").wait_for()


def test_account_settings_in_persian_read_right_to_left(open_page: Any) -> None:
    page, _ = signed_in(open_page, locale="fa-IR")
    page.click("#account-control-link")
    page.locator("#change-password").wait_for()
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.locator(".account-control h2").inner_text() == "تنظیمات حساب"
    assert page.locator("#sign-out-everywhere").inner_text() == "خروج از همه‌جا"
    screenshot(page, "account-control-fa")


def test_the_moderation_screen_tells_a_player_who_is_no_admin(open_page: Any) -> None:
    page = open_page("/#admin")
    assert page.locator(".admin p.error").inner_text() == "Only an admin may do that."
    assert page.title().startswith("Moderation")
