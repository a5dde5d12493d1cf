"""Tournament pairing and scoring, as pure functions: arena and swiss tables, streaks,
byes, repeats kept out, standings and their tie-breaks."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.server.core.pairing import (
    ArenaRound,
    Standing,
    SwissPlayer,
    Waiting,
    arena_points,
    pair_arena,
    pair_swiss,
    repeats,
    standings,
)

# -- arena points ------------------------------------------------------------------------------


def test_an_arena_win_is_two_a_draw_one_a_loss_nothing() -> None:
    assert arena_points("win", 0) == (2, 1)
    assert arena_points("draw", 0) == (1, 0)
    assert arena_points("loss", 0) == (0, 0)


def test_after_two_wins_in_a_row_games_count_double_until_one_is_not_won() -> None:
    streak, earned = 0, []
    for result in ["win", "win", "win", "draw", "win", "win", "win", "loss", "win"]:
        points, streak = arena_points(result, streak)
        earned.append(points)
    assert earned == [2, 2, 4, 2, 2, 2, 4, 0, 2]   # a draw on a streak is 2


def test_a_result_that_is_none_of_the_three_is_refused() -> None:
    with pytest.raises(ValueError):
        arena_points("resigned", 0)


@given(st.lists(st.sampled_from(["win", "draw", "loss"]), max_size=30))
def test_a_streak_never_more_than_doubles_a_game(results: list[str]) -> None:
    streak = 0
    for result in results:
        before = streak
        points, streak = arena_points(result, streak)
        base = {"win": 2, "draw": 1, "loss": 0}[result]
        assert points == (2 * base if before >= 2 else base)
        assert streak == (before + 1 if result == "win" else 0)


# -- arena pairing -----------------------------------------------------------------------------


def test_a_finished_player_is_seated_with_the_nearest_score_waiting() -> None:
    waiting = [Waiting("low", 0), Waiting("top", 12), Waiting("mid", 6), Waiting("high", 10)]
    assert pair_arena(waiting, 2, others_playing=True).tables == (
        ("top", "high"), ("mid", "low"))


def test_two_who_just_played_are_not_seated_together_while_others_may_come() -> None:
    waiting = [Waiting("ann", 4, last=frozenset({"bob"})),
               Waiting("bob", 2, last=frozenset({"ann"}))]
    assert pair_arena(waiting, 2, others_playing=True).tables == ()
    # nobody else is at a table: nobody can come, so they play again
    assert pair_arena(waiting, 2, others_playing=False).tables == (("ann", "bob"),)


def test_a_lone_player_gets_bots_only_if_allowed_after_the_wait_and_nobody_else_waits() -> None:
    alone = [Waiting("ann", 4, since=0.0)]
    assert pair_arena(alone, 2, others_playing=True, bots=False, now=60).with_bots == ()
    assert pair_arena(alone, 2, others_playing=True, bots=True, now=5,
                      bot_wait=10).with_bots == ()
    assert pair_arena(alone, 2, others_playing=True, bots=True, now=10,
                      bot_wait=10).with_bots == (("ann",),)
    # with someone to play, no bot takes a seat
    two = [*alone, Waiting("bob", 0, since=0.0)]
    assert pair_arena(two, 2, others_playing=True, bots=True, now=60) == ArenaRound(
        (("ann", "bob"),), ())


def test_three_seat_tables_leave_the_last_waiting() -> None:
    waiting = [Waiting(name, score) for name, score in
               [("a", 9), ("b", 8), ("c", 7), ("d", 6), ("e", 5)]]
    paired = pair_arena(waiting, 3, others_playing=True)
    assert paired.tables == (("a", "b", "c"),)
    assert paired.seated == {"a", "b", "c"}


names = st.text("abcdefghij", min_size=1, max_size=3)


@st.composite
def waiting_players(draw: st.DrawFn) -> list[Waiting]:
    players = draw(st.lists(names, unique=True, max_size=14))
    out = []
    for player in players:
        last = draw(st.sets(st.sampled_from(players))) - {player} if players else set()
        apart = draw(st.sets(st.sampled_from(players), max_size=2)) - {player}
        out.append(Waiting(player, draw(st.integers(0, 40)), draw(st.integers(1000, 2000)),
                           draw(st.floats(0, 30)), frozenset(last), frozenset(apart)))
    return out


@given(waiting_players(), st.integers(2, 4), st.booleans(), st.booleans())
def test_arena_pairing_seats_each_waiting_player_at_most_once(
        waiting: list[Waiting], size: int, others_playing: bool, bots: bool) -> None:
    paired = pair_arena(waiting, size, others_playing=others_playing, bots=bots, now=20)
    seated = [p for group in (*paired.tables, *paired.with_bots) for p in group]
    assert len(seated) == len(set(seated))
    assert set(seated) <= {w.player for w in waiting}
    assert all(len(table) == size for table in paired.tables)
    assert all(0 < len(group) < size for group in paired.with_bots)
    if not bots:
        assert paired.with_bots == ()
    if paired.with_bots:   # bots only when no table of people could be made
        assert paired.tables == ()
    apart = {w.player: w.apart for w in waiting}
    for table in paired.tables:   # a block is never seated together
        assert not any(y in apart[x] for x in table for y in table)
    if others_playing:   # nobody seated again with someone from their last table
        last = {w.player: w.last for w in waiting}
        for table in paired.tables:
            for x in table:
                assert not (set(table) - {x}) & last[x]
    left = [w for w in waiting if w.player not in seated]
    if not others_playing and not any(w.apart for w in waiting):
        assert len(left) < size or paired.with_bots   # full tables until too few are left


@given(waiting_players(), st.integers(2, 4))
def test_the_leader_waiting_is_seated_whenever_a_table_can_be_made(
        waiting: list[Waiting], size: int) -> None:
    waiting = [dataclasses.replace(w, apart=frozenset()) for w in waiting]
    paired = pair_arena(waiting, size, others_playing=False)
    if len(waiting) >= size:
        leader = min(waiting, key=lambda w: (-w.score, -w.rating, w.player))
        assert leader.player in paired.seated


# -- swiss pairing -----------------------------------------------------------------------------


def test_a_second_round_does_not_repeat_the_first_where_seating_allows() -> None:
    met = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}
    players = [SwissPlayer(p, s, met=frozenset(met[p])) for p, s in
               [("a", 2), ("b", 2), ("c", 0), ("d", 0)]]
    # by score alone a and b would meet again
    assert pair_swiss(players, 2).tables == (("a", "c"), ("b", "d"))


def test_the_lowest_placed_without_a_bye_sits_out() -> None:
    players = [SwissPlayer("a", 4), SwissPlayer("b", 2), SwissPlayer("c", 2, byes=1),
               SwissPlayer("d", 0, byes=1), SwissPlayer("e", 0, byes=0)]
    paired = pair_swiss(players, 2)
    assert paired.byes == ("e",)
    players[4] = SwissPlayer("e", 0, byes=1)
    assert pair_swiss(players, 2).byes == ("b",)


@st.composite
def swiss_fields(draw: st.DrawFn) -> tuple[list[SwissPlayer], int]:
    size = draw(st.integers(2, 4))
    players = draw(st.lists(names, unique=True, min_size=size, max_size=20))
    out = []
    for player in players:
        met = draw(st.sets(st.sampled_from(players))) - {player}
        out.append(SwissPlayer(player, draw(st.integers(0, 14)), draw(st.integers(1000, 2000)),
                               frozenset(met), draw(st.integers(0, 2))))
    return out, size


@settings(max_examples=60, deadline=None)
@given(swiss_fields())
def test_a_swiss_round_seats_everyone_once_or_gives_them_a_bye(
        field: tuple[list[SwissPlayer], int]) -> None:
    players, size = field
    paired = pair_swiss(players, size)
    seated = [p for table in paired.tables for p in table]
    assert sorted(seated + list(paired.byes)) == sorted(p.player for p in players)
    assert all(len(table) == size for table in paired.tables)
    assert len(paired.byes) == len(players) % size
    if paired.byes:   # byes go to those with the fewest first
        byes = {p.player: p.byes for p in players}
        assert max(byes[p] for p in paired.byes) <= min(byes[p] for p in seated)


def play_swiss(n: int, size: int, rounds: int, seed: int) -> tuple[int, int]:
    """A swiss played with random results: the pairs seated again, and the most players any
    round sat out."""
    rng = random.Random(seed)
    met: dict[str, set[str]] = {f"p{i}": set() for i in range(n)}
    score = dict.fromkeys(met, 0)
    byes = dict.fromkeys(met, 0)
    again, out = 0, 0
    for _ in range(rounds):
        paired = pair_swiss([SwissPlayer(p, score[p], 1500, frozenset(met[p]), byes[p])
                             for p in met], size)
        again += repeats(paired.tables, {p: frozenset(m) for p, m in met.items()})
        out = max(out, len(paired.byes))
        for table in paired.tables:
            durak = rng.choice(table)
            for p in table:
                score[p] += 0 if p == durak else 2
                met[p].update(set(table) - {p})
        for p in paired.byes:
            byes[p] += 1
            score[p] += 2
    return again, out


@pytest.mark.parametrize("seed", range(3))
def test_64_players_in_fours_meet_nobody_twice_in_seven_rounds(seed: int) -> None:
    assert play_swiss(64, 4, 7, seed) == (0, 0)


@pytest.mark.parametrize(("n", "size", "rounds"), [(30, 3, 7), (64, 2, 7), (9, 3, 4)])
def test_other_fields_meet_nobody_twice_where_the_numbers_allow(
        n: int, size: int, rounds: int) -> None:
    assert play_swiss(n, size, rounds, 0)[0] == 0


def test_thirteen_in_fours_sit_one_out_each_round() -> None:
    assert play_swiss(13, 4, 3, 0)[1] == 1


# -- standings ---------------------------------------------------------------------------------


def test_swiss_ties_are_broken_by_the_opponents_points() -> None:
    lines = [Standing("a", points=4, opponents=["c", "d"], wins=2),
             Standing("b", points=4, opponents=["d", "e"], wins=2),
             Standing("c", points=6), Standing("d", points=0), Standing("e", points=2)]
    ranked = standings(lines, "swiss")
    assert [(s.player, s.rank, s.tiebreak) for s in ranked][:3] == [
        ("c", 1, 0), ("a", 2, 6), ("b", 3, 2)]


def test_arena_ties_are_broken_by_points_a_game() -> None:
    ranked = standings([Standing("busy", points=8, games=8), Standing("sharp", points=8,
                                                                     games=4)], "arena")
    assert [(s.player, s.tiebreak) for s in ranked] == [("sharp", 200), ("busy", 100)]


@given(st.lists(st.tuples(names, st.integers(0, 30), st.integers(0, 10)), unique_by=lambda
                t: t[0], max_size=12), st.sampled_from(["arena", "swiss"]))
def test_standings_are_ordered_by_points_and_ranks_never_skip_a_better_line(
        rows: list[tuple[str, int, int]], kind: str) -> None:
    ranked = standings([Standing(p, points=pts, games=g) for p, pts, g in rows], kind)
    assert [s.points for s in ranked] == sorted((s.points for s in ranked), reverse=True)
    for i, s in enumerate(ranked):
        assert s.rank <= i + 1
        assert i == 0 or s.rank >= ranked[i - 1].rank


def test_players_kept_apart_are_never_seated_together_and_the_rest_play_on() -> None:
    waiting = [Waiting("ann", 9, apart=frozenset({"bob", "cy"})), Waiting("bob", 8),
               Waiting("cy", 7, apart=frozenset({"ann"})), Waiting("dee", 1)]
    assert pair_arena(waiting, 2, others_playing=True).tables == (("ann", "dee"),
                                                                   ("bob", "cy"))
    # nobody else at a table: still never together; ann waits, the others play
    blocked = [Waiting("ann", 9, apart=frozenset({"bob"})), Waiting("bob", 8),
               Waiting("cy", 0)]
    assert pair_arena(blocked, 2, others_playing=False).tables == (("ann", "cy"),)
    alone = [Waiting("ann", 9, apart=frozenset({"bob"})), Waiting("bob", 8)]
    assert pair_arena(alone, 2, others_playing=False).tables == ()
