"""Fixtures for every test (loaded as a plugin, see pyproject.toml): the third game,
registered as a new game would be."""

from __future__ import annotations

import pytest

from cardtable import games
from cardtable.game import GameSpec


@pytest.fixture
def highcard(monkeypatch: pytest.MonkeyPatch) -> GameSpec:
    """High Card (``tests/highcard.py``), registered with one line, for this test only."""
    monkeypatch.setitem(games.GAMES, "highcard", "highcard")
    return games.get("highcard")
