"""The exact endgame search agrees with plain minimax on small endgames where nothing is
hidden, and the expert uses it (and falls back to sampling when it runs out of budget)."""

from __future__ import annotations

import random
import time

import pytest

from cardtable import bots, durak, pasur
from cardtable.bots.durak_kit import KIT as DURAK
from cardtable.bots.pasur_kit import KIT as PASUR
from cardtable.bots.solver import OutOfBudget, Solver, minimax
from cardtable.cards import Suit, pack


def pasur_endgames(count: int, seed: int):
    """Last-deal positions of a 2-player hand: 1 to 3 cards for the seat to move, as many
    or one fewer for the other (who may have played first), a small table."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        cards = pack(52)
        rng.shuffle(cards)
        size = rng.randint(1, 3)
        mover = rng.randint(0, 1)
        sizes = [0, 0]
        sizes[mover] = size
        sizes[1 - mover] = rng.choice([size, size - 1])
        hands = [cards[:sizes[0]], cards[sizes[0]:sizes[0] + sizes[1]]]
        at = sum(sizes)
        table = cards[at:at + rng.randint(1, 5)]
        at += len(table)
        captured = [cards[at:at + 10], cards[at + 10:at + 20]]
        out.append(pasur.Hand.from_position(hands=hands, table=table, to_move=mover,
                                            captured=captured, deal_round=6,
                                            last_capturer=rng.randint(0, 1)))
    return out


def durak_endgames(count: int, seed: int):
    """Stock-empty positions of two players: 1 to 3 cards each, any trump."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        cards = pack(36)
        rng.shuffle(cards)
        a, b = rng.randint(1, 3), rng.randint(1, 3)
        game = durak.Game.from_position(hands=[cards[:a], cards[a:a + b]],
                                        trump=rng.choice(list(Suit)),
                                        attacker=rng.randint(0, 1))
        out.append(game)
    return out


def exact(kit, position, seat):
    context = kit.context(position, seat)
    side = kit.side_of(position, seat)

    def value(final):
        return kit.rewards(final, context)[seat]

    def mine(s):
        return kit.side_of(position, s) == side

    return value, mine


@pytest.mark.parametrize("kit, positions", [
    (PASUR, pasur_endgames(40, seed=1)),
    (DURAK, durak_endgames(40, seed=2)),
], ids=["pasur", "durak"])
def test_alpha_beta_agrees_with_brute_force_minimax(kit, positions):
    values = set()
    for position in positions:
        seat = position.to_move
        value, mine = exact(kit, position, seat)
        truth = minimax(position.copy(), value, mine, kit.key)
        solved, move = Solver(kit, value, mine).solve(position)
        assert solved == pytest.approx(truth)
        position.push(move)   # the move it names reaches that value
        assert minimax(position, value, mine, kit.key) == pytest.approx(truth)
        values.add(round(truth, 6))
    assert len(values) > 2, "the positions should not all come out the same"


def test_the_search_leaves_the_position_as_it_found_it():
    position = durak_endgames(1, seed=5)[0]
    before = (position.hands, position.table, position.to_move, position.phase)
    value, mine = exact(DURAK, position, position.to_move)
    Solver(DURAK, value, mine).solve(position)
    assert (position.hands, position.table, position.to_move, position.phase) == before


def test_the_search_stops_at_its_budget():
    game = durak.Game.from_position(
        hands=["6♠ 7♥ 9♣ J♦ Q♠ A♥", "8♠ 10♥ K♣ 6♦ 9♥ A♣"], trump="♦", attacker=0)
    value, mine = exact(DURAK, game, 0)
    with pytest.raises(OutOfBudget):
        Solver(DURAK, value, mine, max_nodes=50).solve(game)


def test_the_search_stops_at_a_deadline_already_past():
    game = durak.Game.from_position(
        hands=["6♠ 7♥ 9♣ J♦ Q♠ A♥", "8♠ 10♥ K♣ 6♦ 9♥ A♣"], trump="♦", attacker=0)
    value, mine = exact(DURAK, game, 0)
    with pytest.raises(OutOfBudget, match="out of time"):
        Solver(DURAK, value, mine, deadline=time.perf_counter()).solve(game)


def test_a_durak_endgame_that_goes_round_in_circles_still_ends_the_search():
    # each side can transfer the same rank back and forth; the search must still finish
    game = durak.Game.from_position(hands=["9♣ 9♦ 6♥", "9♥ 9♠ 7♥"], trump="♠", attacker=0)
    value, mine = exact(DURAK, game, 0)
    solved, _ = Solver(DURAK, value, mine).solve(game)
    assert solved == minimax(game, value, mine, DURAK.key)


def with_the_rest_captured(hands, table):
    """A last-deal position where every other card was captured earlier, half each."""
    from cardtable.cards import parse_cards

    used = {c for text in [*hands, table] for c in parse_cards(text)}
    rest = [c for c in pack(52) if c not in used]
    return pasur.Hand.from_position(hands=hands, table=table, to_move=0, deal_round=6,
                                    captured=[rest[0::2], rest[1::2]], last_capturer=1)


def test_the_expert_solves_a_last_deal_exactly():
    # seat 0 holds 5♣ and K♠; the table makes a sur with 5♣ (2 + 4 + 5 = 11)
    hand = with_the_rest_captured(["5♣ K♠", "K♦ 3♥"], "2♦ 4♠")
    assert PASUR.perfect(hand, 0)
    bot = bots.make("expert", seed=1)
    move = bot.choose(hand)
    assert bot.stats["solved"] and str(move) == "5♣ x 2♦ 4♠"


def test_the_expert_samples_while_cards_are_hidden():
    match = pasur.Match.new(pasur.PRESETS["standard"], seed=4)
    bot = bots.make("expert:iterations=20", seed=1)
    bot.choose(match)
    assert not bot.stats["solved"] and bot.stats["iterations"] == 20


def test_the_expert_falls_back_to_sampling_when_the_budget_runs_out():
    game = durak.Game.from_position(
        hands=["6♠ 7♥ 9♣ J♦ Q♠ A♥", "8♠ 10♥ K♣ 6♦ 9♥ A♣"], trump="♦", attacker=0)
    bot = bots.make("expert:iterations=20,solver_nodes=30", seed=1)
    move = bot.choose(game)
    assert move in game.legal_moves()
    assert not bot.stats["solved"] and bot.stats["iterations"] == 20


def test_nothing_is_hidden_once_the_stock_is_out_and_one_other_hand_is_left():
    game = durak.Game.from_position(hands=["6♠ 7♥", "8♠ 10♥", "K♣"], trump="♦",
                                    stock="", attacker=0)
    assert not DURAK.perfect(game, 0)   # two other hands share the unseen cards
    game = durak.Game.from_position(hands=["6♠ 7♥", "8♠ 10♥"], trump="♦", attacker=0)
    assert DURAK.perfect(game, 0)
    match = pasur.Match.new(pasur.PRESETS["standard"], seed=1)
    assert not PASUR.perfect(match, 0)
    hand = pasur.Hand.from_position(hands=["5♣ K♠", "K♦ 3♥"], table="2♦ 4♠", to_move=0,
                                    deal_round=6)
    assert not PASUR.perfect(hand, 0)   # cards out of play: which ones is not known


def test_the_expert_samples_when_the_endgame_is_lost_whatever_it_does():
    # seat 0 must lead one of two plain cards; the ace of trumps beats it and seat 1 is out
    game = durak.Game.from_position(hands=["6♥ 7♣", "A♠"], trump="♠", attacker=0)
    value, mine = exact(DURAK, game, 0)
    assert Solver(DURAK, value, mine).solve(game)[0] == -1.0
    bot = bots.make("expert:iterations=20", seed=1)
    assert bot.choose(game) in game.legal_moves()
    assert bot.stats["iterations"] == 20 and not bot.stats["solved"]


def test_a_bigger_pasur_win_is_always_worth_more():
    # a reward that saturated would leave the exact search indifferent between these
    hand = pasur.Hand.new(pasur.PRESETS["standard"], seed=1)
    context = PASUR.context(hand, 0)
    rewards = [context.of(points)[0] for points in ([45, 0], [30, 2], [20, 2], [5, 30])]
    assert rewards == sorted(rewards, reverse=True) and len(set(rewards)) == 4


def durak_last_stock_card_endgames(count: int, seed: int):
    """Positions of two players with one card left in the stock, the face-up trump: it is
    seen by everyone, so nothing is hidden, and someone draws it after the first round."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        cards = pack(36)
        rng.shuffle(cards)
        a, b = rng.randint(1, 2), rng.randint(1, 2)
        face_up = cards[a + b]
        out.append(durak.Game.from_position(hands=[cards[:a], cards[a:a + b]],
                                            trump=face_up.suit, stock=[face_up],
                                            attacker=rng.randint(0, 1)))
    return out


def test_the_face_up_trump_alone_in_the_stock_hides_nothing():
    game = durak.Game.from_position(hands=["6♠ 7♥", "8♠ 10♥"], trump="♦", stock="K♦",
                                    attacker=0)
    assert DURAK.perfect(game, 0) and DURAK.perfect(game, 1)
    game = durak.Game.from_position(hands=["6♠ 7♥", "8♠ 10♥"], trump="♦", stock="9♣ K♦",
                                    attacker=0)
    assert not DURAK.perfect(game, 0)   # the 9♣ could be any unseen card


def test_alpha_beta_agrees_with_minimax_with_the_last_stock_card_still_to_draw():
    values = set()
    for position in durak_last_stock_card_endgames(30, seed=3):
        seat = position.to_move
        value, mine = exact(DURAK, position, seat)
        truth = minimax(position.copy(), value, mine, DURAK.key)
        solved, move = Solver(DURAK, value, mine).solve(position)
        assert solved == pytest.approx(truth)
        position.push(move)
        assert minimax(position, value, mine, DURAK.key) == pytest.approx(truth)
        values.add(truth)
    assert len(values) > 1, "the positions should not all come out the same"


def test_medium_wins_an_endgame_the_greedy_player_loses():
    # greedy leads its lowest card, 7♣, which the 10♣ beats; leading the 9♠ instead, which
    # seat 1 cannot beat (no spade, no trump), makes it take, and the 7♣ then goes out last
    game = durak.Game.from_position(hands=["7♣ 9♠", "10♣ K♣"], trump="♦", attacker=0)
    assert str(bots.make("greedy").choose(game)) == "attack 7♣"
    bot = bots.make("medium", seed=1)
    move = bot.choose(game)
    assert str(move) == "attack 9♠" and bot.stats["solved"]
    value, mine = exact(DURAK, game, 0)
    game.push(move)
    assert minimax(game, value, mine, DURAK.key) == 1.0
