"""No seat key in any URL: the page plays a table through the shipped nginx file
(``deploy/nginx/cardtable.conf``, run by ``benchmarks/proxy.py``) and neither the socket's
URL nor any line of nginx's access or error log holds the seat's key; the access log has a
line for the socket, with its request id.

A seat key alone plays a guest's seat, and proxies write down every URL: the key rides in
the ``Sec-WebSocket-Protocol`` header instead.
"""

from __future__ import annotations

import random
import re
import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    click_durak_move,
    create_table,
    serving,
    turn_now,
    wait_for_next_version,
    wait_for_turn_or_end,
)

from cardtable.server import create_app

pytestmark = [pytest.mark.browser, pytest.mark.services]

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from proxy import Nginx  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def behind_nginx(tmp_path: Path) -> Iterator[tuple[str, Nginx]]:
    """The web table in a thread, and nginx with the shipped site file in front of it."""
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.skip("nginx is not installed (Debian: apt-get install nginx)")
    app = create_app(data_dir=tmp_path / "data", bot_delay=0, grace=600)
    with serving(app) as url:
        proxy = Nginx([url.removeprefix("http://")], free_port(), tmp_path / "nginx")
        try:
            yield proxy.base, proxy
        finally:
            proxy.stop()


def test_the_page_plays_behind_nginx_and_no_log_line_holds_its_seat_key(
        browser: Any, behind_nginx: tuple[str, Nginx]) -> None:
    base, proxy = behind_nginx
    context = browser.new_context()
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    keys: list[str] = []
    sockets: list[str] = []

    def on_response(response: Any) -> None:
        if response.request.method == "POST" and response.url.endswith("/api/tables"):
            keys.append(str(response.json().get("token", response.text())))

    page.on("response", on_response)
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(base + "/")
        create_table(page, "durak", seats=["human", "bot:random"])
        page.click(".created .open-table")
        played, rng = 0, random.Random(7)
        while played < 3 and wait_for_turn_or_end(page):
            version, moves = turn_now(page)
            if not moves or moves == ["pass"]:
                continue
            click_durak_move(page, rng.choice(moves), via_table=False)
            wait_for_next_version(page, version)
            played += 1
        assert played == 3, "the page did not play through nginx"
    finally:
        context.close()
    assert not errors, errors
    assert len(keys) == 1 and len(keys[0]) >= 24
    assert sockets and all("?" not in url for url in sockets), sockets
    proxy.stop()   # nginx writes its buffers out
    access = (proxy.folder / "access.log").read_text(errors="replace")
    logs = access + proxy.log()
    assert keys[0] not in logs
    socket_lines = [line for line in access.splitlines() if "/ws/tables/" in line]
    assert socket_lines, access[-2000:]
    assert all(re.search(r" id=[0-9a-f]{32} ", line) for line in socket_lines), socket_lines
