"""The page's reconnect backoff survives sockets that open and close at once: it starts
again only once the table is heard (a state), so an outage where the server accepts and
closes every socket (1013: the database away) is asked less and less often, not twice a
second."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from browserkit import create_table

pytestmark = pytest.mark.browser


def test_the_backoff_grows_while_every_socket_is_closed_as_it_opens(open_page: Any) -> None:
    page = open_page("/", reduced_motion=True)
    create_table(page, "durak", seats=["human", "bot:random"])
    connects: list[int] = []

    def route(ws: Any) -> None:   # accepted, told why, then closed, as in an outage
        connects.append(1)
        ws.send(json.dumps({"type": "error", "code": "storage_unavailable",
                            "reason": "the database cannot be reached just now"}))
        ws.close(code=1013, reason="the database cannot be reached just now")

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    page.click(".created .open-table")
    deadline = time.monotonic() + 30
    while len(connects) < 4 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(connects) >= 4, connects
    status = page.locator("#table-root .conn.waiting")
    status.wait_for()
    # after the fourth refusal the wait is 500 ms x 2^3 (+-25%): 3 to 5 s, not half a second
    seconds = int(re.search(r"\d+", status.inner_text()).group(0))  # type: ignore[union-attr]
    assert seconds >= 3, status.inner_text()
