"""What a seat may see, and the games a searcher may imagine from it."""

import json
import random

import pytest
from durak_helpers import play

from cardtable.cards import Card, pack
from cardtable.durak import Game, Rules

C = Card.parse


def hidden_from(game: Game, seat: int | None) -> set[Card]:
    """Cards ``seat`` must not see: other hands (but for known cards) and the stock."""
    hidden = set()
    for other in range(game.players):
        if other != seat:
            hidden |= set(game.hand(other)) - set(game.known_cards(other))
    stock = list(game.stock)
    hidden |= set(stock[:-1])   # the face-up trump card at the bottom is public
    return hidden


def test_a_view_holds_the_own_hand_and_the_public_facts():
    game = Game.new(Rules(), players=3, seed=4)
    view = game.view(1)
    assert view["hand"] == [c.text for c in game.hand(1)]
    assert view["hand_sizes"] == [6, 6, 6]
    assert view["stock"] == 18 and view["trump_card"] == game.trump_card.text
    assert view["trump"] == game.trump.symbol and view["trump_card_in_stock"]
    assert view["phase"] == "lead" and view["to_move"] == game.to_move
    assert (view["attacker"], view["defender"]) == (game.attacker, game.defender)
    assert json.loads(json.dumps(view)) == view


def test_a_view_never_holds_another_hand_the_stock_order_or_the_seed():
    rng = random.Random(8)
    game = Game.new(Rules(), players=4, seed=987654321)
    for _ in range(60):
        for seat in [None, *range(game.players)]:
            text = json.dumps(game.view(seat), ensure_ascii=False)
            for card in hidden_from(game, seat):
                assert f'"{card.text}"' not in text, (seat, card)
            assert "987654321" not in text
            assert "deck" not in game.view(seat)
        if game.is_over():
            break
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])


def test_only_the_seat_to_move_sees_its_legal_moves():
    game = Game.new(Rules(), players=2, seed=4)
    mover = game.to_move
    assert game.view(mover)["legal_moves"]
    assert game.view(1 - mover)["legal_moves"] == []
    assert game.view(None)["legal_moves"] == [] and game.view(None)["hand"] is None


def test_taken_cards_are_known_to_be_in_the_hand_until_played():
    game = play(Game.from_position(Rules(), hands=["9♣ 7♣ K♦", "6♠ 8♠ 10♦"], trump="♥",
                                   attacker=0), "attack 9♣", "take", "pass")
    assert game.view(0)["known"][1] == ["9♣"]
    play(game, "attack 7♣", "defend 7♣ with 9♣")
    assert game.view(0)["known"][1] == []


def test_a_view_of_an_unknown_seat_is_refused():
    game = Game.new(Rules(), players=2, seed=4)
    with pytest.raises(ValueError, match="no seat 5"):
        game.view(5)


def test_determinize_keeps_everything_the_seat_has_seen():
    game = play(Game.from_position(Rules(), hands=["9♣ 9♦ 7♠ Q♦ K♦ A♦", "10♣ 6♠ 8♠ J♦",
                                                   "A♠ K♣ Q♣ J♣ 10♠"], trump="♥",
                                   stock="7♣ 8♣ 8♦ 7♥ 8♥ 10♥ J♥ 6♥", attacker=0),
                "attack 9♣ 9♦", "defend 9♣ with 10♣", "take", "pass", "pass")
    for seed in range(20):
        world = game.determinize(0, random.Random(seed))
        assert world.hand(0) == game.hand(0)
        assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
        assert set(game.known_cards(1)) <= set(world.hand(1))
        assert world.table == game.table and world.discard == game.discard
        assert len(world.stock) == len(game.stock) == 5
        assert world.stock[-1] == game.stock[-1] == C("6♥")
        cards = [c for h in world.hands for c in h] + list(world.stock) + list(world.discard)
        assert sorted(cards) == sorted(pack(36))
        assert world.to_move == game.to_move and world.legal_moves()
        assert world.deck is None and world.move_stack == []


def test_determinize_samples_the_unseen_cards():
    game = Game.new(Rules(), players=3, seed=11)
    worlds = {game.determinize(0, random.Random(seed)).hands for seed in range(10)}
    assert len(worlds) > 1


def test_determinize_does_not_depend_on_what_the_seat_cannot_see():
    one = Game.from_position(Rules(), hands=["9♣ 7♠", "10♣ 6♠", "A♠ K♣"], trump="♥",
                             stock="7♣ 8♣ 6♥", attacker=0)
    two = Game.from_position(Rules(), hands=["9♣ 7♠", "7♣ 6♠", "A♠ 8♣"], trump="♥",
                             stock="10♣ K♣ 6♥", attacker=0)
    assert one.view(0) == two.view(0)
    assert one.hands != two.hands
    for seed in range(5):
        assert (one.determinize(0, random.Random(seed)).hands
                == two.determinize(0, random.Random(seed)).hands)


def test_every_seats_world_keeps_the_public_cards():
    game = play(Game.from_position(Rules(), hands=["9♣ 7♣ K♦", "6♠ 8♠ 10♦"], trump="♥",
                                   stock="J♣ Q♣ 7♥ 8♥ 10♥ J♥ 6♥", attacker=0), "attack 9♣", "take",
                "pass")
    for seat in (0, 1):
        world = game.determinize(seat, random.Random(3))
        assert C("9♣") in world.hand(1)   # taken from the table: seen by everyone
        assert world.stock[-1] == C("6♥") and world.view(None) == game.view(None)


@pytest.mark.parametrize(("seat", "rng", "error"), [
    (None, random.Random(1), ValueError), (2, random.Random(1), ValueError),
    (True, random.Random(1), ValueError), (0, 1, TypeError), (0, None, TypeError),
])
def test_determinize_needs_a_seat_and_a_random_generator(seat, rng, error):
    game = Game.new(Rules(), players=2, seed=4)
    with pytest.raises(error):
        game.determinize(seat, rng)
