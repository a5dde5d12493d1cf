"""The contract every game keeps (``cardtable.game.GameState``), checked the same way for
every registered game and for the test game, on positions reached by seeded random play."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable import games, records
from cardtable.game import (
    MOVE_ERRORS,
    GameRules,
    GameSpec,
    GameState,
    IllegalMove,
    InvalidMove,
)

CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([♣♦♥♠])")
HIDDEN_KEYS = {"seed", "deck", "decks", "stock_order", "rng"}


@pytest.fixture(params=[*games.names(), "highcard"])
def spec(request: pytest.FixtureRequest) -> GameSpec:
    if request.param == "highcard":
        return request.getfixturevalue("highcard")   # registered for this test only
    return games.get(request.param)


def fingerprint(state: Any) -> str:
    """Everything the contract lets anyone see of a state: every view, the move stack,
    the legal moves, whose turn, the outcome."""
    views = [state.view(None), *(state.view(s) for s in range(state.players))]
    outcome = state.outcome()
    return json.dumps([views, [str(m) for m in state.move_stack],
                       [str(m) for m in state.legal_moves()], state.to_move,
                       None if outcome is None else [list(outcome.returns),
                                                     list(outcome.winners)]],
                      sort_keys=True, ensure_ascii=False, default=str)


def positions(spec: GameSpec, *, seed: int, players: int | None = None,
              every: int = 7) -> Iterator[Any]:
    """States along a seeded random game (every ``every``-th decision, and the end)."""
    rng = random.Random(seed)
    players = players or spec.default_players
    state = spec.start(spec.rules(), players=players, seed=seed)
    step = 0
    while not state.is_over() and step < 2_000:
        if step % every == 0:
            yield state
        moves = state.legal_moves()
        state.push(moves[rng.randrange(len(moves))])
        step += 1
    yield state


def cards_in(data: Any) -> set[str]:
    return {rank + suit for rank, suit in CARD.findall(json.dumps(data, ensure_ascii=False))}


def keys_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_in(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_in(v)}
    return set()


# -- the shape ---------------------------------------------------------------------------

def test_a_game_state_has_the_contracts_shape(spec):
    state = spec.start(spec.rules(), players=spec.default_players, seed=1)
    assert isinstance(state, GameState)
    assert state.rules == spec.rules()
    assert list(state.move_stack) == []
    assert state.to_move is not None and not state.is_over() and state.outcome() is None
    assert isinstance(spec.rules(), GameRules)
    assert set(spec.rules().player_counts) <= set(spec.player_counts)
    assert state.view(None)["game"] == spec.name


def test_every_legal_move_round_trips_through_its_text(spec):
    for state in positions(spec, seed=2):
        for move in state.legal_moves():
            assert state.parse_move(str(move)) == move


def test_push_then_pop_restores_the_exact_state(spec):
    for state in positions(spec, seed=3):
        before = fingerprint(state)
        for move in state.legal_moves():
            state.push(move)
            assert state.pop() == move
            assert fingerprint(state) == before


def test_a_copy_is_independent_of_its_original(spec):
    for state in positions(spec, seed=4):
        before = fingerprint(state)
        twin = state.copy()
        assert fingerprint(twin) == before
        bare = state.copy(stack=False)
        assert bare.view(None) == state.view(None)
        assert [str(m) for m in bare.legal_moves()] == [str(m) for m in state.legal_moves()]
        if twin.legal_moves():
            twin.push(twin.legal_moves()[-1])
            bare.push(bare.legal_moves()[0])
        assert fingerprint(state) == before


def test_determinize_keeps_everything_the_seat_has_seen(spec):
    for state in positions(spec, seed=5, every=11):
        before = fingerprint(state)
        for seat in range(state.players):
            for k in range(2):
                sample = state.determinize(seat, random.Random(k))
                assert sample.view(seat) == state.view(seat)
                assert sample.to_move == state.to_move
        assert fingerprint(state) == before


def test_determinize_needs_a_generator(spec):
    state = spec.start(spec.rules(), players=spec.default_players, seed=6)
    with pytest.raises(TypeError):
        state.determinize(0)  # type: ignore[call-arg]


@pytest.mark.parametrize("players_index", [0, -1])
def test_a_seats_view_names_no_card_hidden_from_it(spec, players_index):
    players = spec.player_counts[players_index]
    rules = spec.rules()
    try:
        rules.check_players(players)
    except ValueError:
        players = rules.player_counts[players_index]
    for state in positions(spec, seed=7, players=players):
        public = cards_in(state.view(None))
        assert not keys_in(state.view(None)) & HIDDEN_KEYS
        for seat in range(state.players):
            view = state.view(seat)
            assert not keys_in(view) & HIDDEN_KEYS
            assert cards_in(view) <= public | set(view["hand"])


def test_a_refused_move_changes_nothing(spec):
    for state in positions(spec, seed=8):
        if state.is_over():
            continue
        before = fingerprint(state)
        with pytest.raises(InvalidMove):
            state.push("not a move")
        with pytest.raises(InvalidMove):
            state.parse_move("zz")
        other = (state.to_move + 1) % state.players
        with pytest.raises(IllegalMove):
            state.push(state.legal_moves()[0], seat=other)
        with pytest.raises(MOVE_ERRORS):
            state.push(object())  # type: ignore[arg-type]
        assert fingerprint(state) == before


def test_a_finished_game_is_refused_any_move_and_its_returns_sum_to_zero(spec):
    *_, state = positions(spec, seed=9)
    assert state.is_over() and state.to_move is None and state.legal_moves() == []
    outcome = state.outcome()
    assert abs(sum(outcome.returns)) < 1e-9
    assert set(outcome.winners) <= set(range(state.players))
    with pytest.raises(MOVE_ERRORS):
        state.push("2♣")


def test_the_same_seed_gives_the_same_game_and_another_seed_another(spec):
    first = [fingerprint(s) for s in positions(spec, seed=10, every=1)]
    again = [fingerprint(s) for s in positions(spec, seed=10, every=1)]
    assert first == again
    starts = {fingerprint(spec.start(spec.rules(), players=spec.default_players, seed=s))
              for s in range(5)}
    assert len(starts) == 5


def test_a_replay_from_the_dealt_decks_reproduces_the_game(spec):
    *_, state = positions(spec, seed=11, every=1000)
    moves = records.record_of(state, spec.name).moves   # every hand's moves, as records keep them
    again = spec.start(state.rules, players=state.players, decks=spec.deals(state),
                       **spec.setup(state))
    for text in moves:
        again.push(again.parse_move(text))
    assert fingerprint(again) == fingerprint(state)
    assert spec.summary(again) == spec.summary(state)


def test_the_player_count_check_says_which_counts_are_allowed(spec):
    with pytest.raises(ValueError, match="players"):
        spec.check_players(spec.rules(), 1)
    with pytest.raises(ValueError, match="whole number"):
        spec.check_players(spec.rules(), True)
    spec.check_players(spec.rules(), spec.default_players)



def test_every_view_is_plain_json_as_it_is(spec):
    """The server sends views as they come (no conversion on the way): only dicts with
    string keys, lists, strings, numbers, booleans and None."""
    for state in positions(spec, seed=12, every=5):
        for seat in (None, *range(state.players)):
            view = state.view(seat)
            assert json.loads(json.dumps(view)) == view
