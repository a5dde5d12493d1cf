"""Transfer Durak as an episode: the deal as chance nodes, the action numbering, returns."""

from __future__ import annotations

import random

import pytest
from adapter_helpers import advance, deal, deck

from cardtable.adapters.base import CHANCE, TERMINAL
from cardtable.adapters.durak import (
    ATTACK,
    DEFEND,
    EXCHANGE,
    NUM_ACTIONS,
    PASS,
    SHOW,
    TAKE,
    TRANSFER,
    DurakEpisode,
    action_of,
    move_of,
)
from cardtable.durak import Game, Move, Rules
from cardtable.game import IllegalMove

# seat 1 is dealt first (the dealer is seat 0), then seat 0, then the trump card
TWO_HANDS = ("6♣ 7♣ 8♣ 9♦ 10♦ J♦", "6♦ 7♦ 8♦ 9♣ 10♣ J♣", "Q♠")


def test_the_numbering_blocks_are_fixed():
    assert (TAKE, PASS, ATTACK, TRANSFER, SHOW, EXCHANGE, DEFEND, NUM_ACTIONS) == (
        0, 1, 2, 197, 392, 444, 496, 3200)
    assert action_of(Move.parse("attack 6♣")) == ATTACK + 15 * 5 + 0
    assert action_of(Move.parse("attack 6♣ 6♠")) == ATTACK + 15 * 5 + (1 + 8) - 1
    assert action_of(Move.parse("transfer 6♦")) == TRANSFER + 15 * 5 + 1
    assert action_of(Move.parse("transfer show 6♠")) == SHOW + 23
    assert action_of(Move.parse("defend 9♣ with J♣")) == DEFEND + 52 * 32 + 40


def test_every_action_number_names_one_move_and_back():
    seen = set()
    for action in range(NUM_ACTIONS):
        try:
            move = move_of(action)
        except IllegalMove:
            attack, beater = divmod(action - DEFEND, 52)
            assert action >= DEFEND and attack == beater   # a card cannot beat itself
            continue
        assert action_of(move) == action
        seen.add(move)
    assert len(seen) == NUM_ACTIONS - 52


def test_the_deal_is_one_chance_node_per_card_in_the_engine_deck_order():
    cards = deck(*TWO_HANDS, size=36)
    episode = DurakEpisode()
    for k, dealt in enumerate(cards):
        assert episode.current_player() == CHANCE
        assert len(episode.chance_outcomes()) == 36 - k
        episode.apply(dealt.index)
    game = Game.new(Rules(), players=2, deck=cards)
    assert episode.engine.hands == game.hands
    assert episode.engine.trump_card == game.trump_card
    assert episode.engine.stock == game.stock
    assert episode.current_player() == game.to_move


def test_the_trump_card_shows_when_dealt_and_the_stock_never_does():
    episode = deal(DurakEpisode(), deck(*TWO_HANDS, size=36)[:13])
    assert "trump card: Q♠" in episode.string(1, "information_state")
    advance(episode, random.Random(1), 0)
    text = episode.string(0, "information_state") + episode.string(0)
    for hidden in episode.engine.stock[:-1]:
        assert str(hidden) not in text


def test_every_engine_move_round_trips_through_its_action():
    rng = random.Random(4)
    checked = 0
    for players in (2, 3, 5):
        for _ in range(5):
            episode = advance(DurakEpisode(players=players), rng, rng.randrange(80))
            if episode.is_terminal():
                continue
            assert [action_of(m) for m in episode.legal_moves()] == episode.legal_actions()
            for move in episode.legal_moves():
                trial = episode.copy()
                trial.apply(trial.actions_for(move)[0])
                assert trial.moves[-1] == (episode.current_player(), move)
                checked += 1
    assert checked > 50


def test_an_illegal_action_is_refused_with_the_engines_reason_and_changes_nothing():
    episode = deal(DurakEpisode(), deck(*TWO_HANDS, size=36))
    before = (episode.history[:], episode.legal_actions(), str(episode))
    with pytest.raises(IllegalMove, match="leads this round"):
        episode.apply(TAKE)
    with pytest.raises(IllegalMove, match="not a Durak action"):
        episode.apply(NUM_ACTIONS)
    assert (episode.history, episode.legal_actions(), str(episode)) == before


def test_returns_are_the_engines_outcome():
    rng = random.Random(6)
    for players in (2, 4, 6):
        episode = advance(DurakEpisode(players=players), rng, 100_000)
        assert episode.current_player() == TERMINAL
        assert episode.returns() == list(episode.engine.outcome().returns)
        assert sum(episode.returns()) == pytest.approx(0.0)


def test_a_game_cut_off_at_max_moves_is_a_truncated_draw():
    episode = advance(DurakEpisode(max_moves=5), random.Random(2), 100)
    assert episode.is_terminal() and episode.truncated
    assert episode.returns() == [0.0, 0.0]
    assert episode.legal_actions() == []


def test_a_previous_loser_deals_and_its_left_neighbour_leads():
    episode = advance(DurakEpisode(players=3, loser=1), random.Random(3), 0)
    assert episode.current_player() == 2
    with pytest.raises(ValueError, match="loser must be a seat"):
        DurakEpisode(players=3, loser=3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seats_cards_in_the_tensor_are_the_engines_even_after_a_trump_exchange(players):
    """The hands an observation shows (the seat's cards, every hand's size) are the
    engine's at every decision, with the six of trumps exchanged mid-round: a round that
    closes after an exchange still hands the table's cards to the taker."""
    rules = Rules(passport=True, trump_six_exchange=True, late_transfer=True)
    exchanges = 0
    for seed in range(12):
        rng = random.Random(seed)
        episode = DurakEpisode(players=players, rules=rules)
        offsets = episode.layout().offsets()
        hand, sizes = offsets["hand"], offsets["hand_sizes"]
        while not episode.is_terminal():
            if episode.is_chance_node():
                episode.apply(episode.sample_chance(rng))
                continue
            game = episode.engine
            for seat in range(players):
                tensor = episode.tensor(seat)
                held = [card.index for card in game.hand(seat)]
                assert tensor[hand[0]:hand[1]].nonzero()[0].tolist() == sorted(held)
                assert tensor[sizes[0]:sizes[1]].tolist() == [
                    len(game.hand(other)) for other in range(players)]
            action = rng.choice(episode.legal_actions())
            exchanges += action >= EXCHANGE and action < DEFEND
            episode.apply(action)
    assert exchanges > 0


@pytest.mark.parametrize("players", [2, 4, 6])
def test_dealing_in_one_loop_is_dealing_a_chance_node_at_a_time(players):
    """``apply_chance`` deals the pack in one loop: the same cards from the same draws as
    the shared one step per chance node, from the start or from part way."""
    from cardtable.adapters.base import Episode

    for seed in range(20):
        one, steps = DurakEpisode(players=players), DurakEpisode(players=players)
        rng_one, rng_steps = random.Random(seed), random.Random(seed)
        for _ in range(seed):
            card = one.sample_chance(rng_one)
            one.apply(card)
            steps.apply(steps.sample_chance(rng_steps))
        one.apply_chance(rng_one)
        Episode.apply_chance(steps, rng_steps)
        assert one.history == steps.history and one._drawn == steps._drawn
        assert one.tensor(1, "information_state").tolist() == steps.tensor(
            1, "information_state").tolist()
        assert rng_one.random() == rng_steps.random()
