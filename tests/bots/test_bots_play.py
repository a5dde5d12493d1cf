"""Every bot plays every game, rule preset and player count: legal moves, whole games,
the same game again from the same seed."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
from bot_positions import bot_specs_small

from cardtable import bots, games
from cardtable.bots.kits import kit_for
from cardtable.game import rules_with


def configurations():
    """(game, preset, players) for every preset and player count of both games."""
    out = []
    for name in games.names():
        spec = games.get(name)
        for preset, rules in spec.presets.items():
            for players in spec.player_counts:
                try:
                    spec.start(rules, players=players, seed=0)
                except ValueError:
                    continue   # these rules are not for this many players
                out.append((name, preset, players))
    return out


def short(spec, preset):
    """A preset's rules with a short match (Pasur to 11 points), everything else kept."""
    rules = spec.presets[preset]
    if any(f.name == "target" for f in dataclasses.fields(rules)):
        return rules_with(rules, {"target": 11})
    return rules


def play_game(spec, rules, players, specs, seed):
    state = spec.start(rules, players=players, seed=seed)
    seats = [bots.make(specs[s % len(specs)], seed=seed * 10 + s) for s in range(players)]
    moves = []
    while not state.is_over():
        legal = state.legal_moves()
        move = seats[state.to_move].choose(state)
        assert move in legal, f"{seats[state.to_move].name} chose {move}, not a legal move"
        state.push(move)
        moves.append(str(move))
    return state, moves


@pytest.mark.parametrize("game, preset, players", configurations())
def test_every_bot_plays_legal_moves_to_the_end(game, preset, players):
    spec = games.get(game)
    rules = short(spec, preset)
    kinds = bot_specs_small()
    # every kind sits at a table of this size at least once
    for start in range(0, len(kinds), players):
        lineup = [kinds[(start + k) % len(kinds)] for k in range(players)]
        state, _ = play_game(spec, rules, players, lineup, seed=start)
        assert state.outcome() is not None


@pytest.mark.parametrize("game", ["pasur", "durak"])
@pytest.mark.parametrize("kind", ["random", "greedy", "ismcts:iterations=25",
                                  "ismcts:iterations=24,paired=1",
                                  "expert:iterations=25,solver_nodes=4000"])
def test_a_seeded_bot_plays_the_same_game_again(game, kind):
    spec = games.get(game)
    rules = short(spec, spec.default_preset)
    _, first = play_game(spec, rules, 2, [kind, "greedy"], seed=4)
    _, again = play_game(spec, rules, 2, [kind, "greedy"], seed=4)
    assert first == again


def test_different_seeds_give_the_search_different_games():
    spec = games.get("durak")
    rules = spec.presets["transfer"]
    runs = {tuple(play_game(spec, rules, 2, ["ismcts:iterations=25"], seed=s)[1])
            for s in (1, 1, 2)}
    assert len(runs) == 2


def test_every_level_is_a_named_configuration_of_a_kind():
    for level, (kind, options, meaning) in bots.LEVELS.items():
        bot = bots.make(level, seed=1)
        assert bot.name == level
        assert kind in bots.specs() and meaning
        for key, value in options.items():
            assert getattr(bot, key) == value
    assert all(bots.make(level).solver for level in ("medium", "hard", "expert"))
    assert bots.make("medium").depth == 1 and bots.make("hard").depth == 0


def test_a_level_takes_the_options_of_its_kind():
    bot = bots.make("medium:iterations=7", seed=1)
    assert (bot.name, bot.iterations, bot.seconds) == ("medium", 7, 2.0)


SLOWEST = 500
"""Iterations a CPU second below any measured here (the slowest, Durak's expert on a machine
loaded 7-fold on 2 cores, made about 1,400): a level's time cap must allow at least these."""


def test_every_search_level_is_an_iteration_budget_with_its_time_cap_a_safety_net():
    """A level's strength must not depend on the machine's load: its iterations decide, and
    the cap would bind only on a machine slower than any measured here."""
    searches = {level: options for level, (kind, options, _) in bots.LEVELS.items()
                if kind == "ismcts"}
    assert set(searches) == {"medium", "hard", "expert"}
    for game in ("pasur", "durak"):
        budgets = []
        for level in ("medium", "hard", "expert"):
            options = searches[level]
            budget = kit_for({"game": game}).budgets[options["budget"]]
            assert options["budget"] == level and "iterations" not in options
            assert options["seconds"] >= budget / SLOWEST, (level, game)
            budgets.append(budget)
        assert budgets == sorted(budgets) and len(set(budgets)) == 3, game


@pytest.mark.parametrize("game, preset, budgets", [
    ("durak", "transfer", {"medium": 500, "hard": 1000, "expert": 2500}),
    ("pasur", "standard", {"medium": 200, "hard": 500, "expert": 3000}),
])
def test_a_level_searches_with_its_games_budget_unless_told_otherwise(game, preset, budgets):
    """Each game gives each level its budget (a Durak playout runs to the end of the
    game); an ``iterations`` in the spec is the caller's, in every game."""
    spec = games.get(game)
    state = spec.start(spec.presets[preset], players=2, seed=4)
    while len(state.legal_moves()) < 2:
        state.push(state.legal_moves()[0])
    for level, budget in budgets.items():
        bot = bots.make(f"{level}:seconds=600", seed=1)
        bot.choose(state)
        assert bot.stats["iterations"] == budget, level
    told = bots.make("medium:iterations=30", seed=1)
    told.choose(state)
    assert told.stats["iterations"] == 30


def test_a_budget_names_a_level_the_games_kit_knows():
    spec = games.get("pasur")
    state = spec.start(spec.presets["standard"], players=2, seed=4)
    with pytest.raises(ValueError, match="names a level"):
        bots.ISMCTSBot(budget="")
    with pytest.raises(ValueError, match="gives no budget for 'grandmaster'"):
        bots.ISMCTSBot(budget="grandmaster").choose(state)


def test_a_level_plays_the_same_game_with_its_cap_or_without():
    """With its cap in force or lifted a seeded level makes the same moves: the budget
    stops it, not the clock (scaled down to 40 iterations so the test stays quick)."""
    spec = games.get("durak")
    rules = spec.presets["transfer"]
    capped = play_game(spec, rules, 2, ["hard:iterations=40"], seed=3)[1]
    lifted = play_game(spec, rules, 2, ["hard:iterations=40,seconds=600"], seed=3)[1]
    assert capped == lifted and len(capped) > 20


def test_ismcts_with_a_time_budget_stops_in_time_and_says_how_far_it_got():
    spec = games.get("pasur")
    state = spec.start(spec.presets["standard"], players=2, seed=2)
    bot = bots.make("ismcts:seconds=0.05", seed=1)
    while len(state.legal_moves()) < 2:
        state.push(state.legal_moves()[0])
    bot.choose(state)
    assert bot.stats["iterations"] >= 1 and bot.iterations is None


@pytest.mark.parametrize("spec, words", [
    ("alphazero", "no bot 'alphazero'"),
    ("ismcts:iterations", "must look like name=value"),
    ("ismcts:width=3", "does not take those options"),
    ("ismcts:iterations=0", "iterations must be a whole number of 1 or more"),
    ("ismcts:seconds=-1", "seconds must be a number above 0"),
    ("ismcts:playout=smart", "playout is 'basic', 'random', 'plain' or 'steady'"),
    ("ismcts:horizon=-1", "horizon must be a whole number of 0 or more"),
    ("ismcts:depth=-1", "depth must be a whole number of 0 or more"),
    ("ismcts:c=nan", "c=nan is not a finite number"),
    ("ismcts:c=inf", "c=inf is not a finite number"),
    ("medium:c=-inf", "c=-inf is not a finite number"),
    ("ismcts:seconds=1e400", "seconds=1e400 is not a finite number"),
    ("ismcts:c=-1", r"c \(the exploration constant\) must be a number of 0 or more"),
    ("ismcts:c=true", r"c \(the exploration constant\) must be a number"),
    ("ismcts:solver_nodes=0", "solver_nodes must be a whole number of 1 or more"),
    ("ismcts:solver_nodes=2.5", "solver_nodes must be a whole number of 1 or more"),
    ("ismcts:solver_seconds=0", "solver_seconds must be a number above 0"),
])
def test_a_bad_bot_spec_says_what_is_wrong(spec, words):
    with pytest.raises(ValueError, match=words):
        bots.make(spec)


@pytest.mark.parametrize("options", [{"c": float("nan")}, {"c": float("inf")},
                                     {"seconds": float("inf")}, {"seconds": float("nan")},
                                     {"solver_seconds": float("nan")}, {"c": -0.5}])
def test_the_search_refuses_a_budget_that_is_no_number(options):
    with pytest.raises(ValueError, match="must be a number"):
        bots.ISMCTSBot(**options)


@pytest.mark.parametrize("spec", ["ismcts:iterations=1000000000",
                                  "expert:iterations=1000000000,seconds=100000,"
                                  "solver_seconds=100000"])
def test_a_search_stops_at_the_deadline_it_is_given_whatever_its_budget(spec):
    game = games.get("pasur")
    state = game.start(game.presets["standard"], players=2, seed=2)
    while len(state.legal_moves()) < 2:
        state.push(state.legal_moves()[0])
    bot = bots.make(spec, seed=1)
    chosen = []
    thinking = threading.Thread(target=lambda: chosen.append(
        bots.choose_within(bot, state, time.perf_counter() + 0.2)), daemon=True)
    thinking.start()
    thinking.join(120)   # a bound on the wait, not a timing: a billion iterations take hours
    assert chosen, "the search did not stop at its deadline"
    assert chosen[0] in state.legal_moves()
    assert 1 <= bot.stats["iterations"] < 1_000_000_000


def test_a_bot_that_takes_no_deadline_is_simply_asked():
    game = games.get("durak")
    state = game.start(game.presets["transfer"], players=2, seed=4)
    assert bots.choose_within(bots.make("greedy", seed=1), state, 0.0) in state.legal_moves()


@pytest.mark.parametrize("horizon, stops_at", [(None, 3), (0, 2), (1, 3), (2, 4), (9, None)])
def test_a_pasur_playout_stops_after_horizon_more_deal_rounds(horizon, stops_at):
    """The estimate takes over once the deal round after the horizon is dealt; a horizon
    past the last round plays the hand to its end."""
    from cardtable import pasur
    from cardtable.bots.pasur_kit import KIT

    hand = pasur.Hand.new(pasur.PRESETS["standard"], seed=5)
    context = KIT.context(hand, hand.to_move, horizon=horizon)
    while not hand.is_over() and not KIT.cutoff(hand, context):
        hand.push(hand.legal_moves()[0])
    assert (None if hand.is_over() else hand.deal_round) == stops_at


@pytest.mark.parametrize("game", ["pasur", "durak"])
@pytest.mark.parametrize("paired", [0, 1])
def test_a_search_of_depth_one_keeps_statistics_for_the_roots_moves_alone(game, paired):
    """depth=1 is flat Monte Carlo: one node per root move, every reply the playout's;
    depth=2 also grows the replies, and no limit grows more still."""
    spec = games.get(game)
    state = spec.start(next(iter(spec.presets.values())), players=2, seed=4)
    while len(state.legal_moves()) < 2:
        state.push(state.legal_moves()[0])
    sizes = {}
    for depth in (1, 2, 0):
        bot = bots.make(f"ismcts:iterations=120,depth={depth},paired={paired}", seed=3)
        assert bot.choose(state) in state.legal_moves()
        sizes[depth] = bot.stats["nodes"]
        if depth == 1:
            assert sizes[1] == len(bot.stats["moves"]) <= len(state.legal_moves())
    assert sizes[1] < sizes[2] <= sizes[0]


def test_a_bot_refuses_a_finished_game():
    spec = games.get("durak")
    state, _ = play_game(spec, spec.presets["transfer"], 2, ["basic"], seed=1)
    for kind in ("random", "basic", "greedy", "ismcts"):
        with pytest.raises(ValueError, match="game is over"):
            bots.make(kind).choose(state)


def test_the_kits_are_found_by_the_views_game_key():
    from cardtable.bots.kits import kit_for

    for name in games.names():
        assert kit_for({"game": name}).name == name
    with pytest.raises(ValueError, match="do not know the game 'chess'"):
        kit_for({"game": "chess"})


def test_the_plain_playout_is_durak_s_basic_policy_and_differs_from_the_tactics():
    from cardtable.bots.durak_kit import KIT

    spec = games.get("durak")
    state = spec.start(spec.presets["transfer"], players=2, seed=5)
    while len(state.legal_moves()) < 2:
        state.push(state.legal_moves()[0])
    runs = {}
    for playout in ("basic", "plain"):
        bot = bots.make(f"ismcts:iterations=60,playout={playout}", seed=2)
        bot.choose(state)
        runs[playout] = bot.stats["moves"]
    assert runs["basic"] != runs["plain"]

    class NoRandom:
        def random(self):
            return 0.5   # never the 5% random move

    position = state.copy()
    while not position.is_over():
        assert KIT.playout_plain(position, NoRandom()) is KIT.basic(position)
        position.push(KIT.basic(position))
