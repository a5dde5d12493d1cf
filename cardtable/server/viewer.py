"""Watch a web table from the terminal: one line per state, with whose turn it is, the
clock of the seat to move, and who is connected.

``python -m cardtable.server.viewer http://127.0.0.1:8000/table/ID`` (or ``cardtable
watch-table URL``) connects as a watcher (or, with ``--token``, as the seat's player,
who sees their own hand in the view) and prints until the game ends.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from urllib.parse import urlsplit, urlunsplit

from .core.wire import seat_protocols

__all__ = ["clock_text", "main", "socket_url", "status_line", "watch"]


def clock_text(seconds: float) -> str:
    """Seconds left as ``m:ss``, rounded up (a clock at 0.2 s has not run out).

    >>> clock_text(75), clock_text(0.2), clock_text(0)
    ('1:15', '0:01', '0:00')
    """
    whole = max(0, -int(-seconds // 1))
    return f"{whole // 60}:{whole % 60:02d}"


def _obj(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _seat_name(state: Mapping[str, object], seat: object) -> str:
    seats = _list(state.get("seats"))
    info = _obj(seats[seat]) if isinstance(seat, int) and 0 <= seat < len(seats) else {}
    shown = f"seat {seat + 1}" if isinstance(seat, int) else "?"
    name = info.get("name") or (f"bot {info['bot']}" if info.get("bot") else shown)
    rating = _obj(state.get("ratings")).get(str(seat))
    return f"{name} ({rating})" if rating is not None else str(name)


def _seconds(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def status_line(state: Mapping[str, object]) -> str:
    """One state as a line: the move count, whose turn with their clock, the last move, and
    each seat (``*`` marks a connected person).

    >>> line = status_line({"version": 3, "status": "playing", "over": False, "to_move": 1,
    ...     "last_move": {"seat": 0, "move": "attack 9♣"},
    ...     "seats": [{"seat": 0, "kind": "human", "name": "Ana", "connected": True},
    ...               {"seat": 1, "kind": "human", "name": "Bo", "connected": False}],
    ...     "clock": {"seat": 1, "move_left": 12.3, "bank_left": 60}})
    >>> print(line)
    #3  Bo to move 0:13 + 1:00  last: Ana attack 9♣  | *Ana  Bo
    """
    parts = [f"#{state.get('version', 0)}"]
    if state.get("over"):
        how = _obj(state.get("summary")).get("ended", "over")
        parts.append(f"game over ({how})")
    elif state.get("status") == "waiting":
        parts.append("waiting for players")
    elif state.get("to_move") is not None:
        turn = f"{_seat_name(state, state['to_move'])} to move"
        clock = _obj(state.get("clock"))
        if clock and clock.get("seat") == state["to_move"]:
            turn += (f" {clock_text(_seconds(clock.get('move_left')))} + "
                     f"{clock_text(_seconds(clock.get('bank_left')))}")
        parts.append(turn)
    last = _obj(state.get("last_move"))
    if last:
        parts.append(f"last: {_seat_name(state, last.get('seat'))} {last.get('move')}")
    shown = [_obj(s) for s in _list(state.get("seats"))]
    seats = "  ".join(("*" if s.get("connected") else "") + _seat_name(state, s.get("seat"))
                      for s in shown)
    return "  ".join(parts) + f"  | {seats}"


def socket_url(page_url: str) -> str:
    """The table's WebSocket from its page's address (``/table/ID``); a seat's key goes
    in the subprotocols (``core.wire.seat_protocols``), never in this URL.

    >>> socket_url("https://example.org/table/abc")
    'wss://example.org/ws/tables/abc'
    """
    parts = urlsplit(page_url)
    table = parts.path.rstrip("/").rsplit("/", 1)[-1]
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, f"/ws/tables/{table}", "", ""))


def watch(page_url: str, token: str | None = None, *, once: bool = False,
          out: Callable[[str], None] = print) -> dict[str, object] | None:
    """Print a line per state until the game is over (``once``: the first state only);
    returns the last state."""
    from websockets.sync.client import connect

    last = None
    with connect(socket_url(page_url),
                 subprotocols=seat_protocols(token)) as ws:  # type: ignore[arg-type]
        for text in ws:
            message = json.loads(text)
            if message.get("type") == "error":
                out(f"! {message.get('reason')}")
                continue
            if message.get("type") != "state":
                continue
            last = message
            out(status_line(message))
            if once or message.get("over"):
                break
    return last


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the table's page, such as http://127.0.0.1:8000/table/ID")
    parser.add_argument("--token", default=None, help="a seat's token (default: watch)")
    parser.add_argument("--once", action="store_true", help="print the first state and stop")
    args = parser.parse_args(argv)
    try:
        watch(args.url, args.token, once=args.once)
    except (OSError, KeyboardInterrupt) as error:
        print(f"stopped: {error}", file=sys.stderr)


if __name__ == "__main__":
    main()
