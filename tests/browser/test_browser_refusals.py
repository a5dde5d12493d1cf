"""Refusals in the player's language: the server's code, said by the page's own text.

The page never sends a stale or illegal move of itself any more, so these tests change its
messages on the way (Playwright's WebSocket routing), as a confused or old client would.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browserkit import create_table, legal_moves, table_root, wait_for_turn_or_end

pytestmark = pytest.mark.browser

RUSSIAN = {  # lang/codes/ru.js
    "illegal_move": "Этот ход сейчас сделать нельзя.",
}


def rewriting(page: Any) -> dict:
    """Route the table's socket through the test: ``rewrite["move"]`` (a function of the
    page's move message) changes the next move the page sends."""
    rewrite: dict[str, Any] = {"move": None}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            change = rewrite["move"]
            if data.get("type") == "move" and change is not None:
                rewrite["move"] = None
                data = change(data)
            server.send(json.dumps(data))

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    return rewrite


def first_action(page: Any) -> Any:
    """The button that plays this seat's first move (take, or an attack with one card)."""
    legal = legal_moves(page)
    if "take" in legal:
        return page.locator('.actions button[data-action="take"]')
    attack = next(m for m in legal if m.startswith("attack ") and len(m.split()) == 2)
    page.click(f'.hand-cards button.card[data-card="{attack.split()[1]}"]')
    return page.locator('.actions button[data-action="attack"]:not([disabled])')


def test_a_refused_move_is_said_in_russian_and_a_stale_one_quietly(open_page) -> None:
    page = open_page("/", locale="ru-RU", reduced_motion=True)
    rewrite = rewriting(page)
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    version = table_root(page).get_attribute("data-version")

    # A move chosen at an older version: no message, the controls unlock, the same turn.
    rewrite["move"] = lambda data: {**data, "version": data["version"] - 1}
    first_action(page).click()
    page.wait_for_function("() => !document.querySelector('#table-root.sent')")
    assert page.locator(".toast.error").count() == 0
    assert table_root(page).get_attribute("data-version") == version
    assert table_root(page).get_attribute("data-my-turn") == "true"

    # A move the rules refuse: the Russian text for its code, no English.
    rewrite["move"] = lambda data: {**data, "move": "pass" if data["move"] == "take"
                                    else "take"}
    first_action(page).click()
    toast = page.locator('.toast.error[data-code="illegal_move"]')
    toast.wait_for()
    assert toast.inner_text().strip() == RUSSIAN["illegal_move"]
    assert not re.search(r"[A-Za-z]", toast.inner_text())
    assert table_root(page).get_attribute("data-my-turn") == "true"


def test_a_move_cut_off_by_a_restart_is_sent_again_once_without_a_word(open_page) -> None:
    """A process that stops (a deploy) refuses a move as ``moved`` and closes the socket
    with 1012; the page says nothing, connects again and sends the move again, at the
    same version, so that it is played once."""
    page = open_page("/", reduced_motion=True)
    cut = {"armed": False, "sockets": 0}
    forwarded: list[dict] = []

    def route(ws: Any) -> None:
        cut["sockets"] += 1
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "move" and cut["armed"]:
                cut["armed"] = False   # as a stopping process answers it
                ws.send(json.dumps({"type": "error", "code": "moved", "reason":
                                    "this server no longer plays this table; connect again"}))
                ws.close(code=1012, reason="the server is restarting")
                return
            if data.get("type") == "move":
                forwarded.append(data)
            server.send(json.dumps(data))

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    version = int(table_root(page).get_attribute("data-version") or "0")
    cut["armed"] = True
    first_action(page).click()
    page.wait_for_function("v => Number(document.querySelector('#table-root')"
                           ".dataset.version) > v", arg=version)
    assert cut["sockets"] == 2 and not cut["armed"]
    assert [m["version"] for m in forwarded] == [version]   # sent again, once, as it was
    assert page.locator(".toast.error").count() == 0
