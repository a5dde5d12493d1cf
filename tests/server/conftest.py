"""Fixtures for the web table: an app on a fresh SQLite file whose lifespan runs."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402
from tablekit import MACHINE_SPEED  # noqa: E402

from cardtable.server import create_app  # noqa: E402


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Start an app (bots without delay) and return a TestClient whose lifespan runs."""
    stack: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        settings.setdefault("bot_delay", 0)
        settings.setdefault("grace", 600)
        settings.setdefault("data_dir", tmp_path / "data")
        settings.setdefault("static_dir", tmp_path / "static")
        settings.setdefault("limits", MACHINE_SPEED)
        client = TestClient(create_app(**settings))
        client.__enter__()
        stack.append(client)
        return client

    yield make
    for client in reversed(stack):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()
