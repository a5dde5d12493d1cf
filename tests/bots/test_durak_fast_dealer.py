"""The judge's Durak deals and rewards in the compiled core (the kit's ``fast_dealer``):
the core's rewards are the pure engine's evaluation, number for number, on both engines'
positions; a deal dealt in the core keeps everything the seat has seen and deals the rest
as ``deal_unseen`` does, in distribution; a move played on it is worth what
``fast_playout`` says."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from cardtable import analysis
from cardtable.bots.durak_kit import KIT, evaluated_rewards
from cardtable.durak import Rules
from cardtable.durak.engine import CompiledGame
from cardtable.durak.game import Game as PureGame
from cardtable.durak.game import deal_unseen

if CompiledGame is None:
    pytest.skip("the compiled core is not built here, or CARDTABLE_PURE is set",
                allow_module_level=True)
Game = CompiledGame

RULE_SETS = [(Rules(), 2), (Rules(), 3), (Rules(), 4), (Rules(partners=True), 4),
             (Rules(pack_size=24), 3), (Rules(pack_size=52, passport=True), 5),
             (Rules(trump_six_exchange=True, late_transfer=True), 6)]


def _twins(rules: Rules, players: int, seed: int) -> tuple[PureGame, Game]:
    return (PureGame.new(rules, players=players, seed=seed),
            Game.new(rules, players=players, seed=seed))


def test_the_cores_rewards_are_the_evaluations_on_both_engines():
    """At every position of random games (every rule set above, the game over included),
    the core's rewards are the Python evaluation's on the pure engine's twin of the
    position and on the compiled game itself, cut or not."""
    compared = ended = 0
    for rules, players in RULE_SETS:
        for seed in range(4):
            pure, core = _twins(rules, players, seed)
            rng = random.Random(seed)
            while True:
                context = core.round_number
                for cut, ctx in ((True, context), (False, None)):
                    expected = evaluated_rewards(pure, ctx)
                    assert list(core._rewards(cut)) == expected
                    assert evaluated_rewards(core, ctx) == expected
                    assert KIT.rewards(core, ctx) == KIT.rewards(pure, ctx) == expected
                compared += 1
                if core.is_over():
                    ended += 1
                    break
                # the tactics' line mostly, so that late rounds and empty stocks are reached
                moves = core.legal_moves()
                move = KIT.tactics(core) if rng.random() < 0.7 else rng.choice(moves)
                pure.push(move)
                core.push(move)
    assert compared > 1500 and ended == 4 * len(RULE_SETS)


def test_the_cores_rewards_value_a_cut_position_by_the_chances():
    """A position with seats out, the stock gone: not the outcome's +-1, and 0 for all
    where the playout was not cut (a game cut short without a horizon)."""
    game = Game.from_position(hands=["6♠ 7♠", "", "A♥ K♥ Q♥ 10♠ 9♦ 8♦ 8♣ 9♣"], trump="♥",
                              attacker=0)
    cut = list(game._rewards(True))
    assert cut == evaluated_rewards(game, 1)
    assert cut[1] == 1.0 and -1.0 < cut[2] < 0.0 < cut[0] < 1.0
    assert list(game._rewards(False)) == [0.0, 0.0, 0.0]


def _into_play(rules: Rules, players: int, seed: int) -> Game:
    """A game some rounds in, where a seat has taken cards (known to the others)."""
    game = Game.new(rules, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(8, 30)):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def test_a_deal_in_the_core_keeps_all_the_seat_has_seen():
    checked = known = 0
    for rules, players in RULE_SETS:
        for seed in range(10):
            game = _into_play(rules, players, seed)
            if game.is_over():
                continue
            seat = game.to_move
            for draw in range(3):
                dealt = game._dealt(seat, random.Random(draw).getrandbits(64))
                assert dealt.view(seat) == game.view(seat)
                assert dealt.deck is None and dealt.move_stack == []
                assert dealt.legal_moves() == game.legal_moves()
                for other in range(players):
                    kept = game._known[other] & game._hands[other]
                    assert dealt._hands[other] & kept == kept
                    assert dealt._hands[other].bit_count() == game._hands[other].bit_count()
                    known += bool(kept) and other != seat
                remaining = game._stock[game._drawn:]
                assert len(dealt._stock) == len(remaining) and dealt._drawn == 0
                if remaining:
                    assert dealt._stock[-1] is remaining[-1]   # the face-up trump
                before = sum(game._hands) | sum(c.mask for c in remaining)
                assert sum(dealt._hands) | sum(c.mask for c in dealt._stock) == before
                checked += 1
    assert checked > 150 and known > 20


def _a_position_with_known_cards() -> Game:
    """Three players, the stock not yet drawn, seat 1 holding cards it took (known)."""
    for seed in range(200):
        game = _into_play(Rules(), 3, seed)
        if game.is_over() or game.to_move is None:
            continue
        seat = game.to_move
        others = [s for s in range(3) if s != seat]
        if (len(game._stock) - game._drawn >= 4
                and any(game._known[s] & game._hands[s] for s in others)
                and all(game._hands[s] & ~game._known[s] for s in others)):
            return game
    raise AssertionError("no such position in 200 games")


def _places(game: Game, seat: int, hands: list[int], stock: tuple) -> dict[int, str]:
    """Where each card not fixed for ``seat`` went: an opponent's seat, or the stock's top."""
    placed = {}
    for other in range(game.players):
        if other != seat:
            for card in range(52):
                if hands[other] >> card & 1 and not game._known[other] >> card & 1:
                    placed[card] = f"seat {other}"
    for card in stock[:-1]:
        placed[card.index] = "stock"
    placed[stock[0].index] = "top"
    return placed


def test_the_cores_deals_are_distributed_as_the_pure_engines():
    """On a position with known cards: how often each unseen card lands in each opponent's
    hand, on the stock's top and in it, over 4,000 deals of the core and of ``deal_unseen``,
    both within 4.5 standard errors of the exact chance (each unseen card is equally likely
    in each place left for it); and a pair of cards lands in one hand together as often as
    a uniform deal puts them there."""
    game = _a_position_with_known_cards()
    seat = game.to_move
    n = 4000
    rng = random.Random(11)
    first, second = sorted(_places(game, seat, game._hands, game._stock[game._drawn:]))[:2]
    core_counts: Counter[tuple[int, str]] = Counter()
    pure_counts: Counter[tuple[int, str]] = Counter()
    together_in_core = 0
    for _ in range(n):
        dealt = game._dealt(seat, rng.getrandbits(64))
        placed = _places(game, seat, dealt._hands, dealt._stock)
        core_counts.update(placed.items())
        together_in_core += placed[first] == placed[second] and placed[first] != "stock"
        hands, stock = deal_unseen(game, seat, rng)
        pure_counts.update(_places(game, seat, hands, stock).items())
    unseen = len(_places(game, seat, game._hands, game._stock[game._drawn:]))
    sizes = {f"seat {s}": (game._hands[s] & ~game._known[s]).bit_count()
             for s in range(3) if s != seat}
    sizes["top"] = 1
    sizes["stock"] = len(game._stock) - game._drawn - 2   # the rest but the face-up card
    cards = {card for card, _ in core_counts}
    assert len(cards) == unseen == sum(sizes.values())
    for counts in (core_counts, pure_counts):
        for card in cards:
            for place, size in sizes.items():
                p = size / unseen
                bound = 4.5 * math.sqrt(p * (1 - p) / n)
                assert abs(counts[card, place] / n - p) <= bound, (card, place, counts)
    # two given cards in the same opponent's hand: sum over hands of k(k-1) / (U(U-1))
    together = sum(k * (k - 1) for place, k in sizes.items()
                   if place.startswith("seat")) / (unseen * (unseen - 1))
    bound = 4.5 * math.sqrt(together * (1 - together) / n)
    assert abs(together_in_core / n - together) <= bound


def test_a_move_on_a_core_deal_is_worth_what_fast_playout_says():
    compared = 0
    for rules, players in RULE_SETS:
        for seed in range(4):
            game = _into_play(rules, players, seed)
            if game.is_over():
                continue
            seat = game.to_move
            for horizon in (None, 1):
                context = KIT.context(game, seat, horizon=horizon)
                dealer = KIT.fast_dealer(game, seat, context, "basic", infer=True)
                assert dealer is not None
                deal, play = dealer
                dealt = deal(random.Random(seed))
                for move in game.legal_moves()[:6]:
                    draw = random.Random(seed * 31 + compared)
                    after = dealt.copy(stack=False)
                    after.push(move)
                    expected = KIT.fast_playout(after, context, "basic", draw)
                    if after.is_over():
                        expected = KIT.rewards(after, context)
                    seed_of = random.Random(seed * 31 + compared).getrandbits(64)
                    assert list(play(dealt, move, seed_of)) == expected
                    compared += 1
    assert compared > 60


def test_the_dealer_leaves_the_pure_engine_and_the_plain_policy_to_python():
    pure, core = _twins(Rules(), 2, 1)
    assert KIT.fast_dealer(pure, 0, None, "basic") is None
    assert KIT.fast_dealer(core, 0, None, "plain") is None


def test_the_judge_deals_durak_in_the_core_and_judges_alike_with_a_seed():
    game = _into_play(Rules(), 2, 5)
    move = game.legal_moves()[-1]
    first, again = (analysis.judge(game, move, 1, hindsight=False) for _ in range(2))
    assert first == again and first.choices > 1


def test_many_deals_in_one_call_are_the_deals_one_by_one():
    compared = 0
    for rules, players in RULE_SETS:
        game = _into_play(rules, players, 7)
        if game.is_over():
            continue
        seat = game.to_move
        context = KIT.context(game, seat, horizon=1)
        deal, play = KIT.fast_dealer(game, seat, context, "basic")
        judged = KIT.fast_judge(game, seat, context, "basic")
        moves = tuple(game.legal_moves()[:5])
        rng = random.Random(3)
        seeds = [rng.getrandbits(64) for _ in range(2 * 20)]
        found = judged(seeds, moves)
        for d in range(20):
            dealt = deal(_Drawn(seeds[2 * d]))
            for m, move in enumerate(moves):
                assert found[m][d] == play(dealt, move, seeds[2 * d + 1])[seat]
                compared += 1
    assert compared > 300


class _Drawn(random.Random):
    """A generator whose next 64 bits are ``value`` (the deal's seed, as drawn)."""

    def __init__(self, value: int) -> None:
        super().__init__()
        self.value = value

    def getrandbits(self, k: int) -> int:
        return self.value


def test_the_judge_is_the_same_with_many_deals_a_call(monkeypatch):
    game = _into_play(Rules(), 3, 2)
    moves = game.legal_moves()
    batched = [analysis.judge(game, move, 1, hindsight=False) for move in moves[:3]]
    monkeypatch.setattr(type(KIT), "fast_judge", lambda *args: None)
    assert [analysis.judge(game, move, 1, hindsight=False) for move in moves[:3]] == batched
