"""No test sees another test's event loop as running (loaded as a plugin, see pyproject.toml).

Playwright's sync API, held open for the whole worker by the browser tests' session
fixture, marks its own loop as the main thread's running loop between its calls.  A later
test in the same worker that calls ``asyncio.run`` (or anything that asks whether a loop
runs) would then be refused: "asyncio.run() cannot be called from a running event loop".
pytest itself runs no loop, so a loop marked running when a test that is not a browser test
starts is always one left by Playwright: it is unmarked for that test's setup, call and
teardown, and marked again afterwards for Playwright's next call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator

import pytest


def _drives_a_browser(item: pytest.Item) -> bool:
    """Whether ``item`` uses Playwright: marked so, or asking for the browser fixture
    (through ``open_page`` too), marked or not."""
    return (item.get_closest_marker("browser") is not None
            or "browser" in getattr(item, "fixturenames", ()))


def _unmarked(item: pytest.Item) -> Generator[None, object, object]:
    if _drives_a_browser(item):
        return (yield)
    held = asyncio._get_running_loop()
    if held is None:
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio._set_running_loop(held)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _unmarked(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _unmarked(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item,
                            nextitem: pytest.Item | None) -> Generator[None, object, object]:
    if nextitem is None:   # the session's fixtures end here: Playwright closes on its loop
        return (yield)
    return (yield from _unmarked(item))
