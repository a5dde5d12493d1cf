"""Seat tokens and quick-play tickets stay out of the server's log, and a URL carrying one
is logged as one line like any other (not a logging error and its traceback)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tablekit import server, socket_for
from uvicorn.logging import AccessFormatter, DefaultFormatter

from cardtable.server.web.logsafe import LOGGERS, RedactSecrets, redact, redact_logs

ACCESS_FORMAT = '%(client_addr)s - "%(request_line)s" %(status_code)s'
"""uvicorn's own access-log format."""


@pytest.fixture
def redacting() -> Iterator[None]:
    """uvicorn's loggers as ``serve`` leaves them, put back as they were afterwards."""
    before = {name: list(logging.getLogger(name).filters) for name in LOGGERS}
    redact_logs()
    yield
    for name, filters in before.items():
        logging.getLogger(name).filters = filters


@pytest.fixture
def kept(redacting: None) -> Iterator[list[logging.LogRecord]]:
    """The records uvicorn's access logger hands its handlers."""
    class Keep(logging.Handler):
        def __init__(self) -> None:
            super().__init__()
            self.records: list[logging.LogRecord] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.records.append(record)

    logger = logging.getLogger("uvicorn.access")
    keep, level = Keep(), logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.INFO)
    yield keep.records
    logger.removeHandler(keep)
    logger.setLevel(level)


def test_an_access_line_with_a_token_is_formatted_by_uvicorn_with_the_token_hidden(
        kept: list[logging.LogRecord], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="uvicorn.access")
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', "127.0.0.1:50000", "GET",
        "/ws/tables/t1?seat=0&token=SEAT-SECRET", "1.1", 101)
    record = kept[-1]
    # uvicorn's formatter unpacks five arguments: a filter that folded them into the
    # message made this raise, and logging wrote a traceback instead of the line
    line = AccessFormatter(ACCESS_FORMAT, use_colors=False).format(record)
    assert line == ('127.0.0.1:50000 - "GET /ws/tables/t1?seat=0&token=… HTTP/1.1" '
                    "101 Switching Protocols")
    assert "SEAT-SECRET" not in caplog.text
    assert all(r.exc_info is None for r in caplog.records)


def test_a_quick_play_ticket_is_hidden_in_its_path_and_in_a_query(
        kept: list[logging.LogRecord]) -> None:
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', "127.0.0.1:50000", "DELETE",
        "/api/quick-play/TICKET-SECRET", "1.1", 200)
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', "127.0.0.1:50000", "GET",
        "/api/health?ticket=TICKET-SECRET&Token=T2&%74oken=T3&game=durak", "1.1", 200)
    lines = [AccessFormatter(ACCESS_FORMAT, use_colors=False).format(r) for r in kept[-2:]]
    assert lines == [
        '127.0.0.1:50000 - "DELETE /api/quick-play/… HTTP/1.1" 200 OK',
        '127.0.0.1:50000 - "GET /api/health?ticket=…&Token=…&%74oken=…&game=durak '
        'HTTP/1.1" 200 OK']


def test_a_websocket_url_in_the_error_log_has_its_token_hidden() -> None:
    # uvicorn logs each socket it accepts to uvicorn.error, the URL as an argument
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1,
                               '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:50000", "/ws/tables/t1?token=SEAT-SECRET"), None)
    assert RedactSecrets().filter(record)
    assert DefaultFormatter("%(message)s", use_colors=False).format(record) == (
        '127.0.0.1:50000 - "WebSocket /ws/tables/t1?token=…" [accepted]')


@pytest.mark.parametrize("text", [
    "/api/quick-play", "POST /api/quick-play HTTP/1.1", "/api/tables?game=durak&seat=1",
    "/table/abc", "tokens=1", "/api/learn/durak/token"])
def test_what_holds_no_secret_is_logged_as_it_is(text: str) -> None:
    assert redact(text) == text


def test_the_filter_is_put_on_once_however_often_asked(redacting: None) -> None:
    redact_logs()
    for name in LOGGERS:
        assert sum(isinstance(f, RedactSecrets) for f in logging.getLogger(name).filters) == 1


def test_the_running_server_logs_no_secret_and_no_traceback(tmp_path: Path) -> None:
    with server(tmp_path / "data", "--log-level", "info") as (process, base):
        assert httpx.get(f"{base}/api/health?token=HEALTH-SECRET").status_code == 200
        ticket = httpx.post(f"{base}/api/quick-play", json={
            "game": "durak", "players": 2, "bots_after": None}).json()["ticket"]
        assert httpx.get(f"{base}/api/quick-play/{ticket}").status_code == 200
        seated = httpx.post(f"{base}/api/tables", json={"game": "durak"}).json()
        with socket_for(base, seated["table"], seated["token"]) as socket:
            socket.recv(timeout=10)
        log = Path(process.log_path).read_text(errors="replace")  # type: ignore[attr-defined]
    for secret in ("HEALTH-SECRET", ticket, seated["token"]):
        assert secret not in log
    assert "Traceback" not in log and "Logging error" not in log
    assert '"GET /api/health?token=… HTTP/1.1" 200' in log
    assert '"GET /api/quick-play/… HTTP/1.1" 200' in log
    assert f'"WebSocket /ws/tables/{seated["table"]}" [accepted]' in log   # key not in URL
