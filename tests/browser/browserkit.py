"""Driving the page like a person: the lobby's form, whose turn it is, and clicking moves.

Shared by the browser tests (imported as ``browserkit``, beside tablekit of the server tests).
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on a free port of 127.0.0.1, in a background thread."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # a page's socket or kept-alive fetch left open holds a graceful stop to the end of its
    # timeout (none by default: the join below gave up after 15 s, four modules a run)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web table did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


def screenshot(page: Any, name: str) -> Path:
    """Save a screenshot to artifacts/screenshots/ (gitignored) for people to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.wait_for_timeout(700)  # let the last card animations settle before the picture
    page.screenshot(path=str(path), full_page=False)
    return path


def create_table(page: Any, game: str, *, seats: list[str], options: dict[str, str] | None = None,
                 players: int | None = None) -> str:
    """Fill the lobby's form, create the table and return its id (the invite link's end)."""
    page.click(f"#game-{game}")
    if players is not None:
        page.select_option("#players", str(players))
    for index, kind in enumerate(seats):
        page.select_option(f"#seat-{index}", kind)
    if options:
        page.click("details.options summary")
        for name, value in options.items():
            page.fill(f"#opt-{name}", value)
            page.press(f"#opt-{name}", "Tab")
    page.click("button.create")
    link = page.locator(".created input.invite-link").input_value()
    assert "/table/" in link
    return link.rsplit("/table/", 1)[1]


def table_root(page: Any) -> Any:
    return page.locator("#table-root")


def wait_for_turn_or_end(page: Any) -> bool:
    """Wait until it is this page's turn (True) or the game is over (False)."""
    page.wait_for_selector('#table-root[data-my-turn="true"], #table-root[data-over="true"]')
    return table_root(page).get_attribute("data-over") != "true"


def legal_moves(page: Any) -> list[str]:
    return json.loads(table_root(page).get_attribute("data-legal") or "[]")


def turn_now(page: Any) -> tuple[str, list[str]]:
    """The table's version and this seat's legal moves, read together (two reads could
    straddle a new state: the page may pass by itself in between)."""
    version, legal = page.evaluate(
        "() => { const d = document.querySelector('#table-root').dataset;"
        " return [d.version, d.legal || '[]']; }")
    return version, json.loads(legal)


ANSWER_MS = 60_000
"""How long a move's answer may take to arrive: the server's write and the bot's reply,
which on a machine at several times its cores' load have taken over the page's 20 s (a
whole Pasur hand is some fifty of them).  What is checked stays the same; only the wait."""


def wait_for_next_version(page: Any, version: str) -> None:
    """Until the table has moved on from ``version``; if it does not, say what the page
    shows (a refusal, a lost connection, a move still waiting for its answer, or none
    sent) rather than only that the wait ran out."""
    try:
        page.wait_for_function(
            "v => document.querySelector('#table-root').dataset.version !== v", arg=version,
            timeout=ANSWER_MS)
    except Exception as error:
        seen = page.evaluate("""() => { const root = document.querySelector('#table-root');
          return { version: root.dataset.version, myTurn: root.dataset.myTurn,
                   connection: root.dataset.connection, sent: root.classList.contains('sent'),
                   toasts: [...document.querySelectorAll('.toast')].map((t) => t.innerText) }; }""")
        raise AssertionError(f"the table stayed at version {version}: {seen}") from error


def click_pasur_move(page: Any, move: str, *, via_table: bool) -> None:
    """Choose the hand card, then the capture: by its button or by the table card (a card
    with one move is played by its second tap when the player looks first, the default,
    by its first when the setting is off or the move is forced)."""
    card, _, rest = move.partition(" x ")
    alone = sum(1 for m in legal_moves(page) if m.partition(" x ")[0] == card) == 1
    hand_card = f'.hand-cards button.card[data-card="{card}"]'
    page.click(hand_card)
    if alone:
        # The click's handler has run: the card is chosen (look first) or the move sent.
        if page.locator(f"{hand_card}.selected").count():
            page.click(hand_card)
        return
    choices = page.locator(".choices button.choice")
    assert choices.count() >= 1
    taken = rest.split()
    if via_table and taken:
        # A table card that only this capture takes can be clicked instead of the button.
        others = [m for m in legal_moves(page) if m.startswith(card + " x ") and m != move]
        unique = [c for c in taken if not any(c in o.split(" x ")[1].split() for o in others)]
        if unique:
            page.click(f'.table-cards button.card.capturable[data-card="{unique[0]}"]')
            return
    page.click(f'.choices button.choice[data-move="{move}"]')


def click_durak_move(page: Any, move: str, *, via_table: bool) -> None:
    words = move.split()
    kind = words[0]
    if kind in ("attack", "transfer") and "show" not in words:
        for card in words[1:]:
            page.click(f'.hand-cards button.card[data-card="{card}"]')
        page.click(f'.actions button[data-action="{kind}"]:not([disabled])')
    elif kind == "defend":
        attack, beating = words[1], words[3]
        page.click(f'.hand-cards button.card[data-card="{beating}"]')
        if via_table:
            page.click(f'.battle button.card.beatable[data-card="{attack}"]')
        else:
            page.click(f'.choices button.beat[data-move="{move}"]')
    else:
        page.click(f'.actions button[data-move="{move}"]')


def play_to_the_end(page: Any, game: str, *, seed: int, max_moves: int = 400) -> int:
    """Play random legal moves by clicking until the game is over; return how many."""
    rng = random.Random(seed)
    played = 0
    while wait_for_turn_or_end(page):
        assert played < max_moves, "the game did not end"
        version, moves = turn_now(page)
        if not moves:
            continue   # the page passed by itself just now
        move = rng.choice(moves)
        if moves == ["pass"] and game == "durak":
            wait_for_next_version(page, version)   # the page passes by itself
            played += 1
            continue
        if game == "pasur":
            click_pasur_move(page, move, via_table=played % 2 == 1)
        else:
            click_durak_move(page, move, via_table=played % 2 == 1)
        wait_for_next_version(page, version)
        played += 1
    return played


def open_bot_table(open_page: Any, game: str, settings: dict | None = None) -> tuple[Any, list]:
    """A table against a random bot, opened with the table settings given (none stored: a
    newcomer's defaults), and the moves the page sends there."""
    page = open_page("/", reduced_motion=True)
    if settings is not None:
        page.evaluate("s => localStorage.setItem('cardtable.settings', s)", json.dumps(settings))
    moves = sent_moves(page)
    create_table(page, game, seats=["human", "bot:random"])
    page.click(".created .open-table")
    return page, moves


def sent_moves(page: Any) -> list[dict]:
    """Every "move" message the page sends on its table's socket, collected as they go."""
    moves: list[dict] = []

    def on_socket(socket: Any) -> None:
        def on_frame(payload: Any) -> None:
            try:
                message = json.loads(payload)
            except (TypeError, ValueError):
                return
            if isinstance(message, dict) and message.get("type") == "move":
                moves.append(message)
        socket.on("framesent", on_frame)

    page.on("websocket", on_socket)
    return moves


GAMES_FOR_A_LABEL = 8
"""Games tried at most for one with a labelled move: the server deals at random, and the
judge labels only the mistakes it is sure of, so a random game may have none (4 of the 12
analysed by the browser tests on 6 December 2026)."""
