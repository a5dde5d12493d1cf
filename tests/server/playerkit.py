"""Helpers for the players' tests: an app on SQLite or PostgreSQL, and browsers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablekit import MACHINE_SPEED, from_address

from cardtable.server import create_app

PASSWORD = "correct horse battery"


@pytest.fixture(params=["sqlite", "postgresql"])
def app_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A running app on a fresh SQLite file, or on a fresh PostgreSQL database."""
    settings: dict[str, Any] = {"bot_delay": 0, "static_dir": tmp_path / "static",
                                **MACHINE_SPEED, "data_dir": tmp_path / "data"}
    if request.param == "postgresql":
        settings["database_url"] = request.getfixturevalue("migrated_database_url")
    else:
        request.getfixturevalue("seed_sqlite")(settings["data_dir"])
    with TestClient(create_app(**settings)) as client:
        yield client


def register(client: TestClient, username: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/register",
                       json={"username": username, "password": password})


def login(client: TestClient, username: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/login", json={"username": username, "password": password})


def fresh(client: TestClient, host: str = "testclient") -> TestClient:
    """Another browser (no cookies) on the same running app."""
    return from_address(client, host)
