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
