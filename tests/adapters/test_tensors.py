"""The tensors written in one call (``Episode.pieces`` through ``tensors.encode``) are the
tensors of the reference writer (``Episode.write``), position by position."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable.adapters.openspiel  # noqa: F401  (registers the games)
from cardtable.adapters import tensors
from cardtable.adapters.durak import DurakEpisode
from cardtable.adapters.pasur import PasurEpisode
from cardtable.cards import Card, mask_of
from cardtable.durak import PHASES, Rules

SEEDS = st.integers(min_value=0, max_value=2**32)
KINDS = ("observation", "information_state")


def reference(episode, seat: int, kind: str) -> np.ndarray:
    tensor, views = episode.layout(kind).new()
    episode.write(views, seat, kind)
    return tensor


def check_every_position(episode, rng: random.Random) -> int:
    """Play ``episode`` out at random; at every node compare both writers for every seat
    and both views.  Returns the positions compared."""
    compared = 0
    while True:
        for seat in range(episode.players):
            for kind in KINDS:
                assert episode.pieces(seat, kind) is not None
                assert np.array_equal(episode.tensor(seat, kind), reference(episode, seat, kind))
        compared += 1
        if episode.is_terminal():
            return compared
        episode.apply(episode.sample_chance(rng) if episode.is_chance_node()
                      else rng.choice(episode.legal_actions()))


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, preset=st.sampled_from(["standard", "wikipedia", "turkish", "multicapture"]),
       players=st.sampled_from([2, 3, 4]))
def test_pasur_tensors_written_in_one_call_are_the_reference_tensors(seed, preset, players):
    try:
        episode = PasurEpisode(preset, players)
    except ValueError:   # a preset that refuses this many players
        episode = PasurEpisode(preset, 2)
    assert check_every_position(episode, random.Random(seed)) > 52


DURAK_RULES = [Rules(), Rules(passport=True, trump_six_exchange=True, late_transfer=True),
               Rules(pack_size=52, neighbours_only=True)]


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, rules=st.sampled_from(DURAK_RULES), players=st.integers(2, 6))
def test_durak_tensors_written_in_one_call_are_the_reference_tensors(seed, rules, players):
    episode = DurakEpisode(players=players, rules=rules)
    assert check_every_position(episode, random.Random(seed)) > 36


def test_the_views_with_other_seats_cards_keep_the_reference_writer():
    episode = PasurEpisode()
    episode.apply_chance(random.Random(1))
    assert episode.pieces(0, "observation", "all") is None
    tensor, views = episode.layout("observation", "all").new()
    episode.write(views, 0, "observation", "all")
    assert np.array_equal(episode.tensor(0, "observation", "all"), tensor)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=st.integers(2, 6))
def test_durak_public_summary_is_the_engines_public_view(seed, players):
    """The episode reads the engine's fields directly; they say what its view says."""
    rng = random.Random(seed)
    episode = DurakEpisode(players=players)
    episode.apply_chance(rng)
    while not episode.is_terminal():
        game = episode.engine
        view = game.view(None)
        table = game.table
        pub = episode._pub
        assert pub["unbeaten"] == mask_of(a for a, b in table if b is None)
        assert pub["beaten"] == mask_of(a for a, b in table if b is not None)
        assert pub["defences"] == mask_of(b for _, b in table if b is not None)
        assert pub["known"] == [mask_of(game.known_cards(s)) for s in range(players)]
        assert pub["discard"] == mask_of(game.discard)
        assert pub["stock"] == len(game.stock) == view["stock"]
        assert pub["in_stock"] == view["trump_card_in_stock"]
        assert pub["phase"] == PHASES.index(game.phase)
        assert (pub["attacker"], pub["defender"], pub["original"]) == (
            view["attacker"], view["defender"], view["original_attacker"])
        assert (pub["limit"], pub["round"]) == (game.limit or 0, game.round_number)
        assert (pub["passed"], pub["out"]) == (view["passed"], view["out"])
        assert pub["shown"] == mask_of(Card.parse(text) for text in view["shown"])
        episode.apply(rng.choice(episode.legal_actions()))


def test_encode_writes_masks_and_values_and_zeroes_the_rest():
    out = np.full(60, 7.0, np.float32)
    tensors.encode(out, (0, 0b1001, 52, 1 << 3), (59, 12))
    assert np.flatnonzero(out).tolist() == [0, 3, 55, 59]
    assert out[59] == 12.0


@pytest.mark.parametrize("masks, values", [((50, 1 << 10), ()), ((-1, 1), ()), ((), (60, 1.0)),
                                           ((0,), ())])
def test_encode_refuses_a_piece_outside_the_tensor(masks, values):
    with pytest.raises(ValueError):
        tensors.encode(np.zeros(60, np.float32), masks, values)
    with pytest.raises(ValueError):
        tensors.as_list(60, masks, values)


def test_encode_takes_only_a_float32_vector():
    with pytest.raises(ValueError, match="float32"):
        tensors.encode(np.zeros(60, np.float64), (0, 1), ())


def test_the_python_writer_is_the_compiled_one():
    """Where no C compiler was found, the fallback gives the same tensors."""
    rng = random.Random(5)
    for _ in range(200):
        masks = tuple(x for k in range(4) for x in (52 * k, rng.getrandbits(52)))
        values = (208, rng.randrange(40), 209, 0.5)
        one, two = np.zeros(210, np.float32), np.zeros(210, np.float32)
        tensors.encode(one, masks, values)
        tensors._encode(two, masks, values)
        assert np.array_equal(one, two)
        listed = tensors.as_list(210, masks, values)
        assert listed == one.tolist() and all(type(x) is float for x in listed)
        mask = rng.getrandbits(52)
        assert tensors.outcomes(mask) == tensors._outcomes(mask)
        for n in (0, rng.randrange(60)):
            assert tensors.nth_card(mask, n) == tensors._nth_card(mask, n)


def test_pyspiel_gives_each_state_its_own_tensor_whatever_was_asked_before():
    """The observer keeps recent tensors; asking states and seats in turn never mixes
    them up."""
    game = pyspiel.load_game("python_transfer_durak")
    rng = random.Random(3)
    states = []
    state = game.new_initial_state()
    while len(states) < 6:
        if state.is_chance_node():
            state.apply_action(state.episode.sample_chance(rng))
            continue
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(3):
        for state in rng.sample(states, len(states)):
            for seat in (0, 1):
                got = np.array(state.observation_tensor(seat), np.float32)
                assert np.array_equal(got, reference(state.episode, seat, "observation"))


@pytest.mark.parametrize("name", ["python_pasur", "python_transfer_durak"])
def test_tensor_lists_count_their_shared_floats_right(name):
    """A tensor as pyspiel's list of floats (made by a compiled core where there is one)
    holds each 0.0 and 1.0 as a few shared objects, whose references are counted in bulk:
    after thousands of lists made and dropped, each shared float's count is where it was
    (a miscount frees a float still in use, or never frees it) and the lists still read
    right."""
    import sys

    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    seat = state.current_player()
    first = state.observation_tensor(seat)
    shared = {id(x): x for x in first}
    before = {key: sys.getrefcount(x) for key, x in shared.items()}
    for _ in range(3000):
        again = state.observation_tensor(seat)
        assert again == first
    del again
    assert {key: sys.getrefcount(x) for key, x in shared.items()} == before
    assert first == list(state.episode.tensor(seat))
