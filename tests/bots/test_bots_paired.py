"""The paired search: every move of the root tried on the same deals."""

from __future__ import annotations

from cardtable import pasur
from cardtable.bots import make
from cardtable.bots.pasur_kit import KIT
from cardtable.bots.solver import Solver
from cardtable.cards import pack, parse_cards


def opening() -> pasur.Hand:
    return pasur.Hand.new(pasur.PRESETS["standard"], seed=12)


def test_every_root_move_is_tried_alike() -> None:
    hand = opening()
    bot = make("ismcts:iterations=60,paired=1", seed=3)
    move = bot.choose(hand)
    tried = bot.stats["moves"]
    assert set(tried) == {str(m) for m in hand.legal_moves()}
    visits = [n for n, _ in tried.values()]
    assert max(visits) - min(visits) <= 1, tried
    assert sum(visits) == bot.stats["iterations"] == 60
    # the move played has the best mean reward
    assert tried[str(move)][1] == max(mean for _, mean in tried.values())


def test_the_plain_search_plays_the_move_tried_most() -> None:
    hand = opening()
    bot = make("ismcts:iterations=200", seed=3)
    move = bot.choose(hand)
    tried = bot.stats["moves"]
    assert tried[str(move)][0] == max(n for n, _ in tried.values())


def test_a_paired_search_leaves_the_position_as_it_was() -> None:
    hand = opening()
    before = hand.view(0), hand.view(1), hand.history()
    make("ismcts:iterations=40,paired=1", seed=1).choose(hand)
    assert (hand.view(0), hand.view(1), hand.history()) == before


def test_a_paired_search_plays_the_last_deal_as_well_as_exact_search() -> None:
    # nothing is hidden in the last deal of a 2-player hand, so every move has an exact value
    used = set(parse_cards("5♣ K♠ 10♦ K♦ 3♥ 6♠ 2♦ 4♠ A♥"))
    rest = [c for c in pack(52) if c not in used]
    last_deal = pasur.Hand.from_position(hands=["5♣ K♠ 10♦", "K♦ 3♥ 6♠"], table="2♦ 4♠ A♥",
                                         to_move=0, deal_round=6, last_capturer=1,
                                         captured=[rest[0::2], rest[1::2]])
    context = KIT.context(last_deal, 0)
    exact = {}
    for move in last_deal.legal_moves():
        after = last_deal.copy()
        after.push(move)
        solver = Solver(KIT, lambda final: KIT.rewards(final, context)[0], lambda s: s == 0,
                        max_nodes=100_000)
        exact[move], _ = solver.solve(after)
    chosen = make("ismcts:iterations=600,paired=1", seed=4).choose(last_deal)
    assert exact[chosen] == max(exact.values())
    assert min(exact.values()) < max(exact.values())   # a wrong move was there to be made
