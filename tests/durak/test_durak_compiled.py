"""The compiled core against the pure engine, its reference: random games under any rules
and any number of players, compared position by position.

At every position both engines must give the same legal moves (in the same order), the
same views for every seat and a spectator, the same outcome, the same fields the bots read,
and the same refusal (type and message) for the same bad input, which changes nothing.
Along the way a game is copied (with and without its moves), undone a few moves and played
again, determinized with the same generator, and at the end undone to its start.

``DURAK_DIFFERENTIAL_GAMES`` sets how many games hypothesis draws (the benchmark-sized run
in ``benchmarks/engine_sanitize_durak.sh`` plays over 100,000 positions); CI plays fewer.
"""

from __future__ import annotations

import gc
import os
import pickle
import random
import sys
from typing import Any

import pytest
from durak_helpers import random_move
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.cards import CARDS, pack
from cardtable.durak import Rules
from cardtable.durak.game import Game as PureGame
from cardtable.durak.moves import Move

compiled = pytest.importorskip("cardtable.durak.compiled", exc_type=ImportError,
                               reason="the compiled core is not built here")
CompiledGame = compiled.Game

GAMES = int(os.environ.get("DURAK_DIFFERENTIAL_GAMES", "40"))
COUNTED = [0]
"""Positions compared so far in this process (the benchmark run prints it)."""

RULES = st.builds(
    Rules,
    pack_size=st.sampled_from([24, 36, 52]),
    first_round_limit=st.sampled_from([5, 6]),
    first_round_transfer=st.booleans(),
    passport=st.booleans(),
    late_transfer=st.booleans(),
    neighbours_only=st.booleans(),
    partners=st.booleans(),
    trump_six_exchange=st.booleans(),
    max_rounds=st.sampled_from([1, 2, 5, 40, 500]),
)

BAD_TEXTS = ["", " ", "take", "pass", "attack", "attack 9♣", "beat", "defend", "defend 9♣",
             "9d", "zz", "transfer", "transfer show 6♠", "exchange 6♠", "attack 9♣ 10♦",
             "pick up", "bito", "show 7h", "defend 9c with 9c", "attack 1x", "♣", "10",
             "take 6♠", "\x00", "attack " + "9♣ " * 50]
BAD_OBJECTS: list[Any] = [None, 3, 3.5, b"take", object(), [1], ("take",), True, CARDS[0]]
BAD_SEATS: list[Any] = ["0", 1.0, -1, 99, True, None, object()]


def fields(game: Any) -> tuple[Any, ...]:
    """Everything public a game shows, and the private fields the bots read."""
    seats = range(game.players)
    return (game.to_move, game.phase, game.round_number, game.attacker,
            game.original_attacker, game.defender, game.limit, game.loser, game.is_draw,
            game.draw_reason, game.out, game.trump, game.trump_card, game.stock, game.hands,
            game.table, game.discard, tuple(game.known_cards(s) for s in seats),
            game.is_over(), game.outcome(), repr(game), game.move_stack,
            game.teams, game.losing_team, game._stock, game._drawn, game._att, game._open,
            game._phase, game._hands, game._trump, game._to_move, game._beats,
            game.deck, game.dealer, game.previous_loser)


def compare(pure: Any, core: Any) -> None:
    COUNTED[0] += 1
    legal = pure.legal_moves()
    assert core.legal_moves() == legal
    assert all(a is b for a, b in zip(core.legal_moves(), legal, strict=True))
    assert fields(core) == fields(pure)
    for seat in [None, *range(pure.players)]:
        assert core.view(seat) == pure.view(seat)


def outcome_of(action: Any) -> tuple[Any, ...]:
    try:
        result = action()
    except Exception as error:   # the refusal itself is what is compared
        return (type(error), str(error))
    return ("ok", result)


def same_refusal(pure: Any, core: Any, move: Any, seat: Any = None) -> None:
    """A bad input gets the same answer from both, and changes neither."""
    before = fields(pure)
    if seat is None:
        expected = outcome_of(lambda: pure.push(move))
        got = outcome_of(lambda: core.push(move))
    else:
        expected = outcome_of(lambda: pure.push(move, seat=seat))
        got = outcome_of(lambda: core.push(move, seat=seat))
    assert got == expected, (move, seat)
    if expected[0] == "ok":   # a text or a seat that names a legal move: both played it
        return
    assert fields(pure) == before
    compare(pure, core)


def try_bad_inputs(pure: Any, core: Any, rng: random.Random) -> None:
    legal = pure.legal_moves()
    choice = rng.randrange(6)
    if choice == 0:
        same_refusal(pure, core, rng.choice(BAD_TEXTS))
    elif choice == 1:
        same_refusal(pure, core, rng.choice(BAD_OBJECTS))
    elif choice == 2:
        same_refusal(pure, core, random_move(rng, pure.rules.pack_size))
    elif choice == 3 and legal:
        move = rng.choice(legal)
        text = rng.choice([str(move), move.cards[-1].text if move.cards else str(move),
                           str(move).upper(), " ".join(str(move).split()[:2])])
        same_refusal(pure, core, text)
    elif choice == 4 and legal:
        same_refusal(pure, core, rng.choice(legal), seat=rng.choice(BAD_SEATS))
    else:
        same_refusal(pure, core, rng.choice(CARDS).text)


def undo_and_replay(pure: Any, core: Any, rng: random.Random) -> None:
    """Undo a few moves, comparing each position, and play them again."""
    undone = []
    for _ in range(rng.randint(1, 6)):
        if not pure.move_stack:
            assert outcome_of(core.pop) == outcome_of(pure.pop)
            break
        move = pure.pop()
        assert core.pop() is move
        undone.append(move)
        compare(pure, core)
    for move in reversed(undone):
        pure.push(move)
        core.push(move)
    compare(pure, core)


def play_out(pure: Any, core: Any, rng: random.Random) -> None:
    """Random play to the end, with every check on the way; then back to the start."""
    compare(pure, core)
    start = len(pure.move_stack)
    while not pure.is_over():
        roll = rng.random()
        if roll < 0.15:
            try_bad_inputs(pure, core, rng)
        elif roll < 0.2:
            undo_and_replay(pure, core, rng)
        elif roll < 0.22:
            stack = rng.random() < 0.5
            pure, core = pure.copy(stack=stack), core.copy(stack=stack)
            start = start if stack else 0
            compare(pure, core)
        elif roll < 0.23:   # as a bot worker process receives a game
            pure, core = pickle.loads(pickle.dumps(pure)), pickle.loads(pickle.dumps(core))
            compare(pure, core)
        elif roll < 0.25:
            seat = rng.randrange(pure.players)
            seed = rng.getrandbits(32)
            dp = pure.determinize(seat, random.Random(seed))
            dc = core.determinize(seat, random.Random(seed))
            compare(dp, dc)
            for _ in range(rng.randint(0, 20)):
                if dp.is_over():
                    break
                move = rng.choice(dp.legal_moves())
                dp.push(move)
                dc.push(move)
                compare(dp, dc)
        if pure.is_over():
            break
        legal = pure.legal_moves()
        move = legal[rng.randrange(len(legal))]
        how = rng.random()
        if how < 0.1:   # a record's replay: the move's text, with its seat
            seat = pure.to_move
            pure.push(str(move), seat=seat)
            core.push(str(move), seat=seat)
        else:
            pure.push(move)
            core.push(move)
        compare(pure, core)
    try_bad_inputs(pure, core, rng)   # a finished game refuses alike
    while len(pure.move_stack) > start:
        assert core.pop() is pure.pop()
        compare(pure, core)
    assert outcome_of(core.pop) == outcome_of(pure.pop)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int, int]:
    rules = draw(RULES)
    players = draw(st.sampled_from(rules.player_counts))
    return rules, players, draw(st.integers(0, 2**32)), draw(st.integers(0, 2**32))


@settings(max_examples=GAMES, deadline=None, suppress_health_check=list(HealthCheck))
@given(tables())
def test_random_games_are_the_same_in_both_engines(table: tuple[Rules, int, int, int]) -> None:
    rules, players, seed, play_seed = table
    rng = random.Random(play_seed)
    loser = rng.choice([None, rng.randrange(players)])
    pure = PureGame.new(rules, players=players, seed=seed, loser=loser)
    core = CompiledGame.new(rules, players=players, seed=seed, loser=loser)
    play_out(pure, core, rng)


@settings(max_examples=max(GAMES // 4, 10), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(tables())
def test_positions_are_the_same_in_both_engines(table: tuple[Rules, int, int, int]) -> None:
    """A round about to start, the cards split at random between hands, stock and discard."""
    rules, players, seed, play_seed = table
    rng = random.Random(seed)
    cards = pack(rules.pack_size)
    rng.shuffle(cards)
    sizes = [rng.randint(1, 8) for _ in range(players)]
    if sum(sizes) > len(cards):
        sizes = [1] * players
    hands, at = [], 0
    for size in sizes:
        hands.append(cards[at:at + size])
        at += size
    stock = cards[at:at + rng.randint(0, len(cards) - at)]
    trump = stock[-1].suit if stock else rng.choice(cards).suit
    attacker = rng.randrange(players)
    kwargs = {"hands": hands, "trump": trump, "stock": stock, "attacker": attacker,
              "round_number": rng.choice([1, 2, 7])}
    expected = outcome_of(lambda: PureGame.from_position(rules, **kwargs))
    got = outcome_of(lambda: CompiledGame.from_position(rules, **kwargs))
    assert (got[0], str(got[1]) if got[0] != "ok" else None) == \
        (expected[0], str(expected[1]) if expected[0] != "ok" else None)
    if expected[0] == "ok":
        play_out(expected[1], got[1], random.Random(play_seed))


def test_a_refused_position_says_why_alike() -> None:
    for kwargs in ({"hands": ["9♣", ""], "trump": "♥", "attacker": 1},
                   {"hands": ["9♣", "9♣"], "trump": "♥", "attacker": 0},
                   {"hands": ["9♣", "7♦"], "trump": "♥", "attacker": 5}):
        got = outcome_of(lambda kwargs=kwargs: CompiledGame.from_position(**kwargs))
        expected = outcome_of(lambda kwargs=kwargs: PureGame.from_position(**kwargs))
        assert got == expected
        assert got[0] is ValueError


def test_a_pickle_of_another_build_or_of_nothing_is_refused() -> None:
    game = CompiledGame.new(Rules(), players=2, seed=1)
    state = game._getstate()
    for bad in (b"", state[:-1], state + b"x", b"\xff" * len(state)):
        with pytest.raises(ValueError, match="not a durak game's state"):
            CompiledGame(Rules(), 2)._setstate(bad)
    copied = pickle.loads(pickle.dumps(game))
    assert type(copied) is CompiledGame and copied.view(0) == game.view(0)


def push_and_pop(game: Any, line: list[Move], times: int) -> None:
    for _ in range(times):
        for move in line:
            game.push(move)
        for _ in range(len(line)):
            game.pop()


def test_reference_counts_stay_flat_over_a_million_pushes_and_pops() -> None:
    """Pushing and popping leaks no reference to the moves, cards or the game, and no
    memory."""
    game = CompiledGame.new(Rules(), players=3, seed=11)
    rng = random.Random(3)
    for _ in range(12):
        game.push(rng.choice(game.legal_moves()))
    probe = game.copy()
    line: list[Move] = []
    while not probe.is_over() and len(line) < 30:
        line.append(rng.choice(probe.legal_moves()))
        probe.push(line[-1])
    watched = [*line, game, *CARDS]
    push_and_pop(game, line, 1)
    gc.collect()
    before = [sys.getrefcount(obj) for obj in watched]
    blocks = sys.getallocatedblocks()
    push_and_pop(game, line, 1_000_000 // len(line) + 1)
    gc.collect()
    # a reference leaked a push or a pop would show as tens of thousands; a server thread
    # left by an earlier test in the worker may hold one of these for a moment
    after = [sys.getrefcount(obj) for obj in watched]
    drift = [(obj, a - b) for obj, a, b in zip(watched, after, before, strict=True)
                                            if abs(a - b) > 16]
    assert not drift, drift
    # a leak of one block a push or a pop would show as a million; other threads of the test
    # process (servers left by earlier tests in the worker) may allocate a few hundred
    assert sys.getallocatedblocks() - blocks < 1_000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_legal_moves_by_number_are_the_legal_moves_under_the_adapters_numbers(
        players: int) -> None:
    """``_legal_numbered`` (what the research adapters read) lists the legal moves in
    order, each under its number in ``compiled.MOVES``, which is its action number."""
    pytest.importorskip("numpy")
    from cardtable.adapters.durak import action_of

    rng = random.Random(players)
    for seed in range(20):
        game = CompiledGame.new(Rules(), players=players, seed=seed)
        while not game.is_over():
            numbered = game._legal_numbered()
            legal = game.legal_moves()
            assert list(numbered.values()) == legal
            assert all(compiled.MOVES[n] is move and action_of(move) == n
                       for n, move in numbered.items())
            game.push(rng.choice(legal))
