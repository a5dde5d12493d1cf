"""The arena: duplicate deals with seats rotated, statistics against known values, runs in
one process, several, or on Ray, records of every game."""

from __future__ import annotations

import json

import pytest

from cardtable import arena, durak, pasur, records
from cardtable.arena import GameResult, seatings, summarize, wilson
from cardtable.game import rules_with

# -- statistics ------------------------------------------------------------------------------


@pytest.mark.parametrize("wins, games, low, high", [
    (8, 10, 0.4902, 0.9433),    # the textbook example
    (0, 10, 0.0, 0.2775),
    (50, 100, 0.4038, 0.5962),
    (1, 1, 0.2065, 1.0),
    (95, 100, 0.8882, 0.9785),
])
def test_the_wilson_interval_has_its_published_values(wins, games, low, high):
    lo, hi = wilson(wins, games)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)


def test_the_wilson_interval_refuses_more_wins_than_games():
    with pytest.raises(ValueError, match="between 0 and 10"):
        wilson(11, 10)


def test_a_mean_interval_comes_from_the_spread_of_the_units():
    mean, (lo, hi) = arena.mean_ci([1.0, 2.0, 3.0, 4.0])
    # sd = 1.291, se = 0.6455
    assert mean == 2.5 and lo == pytest.approx(2.5 - 1.96 * 0.6455, abs=1e-3)
    assert hi == pytest.approx(2.5 + 1.96 * 0.6455, abs=1e-3)


# -- seats -----------------------------------------------------------------------------------

def test_every_deal_is_played_again_with_the_seats_rotated():
    games = seatings(["A", "B", "C"], players=3, games=6)
    assert [deal for deal, _ in games] == [0, 0, 0, 1, 1, 1]
    first_deal = [lineup for deal, lineup in games if deal == 0]
    assert first_deal == [("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B")]
    for seat in range(3):   # each bot holds each seat's cards once per deal
        assert sorted(lineup[seat] for lineup in first_deal) == ["A", "B", "C"]


def test_games_are_rounded_up_to_whole_deals():
    assert len(seatings(["A", "B"], players=2, games=5)) == 6


def test_more_bots_than_seats_take_turns_by_groups():
    games = seatings(["A", "B", "C"], players=2, games=12)
    groups = [frozenset(lineup) for deal, lineup in games]
    assert groups[0::2] == [frozenset("AB"), frozenset("AC"), frozenset("BC")] * 2


def test_fewer_bots_than_seats_sit_round_the_table_in_turn():
    games = seatings(["A", "B"], players=4, games=4)
    assert games[0][1] == ("A", "B", "A", "B") and games[1][1] == ("B", "A", "B", "A")


def test_the_rotations_of_a_deal_share_its_deck_and_deals_differ():
    tasks = arena.plan("durak", ["greedy", "random"], games=6, seed=3)
    seeds = [t.deal_seed for t in tasks]
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and len(set(seeds)) == 3
    again = arena.plan("durak", ["greedy", "random"], games=6, seed=3)
    assert [t.deal_seed for t in again] == seeds
    assert [t.bot_seeds for t in again] == [t.bot_seeds for t in tasks]
    assert arena.plan("durak", ["greedy", "random"], games=6, seed=4)[0].deal_seed != seeds[0]


def test_a_repeated_bot_gets_its_own_label():
    tasks = arena.plan("durak", ["greedy", "greedy", "random"], games=3, players=3)
    assert set(tasks[0].lineup) == {"greedy", "greedy#2", "random"}
    assert set(tasks[0].specs) == {"greedy", "random"}


@pytest.mark.parametrize("game, bots, options, words", [
    ("durak", ["greedy", "alphazero"], {}, "no bot 'alphazero'"),
    ("durak", ["greedy"], {"hands": True}, "not played in hands"),
    ("durak", ["greedy"], {"players": 9}, "for 2, 3, 4, 5, 6 players"),
    ("pasur", ["greedy"], {"players": 3}, "for 2 players"),
    ("pasur", ["greedy"], {"rules": "klondike"}, "no preset 'klondike'"),
])
def test_a_bad_plan_says_what_is_wrong(game, bots, options, words):
    with pytest.raises(ValueError, match=words):
        arena.plan(game, bots, games=2, **options)


# -- figures from known games ----------------------------------------------------------------

def result(index, deal, lineup, winners, points=None, hands=1, loser=None):
    return GameResult(index=index, deal=deal, lineup=lineup, returns=(0.0,) * len(lineup),
                      winners=winners, points=points, hands=hands, loser=loser, moves=1,
                      seconds=0.0)


def test_pasur_figures_count_wins_and_points_per_hand():
    results = [
        result(0, 0, ("A", "B"), (0,), points=(20, 10), hands=2),
        result(1, 0, ("B", "A"), (1,), points=(12, 18), hands=2),
        result(2, 1, ("A", "B"), (1,), points=(5, 9)),
        result(3, 1, ("B", "A"), (), points=(7, 7)),
    ]
    figures = summarize("pasur", ["A", "B"], results)
    a, b = figures["A"], figures["B"]
    assert (a["games"], a["wins"], b["wins"]) == (4, 2, 1)
    assert a["win_rate"] == 0.5 and a["ci95"] == list(wilson(2, 4))
    assert a["mean_points"] == pytest.approx((20 + 18 + 5 + 7) / 6)
    assert b["mean_points"] == pytest.approx((10 + 12 + 9 + 7) / 6)
    assert a["durak_rate"] is None
    margin = arena.margin("pasur", ["A", "B"], results)
    # deal 0: (10 - 5 + 9 - 6) / 2 = 4; deal 1: (5 - 9 + 0) / 2 = -2
    assert margin["mean"] == pytest.approx(1.0) and margin["deals"] == 2


def test_durak_figures_count_duraks():
    results = [
        result(0, 0, ("A", "B"), (0,), loser=1),
        result(1, 0, ("B", "A"), (1,), loser=0),
        result(2, 1, ("A", "B"), (), loser=None),   # a draw
        result(3, 1, ("B", "A"), (0,), loser=1),
    ]
    figures = summarize("durak", ["A", "B"], results)
    assert figures["A"]["durak_rate"] == 0.25 and figures["B"]["durak_rate"] == 0.5
    assert figures["A"]["durak_ci95"] == list(wilson(1, 4))
    assert figures["A"]["mean_points"] is None
    assert arena.margin("durak", ["A", "B"], results)["mean"] == pytest.approx(0.25)


def test_ratings_rank_the_bot_that_wins_more_higher():
    results = [result(i, i // 2, ("A", "B") if i % 2 == 0 else ("B", "A"), ())
               for i in range(8)]
    for r in results:
        a = r.lineup.index("A")
        r.returns = tuple(1.0 if s == a else -1.0 for s in range(2))
    figures = summarize("durak", ["A", "B"], results)
    assert figures["A"]["rating"]["mu"] > figures["B"]["rating"]["mu"]


# -- real runs -------------------------------------------------------------------------------

def test_one_process_or_two_give_the_same_games():
    one = arena.run("pasur", ["greedy", "random"], games=6, hands=True, seed=2, jobs=1)
    two = arena.run("pasur", ["greedy", "random"], games=6, hands=True, seed=2, jobs=2)
    assert [(r.lineup, r.points, r.moves) for r in one.results] == \
        [(r.lineup, r.points, r.moves) for r in two.results]
    assert one.figures == two.figures


def test_the_json_has_the_documented_shape(tmp_path):
    run = arena.run("durak", ["greedy", "random"], games=4, seed=1)
    data = json.loads(json.dumps(run.to_json()))
    assert {"game", "rules", "bots", "games", "results"} <= set(data)
    assert (data["game"], data["rules"], data["bots"], data["games"]) == \
        ("durak", "transfer", ["greedy", "random"], 4)
    for figures in data["results"].values():
        assert {"wins", "win_rate", "ci95", "mean_points", "durak_rate"} <= set(figures)
        assert figures["mean_points"] is None and 0 <= figures["durak_rate"] <= 1
    run.plot(tmp_path / "rates.png")
    assert (tmp_path / "rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_saved_games_replay_to_their_recorded_results(tmp_path):
    short = rules_with(pasur.PRESETS["standard"], {"target": 11})
    arena.run("pasur", ["greedy", "random"], games=2, rules=short, save_dir=tmp_path / "p")
    arena.run("durak", ["greedy", "random"], games=2, players=3, save_dir=tmp_path / "d")
    paths = sorted((tmp_path / "p").glob("*.json")) + sorted((tmp_path / "d").glob("*.json"))
    assert len(paths) == 2 + 3   # durak rounds 2 games up to one deal of 3 rotations
    for path in paths:
        record = records.load(path)
        state = record.replay(check=True)
        assert state.is_over() and record.result is not None
        assert sorted(seat["bot"] for seat in record.seats) in (["greedy", "random"],
                                                                ["greedy", "greedy", "random"])


def test_a_saved_single_hand_replays_as_the_first_hand_of_a_match(tmp_path):
    run = arena.run("pasur", ["greedy", "random"], games=1, hands=True, save_dir=tmp_path)
    record = records.load(run.results[0].record)
    state = record.replay()
    assert record.extra["single_hand"] and len(state.finished_hands) == 1
    assert state.finished_hands[0].score() == record.extra["hand_points"]


def test_a_game_going_round_in_circles_is_stopped_as_a_draw(monkeypatch):
    monkeypatch.setattr(arena.running, "MAX_MOVES", 10)
    result = arena.play_task(arena.plan("durak", ["random"], games=1)[0])
    assert not result.finished and result.winners == () and result.moves == 10


# -- the command -----------------------------------------------------------------------------

def command_app():
    from cardtable.cli import app

    return app


def test_the_arena_command_prints_a_table_and_writes_json_and_a_plot(tmp_path):
    from typer.testing import CliRunner

    out = tmp_path / "figures.json"
    result = CliRunner().invoke(command_app(), [
        "arena", "durak", "--bots", "greedy,random", "--games", "4", "--seed", "5",
        "--json", str(out), "--plot", str(tmp_path / "rates.png")])
    assert result.exit_code == 0, result.output
    assert "durak rate" in result.output and "greedy" in result.output
    data = json.loads(out.read_text())
    assert data["games"] == 4 and set(data["results"]) == {"greedy", "random"}
    assert (tmp_path / "rates.png").exists()


def test_the_arena_command_plays_single_pasur_hands():
    from typer.testing import CliRunner

    result = CliRunner().invoke(command_app(), [
        "arena", "pasur", "--bots", "greedy,random", "--hands", "2", "-o", "target=11"])
    assert result.exit_code == 0, result.output
    assert "points/hand" in result.output


def test_a_bot_spec_with_several_options_stays_one_bot(tmp_path):
    from typer.testing import CliRunner

    out = tmp_path / "figures.json"
    result = CliRunner().invoke(command_app(), [
        "arena", "pasur", "--bots", "ismcts:iterations=20,playout=random,greedy", "--hands",
        "2", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert set(json.loads(out.read_text())["results"]) == {
        "ismcts:iterations=20,playout=random", "greedy"}


@pytest.mark.parametrize("args, words", [
    (["durak", "--bots", "greedy", "--hands", "2"], "not played in hands"),
    (["pasur", "--bots", "greedy", "--games", "2", "--hands", "2"], "not both"),
    (["durak", "--bots", "nobody", "--games", "2"], "no bot 'nobody'"),
    (["durak", "--bots", "iterations=5,greedy", "--games", "2"], "follows no bot"),
])
def test_the_arena_command_explains_bad_options(args, words):
    from typer.testing import CliRunner

    result = CliRunner().invoke(command_app(), ["arena", *args])
    text = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2 and words in text


@pytest.mark.slow
def test_the_same_games_run_on_a_local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = arena.run("durak", ["greedy", "random"], games=4, seed=7, ray="auto")
    finally:
        ray.shutdown()
    here = arena.run("durak", ["greedy", "random"], games=4, seed=7)
    assert [r.moves for r in on_ray.results] == [r.moves for r in here.results]
    assert on_ray.figures == here.figures


def test_ray_missing_is_a_clear_error(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(RuntimeError, match=r"pip install 'cardtable\[cluster\]'"):
        arena.run("durak", ["greedy"], games=2, ray="local")


def test_a_durak_game_of_the_arena_is_a_real_game():
    task = arena.plan("durak", ["greedy", "random"], games=2, seed=9)[0]
    result = arena.play_task(task)
    game = durak.Game.new(task.rules, players=2, seed=task.deal_seed)
    assert result.finished and result.moves > 6 and game.deck is not None



def test_a_rule_option_must_be_a_name_and_a_value():
    from typer.testing import CliRunner

    result = CliRunner().invoke(command_app(), [
        "arena", "durak", "--bots", "greedy", "--games", "2", "-o", "passport"])
    text = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2 and "must look like name=value" in text


def test_the_arena_runs_without_the_command_line_library():
    import subprocess
    import sys

    code = "import sys, cardtable.arena; print('typer' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
