"""What a connection may hold before its request is read (``web.sockets``): a body past
the bound is refused as it comes, headers and bodies that come too slowly are cut with
408, headers past their bound with 431, one address holds at most so many connections,
and the start says how many files the process may open.

Against ``python -m cardtable.server`` itself (the bounds are uvicorn's protocol's, which a
TestClient does not go through), with timeouts of half a second so that a test waits for
the server to cut a connection, never for a clock; no test asserts how long it took."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tablekit import server, socket_for

from cardtable.server.core.border import MAX_BODY
from cardtable.server.core.settings import ServerSettings
from cardtable.server.web.sockets import PeerCounter, capacity, raise_file_limit

PER_PEER = 4
MAX_HEADERS = 4096
WAIT = 15.0
"""The longest a test waits for the server's answer: far past any timeout it sets."""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    data = tmp_path_factory.mktemp("sockets") / "data"
    with server(data, "--header-timeout", "0.5", "--body-timeout", "0.5",
                "--connections-per-peer", str(PER_PEER), "--max-header-bytes",
                str(MAX_HEADERS), "--log-level", "info") as running:
        yield running


def dial(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    made = socket.create_connection((host, int(port)), timeout=WAIT)
    return made


def answer(sock: socket.socket) -> tuple[int, dict[str, Any]] | None:
    """The status and JSON body of the server's next answer (``None``: it closed the
    connection without one)."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            assert data == b"", f"closed in the middle of an answer: {data!r}"
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = next(int(line.split(":", 1)[1]) for line in lines
                  if line.lower().startswith("content-length:"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "closed in the middle of an answer's body"
        body += chunk
    return int(lines[0].split()[1]), json.loads(body)


def closed(sock: socket.socket) -> bool:
    """Whether the server has closed the connection (after any answer it sent)."""
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True


def get_health(sock: socket.socket) -> tuple[int, dict[str, Any]] | None:
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: test\r\n\r\n")
    return answer(sock)


def post_table(sock: socket.socket, head: bytes, body: bytes) -> None:
    sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: test\r\n"
                 b"Content-Type: application/json\r\n" + head + b"\r\n" + body)


def big_table(size: int) -> bytes:
    """A request for a new table whose body is ``size`` bytes."""
    start, end = b'{"game": "durak", "name": "', b'"}'
    return start + b"x" * (size - len(start) - len(end)) + end


def no_tables(url: str) -> bool:
    return httpx.get(f"{url}/api/tables", timeout=WAIT).json() == []


# -- the body -------------------------------------------------------------------------------

def test_a_request_within_the_bounds_is_answered(base: tuple[Any, str]) -> None:
    with dial(base[1]) as sock:
        status, body = get_health(sock) or (0, {})
    assert status == 200 and body["status"] == "ok"


def test_a_body_over_the_limit_by_its_length_is_refused_before_it_is_read(
        base: tuple[Any, str]) -> None:
    with dial(base[1]) as sock:
        post_table(sock, f"Content-Length: {MAX_BODY + 1}\r\n".encode(), b"")  # no body yet
        refused = answer(sock)
        assert closed(sock)
    assert refused is not None and refused[0] == 413
    assert refused[1]["code"] == "too_large"
    assert no_tables(base[1])


def test_a_chunked_body_over_the_limit_is_refused_as_it_arrives(
        base: tuple[Any, str]) -> None:
    body = big_table(MAX_BODY + 1)
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 4096]), body[i:i + 4096])
                      for i in range(0, len(body), 4096))   # no last chunk: never ends
    with dial(base[1]) as sock:
        post_table(sock, b"Transfer-Encoding: chunked\r\n", chunks)
        refused = answer(sock)
        assert closed(sock)
    assert refused is not None and refused[0] == 413
    assert refused[1]["code"] == "too_large"
    assert no_tables(base[1])


def test_a_chunked_body_within_the_limit_is_read(base: tuple[Any, str]) -> None:
    body = json.dumps({"game": "durak", "players": 2, "seats": ["bot:random"] * 2}).encode()
    with dial(base[1]) as sock:
        post_table(sock, b"Transfer-Encoding: chunked\r\n",
                   b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
        made = answer(sock)
    assert made is not None and made[0] == 201


def test_the_body_limit_is_a_setting(make_client: Callable[..., TestClient]) -> None:
    client = make_client(max_body_bytes=2048)
    json_type = {"Content-Type": "application/json"}
    over = client.post("/api/tables", content=big_table(2049), headers=json_type)
    within = client.post("/api/tables", content=big_table(2048), headers=json_type)
    assert (over.status_code, over.json()["code"]) == (413, "too_large")
    # read, and refused for what it says (a name that long), not for its size
    assert (within.status_code, within.json()["code"]) == (422, "invalid_name")
    assert client.get("/api/tables").json() == []


def test_a_body_that_stops_coming_is_cut_with_408(base: tuple[Any, str]) -> None:
    with dial(base[1]) as sock:
        post_table(sock, b"Content-Length: 100\r\n", b'{"game": ')
        refused = answer(sock)
        assert closed(sock)
    assert refused is not None and refused[0] == 408
    assert refused[1]["code"] == "request_timeout"


# -- the headers ----------------------------------------------------------------------------

def test_headers_that_stop_coming_are_cut_with_408(base: tuple[Any, str]) -> None:
    with dial(base[1]) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: test\r\n")   # no blank line
        refused = answer(sock)
        assert closed(sock)
    assert refused is not None and refused[0] == 408
    assert refused[1]["code"] == "request_timeout"


def test_a_connection_that_sends_nothing_is_closed_without_an_answer(
        base: tuple[Any, str]) -> None:
    with dial(base[1]) as sock:
        assert answer(sock) is None


def test_the_next_request_on_a_kept_connection_has_its_own_header_timeout(
        base: tuple[Any, str]) -> None:
    with dial(base[1]) as sock:
        first = get_health(sock)
        sock.sendall(b"GET /api/health HTTP/1.1\r\n")   # the second stops half-way
        second = answer(sock)
    assert first is not None and first[0] == 200
    assert second is not None and second[0] == 408


def test_headers_past_their_bound_are_refused_with_431(base: tuple[Any, str]) -> None:
    with dial(base[1]) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: test\r\n")
        sock.sendall(b"X-Padding: " + b"x" * MAX_HEADERS + b"\r\n")
        refused = answer(sock)
    assert refused is not None and refused[0] == 431
    assert refused[1]["code"] == "headers_too_large"


def test_one_whole_request_with_a_header_past_the_bound_is_refused_with_431(
        base: tuple[Any, str]) -> None:
    """Sent at once, line, headers and blank line in one write (a 126 KB header was read
    whole, and answered, when only a request still arriving was measured)."""
    with dial(base[1]) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: test\r\nX-Padding: "
                     + b"x" * (4 * MAX_HEADERS) + b"\r\n\r\n")
        refused = answer(sock)
    assert refused is not None and refused[0] == 431
    assert refused[1]["code"] == "headers_too_large"


def test_a_websocket_is_not_cut_by_the_header_timeout(base: tuple[Any, str]) -> None:
    url = base[1]
    made = httpx.post(f"{url}/api/tables", timeout=WAIT,
                      json={"game": "durak", "players": 2, "seats": ["human", "bot:random"]})
    table = made.json()["table"]
    with socket_for(url, table, made.json()["token"]) as ws:
        ws.recv(timeout=WAIT)   # the table's state: the socket is open
        # a slow request made after the socket is cut after it: by then the socket's
        # own header timeout would have run out, had it been left running
        with dial(url) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\n")
            assert (answer(slow) or (0,))[0] == 408
        ws.send(json.dumps({"type": "ping"}))
        while (message := json.loads(ws.recv(timeout=WAIT)))["type"] != "pong":
            pass
    assert message == {"type": "pong"}


# -- connections per address ----------------------------------------------------------------

def test_one_connection_past_the_limit_of_an_address_is_closed_unread(
        base: tuple[Any, str]) -> None:
    url = base[1]
    for _ in range(5):   # a connection of an earlier test the server has not yet seen close
        held = [dial(url) for _ in range(PER_PEER)]
        answers = [get_health(sock) for sock in held]
        if all(item is not None and item[0] == 200 for item in answers):
            break
        for sock in held:
            sock.close()
    else:
        pytest.fail(f"{PER_PEER} connections from one address were not all answered")
    try:
        with dial(url) as extra:
            assert closed(extra)   # closed before a byte was sent: nothing was read
        held.pop().close()
        for _ in range(50):   # once the server has seen that one close, a new one is in
            with dial(url) as again:
                if (reply := get_health(again)) is not None:
                    break
        assert reply is not None and reply[0] == 200
    finally:
        for sock in held:
            sock.close()


def test_websockets_count_among_the_connections_of_an_address(
        base: tuple[Any, str]) -> None:
    url = base[1]
    made = httpx.post(f"{url}/api/tables", timeout=WAIT,
                      json={"game": "durak", "players": 2, "seats": ["human", "bot:random"]})
    table = made.json()["table"]
    for _ in range(5):   # as above: an earlier test's connection may not be seen closed yet
        with contextlib.ExitStack() as held:
            try:
                for _ in range(PER_PEER):
                    held.enter_context(socket_for(url, table, None))
            except Exception:   # refused: one of the earlier ones still counted
                continue
            with dial(url) as extra:
                assert closed(extra)
            break
    else:
        pytest.fail(f"{PER_PEER} WebSockets from one address were not all let in")
    for _ in range(50):   # each closed socket gives its count back
        with dial(url) as again:
            if (reply := get_health(again)) is not None:
                break
    assert reply is not None and reply[0] == 200


class Transport:
    """Enough of an asyncio transport for the counter: a peer address and an open flag."""

    def __init__(self, host: str) -> None:
        self.host, self.closing = host, False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self.host, 50000) if name == "peername" else default

    def is_closing(self) -> bool:
        return self.closing


def test_the_count_is_per_address_and_given_back_on_close() -> None:
    peers = PeerCounter(2)
    first, second, third = (Transport("203.0.113.1") for _ in range(3))
    assert peers.admit(first) and peers.admit(second)  # type: ignore[arg-type]
    assert not peers.admit(third)  # type: ignore[arg-type]
    assert peers.admit(Transport("203.0.113.2"))  # type: ignore[arg-type]
    peers.release(first)  # type: ignore[arg-type]
    assert peers.admit(third)  # type: ignore[arg-type]


def test_a_connection_closed_without_being_given_back_no_longer_counts() -> None:
    peers = PeerCounter(1)
    socket_one = Transport("203.0.113.1")
    assert peers.admit(socket_one)  # type: ignore[arg-type]
    socket_one.closing = True   # e.g. a WebSocket of a protocol that does not give it back
    assert peers.admit(Transport("203.0.113.1"))  # type: ignore[arg-type]


def test_a_trusted_proxy_is_not_counted() -> None:
    import ipaddress

    peers = PeerCounter(1, (ipaddress.ip_network("10.0.0.0/8"),))
    assert all(peers.admit(Transport("10.1.2.3")) for _ in range(5))  # type: ignore[arg-type]
    assert peers.held("10.1.2.3") == 0


def test_no_limit_when_the_limit_is_zero() -> None:
    peers = PeerCounter(0)
    assert all(peers.admit(Transport("203.0.113.1")) for _ in range(100))  # type: ignore[arg-type]


# -- settings and the file limit ------------------------------------------------------------

def test_the_connection_settings_are_settings_like_the_others() -> None:
    chosen = ServerSettings(header_timeout=3, body_timeout=4, connections_per_peer=0,
                            max_header_bytes=8192, max_body_bytes=2048)
    assert (chosen.header_timeout, chosen.body_timeout, chosen.max_header_bytes,
            chosen.connections_per_peer, chosen.max_body_bytes) == (3, 4, 8192, 0, 2048)


@pytest.mark.parametrize("setting", [{"header_timeout": 0}, {"body_timeout": -1},
                                     {"connections_per_peer": -1}, {"max_body_bytes": 10},
                                     {"max_header_bytes": 100}])
def test_the_connection_settings_are_bounded(setting: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        ServerSettings(**setting)


def test_the_soft_file_limit_is_raised_to_the_hard_one() -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard <= 256:
        pytest.skip("a hard limit this test cannot lower the soft limit under")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    try:
        assert raise_file_limit() == (256, hard)
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_low_file_limit_is_called_low() -> None:
    assert "that is low" in capacity(1024)
    assert "low" not in capacity(65536)


def test_the_start_names_the_file_limit(base: tuple[Any, str]) -> None:
    log = Path(base[0].log_path).read_text(errors="replace")
    assert "open files: at most" in log and "connections at once" in log
