"""Nothing moves under the reader while the page fills in: the header keeps the room for the
inbox link, the account and the language chooser from the first paint, and the table's board
keeps its box while the table's state is on its way.

Measured as the browser measures it: the layout shifts (``PerformanceObserver`` of type
``layout-shift``, buffered from the page's start) summed, not a time.  A shift right after
a click or a key is the reader's own and the browser leaves it out (``hadRecentInput``).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browserkit import DESKTOP, PHONE

pytestmark = pytest.mark.browser

# Below 0.1 is what the browser's makers call a steady page; a header that grows, or a board
# drawn empty and then filled, pushes everything below it and passes that many times over.
STEADY = 0.1

SHIFTS = """() => new Promise((done) => {
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      shifts.push({ value: entry.value, moved: (entry.sources || []).map((s) => {
        const node = s.node;
        return node && node.nodeType === 1
          ? `${node.tagName.toLowerCase()}#${node.id}.${node.className}: y ${s.previousRect.y}`
            + ` h ${s.previousRect.height} -> y ${s.currentRect.y} h ${s.currentRect.height}`
          : String(node);
      }) });
    }
  }).observe({ type: "layout-shift", buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => done(shifts)));
})"""


def shifts_once_filled(page: Any) -> list[dict[str, Any]]:
    """The page's layout shifts once its header is filled in (the account known, the inbox
    asked) and the frames that followed are painted."""
    page.wait_for_selector("#account-badge:not(:empty)")
    page.wait_for_selector("#inbox-link:not(:empty)")
    page.wait_for_selector("#language")
    page.wait_for_timeout(500)   # the frames after the last fill (no network wait: the inbox polls)
    return list(page.evaluate(SHIFTS))


def a_table(server_url: str) -> str:
    """A new Pasur table of a person against a bot, as the benchmark's page (watched)."""
    made = httpx.post(server_url + "/api/tables", json={
        "game": "pasur", "seats": ["human", "bot:random"]}, timeout=30)
    return str(made.json()["table"])


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lobby_does_not_move_while_it_fills_in(open_page: Any, viewport: dict) -> None:
    page = open_page("/", viewport=viewport, reduced_motion=True)
    page.wait_for_selector("#main .lobby")
    shifts = shifts_once_filled(page)
    assert sum(s["value"] for s in shifts) < STEADY, shifts


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_table_does_not_move_while_its_state_arrives(open_page: Any, server_url: str,
                                                       viewport: dict) -> None:
    table = a_table(server_url)
    page = open_page(f"/table/{table}", viewport=viewport, reduced_motion=True)
    page.wait_for_selector("#table-root[data-version] .felt .card")
    shifts = shifts_once_filled(page)
    assert sum(s["value"] for s in shifts) < STEADY, shifts
