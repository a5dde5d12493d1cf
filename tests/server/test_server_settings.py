"""One settings object: every setting is a field of
``ServerSettings``, given by a flag, ``CARDTABLE_<NAME>`` or ``.env`` (in that order), bounded,
with the same flags under both command names, secrets never printed, and docs/server.md's
table made from the model."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.server.__main__ import parse, parser
from cardtable.server.core.settings import GROUPS, ServerSettings, table

DOCS = Path(__file__).parents[2] / "docs" / "server.md"
SECRET_URL = "postgresql+psycopg://cardtable:hunter2-secret@db.example/cardtable"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No CARDTABLE_ variable of the machine's, and no .env but the test's own."""
    import os

    for name in list(os.environ):
        if name.startswith("CARDTABLE_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_the_defaults_are_the_ones_documented() -> None:
    chosen = parse([])
    assert (chosen.host, chosen.port, chosen.data_dir) == ("127.0.0.1", 8000, Path("data"))
    assert chosen.database_url is None and chosen.quick_play_poll == 8.0


def test_a_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_PORT", "8123")
    monkeypatch.setenv("CARDTABLE_QUICK_PLAY_POLL", "0.5")
    chosen = parse([])
    assert chosen.port == 8123 and chosen.quick_play_poll == 0.5


def test_a_setting_is_read_from_a_dot_env_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("CARDTABLE_DATA_DIR=/srv/cardtable\nCARDTABLE_GRACE=30\n")
    chosen = parse([])
    assert chosen.data_dir == Path("/srv/cardtable") and chosen.grace == 30


def test_a_flag_beats_the_environment_which_beats_dot_env(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("CARDTABLE_PORT=7000\nCARDTABLE_BOT_DELAY=2\n")
    monkeypatch.setenv("CARDTABLE_PORT", "7001")
    assert parse([]).port == 7001
    assert parse(["--port", "7002"]).port == 7002
    assert parse([]).bot_delay == 2


@pytest.mark.parametrize("argv", [["--port", "0"], ["--port", "http"], ["--grace", "-1"],
                                  ["--log-level", "loud"], ["--redis-prefix", "a b"]])
def test_a_value_out_of_bounds_is_refused_in_words(argv: list[str],
                                                   capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as stopped:
        parse(argv)
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert argv[0] in said and "Traceback" not in said


def test_a_ring_without_this_process_in_it_is_refused_in_words(
        capsys: pytest.CaptureFixture) -> None:
    ring = "127.0.0.1:8001,127.0.0.1:8002"
    assert parse(["--ring", ring, "--ring-address", "127.0.0.1:8002"]).ring == ring
    with pytest.raises(SystemExit):
        parse(["--ring", ring, "--ring-address", "127.0.0.1:8003"])
    said = capsys.readouterr().err
    assert "--ring-address" in said and "'127.0.0.1:8003' is not one of --ring" in said
    with pytest.raises(SystemExit):
        parse(["--ring", "127.0.0.1", "--ring-address", "127.0.0.1"])
    assert "'127.0.0.1' is not host:port" in capsys.readouterr().err


def test_the_limits_are_settings_like_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_RULE_BOUNDS", "target=500")
    monkeypatch.setenv("CARDTABLE_CHAT_PER_WINDOW", "3/minute")
    chosen = parse(["--ws-max-bytes", "20000", "--bots", "random,easy"])
    assert chosen.ws_max_bytes == 20000 and chosen.bots == ("random", "easy")
    assert chosen.rule_bounds == {"target": 500} and chosen.chat_per_window == "3/minute"


def test_create_app_takes_one_settings_object_or_single_settings(tmp_path: Path) -> None:
    from cardtable.server import create_app

    given = ServerSettings(data_dir=tmp_path, bot_delay=0, watchers_per_table=7)
    assert create_app(given).state.settings is given
    changed = create_app(given, grace=5).state.settings
    assert (changed.grace, changed.watchers_per_table, given.grace) == (5, 7, 60)
    with pytest.raises(TypeError, match="limits"):
        create_app(data_dir=tmp_path, limits=None)


def test_every_field_has_help_and_a_flag() -> None:
    text = parser().format_help()
    for name, info in ServerSettings.model_fields.items():
        assert info.description, name
        assert "--" + name.replace("_", "-") in text


def test_a_secret_url_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_DATABASE_URL", SECRET_URL)
    chosen = parse([])
    assert "hunter2" not in repr(chosen) and "hunter2" not in str(chosen.model_dump())
    assert chosen.revealed("database_url") == SECRET_URL  # given to the code alone
    assert "hunter2" not in parser().format_help()


def test_both_command_names_take_the_same_flags(tmp_path: Path) -> None:
    def help_of(*command: str) -> str:
        done = subprocess.run([sys.executable, *command, "--help"], capture_output=True,
                              text=True, timeout=60, env={"PATH": "/usr/bin:/bin",
                                                          "CARDTABLE_REDIS_URL": SECRET_URL})
        assert done.returncode == 0, done.stderr
        return done.stdout

    module = help_of("-m", "cardtable.server")
    cli = help_of("-m", "cardtable.cli", "serve")
    # the usage lines wrap by the command's name; the options and their help are one text
    assert module[module.index("options:"):] == cli[cli.index("options:"):]
    assert set(re.findall(r"--[a-z-]+", module)) == set(re.findall(r"--[a-z-]+", cli))
    assert "hunter2" not in module


@pytest.mark.parametrize("group", list(GROUPS))
def test_the_docs_tables_are_the_models(group: str) -> None:
    text = DOCS.read_text(encoding="utf-8")
    begin, end = f"<!-- settings:{group}:begin -->\n", f"<!-- settings:{group}:end -->"
    assert text[text.index(begin) + len(begin):text.index(end)] == table(group), (
        f"docs/server.md's {group} table differs from ServerSettings: paste "
        f"cardtable.server.core.settings.table({group!r}) between its markers")


@pytest.mark.parametrize(("argv", "words"), [
    (["--redis-url", "redis://127.0.0.1:6379/0", "--rate-limit-storage", "memory://"],
     "--rate-limit-storage"),
    (["--route-by-table", "true"], "--route-by-table"),
    (["--redis-url", "redis://127.0.0.1:6379/0", "--lease", "0.1"], "--lease"),
])
def test_several_processes_weaker_than_one_are_refused_at_start_in_one_sentence(
        argv: list[str], words: str, capsys: pytest.CaptureFixture) -> None:
    """Per-process rate limits behind a proxy (each client N times the limit), routing
    by table with no Redis to hand tables over, a lease one slow answer loses."""
    with pytest.raises(SystemExit) as stopped:
        parse(argv)
    assert stopped.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert words in said and "Traceback" not in said


def test_several_processes_count_their_rate_limits_in_their_redis_by_default() -> None:
    alone = parse([])
    assert alone.limits_storage() == "memory://"
    joined = parse(["--redis-url", "redis://127.0.0.1:6379/3"])
    assert joined.limits_storage() == "redis://127.0.0.1:6379/3"
    chosen = parse(["--redis-url", "redis://127.0.0.1:6379/3",
                    "--rate-limit-storage", "redis://10.0.0.2:6379/1"])
    assert chosen.limits_storage() == "redis://10.0.0.2:6379/1"


@pytest.mark.parametrize(("flag", "url", "words"), [
    ("--database-url", "postgresql://cards:s3cret@127.0.0.1:1/cards",
     "the database at postgresql://cards:***@127.0.0.1:1/cards cannot be reached"),
    ("--redis-url", "redis://:s3cret@127.0.0.1:1/0",
     "Redis at redis://:***@127.0.0.1:1/0 cannot be reached"),
])
def test_a_database_or_redis_out_of_reach_at_start_is_one_sentence(
        tmp_path: Path, flag: str, url: str, words: str) -> None:
    """Not uvicorn's failed startup and its traceback: one line, the place named, its
    password hidden, exit status 1."""
    done = subprocess.run([sys.executable, "-m", "cardtable.server", "--data-dir",
                           str(tmp_path / "data"), flag, url], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 1
    said = done.stderr.strip().splitlines()
    assert len(said) == 1, done.stderr
    assert words in said[0] and "Connection refused" in said[0]
    assert "s3cret" not in done.stderr + done.stdout
