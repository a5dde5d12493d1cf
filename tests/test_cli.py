"""The `cardtable` command: rules, bench wiring, and serve starting the web table."""

import json
import socket
import subprocess
import sys
import time
import urllib.request

from typer.testing import CliRunner

from cardtable.cli import app

runner = CliRunner()


def test_rules_lists_every_preset_and_option():
    result = runner.invoke(app, ["rules", "pasur"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for name in ("standard", "wikipedia", "turkish", "multicapture", "forced_capture",
                 "sur_in_last_deal"):
        assert name in result.output


def test_rules_of_an_unknown_game_or_preset_are_refused():
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code != 0 and "no game 'chess'" in result.output
    result = runner.invoke(app, ["rules", "durak", "--preset", "kyiv"])
    assert result.exit_code != 0 and "no preset 'kyiv'" in result.output


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_starts_the_web_table_with_sqlite_in_the_data_folder(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "cardtable.cli", "serve", "--port", str(port),
         "--data-dir", str(tmp_path / "data"), "--bot-delay", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        health = None
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health") as reply:
                    health = json.load(reply)
                break
            except OSError:
                time.sleep(0.1)
        assert health is not None and health.get("ok", health.get("status")) in (True, "ok")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as reply:
            assert b"cardtable" in reply.read()
        assert (tmp_path / "data" / "cardtable.sqlite3").exists()
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_arena_finds_openspiels_ismcts_bot_by_its_entry_point(tmp_path):
    out = tmp_path / "arena.json"
    bots = "openspiel-ismcts:simulations=10,random"
    result = runner.invoke(app, ["arena", "durak", "--bots", bots, "--games", "2",
                                 "--seed", "3", "--json", str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    assert figures["games"] == 2
    assert set(figures["results"]) == {"openspiel-ismcts:simulations=10", "random"}
    assert sum(r["wins"] for r in figures["results"].values()) <= 2


def test_an_unknown_bot_is_refused_by_name():
    result = runner.invoke(app, ["arena", "durak", "--bots", "grandmaster,random"])
    assert result.exit_code != 0 and "no bot 'grandmaster'" in result.output
