"""Two server processes behind nginx, with the repository's own configuration
(``deploy/nginx/cardtable.conf``, run by ``benchmarks/proxy.py``); the last test runs two
tournaments through it and kills the process directing one.

nginx sends every request and socket about a table to one process, chosen from the table's
id; that process takes the table over from whichever made it, so no player is relayed.
On SIGTERM a process hands its tables off (their leases released at once) and closes
their sockets with 1012; the pages connect again through nginx, to the other process, and
nothing acknowledged is lost or played twice.  CI installs nginx; without it (locally) the
tests are skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from clusterkit import Seat, check_every_move_once, wait_for
from tablekit import ROOT, free_port, next_state, server, socket_for
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

pytestmark = pytest.mark.services

sys.path.insert(0, str(ROOT / "benchmarks"))
from proxy import Nginx  # noqa: E402


@pytest.fixture
def nginx_installed() -> None:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is not installed in CI (.ci/run installs it)")
        pytest.skip("nginx is not installed (Debian: apt-get install nginx)")


def flags(redis_url: str, prefix: str) -> tuple[str, ...]:
    return ("--redis-url", redis_url, "--redis-prefix", prefix, "--lease", "3",
            "--route-by-table", "true", "--trusted-proxies", "127.0.0.1", "--log-level", "info")


@contextmanager
def behind_nginx(folder: Path, ports: list[int]) -> Iterator[Nginx]:
    proxy = Nginx([f"127.0.0.1:{port}" for port in ports], free_port(), folder / "nginx")
    try:
        yield proxy
    finally:
        proxy.stop()


def gauge(base: str, name: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=10).text
    found = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} is not on /metrics"
    return float(found.group(1))


def test_with_the_ring_a_table_is_made_by_the_process_nginx_sends_it_to(
        tmp_path: Path, redis_url: str, nginx_installed: None) -> None:
    """``--ring``: nginx's hash, computed by the processes, so a new table's id is one
    nginx sends to the process that made it (whichever process nginx gave the POST), and
    no handover is needed when its players connect."""
    from cardtable.server.core.ring import Ring

    data = tmp_path / "data"
    prefix = f"cardtable-test-{secrets.token_hex(4)}"
    ports = [free_port(), free_port()]
    ring = ",".join(f"127.0.0.1:{port}" for port in ports)
    owners = pytest.importorskip("redis").Redis.from_url(redis_url)
    with ExitStack() as stack:
        bases = [stack.enter_context(server(
            data, *flags(redis_url, prefix), "--ring", ring,
            "--ring-address", f"127.0.0.1:{port}", port=port))[1] for port in ports]
        proxy = stack.enter_context(behind_nginx(tmp_path, ports))
        address = {httpx.get(f"{base}/api/health").json()["process"]: f"127.0.0.1:{port}"
                   for base, port in zip(bases, ports, strict=True)}
        seated = [httpx.post(f"{proxy.base}/api/tables", json={
            "game": "durak", "seats": ["human", "bot:random"]}).json() for _ in range(16)]
        made = [table["table"] for table in seated]
        # the maker, as Redis says, is where the ring sends every table
        makers = [address[owners.get(f"{prefix}:owner:{table}").decode()] for table in made]
        assert makers == [Ring(ring.split(",")).server(table) for table in made]
        assert len(set(makers)) == 2, "both processes made tables"
        # and where nginx sends its players: they play there, no table changed hands
        for table in seated:
            ws = stack.enter_context(socket_for(proxy.base, table["table"], table["token"]))
            assert next_state(ws)["seat"] == 0
        assert [address[owners.get(f"{prefix}:owner:{table}").decode()]
                for table in made] == makers
        for base in bases:
            assert gauge(base, "cardtable_relayed_sockets") == 0
        # each process's /metrics is its own, scraped at its own address: through nginx it
        # would be one process's at random, so nginx does not pass it on
        assert httpx.get(f"{proxy.base}/metrics").status_code == 404


@dataclass
class Behind:
    """Two server processes on one SQLite folder and the test's Redis prefix, behind
    nginx."""

    data: Path
    prefix: str
    flags: tuple[str, ...]
    ports: list[int]
    owners: Any
    """The Redis client, to read who owns a table (``{prefix}:owner:{table}``)."""
    processes: list[Any]
    proxy: Nginx


def two_behind_nginx(tmp_path: Path, redis_url: str, stack: ExitStack) -> Behind:
    data = tmp_path / "data"
    prefix = f"cardtable-test-{secrets.token_hex(4)}"
    chosen = flags(redis_url, prefix)
    ports = [free_port(), free_port()]
    processes = [stack.enter_context(server(data, *chosen, port=port)) for port in ports]
    proxy = stack.enter_context(behind_nginx(tmp_path, ports))
    owners = pytest.importorskip("redis").Redis.from_url(redis_url)
    return Behind(data, prefix, chosen, ports, owners, processes, proxy)


def stop_gently(process: subprocess.Popen) -> None:
    """SIGTERM, as a deploy does, and wait until it has handed its tables off and gone
    (uvicorn, after a clean shutdown, ends by the signal it was sent, as supervisors
    expect)."""
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == -signal.SIGTERM, "the stopping process did not exit cleanly"


def test_every_table_is_played_by_the_process_nginx_sends_its_players_to(
        tmp_path: Path, redis_url: str, nginx_installed: None) -> None:
    data = tmp_path / "data"
    chosen = flags(redis_url, f"cardtable-test-{secrets.token_hex(4)}")
    ports = [free_port(), free_port()]
    with server(data, *chosen, port=ports[0]) as (_, a), \
            server(data, *chosen, port=ports[1]) as (_, b), \
            behind_nginx(tmp_path, ports) as proxy, ExitStack() as sockets:
        # made through nginx (each on whichever process nginx picks for a new table),
        # then played through nginx: the table's own process takes each one over; more
        # tables until both processes play some (the ring need not split them evenly)
        friends = httpx.post(f"{proxy.base}/api/tables", json={
            "game": "pasur", "seats": ["human", "human"]}).json()
        joined = httpx.post(f"{proxy.base}/api/tables/{friends['table']}/join").json()
        assert joined["seat"] == 1
        pair = [sockets.enter_context(socket_for(proxy.base, friends["table"], token))
                for token in (friends["token"], joined["token"])]
        assert [next_state(ws)["seat"] for ws in pair] == [0, 1]
        made = 1
        live = {a: 0, b: 0}
        while made < 8 or not all(live.values()):
            assert made < 60, f"nginx sends every table to one process: {live}"
            table = httpx.post(f"{proxy.base}/api/tables", json={
                "game": "durak", "seats": ["human", "bot:random"]}).json()
            ws = sockets.enter_context(socket_for(proxy.base, table["table"], table["token"]))
            state = next_state(ws)
            assert state["seat"] == 0 and state["view"]["hand"]
            made += 1
            live = {base: httpx.get(f"{base}/api/health").json()["live"] for base in (a, b)}
        assert sum(live.values()) == made, live
        for base in (a, b):  # every player on the table's own process, none relayed
            assert gauge(base, "cardtable_relayed_sockets") == 0
            assert gauge(base, "cardtable_leases_held") == live[base]
        # the HTTP answer about a table comes from its process too: seats are shown taken
        assert httpx.get(f"{proxy.base}/api/tables/{friends['table']}").json()[
            "status"] == "playing"


def test_a_rolling_restart_behind_nginx_loses_no_move_and_reconnects_each_player_once(
        tmp_path: Path, redis_url: str, nginx_installed: None) -> None:
    with ExitStack() as stack:
        run = two_behind_nginx(tmp_path, redis_url, stack)
        data, prefix, chosen, ports = run.data, run.prefix, run.flags, run.ports
        owners, processes, proxy = run.owners, run.processes, run.proxy
        seats: list[Seat] = []
        until = threading.Event()  # the run ends after the second restart

        def seat_group(number: int) -> None:
            """A table against a bot and one of two people, played through nginx."""
            table = httpx.post(f"{proxy.base}/api/tables", json={
                "game": "durak", "seats": ["human", "bot:random"]}).json()
            group = [Seat([proxy.base], table["table"], table["token"], seed=number,
                          pace=0.3, until=until)]
            friends = httpx.post(f"{proxy.base}/api/tables", json={
                "game": "durak", "seats": ["human", "human"]}).json()
            joined = httpx.post(f"{proxy.base}/api/tables/{friends['table']}/join").json()
            for seat, token in enumerate((friends["token"], joined["token"])):
                group.append(Seat([proxy.base], friends["table"], token,
                                  seed=100 + 10 * number + seat, pace=0.3, until=until))
            for seat in group:
                seat.start()
            seats.extend(group)
            wait_for(lambda: all(seat.version >= 2 for seat in group),
                     "the games did not start", report=lambda: [
                         (seat.table, seat.version, seat.closes, seat.errors[-2:],
                          seat.failure) for seat in group])

        number = 0
        owned = {base: 0 for _, base in processes}
        while number < 4 or not all(owned.values()):  # both processes play some
            assert number < 30, f"nginx sends every table to one process: {owned}"
            seat_group(number)
            number += 1
            owned = {base: int(gauge(base, "cardtable_leases_held")) for _, base in processes}
        assert sum(owned.values()) == 2 * number, owned

        for turn, port in enumerate(ports):
            reached = {seat: seat.version for seat in seats if seat.final is None}
            stopping = httpx.get(f"{processes[turn][1]}/api/health").json()["process"]
            stop_gently(processes[turn][0])
            # it gave up its leases before it went, rather than letting them run out
            held = [table for table in {seat.table for seat in seats}
                    if owners.get(f"{prefix}:owner:{table}") == stopping.encode()]
            assert held == [], f"the stopped process still holds {held}"
            # its tables went on at once on the other process, through the same URL
            wait_for(lambda reached=reached: all(
                seat.final is not None or seat.version > version
                for seat, version in reached.items()), "play did not go on after SIGTERM")
            processes[turn] = stack.enter_context(server(data, *chosen, port=port))
            assert httpx.get(f"{processes[turn][1]}/api/health/ready").status_code == 200
        until.set()
        for seat in seats:
            seat.check()
        assert check_every_move_once(data, seats, over=False) > 0
        for seat in seats:
            # each restart closed a player's socket at most once, with 1012 ("connect
            # again"), and the player was back on the first try
            assert all(code == 1012 for code, _ in seat.closes), seat.closes
            assert len(seat.closes) <= len(ports) and seat.connects == len(seat.closes) + 1
            assert seat.silences == 0


@pytest.mark.slow   # a load run: `pytest -m slow`
def test_the_load_generator_plays_through_nginx_and_counts_its_cpu(
        tmp_path: Path, redis_url: str, nginx_installed: None) -> None:
    """``benchmarks/load.py --proxy``: the figures keep their keys, and nginx's CPU is
    counted apart from the servers'."""
    out = tmp_path / "load.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--tables", "4",
         "--pace", "0.2", "--seconds", "3", "--warmup", "2", "--processes", "2",
         "--redis-url", redis_url, "--proxy", "--json", str(out)],
        capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert figures["proxy"] is True and figures["processes"] == 2
    assert figures["moves"] > 0 and figures["lost"] == 0
    assert figures["errors"] == 0, figures["error_reasons"]
    assert set(figures["cpu_ms_per_move"]) == {"servers", "generator", "services", "postgres",
                                               "redis", "proxy"}
    assert all(ms >= 0 for ms in figures["cpu_ms_per_move"].values())


@pytest.mark.slow   # the benchmark's own run (20 s); the smaller restart test above stays
def test_the_rolling_restart_run_judges_the_stored_games(
        tmp_path: Path, redis_url: str, nginx_installed: None) -> None:
    """``benchmarks/rolling_restart.py``, small: both processes restarted under play,
    and its verdict read from the stored games (the full run is in docs/performance.md)."""
    out = tmp_path / "rolling.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "rolling_restart.py"), "--tables", "6",
         "--pace", "0.3", "--settle", "3", "--between", "6",
         "--redis-url", redis_url, "--json", str(out)],
        capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert figures["moves_stored"] > 0 and len(figures["restarts"]) == 2
    assert (figures["lost"], figures["doubled"], figures["broken"]) == (0, 0, 0), figures
    assert all(restart["seats_closed"] > 0 for restart in figures["restarts"]), figures
    assert figures["not_back"] == 0 and figures["max_reconnects_per_restart"] == 1, figures


def test_a_process_killed_behind_nginx_has_its_tables_played_on_by_the_other(
        tmp_path: Path, redis_url: str, nginx_installed: None) -> None:
    """kill -9: no handover, the leases (3 s here) run out; the players' sockets, through
    the same URL, reach the other process, which claims each table as its lease ends and
    plays on from the stored moves."""
    with ExitStack() as stack:
        run = two_behind_nginx(tmp_path, redis_url, stack)
        data, prefix, owners = run.data, run.prefix, run.owners
        processes, proxy = run.processes, run.proxy
        names = {httpx.get(f"{base}/api/health").json()["process"]: n
                 for n, (_, base) in enumerate(processes)}
        until = threading.Event()
        seats: list[Seat] = []
        while len(seats) < 12 or len({owners.get(f"{prefix}:owner:{seat.table}")
                                      for seat in seats}) < 2:
            assert len(seats) < 60, "nginx sends every table to one process"
            made = httpx.post(f"{proxy.base}/api/tables", json={
                "game": "durak", "seats": ["human", "human"]}).json()
            joined = httpx.post(f"{proxy.base}/api/tables/{made['table']}/join").json()
            pair = [Seat([proxy.base], made["table"], seated["token"], seed=len(seats) + i,
                         pace=0.3, until=until) for i, seated in enumerate((made, joined))]
            for seat in pair:
                seat.start()
            seats.extend(pair)
            wait_for(lambda pair=pair: all(seat.version >= 1 for seat in pair),
                     "the game did not start")
        victim = names[owners.get(f"{prefix}:owner:{seats[0].table}").decode()]
        survivor = processes[1 - victim][1]
        survivor_name = httpx.get(f"{survivor}/api/health").json()["process"].encode()
        reached = {seat: seat.version for seat in seats if seat.final is None}
        processes[victim][0].kill()
        processes[victim][0].wait(10)
        wait_for(lambda: all(seat.final is not None or seat.version > version
                             for seat, version in reached.items()),
                 "play did not go on after kill -9", timeout=60)
        until.set()
        for seat in seats:
            seat.check()
        assert {owners.get(f"{prefix}:owner:{seat.table}") for seat in seats
                if seat.final is None} <= {survivor_name}
        check_every_move_once(data, seats, over=False)


def test_nginxs_error_log_holds_no_quick_play_ticket_or_seat_key(
        nginx_installed: None, tmp_path: Path) -> None:
    """nginx's error log writes the whole request line of each request it had trouble
    with (here: the first try at a process that is not there, half of them).  The page
    polls its quick-play ticket in the body and sends its seat key in a header, so the
    lines name the path only; the test polls until such a line is written."""
    with server(tmp_path / "data", "--trusted-proxies", "127.0.0.1") as (_, base), \
            behind_nginx(tmp_path, [int(base.rsplit(":", 1)[1]), free_port()]) as proxy:
        players = [httpx.Client(base_url=proxy.base, timeout=10) for _ in range(2)]
        body = {"game": "durak", "preset": "transfer", "players": 2, "bots_after": None}
        tickets = [p.post("/api/quick-play", json=body).json()["ticket"] for p in players]
        answers: list[dict[str, Any]] = []
        for _ in range(200):
            answers = [p.post("/api/quick-play/poll", json={"ticket": t}).json()
                       for p, t in zip(players, tickets, strict=True)]
            if ("/api/quick-play/poll" in proxy.log()
                    and all(a["status"] == "matched" for a in answers)):
                break
        assert all(a["status"] == "matched" for a in answers), answers
        keys = [a["token"] for a in answers]
        for answer, player in zip(answers, players, strict=True):
            with socket_for(proxy.base, answer["table"], answer["token"],
                            dict(player.cookies)) as ws:
                assert next_state(ws)["seat"] == answer["seat"]
        proxy.stop()   # nginx writes its buffers out
        errors = proxy.log()
        logs = errors + (proxy.folder / "access.log").read_text(errors="replace")
    assert '"POST /api/quick-play/poll HTTP/1.1"' in errors, errors[-2000:]
    assert all(secret not in logs for secret in tickets + keys)


# -- tournaments behind nginx --------------------------------------------------------------------
TOURNAMENT = {"game": "durak", "kind": "arena", "minutes": 30, "players": 2, "rated": False}
GAMES = 3
"""Games each tournament plays: one before the kill, the rest after."""


def _resign_at(base: str, client: httpx.Client, table: str) -> None:
    """The seat ``client`` has at ``table`` resigns, through ``base`` (nginx); a table whose
    process was killed is adopted once its lease ends: until then its socket may close
    ("connect again"), as a page's would, and it is opened again."""
    seat = next(s["seat"] for s in client.get("/api/me").json()["seats"]
                if s["table"] == table)
    cookies = dict(client.cookies.items())
    deadline = time.monotonic() + 90
    while client.get(f"/api/tables/{table}").json().get("status") != "over":
        assert time.monotonic() < deadline, f"table {table} never ended"
        with contextlib.suppress(ConnectionClosed, TimeoutError, OSError):
            url = base.replace("http", "ws", 1) + f"/ws/tables/{table}?seat={seat}"
            with ws_connect(url, open_timeout=10, additional_headers={
                    "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}) as ws:
                next_state(ws)
                ws.send('{"type": "resign"}')
                while not next_state(ws)["over"]:
                    pass


def _next_table(client: httpx.Client, tournament: str, played: set[str]) -> str:
    """The tournament's table in play (made) that ``client``'s player has not played."""
    deadline = time.monotonic() + 90
    while True:
        info = client.get(f"/api/tournaments/{tournament}")
        if info.status_code == 200:
            found = [g["table"] for g in info.json()["pairings"]
                     if g["table"] not in played and g["status"] == "playing"]
            if found:
                return found[0]
        assert time.monotonic() < deadline, f"no new table in {tournament}"
        time.sleep(0.2)


def test_two_processes_behind_nginx_direct_a_tournament_each_and_a_kill_loses_nothing(
        tmp_path: Path, redis_url: str, migrated_database_url: str,
        nginx_installed: None) -> None:
    """Two processes behind nginx on PostgreSQL and Redis, two arenas sharing their two
    players, everything asked through nginx; each arena is directed by the process that
    claims its lease first (one each, or both by one).  The process directing the first
    arena is killed (SIGKILL) after a game of each; the other takes both on.  Each arena's
    standings are what the same games give without a kill: every game scored once, the
    winner's streak unbroken (2 + 2 + 4)."""
    prefix = f"tourney-{secrets.token_hex(4)}"
    chosen = ("--database-url", migrated_database_url, *flags(redis_url, prefix)[:4],
              "--lease", "2", "--route-by-table", "true", "--trusted-proxies", "127.0.0.1")
    data = tmp_path / "data"
    ports = [free_port(), free_port()]
    owners = pytest.importorskip("redis").Redis.from_url(redis_url)
    with ExitStack() as stack:
        processes = [stack.enter_context(server(data, *chosen, port=port)) for port in ports]
        proxy = stack.enter_context(behind_nginx(tmp_path, ports))
        base = proxy.base
        process_of = {httpx.get(f"{b}/api/health").json()["process"]: p
                      for p, b in processes}
        people = {}
        for name in ("orga", "ann"):
            client = stack.enter_context(httpx.Client(base_url=base, timeout=30,
                                                      headers={"Origin": base}))
            assert client.post("/api/account/register", json={
                "username": f"{name}_{secrets.token_hex(2)}",
                "password": "correct horse battery"}).status_code == 201
            people[name] = client
        orga, ann = people["orga"], people["ann"]
        arenas = [orga.post("/api/tournaments", json=TOURNAMENT).json()["id"]
                  for _ in range(2)]
        for arena in arenas:
            for client in (orga, ann):
                assert client.post(f"/api/tournaments/{arena}/join").status_code == 200
            assert orga.post(f"/api/tournaments/{arena}/start").status_code == 200
        played: dict[str, list[str]] = {arena: [] for arena in arenas}

        def play_one(arena: str) -> None:
            table = _next_table(ann, arena, set(played[arena]))
            _resign_at(base, ann, table)
            played[arena].append(table)

        for arena in arenas:
            play_one(arena)
        directors = {}
        for arena in arenas:
            held = owners.get(f"{prefix}:owner:tournament:{arena}")
            assert held is not None, "nobody directs the arena"
            directors[arena] = process_of[held.decode()]
        killed = directors[arenas[0]]
        killed.kill()   # SIGKILL mid-tournament: its leases run out, the other takes on
        killed.wait(10)
        for _ in range(GAMES - 1):
            for arena in arenas:
                play_one(arena)
        for arena in arenas:   # the last game scored (seated again: a new table is made)
            _next_table(ann, arena, set(played[arena]))
        infos = {arena: orga.get(f"/api/tournaments/{arena}").json() for arena in arenas}
    for arena, info in infos.items():
        assert sorted(g["table"] for g in info["games"] if g["status"] == "scored") == sorted(
            played[arena]), "a game lost or scored twice"
        lines = {line["name"].split("_")[0]: line for line in info["standings"]}
        assert (lines["orga"]["points"], lines["orga"]["games"], lines["orga"]["wins"],
                lines["orga"]["streak"]) == (8, GAMES, GAMES, GAMES)
        assert (lines["ann"]["points"], lines["ann"]["games"]) == (0, GAMES)
