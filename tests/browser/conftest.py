"""Browser tests: the real server (uvicorn on a free port, a fresh SQLite folder, bots
without delay) and Debian's Chromium driven by Playwright.

Every page is checked for script errors: a test fails if the page threw one.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

warnings.filterwarnings("ignore", message=".*httpx2.*")

from browserkit import DESKTOP, GAMES_FOR_A_LABEL, serving  # noqa: E402

from cardtable.server import create_app  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 20_000


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The web table on 127.0.0.1, served by uvicorn in a background thread.  Every page
    of the run comes from this one address: the rates of new accounts and guests a real
    address has (10 and 100 an hour) are the server tests' to check, not a limit on how
    many browser tests sign up or first visit."""
    app = create_app(data_dir=tmp_path_factory.mktemp("web-data"), bot_delay=0, grace=600,
                     register_per_address="1000/hour", guests_per_address="10000/hour")
    with serving(app) as url:
        yield url


@pytest.fixture(scope="session")
def roomy_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second web table with no rate of new tables, for the tests that make many from
    this one address (a module asks for it by overriding ``server_url``)."""
    app = create_app(data_dir=tmp_path_factory.mktemp("roomy-data"), bot_delay=0, grace=600,
                     tables_per_address="", register_per_address="1000/hour",
                     guests_per_address="10000/hour")
    with serving(app) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's Chromium is not installed at /usr/bin/chromium "
                    "(apt-get install chromium; .ci/run does it)")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser: Any, server_url: str) -> Iterator[Callable[..., Any]]:
    """Open a page in a fresh browser context (its own localStorage: another person).

    What its pages write to the console as errors is kept in ``open_page.console`` (the
    page's URL, the message), for a test that holds every page to none."""
    contexts = []
    errors: list[str] = []
    console: list[str] = []

    def open_(path: str = "/", *, locale: str = "en-US", viewport: dict | None = None,
              reduced_motion: bool = False) -> Any:
        context = browser.new_context(locale=locale, viewport=viewport or DESKTOP,
                                      reduced_motion="reduce" if reduced_motion else None)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: console.append(f"{page.url}: {message.text}")
                if message.type == "error" else None)
        page.goto(server_url + path)
        return page

    open_.console = console  # type: ignore[attr-defined]
    yield open_
    for context in contexts:
        context.close()
    assert not errors, f"the page threw: {errors}"


@pytest.fixture(scope="session")
def analysed_pasur(server_url: str) -> str:
    """A finished Pasur hand between two random bots, analysed, with at least one labelled
    move: the table's id (for the pages of the analysis board, whose graphs then have
    marks)."""
    import time

    import httpx

    with httpx.Client(base_url=server_url, timeout=30) as client:
        for _ in range(GAMES_FOR_A_LABEL):
            made = client.post("/api/tables", json={
                "game": "pasur", "options": {"fixed_hands": 1},
                "seats": ["bot:random", "bot:random"]})
            table = made.json()["table"]
            for _ in range(600):
                if client.get(f"/api/tables/{table}").json()["over"]:
                    break
                time.sleep(0.2)
            client.post(f"/api/tables/{table}/analysis")
            for _ in range(1200):
                now = client.get(f"/api/tables/{table}/analysis").json()
                if now["status"] == "done":
                    break
                time.sleep(0.5)
            if now["status"] == "done" and any(m["label"] for m in now["analysis"]["moves"]):
                return table
    raise AssertionError(f"none of {GAMES_FOR_A_LABEL} random Pasur hands had a labelled move")
