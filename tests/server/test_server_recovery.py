"""A real server process killed with SIGKILL resumes every table where it was."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from tablekit import ROOT, next_state, play_until_seat_moves, server, socket_for


def test_a_killed_server_resumes_every_table_at_the_same_version_with_the_same_hands(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    rng = random.Random(21)
    with server(data) as (process, base), ExitStack() as open_sockets:
        # a Durak table of two people, and a Pasur match against a bot
        durak = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()
        joined = httpx.post(f"{base}/api/tables/{durak['table']}/join").json()
        pasur = httpx.post(f"{base}/api/tables", json={
            "game": "pasur", "seats": ["human", "bot:random"]}).json()
        tokens = {0: durak["token"], 1: joined["token"]}
        sockets = {seat: open_sockets.enter_context(socket_for(base, durak["table"], token))
                   for seat, token in tokens.items()}
        latest = {seat: next_state(ws) for seat, ws in sockets.items()}
        for _ in range(8):
            version = latest[0]["version"]
            mover = latest[0]["to_move"]
            move = rng.choice(latest[mover]["legal_moves"])
            sockets[mover].send(json.dumps({"type": "move", "version": version, "move": move}))
            latest = {seat: next_state(ws, version + 1) for seat, ws in sockets.items()}
        # the Pasur match plays into its second hand, so a second deck has been dealt
        with socket_for(base, pasur["table"], pasur["token"]) as ws:
            state = next_state(ws)
            while state["view"]["match"]["hand_number"] < 2:
                if state["legal_moves"]:
                    ws.send(json.dumps({"type": "move", "version": state["version"],
                                        "move": rng.choice(state["legal_moves"])}))
                    state = next_state(ws, state["version"] + 1)
                else:
                    state = next_state(ws)
            while not state["legal_moves"]:
                state = next_state(ws)
            pasur_before = state
        process.kill()  # SIGKILL: no shutdown code runs
        process.wait(10)

    with server(data, "--log-level", "info") as (again_process, base):
        assert httpx.get(f"{base}/api/health").json()["broken"] == []
        for seat, token in tokens.items():
            with socket_for(base, durak["table"], token) as ws:
                again = next_state(ws)
            assert again["version"] == latest[seat]["version"] == 8
            assert again["view"] == latest[seat]["view"], "the hand changed in the restart"
            assert again["legal_moves"] == latest[seat]["legal_moves"]
        with socket_for(base, pasur["table"], pasur["token"]) as ws:
            again = next_state(ws)
            assert again["version"] == pasur_before["version"]
            assert again["view"] == pasur_before["view"]
            # and the match goes on: the bot answers a move after the restart
            after = play_until_seat_moves(ws, again, 1)
            assert after["last_move"]["seat"] == 1 and after["version"] > again["version"]
        info = httpx.get(f"{base}/api/tables/{pasur['table']}").json()
        assert info["status"] == "playing"
    # the log tells of the connections, but not of the tokens in their URLs
    log = again_process.log_path.read_text()
    assert "WebSocket /ws/tables/" in log and "token=…" in log
    assert all(token not in log for token in (*tokens.values(), pasur["token"]))


@pytest.mark.parametrize("argv", [["--help"]])
def test_the_module_runs_as_a_command(argv: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", "cardtable.server", *argv], cwd=ROOT,
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "COLUMNS": "100"})
    assert result.returncode == 0
    assert "--database-url" in result.stdout and "--data-dir" in result.stdout


def children_of(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(child) for child in text}
    return found


def running(pid: int) -> bool:
    """Whether a process is there and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_bot_processes_end_when_the_server_is_killed(tmp_path: Path) -> None:
    with server(tmp_path / "data", "--bot-processes", "1") as (process, base):
        seated = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "bot:random"]}).json()
        with socket_for(base, seated["table"], seated["token"]) as ws:
            state = next_state(ws)
            while not state["legal_moves"]:
                state = next_state(ws)
            answered = play_until_seat_moves(ws, state, 1)
            assert answered["last_move"]["seat"] == 1  # the bot answered from its process
        children = children_of(process.pid)
        assert children, "no bot process was started"
        process.kill()
        process.wait(10)
    deadline = time.monotonic() + 20
    while any(running(child) for child in children):
        assert time.monotonic() < deadline, "bot processes outlived the server: " + "; ".join(
            Path(f"/proc/{child}/cmdline").read_text().replace("\0", " ")[:120]
            for child in children if running(child))
        time.sleep(0.2)
