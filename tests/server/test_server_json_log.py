"""With ``--log-format json`` a running server writes one JSON object a line, each with its
table and its request, and no token, password, cookie or seed in any of them."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from tablekit import next_state, server, socket_for

PASSWORD = "tangerine orbit 7 lantern"


def test_a_game_played_with_json_logs_logs_lines_of_json_and_no_secret(
        tmp_path: Path) -> None:
    with server(tmp_path / "data", "--log-level", "info", "--log-format", "json") as (
            process, base):
        with httpx.Client(base_url=base, timeout=10) as browser:
            made = browser.post("/api/account/register",
                                json={"username": "logreader", "password": PASSWORD})
            assert made.status_code in (200, 201), made.text
            assert browser.post("/api/account/login", json={
                "username": "logreader", "password": PASSWORD + "x"}).status_code == 401
            cookies = [value for _, value in browser.cookies.items()]
            assert cookies, "signed in: the session is a cookie"
            seated = browser.post("/api/tables", json={
                "game": "durak", "players": 2, "seats": ["human", "bot:random"]}).json()
            table, token = seated["table"], seated["token"]
            given = browser.get(f"/api/tables/{table}", headers={"X-Request-ID": "probe-1"})
            assert given.headers["x-request-id"] == "probe-1"
            with socket_for(base, table, token, dict(browser.cookies.items())) as ws:
                state = next_state(ws)
                for _ in range(3000):
                    if state["over"]:
                        break
                    if state["legal_moves"]:
                        ws.send(json.dumps({"type": "move", "version": state["version"],
                                            "move": state["legal_moves"][0]}))
                        state = next_state(ws, state["version"] + 1)
                    else:
                        state = next_state(ws)
                assert state["over"]
            record = browser.get(f"/api/tables/{table}/record").json()
        text = Path(process.log_path).read_text()  # type: ignore[attr-defined]
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    ours = [line for line in lines if line.get("table") == table]
    assert any(line.get("request") == "probe-1" and line.get("status") == 200
               for line in ours), "the access line of the request given an id"
    assert any("WebSocket" in line["message"] for line in ours)
    assert all(line.get("request") for line in ours)
    for secret in (token, PASSWORD, *cookies):
        assert secret not in text
    seed = record.get("seed")
    assert seed is None or str(seed) not in text
    assert "seed" not in text.lower()


def test_in_json_mode_another_librarys_line_and_a_warning_are_json_too(
        capfd: pytest.CaptureFixture) -> None:
    """psycopg logs through its own logger, which reaches the root logger: in JSON mode
    that line is JSON too, as is a Python warning, never a bare line among the JSON."""
    import logging
    import warnings

    from cardtable.server.web.jsonlog import json_logs

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        json_logs()
        logging.getLogger("psycopg").warning("error ignored in rollback on %s", "conn")
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.warn("a library's own warning", UserWarning, stacklevel=1)
        lines = [line for line in capfd.readouterr().err.splitlines() if line.strip()]
    finally:
        logging.captureWarnings(False)
        root.handlers, root.level = handlers, level
    assert len(lines) == 2, lines
    records = [json.loads(line) for line in lines]
    assert "error ignored in rollback on conn" in records[0]["message"]
    assert "a library's own warning" in records[1]["message"]
