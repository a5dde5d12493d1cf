"""What the bots know about Pasur: sampling the hidden cards, tactics, rewards, endgames.

Everything a seat decides from is read from ``state.view(seat)`` and the rules (which
every player knows).  The game's ``SPEC.kit`` names it.

The greedy player scores each legal move by the points and clubs it takes now, a sur
made, the cards it leaves on the table for the next player (their best capture with any
card still unseen, weighted by the chance that they hold it: no 11-combination, no sur
left open), and the worth of keeping a jack for a full table.

>>> from cardtable import pasur
>>> from cardtable.bots import make
>>> hand = pasur.Hand.from_position(hands=["5♣ K♠", "2♦ 3♦"], table="6♥ 4♠ 9♦",
...                                 to_move=0, deal_round=6)
>>> str(make("greedy").choose(hand))
'5♣ x 6♥'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from .._engine import load_core
from ..cards import CARDS, Card, mask_of
from ..pasur import Hand, Match, Move, Rules, move_options, sur_cards
from ..pasur.captures import ALL_MASK
from ..pasur.moves import move_of
from ..pasur.scoring import CLUBS_MASK, card_points, hand_points, sur_points
from .solver import OutOfBudget

__all__ = ["KIT", "PasurKit"]

_SCALE = 50.0
"""Points of difference that make a reward of 1: more than any hand is won by."""
_POINTS_PER_HAND = 10.0
"""About what each of two sides scores in a hand (20 points of cards and bonus, shared)."""
_RANDOM_MOVES = 0.05
"""The share of a playout's moves the basic policy plays at random."""
_SPREAD = 9.0
"""About the spread of one hand's points difference: how far a lead is from safe."""


def _mask(texts: Sequence[str]) -> int:
    mask = 0
    for text in texts:
        mask |= Card.parse(text).mask
    return mask


class _Knowledge:
    """What one seat knows at one decision, read once from its view."""

    __slots__ = ("captured", "hand", "hand_sizes", "last_round", "next_seat", "players",
                 "rules", "seat", "side", "sides", "stock_size", "table", "totals", "unseen",
                 "view")

    def __init__(self, state: Any, seat: int) -> None:
        view = state.view(seat)
        self.view = view
        self.rules: Rules = state.rules
        self.seat = seat
        self.players = view["players"]
        self.sides = view["sides"]
        self.side = view["side"]
        self.hand = _mask(view["hand"])
        self.table = _mask(view["table"])
        self.captured = [_mask(cards) for cards in view["captured"]]
        seen = self.hand | self.table
        for mask in self.captured:
            seen |= mask
        self.unseen = ALL_MASK & ~seen
        self.hand_sizes = view["hand_sizes"]
        self.stock_size = view["stock_size"]
        self.last_round = view["deal_round"] >= view["deal_rounds"]
        self.next_seat = (seat + 1) % self.players
        match = view.get("match")
        self.totals: list[int] | None = list(match["totals"]) if match else None


class PasurKit:
    """The Pasur entry of the kit table (see ``cardtable.bots.kits``)."""

    name = "pasur"
    exploration = 0.2
    """ISMCTS's UCB constant: rewards (points over 50) differ little between moves.  With
    points over 20, 0.3 and 0.5 did better than 1.0 against greedy (+2.0 against +1.75
    points a hand, 200 hands); 0.2 over 50 is 0.5 over 20."""
    budgets: Mapping[str, int] = MappingProxyType({"medium": 200, "hard": 500, "expert": 3000})
    """Each search level's iterations (docs/bots.md, "The ladder's order in Pasur").  The
    plain search stops gaining past about 250 iterations here (hard's 2000 against medium's
    1000 was +0.09 points a hand [-0.27, +0.45] over 500 duplicate deals), so medium and
    hard sit below that, where iterations still pay; the expert's pairing lifts it above."""
    budget_scale = 1.0
    """``scaled=1`` takes the iterations as they are (Durak's kit halves them)."""

    # -- hidden cards ----------------------------------------------------------------------

    def sampler(self, state: Any, seat: int, *,
                infer: bool = False) -> Callable[[random.Random], Hand]:
        """Deal the cards ``seat`` cannot see afresh, within the hand being played (the
        search looks no further than this hand; the match score shapes its reward).

        With ``infer``, deals that make the other players' moves this round unlikely are
        drawn less often (see ``_Evidence``): a player who let a big capture go by probably
        could not make it.
        """
        hand = state.hand if isinstance(state, Match) else state
        if infer:
            evidence = _Evidence(state, seat)
            if evidence.moves:
                return evidence.sample
        return lambda rng: hand.determinize(seat, rng)

    def perfect(self, state: Any, seat: int) -> bool:
        """Nothing is hidden: the stock is dealt out, one other seat holds cards at most (in
        a 2-player hand, once the last cards are dealt), and every card is in play."""
        know = _Knowledge(state, seat)
        sizes = know.hand_sizes
        holding = [s for s, n in enumerate(sizes) if n and s != seat]
        return (know.stock_size == 0 and len(holding) <= 1 and know.view["to_move"] is not None
                and know.unseen.bit_count() == sum(sizes[s] for s in holding))

    def near_end(self, state: Any, seat: int) -> bool:
        """One deal is left to come in a 2-player hand: a sampled deal of the other hand
        and the last cards is small enough to solve to the end (a few thousand positions)."""
        know = _Knowledge(state, seat)
        return (know.players == 2 and know.view["to_move"] is not None
                and 0 < know.stock_size <= 4 * know.players)

    # -- rewards ---------------------------------------------------------------------------

    def context(self, state: Any, seat: int, *, horizon: int | None = None) -> _Reward:
        """What the reward needs: the match score, and how many deal rounds past the
        current one a playout runs (``horizon``, 1 by default) before it is estimated."""
        view = state.view(seat)
        match = view.get("match")
        rules: Rules = state.rules
        target = None
        totals = None
        if match and rules.fixed_hands is None:
            target = rules.target
            totals = list(match["totals"])
        ahead = 1 if horizon is None else horizon
        return _Reward(view["players"], view["sides"], target, totals, rules,
                       view["deal_round"] + ahead)

    def cutoff(self, position: Hand, context: _Reward) -> bool:
        """Stop a playout after the next deal round: what the move decides is played out,
        and most of the luck of the later deals is left out of the reward."""
        return position.deal_round > context.horizon

    def rewards(self, final: Hand, context: _Reward) -> list[float]:
        if final.is_over():
            return context.of(final.score())
        return context.of(context.estimate(final))

    # -- the compiled core's loops (see cardtable.bots.kits) -------------------------------

    def fast_playout(self, position: Any, context: _Reward, policy: str,
                     rng: random.Random) -> list[float] | None:
        """The playout and its reward in the compiled core (``_core.Board.playout``: the
        same policies, move for move, with the core's own generator), or ``None`` where
        it is not built or ``CARDTABLE_PURE`` asks for the pure engine."""
        core = _core()
        if core is None or type(position) is not Hand or policy not in _POLICIES:
            return None
        rules = position.rules
        board = core.Board(position, _points_of(rules), rules.sur_points)
        board.playout(_POLICIES[policy], rng.getrandbits(64), context.horizon,
                      _VARIETY.get(policy, _RANDOM_MOVES))
        captured, surs, over = board.score()
        if over:
            return context.of(hand_points(captured, surs, rules, position.totals))
        return context.of(context.estimate_of(captured, surs))

    def fast_deal(self, position: Any, context: _Reward, policy: str,
                  ) -> Callable[[Move, random.Random], list[float] | None] | None:
        """``fast_playout`` of each of several moves on one deal: the deal is read into the
        compiled core once (not once a move), each move is played on a copy of that board,
        and a reward already met (the same cards and surs taken) is not worked out again.
        The function answers what ``fast_playout`` answers for ``position`` after the move
        with the same ``rng`` (it draws one number from it), or ``None`` (drawing nothing)
        where the move ends the hand; ``None`` where the core cannot."""
        core = _core()
        if core is None or type(position) is not Hand or policy not in _POLICIES:
            return None
        rules = position.rules
        board = core.Board(position, _points_of(rules), rules.sur_points)
        code, horizon, totals = _POLICIES[policy], context.horizon, position.totals
        variety = _VARIETY.get(policy, _RANDOM_MOVES)
        known: dict[tuple[tuple[int, ...], tuple[int, ...], bool], list[float]] = {}

        def play(move: Move, rng: random.Random) -> list[float] | None:
            played = board.copy()
            played.push(move.index, move.taken)
            if played.to_move is None:
                return None
            played.playout(code, rng.getrandbits(64), horizon, variety)
            return _scored(played, known, context, rules, totals)

        return play

    def fast_dealer(self, position: Any, seat: int, context: _Reward, policy: str, *,
                    infer: bool = False,
                    ) -> tuple[Callable[[random.Random], Any],
                               Callable[[Any, Move, int], list[float]]] | None:
        """The analysis's judge's deals and playouts in the compiled core, or ``None``
        without it: ``deal(rng)`` deals the cards ``seat`` cannot see afresh as ``sampler``
        does (``_core.Board.dealt``: the same deals in distribution, uniform or weighed by
        ``_Evidence``, drawn in the core from one number of ``rng``), as a board;
        ``play(board, move, seed)`` plays ``move`` on it and the rest as ``fast_deal``
        does, with ``seed`` for the playout's generator, and answers ``rewards``."""
        core = _core()
        if core is None or type(position) is not Hand or policy not in _POLICIES:
            return None
        rules = position.rules
        totals = position.totals
        evidence = None
        if infer:
            evidence = [(who, table, move.index, move.taken, since)
                        for who, table, move, since in _Evidence(position, seat).moves] or None
        root = core.Board(position, _points_of(rules), rules.sur_points)
        code, horizon = _POLICIES[policy], context.horizon
        variety = _VARIETY.get(policy, _RANDOM_MOVES)
        known: dict[tuple[tuple[int, ...], tuple[int, ...], bool], list[float]] = {}

        def deal(rng: random.Random) -> Any:
            return root.dealt(seat, rng.getrandbits(64), evidence)

        def play(board: Any, move: Move, seed: int) -> list[float]:
            played = board.copy()
            played.push(move.index, move.taken)
            if played.to_move is not None:
                played.playout(code, seed, horizon, variety)
            return _scored(played, known, context, rules, totals)

        return deal, play

    def fast_solve(self, position: Any, seat: int, context: _Reward, *, max_nodes: int,
                   deadline: float) -> tuple[float, Move, int] | None:
        """The exact search in the compiled core (``_core.Board.solve``: the Python
        solver's alpha-beta, its memory of bounds and its move order, step for step; each
        finished hand is valued here, by ``rewards``), or ``None`` without the core."""
        core = _core()
        if core is None or type(position) is not Hand or position.is_over():
            return None
        rules = position.rules
        totals = position.totals
        side = position.side_of(seat)
        mine = sum(1 << s for s in range(position.players) if position.side_of(s) == side)

        def value(captured: Sequence[int], surs: list[int]) -> float:
            return context.of(hand_points(captured, surs, rules, totals))[seat]

        board = core.Board(position, _points_of(rules), rules.sur_points)
        found, move, nodes = board.solve(value, mine, max_nodes, deadline)
        if found is None:
            raise OutOfBudget(f"more than {max_nodes} positions, or out of time")
        return found, move_of(*move), nodes

    def fast_search(self, state: Any, seat: int, context: _Reward, rng: random.Random, *,
                    iterations: float, deadline: float, c: float, policy: str, depth: int,
                    paired: bool, infer: bool
                    ) -> tuple[int, int, dict[Move, tuple[int, float]]] | None:
        """The whole search in the compiled core (``_core.Board.search``: the deals of
        ``Hand.determinize``, the inference's rejection of ``_Evidence``, the tree, the
        playouts; the rewards are ``rewards``' own, remembered by what they depend on),
        or ``None`` without the core."""
        core = _core()
        hand = state.hand if isinstance(state, Match) else state
        if (core is None or type(hand) is not Hand or policy not in _POLICIES
                or hand.to_move != seat):
            return None
        rules = hand.rules
        totals = hand.totals
        evidence = None
        if infer:
            evidence = [(who, table, move.index, move.taken, since)
                        for who, table, move, since in _Evidence(state, seat).moves]

        def reward(captured: Sequence[int], surs: list[int], over: bool) -> list[float]:
            if over:
                return context.of(hand_points(captured, surs, rules, totals))
            return context.of(context.estimate_of(captured, surs))

        board = core.Board(hand, _points_of(rules), rules.sur_points)
        limit = int(iterations) if math.isfinite(iterations) else 1 << 62
        done, nodes, tried = board.search(
            seat, limit, rng.getrandbits(64), reward, deadline=deadline, c=c,
            policy=_POLICIES[policy], depth=depth, paired=paired, stop_round=context.horizon,
            counted=CLUBS_MASK if rules.bonus == "clubs" else ALL_MASK, evidence=evidence,
            variety=_VARIETY.get(policy, _RANDOM_MOVES))
        return done, nodes, {move_of(index, taken): (visits, total)
                             for index, taken, visits, total in tried}

    # -- playing ---------------------------------------------------------------------------

    def greedy(self, state: Any, seat: int) -> Move:
        """The best move by the tactics players use (see the module's docstring)."""
        know = _Knowledge(state, seat)
        moves: list[Move] = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        rules = know.rules
        options = move_options(rules)
        weights = _Weights(rules, know.captured, know.side, know.sides)
        surs_by = sur_cards(rules)
        sur_live = not know.last_round or rules.sur_in_last_deal
        sur_value = rules.sur_points if sur_live else 0
        # who plays next, and how likely each unseen card is in that hand
        unseen = know.unseen
        unseen_count = unseen.bit_count()
        nxt = know.next_seat
        nxt_hand = know.hand_sizes[nxt] or min(4, unseen_count)
        share = min(1.0, nxt_hand / unseen_count) if unseen_count else 0.0
        opponent_next = nxt % know.sides != know.side
        more_rounds = know.stock_size > 0
        hand_left = know.hand.bit_count()
        best, best_score = moves[0], -math.inf
        for move in moves:
            card_bit = move.bit
            table = know.table
            if move.taken:
                gain = weights.of(move.taken | card_bit)
                after = table & ~move.taken
                if not after and surs_by & card_bit:
                    gain += sur_value
            else:
                gain = 0.0
                after = table | card_bit
            # what the next player can do with the table left
            threat = _threat(options, after, unseen, share, weights, surs_by, sur_value)
            score = gain - threat if opponent_next else gain + 0.5 * threat
            if move.card.rank == 11 and (more_rounds or hand_left > 1):
                # a jack is worth keeping for a full table
                score -= 2.5
            if not move.taken:
                # a card left on the table that counts is a gift in waiting
                score -= 0.3 * weights.of(card_bit)
            if score > best_score + 1e-9:
                best, best_score = move, score
        return best

    def basic(self, state: Any, rng: random.Random | None = None) -> Move:
        """The immediate best: the capture worth most now, else leave the card worth least.

        It reads only the legal moves and the table, so it sees nothing hidden.
        """
        moves: list[Move] = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        values = _basic_values(state.rules)
        table = 0
        for card in state.table if isinstance(state, Hand) else state.hand.table:
            table |= card.mask
        best, best_score = moves[0], -math.inf
        for move in moves:
            score = values.gain(move, table)
            if score > best_score:
                best, best_score = move, score
        return best

    def playout(self, position: Hand, rng: random.Random,
                variety: float = _RANDOM_MOVES) -> Move:
        """The search's playout policy, on a sampled deal where every hand is dealt: the
        immediate gain minus the best reply of the next player with the cards that deal
        gave them (so surs and 11-combinations are not left open), now and then (one move
        in twenty: ``variety``) a random move for variety."""
        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if variety and rng.random() < variety:
            return moves[rng.randrange(len(moves))]
        values = _basic_values(position.rules)
        table = 0
        for card in position.table:
            table |= card.mask
        mover = position.to_move
        assert mover is not None   # (a playout moves only while the hand is on)
        nxt = (mover + 1) % position.players
        reply_hand = 0
        for card in position.hands[nxt]:
            reply_hand |= card.mask
        sign = -1.0 if position.side_of(nxt) != position.side_of(mover) else 0.5
        gain = values.gain
        reply = values.reply
        best, best_score = moves[0], -math.inf
        for move in moves:
            score = gain(move, table)
            after = table ^ move.taken if move.taken else table | move.bit
            if after and reply_hand:
                score += sign * reply(after, reply_hand)
            if score > best_score:
                best, best_score = move, score
        return best

    def playout_steady(self, position: Hand, rng: random.Random) -> Move:
        """``playout`` without its random moves: every playout plays the policy's own move
        (``ismcts:playout=steady``)."""
        return self.playout(position, rng, 0.0)

    # -- exact endgames --------------------------------------------------------------------

    def key(self, position: Hand) -> tuple[Any, ...]:
        """What decides the rest of a hand: cards in every place, surs, the last capturer."""
        return (tuple(tuple(cards) for cards in position.hands), tuple(position.table),
                tuple(tuple(cards) for cards in position.captured), tuple(position.surs),
                position.last_capturer, position.to_move)

    def order(self, position: Hand, moves: list[Move]) -> list[Move]:
        """Captures worth most first, so alpha-beta cuts early."""
        values = _basic_values(position.rules)
        return sorted(moves, key=values.score, reverse=True)

    def side_of(self, position: Any, seat: int) -> int:
        side: int = position.side_of(seat)
        return side


class _Evidence:
    """What the other players' moves this deal round say about the cards they still hold.

    A player's hand at each of their moves this round was the cards they hold now and the
    ones they played since, so a deal fixes it.  The model: a player passes up a capture
    worth ``d`` points more than the move made with a chance falling as ``exp(-d / TEMPER)``
    (the cards taken, clubs and surs, as the quick policies value them).  Deals are drawn
    by rejection against that likelihood, a few at most, so the search is slowed little.
    Earlier rounds tell nothing more: their hands were played out face up.
    """

    TEMPER = 1.5
    TRIES = 24

    __slots__ = ("base", "moves", "seat", "tops", "values")

    def __init__(self, state: Any, seat: int) -> None:
        hand = state.hand if isinstance(state, Match) else state
        self.base = hand
        self.seat = seat
        view = hand.view(seat)
        self.values = _basic_values(hand.rules)
        played = 4 * view["players"] - sum(view["hand_sizes"])
        entries = view["moves"][len(view["moves"]) - played:] if played else []
        table = _mask(view["table"])
        later: dict[int, int] = {}
        moves = []
        # walk back from the table as it is to the table each move was made on
        for entry in reversed(entries):
            move = Move.parse(entry["move"])
            if move.taken:
                table |= move.taken
            else:
                table &= ~move.bit
            who = entry["seat"]
            if who != seat:
                moves.append((who, table, move, later.get(who, 0) | move.bit))
            later[who] = later.get(who, 0) | move.bit
        self.moves: list[tuple[int, int, Move, int]] = moves
        """(seat, the table before, the move, the cards that seat played from it on)."""
        self.tops: list[dict[int, float]] = [{} for _ in moves]
        """For each move seen, the most a card (by its bit) could have made on that table:
        the same for every deal, so worked out once."""

    def weight(self, deal: Hand) -> float:
        """How likely the moves seen are with the hands ``deal`` gives (1 at most)."""
        values = self.values
        options = values.options
        gain = values.gain
        shortfall = 0.0
        for (who, table, move, since), tops in zip(self.moves, self.tops, strict=True):
            held = since | mask_of(deal.hands[who])
            best = gain(move, table)
            made = best
            rest = held
            while rest:
                low = rest & -rest
                rest ^= low
                top = tops.get(low)
                if top is None:
                    top = tops[low] = max((gain(option, table) for option
                                           in options(low.bit_length() - 1, table)),
                                          default=-math.inf)
                if top > best:
                    best = top
            shortfall += best - made
        return math.exp(-shortfall / self.TEMPER)

    def sample(self, rng: random.Random) -> Hand:
        best, best_weight = None, -1.0
        for _ in range(self.TRIES):
            deal = self.base.determinize(self.seat, rng)
            weight = self.weight(deal)
            if rng.random() < weight:
                return deal
            if weight > best_weight:
                best, best_weight = deal, weight
        assert best is not None   # (TRIES draws at least one deal)
        return best


class _Reward:
    """Hand points turned into a reward per seat in [-1, 1], shaped by the match score.

    A single hand (or a match of a fixed number of hands): the points difference to the
    other sides' mean, over 50 (no hand is won by that much, so a bigger win is always
    worth more: a reward that saturated would leave the exact endgame search indifferent
    between winning by 25 and by 30, and resigned when far behind).  In a match to a
    target, a point matters more near the target: the reward is mostly an estimate of the
    chance of winning the match from the totals after this hand (a hand that ends the
    match scores +1 or -1).
    """

    __slots__ = ("horizon", "players", "rules", "sides", "target", "totals")

    def __init__(self, players: int, sides: int, target: int | None,
                 totals: list[int] | None, rules: Rules, horizon: int) -> None:
        self.players, self.sides, self.target, self.totals = players, sides, target, totals
        self.rules = rules
        self.horizon = horizon

    def estimate(self, position: Hand) -> list[float]:
        """Points per side expected at the end of a hand still in play: counting cards
        and surs taken so far, and each side's chance at the bonus from the race so far."""
        return self.estimate_of(position.captured_masks, position.surs)

    def estimate_of(self, captured: Sequence[int], surs: Sequence[int]) -> list[float]:
        """``estimate`` from each side's captured mask and surs."""
        rules = self.rules
        points = [float(card_points(mask, rules)) for mask in captured]
        for side, p in enumerate(sur_points(surs, rules, self.totals)):
            points[side] += p
        if rules.bonus == "clubs":
            counts = [(mask & CLUBS_MASK).bit_count() for mask in captured]
            left, needed = 13 - sum(counts), max(7, rules.bonus_minimum)
        else:
            counts = [mask.bit_count() for mask in captured]
            left, needed = 52 - sum(counts), max(27, rules.bonus_minimum)
        if self.sides == 2:
            a, b = counts
            if a >= needed:
                share = 1.0
            elif b >= needed:
                share = 0.0
            else:
                share = 0.5 + 0.5 * math.tanh((a - b) / (1.0 + 0.5 * math.sqrt(left + 1)))
            points[0] += rules.bonus_points * share
            points[1] += rules.bonus_points * (1 - share)
        else:
            best = max(counts)
            leaders = [s for s, c in enumerate(counts) if c == best]
            for side in leaders:
                points[side] += rules.bonus_points / len(leaders) * 0.5
        return points

    def of(self, points: Sequence[float]) -> list[float]:
        sides = self.sides
        per_side = []
        for side in range(sides):
            others = [p for s, p in enumerate(points) if s != side]
            diff = points[side] - sum(others) / len(others)
            per_side.append(max(-1.0, min(1.0, diff / _SCALE)))
        if self.target is not None and self.totals is not None:
            after = [t + p for t, p in zip(self.totals, points, strict=True)]
            shaped = []
            best = max(after)
            decided = best >= self.target and after.count(best) == 1
            left = max(0.0, self.target - best) / _POINTS_PER_HAND + 0.5
            for side in range(sides):
                margin = after[side] - max(a for s, a in enumerate(after) if s != side)
                if decided:
                    chance = 1.0 if after[side] == best else -1.0
                else:
                    chance = math.tanh(margin / (_SPREAD * math.sqrt(left)))
                shaped.append(0.75 * chance + 0.25 * per_side[side])
            per_side = shaped
        return [per_side[seat % sides] for seat in range(self.players)]


class _Weights:
    """What taking a set of cards is worth now: counting cards, and the bonus race."""

    __slots__ = ("per_bonus_card", "rules")

    def __init__(self, rules: Rules, captured: Sequence[int], side: int, sides: int) -> None:
        self.rules = rules
        if rules.bonus == "clubs":
            counts = [(mask & CLUBS_MASK).bit_count() for mask in captured]
            needed = max(rules.bonus_minimum, 7)
        else:
            counts = [mask.bit_count() for mask in captured]
            needed = max(rules.bonus_minimum, 27)
        mine = counts[side]
        theirs = max(c for s, c in enumerate(counts) if s != side) if sides > 1 else 0
        if mine >= needed or theirs >= needed:
            self.per_bonus_card = 0.0
        else:
            self.per_bonus_card = rules.bonus_points / ((needed - mine) + (needed - theirs))

    def of(self, mask: int) -> float:
        rules = self.rules
        bonus = (mask & CLUBS_MASK).bit_count() if rules.bonus == "clubs" else mask.bit_count()
        return card_points(mask, rules) + self.per_bonus_card * bonus + 0.02 * mask.bit_count()


def _threat(options: Callable[[int, int], tuple[Move, ...]], table: int, unseen: int,
            share: float, weights: _Weights, surs_by: int, sur_value: int) -> float:
    """The expected best capture of the next player on ``table``: each unseen card's best
    capture, the best first, each counted if that player holds it and no better one."""
    if not table:
        return 0.0
    values = []
    rest = unseen
    while rest:
        low = rest & -rest
        index = low.bit_length() - 1
        rest ^= low
        best = 0.0
        for move in options(index, table):
            if move.taken:
                value = weights.of(move.taken | low)
                if move.taken == table and surs_by & low:
                    value += sur_value
                if value > best:
                    best = value
        if best:
            values.append(best)
    if not values:
        return 0.0
    values.sort(reverse=True)
    expected, miss = 0.0, 1.0
    for value in values:
        expected += value * share * miss
        miss *= 1.0 - share
        if miss < 0.02:
            break
    return expected


class _BasicValues:
    """Worth of each move now, for the quick policies (moves are interned: one table)."""

    __slots__ = ("options", "replies", "rules", "static", "sur_cards", "sur_points")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.options = move_options(rules)
        self.static: dict[Move, float] = {}
        self.replies: dict[int, float] = {}
        self.sur_cards = sur_cards(rules)
        self.sur_points = rules.sur_points

    def gain(self, move: Move, table: int) -> float:
        """What ``move`` is worth on ``table``: the cards taken, a sur, a jack spent."""
        score = self.static.get(move)
        if score is None:
            score = self.static[move] = self.score(move)
        if move.taken == table and move.taken and self.sur_cards & move.bit:
            score += self.sur_points
        return score

    def reply(self, table: int, hand: int) -> float:
        """The best a hand can take from ``table`` (remembered per table and hand)."""
        key = table << 52 | hand
        found = self.replies.get(key)
        if found is None:
            found = 0.0
            options = self.options
            gain = self.gain
            rest = hand
            while rest:
                low = rest & -rest
                rest ^= low
                for answer in options(low.bit_length() - 1, table):
                    if answer.taken:
                        v = gain(answer, table)
                        if v > found:
                            found = v
            if len(self.replies) > 300_000:
                self.replies.clear()
            self.replies[key] = found
        return found

    def score(self, move: Move) -> float:
        rules = self.rules
        if move.taken:
            mask = move.taken | move.bit
            value = (card_points(mask, rules) + 0.5 * (mask & CLUBS_MASK).bit_count()
                     + 0.1 * mask.bit_count())
            if move.card.rank == 11:
                value -= 1.5
            return value
        return -(card_points(move.bit, rules) + 0.5 * (move.bit & CLUBS_MASK).bit_count()
                 + 0.05 * min(move.card.rank, 11))


_BASIC: dict[int, _BasicValues] = {}


def _basic_values(rules: Rules) -> _BasicValues:
    """The quick values of a rule set (found by identity: hashing rules costs more)."""
    found = _BASIC.get(id(rules))
    if found is None or found.rules is not rules:
        if len(_BASIC) > 32:
            _BASIC.clear()
        found = _BASIC[id(rules)] = _BasicValues(rules)
    return found


_POLICIES = {"basic": "basic", "plain": "basic", "random": "random", "steady": "basic"}
"""The search's playout policies by name, as the core names them (this kit has no plainer
policy: "plain" is its basic one, as ``ISMCTSBot`` reads it; "steady" is the basic one
without random moves, ``_VARIETY``)."""
_VARIETY = {"steady": 0.0}
"""The share of a playout's moves played at random, by policy name where it is not
``_RANDOM_MOVES``."""
_CORE: list[Any] = []
_POINTS: dict[int, tuple[Rules, tuple[int, ...]]] = {}


def _core() -> Any:
    """The compiled core, looked for once (``None``: the pure engine runs)."""
    if not _CORE:
        _CORE.append(load_core("cardtable.pasur._core"))
    return _CORE[0]


def _points_of(rules: Rules) -> tuple[int, ...]:
    """Each card's points under ``rules``, as the core's basic policy reads them."""
    found = _POINTS.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_POINTS) > 32:
            _POINTS.clear()
        found = _POINTS[id(rules)] = (rules, tuple(card_points(card.mask, rules)
                                                   for card in CARDS))
    return found[1]


KIT = PasurKit()


def _scored(board: Any, known: dict[tuple[tuple[int, ...], tuple[int, ...], bool], list[float]],
            context: _Reward, rules: Any, totals: Any) -> list[float]:
    """The rewards of a played-out board, worked out once for each score it ends on
    (``known``: a playout's scores repeat, their points do not need working out again)."""
    captured, surs, over = board.score()
    key = (captured, tuple(surs), over)
    found = known.get(key)
    if found is None:
        found = known[key] = context.of(
            hand_points(captured, surs, rules, totals) if over
            else context.estimate_of(captured, surs))
    return found
