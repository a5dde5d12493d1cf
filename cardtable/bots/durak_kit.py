"""What the bots know about Transfer Durak: tactics, playouts, rewards, endgames.

Hidden cards are sampled with the engine's own ``Game.determinize`` (cards known to be in a
hand, such as cards a defender took, stay there).  The game's ``SPEC.kit``
names this module's ``KIT``.

The greedy player follows the tactics players teach: attack with the lowest card, in
pairs when it can, and keep trumps for the end; transfer when a plain card of the attacked
rank passes the whole attack on; beat with the lowest cards that do the job; take when
beating would cost a high trump while the stock lasts; throw in low cards, more freely as the
stock runs out.

>>> from cardtable import durak
>>> from cardtable.bots import make
>>> game = durak.Game.from_position(hands=["7♥ 9♥ A♠ 6♠", "Q♣ 8♦ 10♥ J♣"], trump="♠",
...                                 stock="6♥ 7♣ K♠", attacker=1)
>>> str(make("greedy").choose(game))
'attack 8♦'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..cards import CARDS, Card, Suit, cards_of
from ..durak import Game, Move, MoveKind, strength
from ..durak.engine import CompiledGame
from ..durak.evaluation import durak_chances
from ..durak.tables import BEATERS
from ..durak.tables import DEFEND as _DEFENDING
from ..durak.tables import LEAD as _LEADING
from ..durak.tables import TAKING as _TAKING
from .solver import OutOfBudget

__all__ = ["KIT", "DurakKit"]

ATTACK, DEFEND, TRANSFER, TAKE, PASS, EXCHANGE = (
    MoveKind.ATTACK, MoveKind.DEFEND, MoveKind.TRANSFER, MoveKind.TAKE, MoveKind.PASS,
    MoveKind.EXCHANGE)

_VALUE = tuple(tuple(strength(card) + (7 if card.suit == trump else 0) for card in CARDS)
               for trump in Suit)
"""``_VALUE[trump][card.index]``: how much a card is worth holding; trumps above all
plain cards (a trump six counts as 13, above a plain ace's 14 minus one)."""
_SHED = 9
_DEAR = [19]
"""A trump worth more than this (a trump queen, 12 + 7) is too dear to spend on a defence
while the stock lasts (measured: 19 did best against the basic player, of 15 to 23)."""
"""Holding a card of this worth is the same as being rid of it."""


def _beats(beater: Card, attack: Card, trump: Suit) -> bool:
    if beater.suit == attack.suit:
        return strength(beater) > strength(attack)
    return beater.suit == trump


def _cheapest_plan(attacks: list[Card], options: list[list[Card]], value: Sequence[int],
                   ) -> tuple[float, list[tuple[Card, Card]]] | None:
    """Branch and bound over ``options[k]`` (the cards that beat ``attacks[k]``, cheapest
    first): the plan of least cost, each beater used once (``None``: there is none)."""
    best: list[Any] = [math.inf, None]
    last = len(attacks)

    def walk(k: int, used: int, cost: float, plan: list[tuple[Card, Card]]) -> None:
        if cost >= best[0]:
            return
        if k == last:
            best[0], best[1] = cost, plan[:]
            return
        for beater in options[k]:
            if not used & beater.mask:
                plan.append((attacks[k], beater))
                walk(k + 1, used | beater.mask, cost + value[beater.index] - _SHED, plan)
                plan.pop()

    walk(0, 0, 0.0, [])
    if best[1] is None:
        return None
    return best[0], best[1]


def _cheapest_defence(attacks: list[Card], hand: list[Card], trump: Suit,
                      value: tuple[int, ...]) -> tuple[float, list[tuple[Card, Card]]] | None:
    """The cheapest way to beat every card in ``attacks`` from ``hand`` (exact, small)."""
    attacks = sorted(attacks, key=lambda c: -value[c.index])
    options = [sorted((b for b in hand if _beats(b, a, trump)), key=lambda c: value[c.index])
               for a in attacks]
    return _cheapest_plan(attacks, options, value)


_HAND_ORDER = tuple(tuple(sorted(range(len(CARDS)), key=lambda i: (
    _VALUE[trump][i], CARDS[i].suit == trump, strength(CARDS[i]), CARDS[i].suit)))
    for trump in Suit)
"""Card indexes cheapest first, ties as the greedy player breaks them (hand order)."""
_PLACE = tuple(tuple(order.index(i) for i in range(len(CARDS))) for order in _HAND_ORDER)


def _cheapest_cover(unbeaten: list[Card], hand: int, trump: int, value: tuple[int, ...]
                    ) -> tuple[float, list[tuple[Card, Card]]] | None:
    """``_cheapest_defence`` on a hand given as a mask (the playouts' hot path): the same
    plan, ties broken alike, but it gives up at once when a card cannot be beaten."""
    beaters = BEATERS[trump]
    place = _PLACE[trump]
    attacks = sorted(unbeaten, key=lambda c: -value[c.index])
    options = []
    for attack in attacks:
        mask = hand & beaters[attack.index]
        if not mask:
            return None
        options.append(sorted(cards_of(mask), key=lambda c: place[c.index]))
    if len(attacks) == 2:
        # the usual case, without the search: for each first beater (cheapest first) the
        # second is the cheapest other one; the first plan of least cost wins, as in walk
        first, second = options
        best_cost, best_plan = math.inf, None
        floor = value[second[0].index]
        for one in first:
            cost = value[one.index]
            if cost + floor >= best_cost:
                break
            two = second[0] if second[0] is not one else second[1] if len(second) > 1 else None
            if two is not None and cost + value[two.index] < best_cost:
                best_cost = cost + value[two.index]
                best_plan = [(attacks[0], one), (attacks[1], two)]
        if best_plan is None:
            return None
        return best_cost - 2 * _SHED, best_plan
    return _cheapest_plan(attacks, options, value)


class DurakKit:
    """The Durak entry of the kit table (see ``cardtable.bots.kits``)."""

    name = "durak"
    exploration = 1.0
    """ISMCTS's UCB constant for rewards of +1 and -1."""
    budgets: Mapping[str, int] = MappingProxyType({"medium": 500, "hard": 1000, "expert": 2500})
    """Each search level's iterations: half Pasur's for medium and hard, since a playout runs
    to the end of the game; the expert's 2500 (commit eef5695, from 1500) spend its second and
    beat hard on new deals, +0.19 [+0.01, +0.35] of durak rate over 120 (docs/bots.md)."""
    budget_scale = 0.5
    """``scaled=1`` searches Durak with half the iterations: a playout runs to the end of
    the game, about twice as long as a Pasur one, so a move takes about as long (commit 79006e5:
    the tree search with the exact endgames was the durak against greedy in 22 of 100
    games with 1000 iterations, in 19 of the same 100 deals with 500: no gain shown for
    twice the time)."""

    # -- hidden cards ----------------------------------------------------------------------

    def sampler(self, state: Game, seat: int, *,
                infer: bool = False) -> Callable[[random.Random], Game]:
        """Deal the unseen cards afresh; the cards a player picked up and still holds stay
        theirs (the game's ``determinize`` keeps them).  ``infer`` adds nothing here yet."""
        return lambda rng: state.determinize(seat, rng)

    def perfect(self, state: Game, seat: int) -> bool:
        """Nothing is hidden: the stock holds at most the face-up trump card (seen by all)
        and one other player holds cards, so that hand is exactly the cards not seen
        elsewhere (no partners)."""
        view = state.view(seat)
        holding = [s for s, n in enumerate(view["hand_sizes"]) if n and s != seat]
        return (view["stock"] <= 1 and len(holding) <= 1 and view["teams"] is None
                and view["to_move"] is not None)

    def near_end(self, state: Game, seat: int) -> bool:
        """Never: a Durak game near its end is left to the search and the exact endgame
        (tried at commit 79006e5, ``pimc=8`` with two cards left in the stock: a deal ran past
        20 000 positions and the move took 1.7 s of CPU before it fell back to the search)."""
        return False

    # -- rewards ---------------------------------------------------------------------------

    def context(self, state: Game, seat: int, *, horizon: int | None = None) -> int | None:
        """Where a playout stops: ``None`` (by default) at the end of the game; with
        ``horizon``, the last round it plays (0: the round being played, 1: the next too),
        whose end is then valued by the evaluation (``durak.evaluation``)."""
        if horizon is None:
            return None
        return state.round_number + horizon

    def cutoff(self, position: Game, context: int | None) -> bool:
        """By default playouts go to the end of the game (only the end says who the durak
        is); with a horizon, at the start of the first round past it."""
        return context is not None and position._round > context

    def rewards(self, final: Game, context: int | None) -> list[float]:
        """Not being the durak: +1, the durak's side -1, a draw (or a playout cut short
        going round in circles) 0; a playout cut at its horizon: the same by the
        evaluation's chances.  Worked out in the compiled core where the game is on it
        (``Core._rewards``: the same sums in the same order, so the same numbers)."""
        on_core: Any = final   # durak.Game names the pure class to the type checker
        if CompiledGame is not None and type(on_core) is CompiledGame:
            return list(on_core._rewards(context is not None))
        return evaluated_rewards(final, context)

    def fast_playout(self, position: Any, context: int | None, policy: str,
                     rng: random.Random) -> list[float] | None:
        """``rewards`` of a playout run in the compiled core (``Core._play_out``: the same
        policies, ``tactics`` move for move with a random move now and then, on the core's
        own generator seeded from ``rng``; it stops where ``cutoff`` would), or ``None``
        where the game is not on the core or the policy is ``plain`` (then the Python
        loop runs)."""
        core_policy = _CORE_POLICIES.get(policy)
        if CompiledGame is None or type(position) is not CompiledGame or core_policy is None:
            return None
        final = position.copy(stack=False)
        final._play_out(rng.getrandbits(64), core_policy, _PLAYOUT_LIMIT, _DEAR[0],
                        -1 if context is None else context)
        return list(final._rewards(context is not None))

    def fast_dealer(self, position: Any, seat: int, context: int | None, policy: str, *,
                    infer: bool = False,
                    ) -> tuple[Callable[[random.Random], Any],
                               Callable[[Any, Move, int], Sequence[float]]] | None:
        """The analysis's judge's deals and playouts in the compiled core, or ``None``
        where the game is not on it (``CARDTABLE_PURE``) or the policy is ``plain``:
        ``deal(rng)`` deals the cards ``seat`` has not seen afresh as ``sampler`` does
        (``Core._dealt``: the same deals in distribution, drawn from the core's generator
        seeded by one number of ``rng``; ``infer`` adds nothing, as in ``sampler``);
        ``play(deal, move, seed)`` plays ``move`` there and the rest as ``fast_playout``
        does, with ``seed`` for the playout, and answers ``rewards`` (``Core._judged``:
        no game object is made for a playout)."""
        core_policy = _CORE_POLICIES.get(policy)
        if CompiledGame is None or type(position) is not CompiledGame or core_policy is None:
            return None
        last_round = -1 if context is None else context
        dear = _DEAR[0]

        def deal(rng: random.Random) -> Any:
            return position._dealt(seat, rng.getrandbits(64))

        def play(dealt: Any, move: Move, seed: int) -> Sequence[float]:
            rewards: Sequence[float] = dealt._judged(move, seed, core_policy, _PLAYOUT_LIMIT,
                                                     dear, last_round)
            return rewards

        return deal, play

    def fast_judge(self, position: Any, seat: int, context: int | None, policy: str,
                   ) -> Callable[[list[int], tuple[Move, ...]], Sequence[list[float]]] | None:
        """``fast_dealer``'s deals and playouts of many deals in one call to the core
        (``Core._judged_deals``), or ``None`` where ``fast_dealer`` is: given the seeds in
        pairs (a deal's, then its playouts'), each move's rewards for ``seat``, a deal a
        float, the same numbers as ``deal`` and ``play`` with those seeds."""
        core_policy = _CORE_POLICIES.get(policy)
        if CompiledGame is None or type(position) is not CompiledGame or core_policy is None:
            return None
        last_round = -1 if context is None else context
        dear = _DEAR[0]

        def judged(seeds: list[int], moves: tuple[Move, ...]) -> Sequence[list[float]]:
            found: Sequence[list[float]] = position._judged_deals(
                seat, seeds, moves, core_policy, _PLAYOUT_LIMIT, dear, last_round)
            return found

        return judged

    def fast_solve(self, position: Any, seat: int, context: int | None, *, max_nodes: int,
                   deadline: float) -> tuple[float, Move, int] | None:
        """The exact endgame search in the compiled core (``Core._solve``: the Python
        solver's alpha-beta, memory of bounds, draw on a position met again on the line,
        with this kit's ``key`` and ``order``, step for step; a finished game is worth
        ``rewards``' +1, -1 or 0), or ``None`` where the game is not on the core."""
        if CompiledGame is None or type(position) is not CompiledGame or position.is_over():
            return None
        value, move, nodes = position._solve(seat, max_nodes, deadline)
        if value is None or move is None:
            raise OutOfBudget(f"more than {max_nodes} positions, or out of time")
        return value, move, nodes

    # -- playing ---------------------------------------------------------------------------

    def greedy(self, state: Game, seat: int) -> Move:
        view = state.view(seat)
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        for move in moves:
            if move.kind is EXCHANGE or (move.kind is TRANSFER and move.shown):
                return move   # a free gain: the face-up trump, or a transfer kept in hand
        trump = Suit.parse(view["trump"])
        value = _VALUE[trump]
        stock = view["stock"]
        hand = [Card.parse(text) for text in view["hand"]]
        phase = view["phase"]
        if phase == "lead":
            return _lead(moves, value, trump, stock)
        if phase == "defend":
            return _defend(moves, view, hand, value, trump, stock)
        return _throw(moves, view, value, trump, stock, len(hand))

    def playout(self, position: Game, rng: random.Random) -> Move:
        """The search's playout policy: the tactics player's rules read straight from the
        engine's fields (``tactics``), now and then a random move."""
        if rng.random() < 0.05:
            moves = position.legal_moves()
            return moves[rng.randrange(len(moves))]
        return self.tactics(position)

    def playout_plain(self, position: Game, rng: random.Random) -> Move:
        """The playout policy before commit 1cfd1bf: the basic one, now and then a random move
        (kept to measure the tactics playout against: ``ismcts:playout=plain``)."""
        if rng.random() < 0.05:
            moves = position.legal_moves()
            return moves[rng.randrange(len(moves))]
        return self.basic(position)

    def tactics(self, position: Game) -> Move:
        """The greedy player's tactics, fast enough to play out thousands of games a move:
        lead low cards, low pairs together and trumps last; transfer with a plain card;
        beat the whole attack as cheaply as possible, but take when that costs a trump
        above the queen while the stock lasts; throw in low plain cards.

        It reads the engine's own fields (the mover's hand as a mask, the unbeaten attack
        cards), never ``view``: building a view costs more than the rest of a move.  It
        reads nothing but the mover's hand and public facts.
        """
        moves = position.legal_moves()
        if len(moves) == 1 or moves[-1].kind is EXCHANGE:
            return moves[-1]   # the only move, or a free gain: the face-up trump
        trump = position._trump
        value = _VALUE[trump]
        phase = position._phase
        stock = len(position._stock) - position._drawn
        if phase == _LEADING:
            costs = _LEAD_COSTS[trump][stock > 0]
            best, best_cost = moves[0], math.inf
            for move in moves:
                cost = costs.get(move)
                if cost is None:
                    if move.kind is not ATTACK:
                        continue
                    cost = costs[move] = _lead_cost(move, value, trump, stock)
                if cost < best_cost:
                    best, best_cost = move, cost
            return best
        if phase == _DEFENDING:
            return _defend_fast(position, moves, value, trump, stock)
        # throwing in (or adding to a taken round): low plain cards, freer as the stock ends
        limit = 10 if stock > 10 else 12 if stock else 14
        taking = phase == _TAKING
        held = position._hands[position._to_move].bit_count()
        best = next((m for m in moves if m.kind is PASS), moves[-1])
        best_key: tuple[int, int] | None = None
        for move in moves:
            if move.kind is not ATTACK:
                continue
            cards = move.cards
            worst = max(value[c.index] for c in cards)
            if any(c.suit == trump for c in cards):
                if not (stock == 0 and held <= len(cards) + 1 and not taking):
                    continue
            elif worst > limit:
                continue
            key = (len(cards), -worst)
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best

    def basic(self, state: Game, rng: random.Random | None = None) -> Move:
        """The playout policy: cheapest card to attack, cheapest beater to defend (taking
        rather than spend a high trump while the stock lasts), transfer with a plain card,
        throw in low plain cards.  It reads only its own legal moves and public facts."""
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        trump = state.trump
        value = _VALUE[trump]
        phase = state.phase
        stock = len(state.stock)
        if phase == "lead":
            best, best_value = moves[0], 99
            for move in moves:
                if move.kind is ATTACK:
                    v = value[move.cards[0].index] + len(move.cards) - 1
                    if v < best_value:
                        best, best_value = move, v
            return best
        if phase == "defend":
            take = moves[-1]
            best, best_value = take, 99
            for move in moves:
                kind = move.kind
                if kind is TRANSFER:
                    card = move.cards[0]
                    if len(move.cards) == 1 and card.suit != trump:
                        return move
                elif kind is DEFEND:
                    v = value[move.cards[1].index]
                    if v < best_value:
                        best, best_value = move, v
            if best_value > 17 and stock:
                return take
            return best
        # throwing in: low plain cards, anything plain once the stock is gone
        limit = 10 if stock else 14
        best, best_value = next(m for m in moves if m.kind is PASS), 99
        for move in moves:
            if move.kind is ATTACK and len(move.cards) == 1:
                card = move.cards[0]
                v = value[card.index]
                if card.suit != trump and v <= limit and v < best_value:
                    best, best_value = move, v
        return best

    # -- exact endgames --------------------------------------------------------------------

    def key(self, position: Game) -> Hashable:
        """What decides the rest of the game once nothing is hidden (the stock empty, or
        the face-up trump alone in it: its size is part of the key).

        Who has passed this round is left out: with two players holding cards, only the
        attacker may throw in, and a pass by the only thrower closes the round at once, so
        no position waiting for a decision has a pass in it.  The hands are read as the
        engine's card masks when it has them (hashing cards one by one is the slow part).
        """
        hands = getattr(position, "_hands", None)
        hands = tuple(hands) if hands is not None else tuple(
            sum(card.mask for card in cards) for cards in position.hands)
        table = tuple((a.index, d.index if d is not None else -1) for a, d in position.table)
        return (hands, table, position.phase, position.to_move, position.attacker,
                position.defender, position.limit, position.round_number == 1,
                len(position.stock))

    def order(self, position: Game, moves: list[Move]) -> list[Move]:
        """The moves worth searching, most promising first: transfers, then cheap cards,
        then passing, and taking last.

        A defender beats the unbeaten attack cards in any order to the same end (nobody
        else moves until all are beaten), so only defences of the first one are tried.
        """
        value = _VALUE[position.trump]
        if position.phase == "defend":
            first = next((a for a, d in position.table if d is None), None)
            moves = [m for m in moves if m.kind is not DEFEND or m.cards[0] is first]

        def rank(move: Move) -> tuple[int, int]:
            kind = move.kind
            if kind is TRANSFER:
                return (0, 0)
            if kind is ATTACK:
                return (1, value[move.cards[0].index] - 3 * len(move.cards))
            if kind is DEFEND:
                return (1, value[move.cards[1].index])
            if kind is PASS:
                return (2, 0)
            return (3, 0)

        return sorted(moves, key=rank)

    def side_of(self, position: Game, seat: int) -> int:
        return position.team_of(seat)


def evaluated_rewards(final: Game, context: int | None) -> list[float]:
    """``DurakKit.rewards`` in Python (the pure engine's, and the reference the compiled
    core's ``_rewards`` is held to): the outcome's signs, else by the evaluation's chances
    where the playout was cut (``context``), else 0 for all."""
    outcome = final.outcome()
    if outcome is None:
        if context is None or final.to_move is None:
            return [0.0] * final.players
        chances = durak_chances(final)
        side = [sum(p for s, p in enumerate(chances) if final.team_of(s) == final.team_of(me))
                for me in range(final.players)]
        return [1.0 - 2.0 * p for p in side]
    return [1.0 if r > 0 else -1.0 if r < 0 else 0.0 for r in outcome.returns]


_CORE_POLICIES = {"basic": 1, "random": 0, "steady": 1}
"""The search's playout policies the core plays, by the numbers it knows them by (``plain``,
the basic player's, is played in Python; this kit keeps no ``steady`` variant, so that is
its tactics policy, as ``ISMCTSBot`` reads it)."""
_PLAYOUT_LIMIT = 2000
"""Moves after which a playout stops as a draw (ISMCTS's own limit, ``ismcts._PLAYOUT_LIMIT``)."""


_LEAD_COSTS: tuple[tuple[dict[Move, float], dict[Move, float]], ...] = tuple(
    ({}, {}) for _ in Suit)
"""``[trump][stock left]``: each attack's cost as a lead, filled as the playouts meet them."""


def _lead_cost(move: Move, value: tuple[int, ...], trump: int, stock: int) -> float:
    """What leading ``move`` costs (``_lead``'s measure): the cards' mean worth, trumps
    dearer while the stock lasts, several low cards together cheaper."""
    cards = move.cards
    n = len(cards)
    cost = sum(value[c.index] for c in cards) / n
    if any(c.suit == trump for c in cards):
        cost += 8 if stock else 2
    elif cost <= 11 or not stock:
        cost -= 2.5 * (n - 1)
    else:
        cost += 1.5 * (n - 1)
    return cost


def _defend_fast(position: Game, moves: list[Move], value: tuple[int, ...], trump: int,
                 stock: int) -> Move:
    """``_defend`` on the engine's fields: transfer with a plain card if one fits; else beat
    the whole attack as cheaply as possible, or take when that costs a trump too dear."""
    transfer: Move | None = None
    transfer_key = (99, 99)
    take = moves[-1]
    cheapest: Move | None = None
    cheapest_value = 999
    for move in moves:
        kind = move.kind
        if kind is DEFEND:
            beater = move.cards[1]
            v = 2 * value[beater.index] + (beater.suit == trump)   # ties: a plain card
            if v < cheapest_value:
                cheapest, cheapest_value = move, v
        elif kind is TRANSFER:
            if move.shown:
                return move   # a free gain: the attack passed on, the card kept
            cards = move.cards
            if all(c.suit != trump for c in cards):
                key = (len(cards), value[cards[0].index])
                if key < transfer_key:
                    transfer, transfer_key = move, key
        elif kind is TAKE:
            take = move
    if transfer is not None:
        return transfer
    open_ = position._open
    if cheapest is None:
        plan_value = None
    elif open_ & (open_ - 1) == 0:    # one card to beat: its cheapest beater is the plan
        plan_value = cheapest_value // 2
    else:
        plan = _cheapest_cover([a for a in position._att if open_ & a.mask],
                               position._hands[position._to_move], trump, value)
        if plan is None:
            plan_value = None
        else:
            attack, beater = plan[1][0]
            plan_value = max(value[b.index] for _, b in plan[1])
            cheapest = next(m for m in moves if m.kind is DEFEND and m.cards[0] is attack
                            and m.cards[1] is beater)
    if plan_value is None or cheapest is None:
        if stock == 0:
            others = [m for m in moves if m.kind is TRANSFER]
            if others:
                return min(others, key=lambda m: value[m.cards[0].index])
        return take
    if stock and plan_value > _DEAR[0] + (2 if stock < 6 else 0):
        return take
    return cheapest


def _lead(moves: list[Move], value: tuple[int, ...], trump: Suit, stock: int) -> Move:
    """Lead the lowest card; two or more of a low rank together; trumps last."""
    best, best_cost = moves[0], math.inf
    for move in moves:
        if move.kind is not ATTACK:
            continue
        cards = move.cards
        cost = sum(value[c.index] for c in cards) / len(cards)
        trumps = sum(1 for c in cards if c.suit == trump)
        if trumps:
            cost += 8 if stock else 2
        elif cost <= 11 or not stock:
            cost -= 2.5 * (len(cards) - 1)
        else:
            cost += 1.5 * (len(cards) - 1)
        if cost < best_cost:
            best, best_cost = move, cost
    return best


def _defend(moves: list[Move], view: dict[str, Any], hand: list[Card], value: tuple[int, ...],
            trump: Suit, stock: int) -> Move:
    """Transfer with a plain card if one fits; else beat every attack card as cheaply as
    possible; but take when that would cost a trump above ``_DEAR`` while the stock lasts
    (beating would cost more than taking saves)."""
    transfers = [m for m in moves if m.kind is TRANSFER]
    plain = [m for m in transfers if all(c.suit != trump for c in m.cards)]
    if plain:
        return min(plain, key=lambda m: (len(m.cards), value[m.cards[0].index]))
    take = next(m for m in moves if m.kind is TAKE)
    unbeaten = [Card.parse(a) for a, d in view["table"] if d is None]
    plan = _cheapest_defence(unbeaten, hand, trump, value)
    if plan is None:
        if transfers and stock == 0:
            return min(transfers, key=lambda m: value[m.cards[0].index])
        return take
    _, pairs = plan
    dearest = max(value[beater.index] for _, beater in pairs)
    if stock and dearest > _DEAR[0] + (2 if stock < 6 else 0):
        return take
    attack, beater = pairs[0]
    return next(m for m in moves if m.kind is DEFEND and m.cards[0] is attack
                and m.cards[1] is beater)


def _throw(moves: list[Move], view: dict[str, Any], value: tuple[int, ...], trump: Suit, stock: int,
           held: int) -> Move:
    """Throw in low plain cards (more freely as the stock runs out), else pass."""
    limit = 10 if stock > 10 else 12 if stock else 14
    taking = view["phase"] == "taking"
    best, best_key = next((m for m in moves if m.kind is PASS), moves[-1]), None
    for move in moves:
        if move.kind is not ATTACK:
            continue
        cards = move.cards
        trumps = any(c.suit == trump for c in cards)
        worst = max(value[c.index] for c in cards)
        if trumps and not (stock == 0 and held <= len(cards) + 1 and not taking):
            continue
        if not trumps and worst > limit:
            continue
        key = (len(cards), -worst)
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


KIT = DurakKit()
