"""The research episodes' steps and tensors in the compiled core are the Python ones.

On the compiled engine an episode plays an action, keeps its bookkeeping and writes a
seat's tensor in one core call; on the pure engine the same episode does each in Python
(the reference).  Two episodes, one on each engine, play the same seeded actions: at every
decision they offer the same actions and give every seat the same tensors (both views, as
a buffer and as pyspiel's list), strings and records.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable.adapters.durak as durak_adapter
import cardtable.adapters.pasur as pasur_adapter
from cardtable.adapters.durak import DurakEpisode
from cardtable.adapters.pasur import PasurEpisode
from cardtable.durak import Rules
from cardtable.durak.engine import CompiledGame, PureGame
from cardtable.game import IllegalMove
from cardtable.pasur.engine import CompiledHand, PureHand

pytestmark = pytest.mark.skipif(CompiledGame is None or CompiledHand is None,
                                reason="the compiled cores are not built")

SEEDS = st.integers(min_value=0, max_value=2**32)
KINDS = ("observation", "information_state")
DURAK_RULES = [Rules(), Rules(passport=True, trump_six_exchange=True, late_transfer=True),
               Rules(pack_size=52, neighbours_only=True)]


def reference(episode, seat: int, kind: str) -> np.ndarray:
    tensor, views = episode.layout(kind).new()
    episode.write(views, seat, kind)
    return tensor


def durak_pair(players: int, rules: Rules, rng: random.Random
               ) -> tuple[DurakEpisode, DurakEpisode]:
    """Two episodes dealt the same cards, the first on the compiled engine, the second on
    the pure one."""
    core, pure = DurakEpisode(players=players, rules=rules), DurakEpisode(players=players,
                                                                        rules=rules)
    while core.is_chance_node():
        core.apply(core.sample_chance(rng))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(durak_adapter, "Game", PureGame)
        for action in core.history:
            pure.apply(action)
    assert type(core.engine) is CompiledGame and type(pure.engine) is PureGame
    return core, pure


def same_views(core, pure) -> None:
    for seat in range(core.players):
        for kind in KINDS:
            expected = reference(pure, seat, kind)
            out = np.full(expected.shape, 9.0, np.float32)
            assert core.encode(out, seat, kind) is out
            assert np.array_equal(out, expected)
            listed = core.tensor_list(seat, kind)
            assert listed == expected.tolist() and all(type(x) is float for x in listed)
            assert core.string(seat, kind) == pure.string(seat, kind)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, rules=st.sampled_from(DURAK_RULES), players=st.integers(2, 6))
def test_a_durak_game_stepped_in_the_core_is_the_python_episodes(seed, rules, players):
    rng = random.Random(seed)
    core, pure = durak_pair(players, rules, rng)
    decisions = 0
    while not core.is_terminal():
        assert core.legal_actions() == pure.legal_actions() == sorted(pure._legal)
        assert core.legal_moves() == pure.legal_moves()
        same_views(core, pure)
        action = rng.choice(core.legal_actions())
        core.apply(action)
        pure.apply(action)
        decisions += 1
        assert core._log == pure._log
        assert (core._hands, core._played, core._taken, core._drawn) == (
            pure._hands, pure._played, pure._taken, pure._drawn)
    assert pure.is_terminal() and core.returns() == pure.returns()
    assert core.moves == pure.moves and decisions > 5
    same_views(core, pure)


def test_an_action_the_core_refuses_is_refused_with_the_pure_engines_reason():
    core, pure = durak_pair(2, Rules(), random.Random(3))
    for action in (5, 1, 3199, -1, 40_000, 2**70):
        if action in pure.legal_actions():
            continue
        with pytest.raises(IllegalMove) as by_pure:
            pure.apply(action)
        with pytest.raises(IllegalMove) as by_core:
            core.apply(action)
        assert str(by_core.value) == str(by_pure.value)
    assert core.history == pure.history and len(core._log) == 0


def test_a_card_with_more_than_64_captures_is_stepped_like_the_pure_engine():
    """The multicapture rules let one card take any set of groups that make 11: with a
    crowded table that is more captures than the core once kept room for on its stack (it
    wrote past its buffer and crashed).  This deal (seed 360) gives one card 83 captures;
    both episodes play it alike, capture by capture."""
    rng = random.Random(360)
    core, pure = pasur_pair("multicapture", 2)
    most = 0
    while not core.is_terminal():
        same_records(core, pure)
        if core.is_chance_node():
            action = core.sample_chance(rng)
        else:
            cards = Counter(move.card for move in pure.legal_moves())
            most = max(most, *cards.values())
            action = rng.choice(core.legal_actions())
        core.apply(action)
        pure_apply(pure, action)
    same_records(core, pure)
    assert most > 64


def test_the_core_refuses_a_tensor_outside_its_buffer():
    core, _ = durak_pair(2, Rules(), random.Random(4))
    with pytest.raises(ValueError, match="outside"):
        core.encode(np.zeros(30, np.float32), 0)
    with pytest.raises(ValueError, match="float32"):
        core.encode(np.zeros(core.layout().size, np.float64), 0)


def pure_pasur(preset: str, players: int) -> PasurEpisode:
    """A Pasur episode on the pure engine: the Python episode, its hands the pure ones."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pasur_adapter, "Hand", PureHand)
        episode = PasurEpisode(preset, players)
    assert type(episode) is PasurEpisode
    return episode


def pasur_pair(preset: str, players: int) -> tuple[PasurEpisode, PasurEpisode]:
    """A compiled episode and a pure one of the same game (a preset that refuses this many
    players: two)."""
    try:
        core = PasurEpisode(preset, players)
    except ValueError:
        players = 2
        core = PasurEpisode(preset, players)
    assert type(core) is pasur_adapter.CompiledPasurEpisode
    return core, pure_pasur(preset, players)


def pure_apply(pure: PasurEpisode, action: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pasur_adapter, "Hand", PureHand)
        pure.apply(action)


def same_records(core: PasurEpisode, pure: PasurEpisode) -> None:
    """Every field the Python episode keeps, read off the core under the same names."""
    assert core.history == pure.history
    for name in ("_phase", "_round", "_dealt", "_pool", "_exclude", "_slot", "_replaced",
                 "_returned", "_redeals", "_tables", "_opening", "_deals", "_chance",
                 "_pending", "_picked", "_plays"):
        assert getattr(core, name) == getattr(pure, name), name
    if pure._phase == 1:
        assert core._held == pure._held
    assert core.current_player() == pure.current_player()
    assert core.is_terminal() == pure.is_terminal()
    assert core.is_chance_node() == pure.is_chance_node()
    assert core.legal_actions() == pure.legal_actions()
    assert core.chance_outcomes() == pure.chance_outcomes()
    assert core.moves == pure.moves and core.returns() == pure.returns()
    assert core.move_so_far() == pure.move_so_far() and core.choosing == pure.choosing


PASUR_GAMES = [("standard", 2), ("standard", 4), ("wikipedia", 2), ("wikipedia", 3),
               ("turkish", 3), ("multicapture", 2), ("multicapture", 4)]


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, game=st.sampled_from(PASUR_GAMES))
def test_a_pasur_hand_stepped_on_the_core_is_the_python_episodes(seed, game):
    """Both episodes deal the same cards (the pure one building its hands on the pure
    engine at each deal round) and play the same actions, captures chosen card by card:
    every record, action list, tensor and string is the same at every node, chance nodes
    included, and a copy taken midway goes on alike."""
    rng = random.Random(seed)
    core, pure = pasur_pair(*game)
    decisions = 0
    copied = None
    while not core.is_terminal():
        same_records(core, pure)
        if core.is_chance_node():
            action = core.sample_chance(rng)
            core.apply(action)
            pure_apply(pure, action)
            continue
        assert type(core.engine) is CompiledHand and type(pure.engine) is PureHand
        assert list(core._by_card.items()) == list(pure._by_card.items())
        assert core.legal_moves() == pure.legal_moves()
        same_views(core, pure)
        action = rng.choice(core.legal_actions())
        if decisions == 20:
            copied = (core.copy(), len(core.history), action)
        core.apply(action)
        pure_apply(pure, action)
        decisions += 1
    assert pure.is_terminal() and core.returns() == pure.returns()
    assert core.moves == pure.moves and decisions >= 48
    same_records(core, pure)
    same_views(core, pure)
    assert copied is not None
    other, at, action = copied
    assert other.history == core.history[:at] and other is not core
    for action in core.history[at:]:
        other.apply(action)
    same_records(other, pure)


@pytest.mark.parametrize("preset", ["standard", "wikipedia", "turkish", "kids"])
def test_the_opening_table_rule_deals_alike_on_the_core(preset):
    """Deals forced through the opening-table rule: a jack on the table (replaced, or a
    redeal, or the table dealt again, as the preset says) and faces that redeal."""
    jacks = [40, 41, 42, 43]
    for table in ([40, 1, 2, 3], [4, 41, 44, 45], [44, 45, 46, 5], [48, 49, 50, 6],
                  [40, 41, 7, 8]):
        try:
            core, pure = pasur_pair(preset, 2)
        except ValueError:
            continue
        rest = [i for i in range(52) if i not in table]
        for action in rest[:8] + table:
            core.apply(action)
            pure_apply(pure, action)
        same_records(core, pure)
        rng = random.Random(sum(table))
        while core.is_chance_node():
            action = core.sample_chance(rng)
            core.apply(action)
            pure_apply(pure, action)
            same_records(core, pure)
        for seat in range(2):
            for kind in KINDS:
                assert core.string(seat, kind) == pure.string(seat, kind)
        assert any(j in core.history for j in jacks) or not set(jacks) & set(table)


def test_an_action_the_pasur_core_refuses_is_refused_with_the_pure_reason():
    core, pure = pasur_pair("standard", 2)
    rng = random.Random(5)
    tried = 0
    while not core.is_terminal():
        for action in (-1, 52, 104, 3, 60, 2**70, "7", 3.0, None, "x"):
            legal = core.legal_actions()
            if not isinstance(action, int) or action in legal:
                try:
                    number = int(action)
                except (TypeError, ValueError) as error:
                    with pytest.raises(type(error)) as by_core:
                        core.apply(action)
                    with pytest.raises(type(error)) as by_pure:
                        pure_apply(pure, action)
                    assert str(by_core.value) == str(by_pure.value)
                    continue
                if number in legal:
                    continue
            with pytest.raises(IllegalMove) as by_pure:
                pure_apply(pure, action)
            with pytest.raises(IllegalMove) as by_core:
                core.apply(action)
            assert str(by_core.value) == str(by_pure.value)
            tried += 1
        action = core.sample_chance(rng) if core.is_chance_node() \
            else rng.choice(core.legal_actions())
        core.apply(action)
        pure_apply(pure, action)
        same_records(core, pure)
    with pytest.raises(IllegalMove, match="over"):
        core.apply(0)
    assert tried > 100
