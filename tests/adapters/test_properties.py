"""Invariants of episodes, whatever the deal and the choices (hypothesis picks the seeds)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.adapters.durak import DurakEpisode
from cardtable.adapters.pasur import PasurEpisode

SEEDS = st.integers(min_value=0, max_value=2**32)


def _count(plane) -> int:
    return int(plane.sum())


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, preset=st.sampled_from(["standard", "turkish", "multicapture"]),
       players=st.sampled_from([2, 3, 4]))
def test_pasur_no_card_is_created_or_lost(seed, preset, players):
    """Hands, table, captured piles and the undealt stock always hold 52 cards, once each."""
    if preset == "standard":
        players = 2
    rng = random.Random(seed)
    episode = PasurEpisode(preset, players)
    layout = episode.layout("observation", "all")
    while not episode.is_terminal():
        episode.apply(episode.sample_chance(rng) if episode.is_chance_node()
                      else rng.choice(episode.legal_actions()))
        if episode.is_chance_node():
            continue
        views = layout.views(episode.tensor(0, "observation", "all"))
        seen = views["hands"].sum(axis=0) + views["table"] + views["captured"].sum(axis=0)
        assert seen.max() <= 1.0
        assert _count(seen) + int(views["stock"][0]) == 52
    assert abs(sum(episode.returns())) < 1e-9


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=st.integers(min_value=2, max_value=6))
def test_durak_no_card_is_created_or_lost(seed, players):
    """Hands, table, discard pile and stock always hold the 36 cards, once each."""
    rng = random.Random(seed)
    episode = DurakEpisode(players=players)
    layout = episode.layout("observation", "all")
    while not episode.is_terminal():
        episode.apply(episode.sample_chance(rng) if episode.is_chance_node()
                      else rng.choice(episode.legal_actions()))
        if episode.is_chance_node():
            continue
        views = layout.views(episode.tensor(0, "observation", "all"))
        seen = (views["hands"].sum(axis=0) + views["unbeaten"] + views["beaten"]
                + views["defences"] + views["discard"])
        assert seen.max() <= 1.0
        assert _count(seen) + int(views["stock"][0]) == 36
    assert abs(sum(episode.returns())) < 1e-9


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, game=st.sampled_from(["pasur", "durak"]))
def test_replaying_the_history_gives_the_same_episode(seed, game):
    rng = random.Random(seed)
    episode = PasurEpisode() if game == "pasur" else DurakEpisode(players=3)
    steps = rng.randrange(20, 150)
    while not episode.is_terminal() and steps:
        episode.apply(episode.sample_chance(rng) if episode.is_chance_node()
                      else rng.choice(episode.legal_actions()))
        steps -= 1
    again = type(episode).replay(episode.params(), episode.history)
    assert str(again) == str(episode)
    for seat in range(episode.players):
        assert again.string(seat, "information_state") == \
            episode.string(seat, "information_state")
