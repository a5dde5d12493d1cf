"""A third game needs one package and one line: High Card (``tests/highcard.py``), registered
by the ``highcard`` fixture and nothing else, plays through the arena, records and replay,
and the terminal (the server's API and WebSocket: ``tests/server/test_server_third_game.py``)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cardtable import arena, games, records
from cardtable.cli import app


def test_the_registry_lists_the_game_once_the_fixture_registers_it(highcard):
    assert "highcard" in games.names()
    assert games.get("highcard") is highcard
    assert highcard.rules("quick").hand_size == 2


def test_the_arena_plays_it_with_duplicate_deals_and_counts_its_tricks(highcard, tmp_path):
    run = arena.run("highcard", ["random", "random"], games=8, seed=3,
                    save_dir=tmp_path)
    assert len(run.results) == 8
    for result in run.results:
        assert sum(result.points) == highcard.rules().hand_size   # one point a trick
    deals = [r.deal for r in run.results]
    assert deals == sorted(deals) and len(set(deals)) == 4      # each deal played twice
    assert sum(f["games"] for f in run.figures.values()) == 16
    saved = sorted(tmp_path.glob("highcard-*.json"))
    assert len(saved) == 8
    for path in saved:
        record = records.load(path)
        assert record.game == "highcard" and record.replay(check=True).is_over()


def test_a_record_of_it_saves_loads_and_replays_exactly(highcard):
    state = highcard.start(highcard.rules(), players=3, seed=4)
    while not state.is_over():
        state.push(state.legal_moves()[-1])
    record = records.record_of(state, "highcard")
    again = records.loads(record.dumps())
    replayed = again.replay(check=True)
    assert replayed.tricks == state.tricks
    assert [str(m) for m in replayed.move_stack] == [str(m) for m in state.move_stack]


def test_a_record_with_a_move_it_cannot_play_is_refused_with_the_move(highcard):
    state = highcard.start(highcard.rules(), players=2, seed=4)
    record = records.record_of(state, "highcard")
    record.moves = ["A♠", "A♠"]
    try:
        record.replay()
    except records.RecordError as error:
        assert "move 1" in str(error) or "move 2" in str(error)
    else:
        raise AssertionError("a card played twice was replayed")


def test_the_terminal_plays_it_to_the_end_on_its_plain_screen(highcard, tmp_path):
    saved = tmp_path / "highcard.json"
    result = CliRunner().invoke(
        app, ["play", "highcard", "--vs", "random", "--seed", "2", "--save", str(saved),
              "--no-color"], input="1\n" * 20)
    assert result.exit_code == 0, result.output
    assert "High Card" in result.output
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["game"] == "highcard" and record["result"]["over"] is True
    assert len(record["moves"]) == 2 * highcard.rules().hand_size
