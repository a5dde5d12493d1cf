"""One hand of Pasur: a single pass through the pack, scored at its end.

The hand is a mutable board in the style of python-chess: ``push`` plays a move and saves
a small snapshot, ``pop`` restores it.  The table and the captures are 52-bit masks and
each player's hand a short tuple of card indexes; the public attributes (``hands``,
``table``, ``captured``...) build card lists on demand.

>>> hand = Hand.new(PRESETS["standard"], seed=7)
>>> hand.players, hand.to_move, hand.deal_round, hand.deal_rounds
(2, 0, 1, 6)
>>> len(hand.hands[0]), len(hand.table), len(hand.stock)
(4, 4, 40)
>>> move = hand.legal_moves()[0]
>>> hand.push(move)
>>> hand.to_move
1
>>> hand.pop() == move
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from itertools import starmap
from operator import itemgetter

from ..cards import CARDS, Card, cards_of, format_cards, mask_of, parse_cards
from ..game import IllegalMove, Outcome, make_rng
from .captures import (
    ALL_MASK,
    JACK_MASK,
    KING_MASK,
    NUMBER_MASK,
    QUEEN_MASK,
    CaptureRules,
    Move,
)
from .rules import PRESETS, Rules
from .scoring import hand_points, score_sheet

__all__ = ["Hand"]

_FACE_MASK = JACK_MASK | QUEEN_MASK | KING_MASK
_SUR_CARDS = {"number": NUMBER_MASK, "not_jack": ALL_MASK & ~JACK_MASK, "any": ALL_MASK}

# A snapshot saved by push(): (move, seat, the seat's hand before, table before) for a card
# left on the table; a capture adds (captured of the mover's side before, the last capturer
# before), and a sur one more item (True).  Whether the move also dealt the next round or
# ended the hand pop() reads off the state: every hand full means it dealt, nobody to move
# means it ended.

_SETUPS: dict[int, tuple] = {}
"""Per rules and players (``id(rules) << 3 | players``): what every hand under them
shares, worked out once."""


def _cards(value: str | Iterable[Card]) -> list[Card]:
    return parse_cards(value) if isinstance(value, str) else list(value)


def _indexes(cards: Iterable[Card]) -> bytes:
    """A hand as the bytes of its card indexes, in card order (removing one card is then
    a single ``bytes.replace``)."""
    return bytes(sorted(card.index for card in cards))


_ONE = tuple(bytes([index]) for index in range(52))
_BITS = tuple(1 << index for index in range(52))


def _shuffled(rng: random.Random) -> list[int]:
    """The 52 card indexes in a random order drawn from ``rng``.

    Sorting by 52 random keys costs one C call per card, where ``rng.shuffle`` runs a
    Python loop; two equal keys (the only bias) come up about once in 10**13 deals.
    """
    keys = list(starmap(rng.random, _NO_ARGS_52))   # 52 draws in a C loop
    return sorted(range(52), key=keys.__getitem__)


_NO_ARGS_52 = ((),) * 52

def _block_sorter() -> Callable[[Sequence[int]], tuple[bytes, ...]]:
    """A function that cuts a deal order of 52 card indexes into its 13 blocks of 4 cards
    (every hand dealt, and the opening table, is one) and returns each block as the bytes
    of its cards in card order.  It is an unrolled sorting network made once here: a
    ``sorted`` call per block costs about twice as much."""
    names = [f"c{at}" for at in range(52)]
    lines = ["def sort_blocks(order):", f"    {', '.join(names)} = order"]
    blocks = []
    for at in range(0, 52, 4):
        a, b, c, d = names[at:at + 4]
        for x, y in ((a, b), (c, d), (a, c), (b, d), (b, c)):
            lines += [f"    if {x} > {y}:", f"        {x}, {y} = {y}, {x}"]
        blocks.append(f"bytes(({a}, {b}, {c}, {d}))")
    lines.append(f"    return ({', '.join(blocks)})")
    space: dict = {}
    exec("\n".join(lines), space)  # the text above, made here from fixed parts only
    return space["sort_blocks"]


_sort_blocks = _block_sorter()

_DEALS: dict[int, tuple[itemgetter, ...]] = {}
"""Per seating (``4 * players + leader``): for each deal round, what picks the seats'
blocks (in seat order) out of ``_sort_blocks``'s 13 (see ``Hand._slot``)."""


def _deal_getters(players: int, leader: int) -> tuple[itemgetter, ...]:
    getters = _DEALS.get(4 * players + leader)
    if getters is None:
        getters = _DEALS[4 * players + leader] = tuple(
            itemgetter(*[((0 if number == 1 else 4 * players + 4 + (number - 2) * 4 * players)
                          + 4 * ((seat - leader) % players)) // 4 for seat in range(players)])
            for number in range(1, 48 // (4 * players) + 1))
    return getters


def _fix_opening(order: list[int], players: int, rules: Rules,
                 rng: random.Random) -> list[int]:
    """Apply the opening-table rule to a deal order (card indexes) until the 4 table
    cards are acceptable.

    A replaced jack goes back into the stock at a position drawn from ``rng`` and the next
    card from the front of the stock takes its place; a redeal reshuffles the whole pack.
    """
    start = 4 * players
    same = rules.opening_same_face_redeal
    jack_rule = rules.opening_jacks
    replaced = False
    while True:
        table = (1 << order[start] | 1 << order[start + 1] | 1 << order[start + 2]
                 | 1 << order[start + 3])
        if not table & _FACE_MASK:
            return order
        jacks = (table & JACK_MASK).bit_count()
        redeal = ((same and ((table & QUEEN_MASK).bit_count() >= same
                             or (table & KING_MASK).bit_count() >= same))
                  or rules.opening_any_face_redeal
                  or (jacks and jack_rule == "redeal")
                  or (jacks and jack_rule == "replace_one" and (jacks > 1 or replaced)))
        if redeal:
            order = _shuffled(rng)
            replaced = False
            continue
        if not jacks or jack_rule == "stay":
            return order
        slot = next(k for k in range(start, start + 4) if 40 <= order[k] < 44)
        jack = order[slot]
        order[slot] = order.pop(start + 4)
        order.insert(start + 4 + rng.randrange(len(order) - start - 3), jack)
        replaced = True


class Hand:
    """A hand of Pasur in progress: seats, hands, table, stock, captures and surs.

    Sides: with teams of four, side = seat % 2; otherwise side = seat.
    """

    __slots__ = (
        "_cap", "_captured", "_deals", "_deck", "_held", "_history", "_last", "_legal",
        "_looks", "_next", "_reach", "_round", "_rounds", "_side", "_snaps", "_sur_cards",
        "_sur_live", "_surs", "_swept", "_table", "_to_move", "_totals", "dealer", "leader",
        "players", "rules", "sides",
    )

    rules: Rules
    players: int
    sides: int
    leader: int
    dealer: int

    # -- making a hand ------------------------------------------------------------------

    def __init__(self) -> None:
        raise TypeError("start a hand with Hand.new(rules, ...) or Hand.from_position(...)")

    @classmethod
    def _blank(cls, rules: Rules, players: int, leader: int,
               totals: Sequence[int] | None) -> Hand:
        setup = _SETUPS.get(id(rules) << 3 | players)
        if setup is None or setup[0] is not rules:
            if not isinstance(rules, Rules):
                raise TypeError(f"rules must be a pasur Rules, not {rules!r}")
            rules.check_players(players)
            sides = rules.sides(players)
            if rules.opening_any_face_redeal or rules.opening_same_face_redeal:
                opening = _FACE_MASK
            else:
                opening = 0 if rules.opening_jacks == "stay" else JACK_MASK
            setup = (rules, sides, CaptureRules.of(rules),
                     tuple(seat % sides for seat in range(players)),
                     tuple((seat + 1) % players for seat in range(players)),
                     _SUR_CARDS[rules.sur_by], opening,
                     tuple(seat if rules.dealer_leads else (seat - 1) % players
                           for seat in range(players)))
            if len(_SETUPS) > 64:
                _SETUPS.clear()
            _SETUPS[id(rules) << 3 | players] = setup
        _, sides, cap, side, following, sur_cards, _, dealers = setup
        if type(leader) is not int or not 0 <= leader < players:
            raise ValueError(f"leader must be a seat from 0 to {players - 1}, not {leader!r}")
        dealer = dealers[leader]
        if totals is not None:
            totals = tuple(totals)
            if len(totals) != sides or any(type(t) is not int for t in totals):
                raise ValueError(f"totals must be {sides} whole numbers, one per side, "
                                 f"not {totals!r}")
        self = object.__new__(cls)
        self.rules = rules
        self.players = players
        self.sides = sides
        self._totals = totals
        self.leader = leader
        self.dealer = dealer
        self._cap = cap
        self._looks = cap.looks
        self._reach = cap.reach
        self._side = side
        self._next = following
        self._sur_cards = sur_cards
        self._captured = [0] * sides
        self._surs = [0] * sides
        self._last = None
        self._snaps = []
        self._history = ()
        self._legal = None
        self._swept = 0
        self._deck = None
        return self

    @classmethod
    def new(cls, rules: Rules = PRESETS["standard"], *, players: int = 2,
            seed: int | random.Random | None = None, deck: Iterable[Card] | None = None,
            leader: int = 0, totals: Sequence[int] | None = None) -> Hand:
        """Deal a new hand.

        ``deck`` (52 cards) is dealt from the front: the leader's 4 cards, each following
        player's 4 in turn order, the 4 table cards, then 4 to each player per later deal
        round.  The opening-table rule is applied with the generator ``make_rng(seed)``
        (seeded from the deck's text when a deck is given without a seed), so the same
        arguments always deal the same hand.  ``totals`` are the match points per side
        before this hand (for ``sur_cap``).
        """
        self = cls._blank(rules, players, leader, totals)
        if deck is None:
            rng = make_rng(seed)
            order = _shuffled(rng)
        else:
            cards = _cards(deck)
            if any(not isinstance(card, Card) for card in cards):
                raise ValueError("a deck is a list of 52 Cards")
            if len(cards) != 52 or mask_of(cards) != ALL_MASK:
                have = mask_of(cards)
                missing = format_cards(cards_of(ALL_MASK & ~have)) or "none"
                raise ValueError(f"a deck has each of the 52 cards once; this one has "
                                 f"{len(cards)} cards (missing: {missing})")
            rng = make_rng(seed if seed is not None else " ".join(c.text for c in cards))
            order = [card.index for card in cards]
        start = 4 * players
        bits = _BITS
        table = (bits[order[start]] | bits[order[start + 1]] | bits[order[start + 2]]
                 | bits[order[start + 3]])
        if table & _SETUPS[id(rules) << 3 | players][6]:
            # (the opening-table rule may change this deal: a jack, or a face that redeals)
            order = _fix_opening(order, players, rules, rng)
            table = (bits[order[start]] | bits[order[start + 1]] | bits[order[start + 2]]
                     | bits[order[start + 3]])
        self._deck = bytes(order)
        blocks = _sort_blocks(order)
        deals: list[tuple[bytes, ...] | None] = [None]
        for pick in _deal_getters(players, leader):
            deals.append(pick(blocks))
        self._deals = deals
        self._held = list(deals[1])
        self._table = table
        rounds = 48 // (4 * players)
        self._round, self._rounds = 1, rounds
        self._to_move = leader
        self._sur_live = rounds > 1 or rules.sur_in_last_deal
        return self

    @classmethod
    def from_position(cls, rules: Rules = PRESETS["standard"], *,
                      hands: Sequence[str | Iterable[Card]], table: str | Iterable[Card],
                      stock: str | Iterable[Card] = (), to_move: int = 0,
                      captured: Sequence[str | Iterable[Card]] | None = None,
                      surs: Sequence[int] | None = None, last_capturer: int | None = None,
                      deal_round: int | None = None,
                      totals: Sequence[int] | None = None) -> Hand:
        """A hand from an explicit position (tests, puzzles, replays, adapters).

        ``hands`` has one entry per seat (cards, or text such as ``"7♣ K♠"``); the stock
        is dealt 4 to each player per later deal round, in turn order from this round's
        leader.  Hand sizes must fit the turn: from ``to_move`` on, the seats that have not
        yet played this round hold one card more than those that have.  Cards in no place
        are out of play.  ``deal_round`` defaults to the round a full pack would be in.
        """
        players = len(hands)
        if players not in (2, 3, 4):
            raise ValueError(f"a position has 2, 3 or 4 hands, not {players}")
        if type(to_move) is not int or not 0 <= to_move < players:
            raise ValueError(f"to_move must be a seat from 0 to {players - 1}")
        held = [_cards(cards) for cards in hands]
        sizes = [len(cards) for cards in held]
        size = sizes[to_move]
        order = [(to_move + k) % players for k in range(players)]
        waiting = 0
        while waiting < players and sizes[order[waiting]] == size:
            waiting += 1
        if size == 0 or size > 4 or any(sizes[seat] != size - 1 for seat in order[waiting:]):
            raise ValueError(
                f"hand sizes {sizes} do not fit seat {to_move} being to move: from that "
                "seat on, players who have not played this round hold one card more than "
                "those who have, and the player to move holds 1 to 4 cards")
        leader = order[waiting % players]
        self = cls._blank(rules, players, leader, totals)
        stock_cards = _cards(stock)
        if len(stock_cards) % (4 * players):
            raise ValueError(f"the stock is dealt 4 to each of {players} players per round, "
                             f"so it holds a multiple of {4 * players} cards, "
                             f"not {len(stock_cards)}")
        table_cards = _cards(table)
        sides = self.sides
        taken = [_cards(cards) for cards in (captured or [()] * sides)]
        if len(taken) != sides:
            raise ValueError(f"captured needs one entry per side ({sides})")
        everything = [card for place in (*held, table_cards, stock_cards, *taken)
                      for card in place]
        if any(not isinstance(card, Card) for card in everything):
            raise ValueError("positions are made of Cards (or card text)")
        if mask_of(everything).bit_count() != len(everything):
            seen: set[Card] = set()
            twice = sorted({c for c in everything if c in seen or seen.add(c)})
            raise ValueError(f"{format_cards(twice)} appear(s) in two places")
        stock_rounds = len(stock_cards) // (4 * players)
        if deal_round is None:
            deal_round = max(1, 48 // (4 * players) - stock_rounds)
        if type(deal_round) is not int or deal_round < 1:
            raise ValueError(f"deal_round counts from 1, not {deal_round!r}")
        if surs is not None and (len(surs) != sides
                                 or any(type(n) is not int or n < 0 for n in surs)):
            raise ValueError(f"surs needs one count per side ({sides})")
        if last_capturer is not None and last_capturer not in range(players):
            raise ValueError(f"last_capturer is a seat from 0 to {players - 1}, or None")
        deals: list[tuple[bytes, ...] | None] = [None] * (deal_round + 1)
        for number in range(stock_rounds):
            dealt: list[bytes] = [b""] * players
            for k in range(players):
                start = number * 4 * players + 4 * k
                dealt[(leader + k) % players] = _indexes(stock_cards[start:start + 4])
            deals.append(tuple(dealt))
        self._deals = deals
        self._held = [_indexes(cards) for cards in held]
        self._table = mask_of(table_cards)
        self._captured = [mask_of(cards) for cards in taken]
        self._surs = list(surs) if surs is not None else [0] * sides
        self._last = last_capturer
        self._round, self._rounds = deal_round, deal_round + stock_rounds
        self._to_move = to_move
        self._sur_live = self._round < self._rounds or rules.sur_in_last_deal
        return self

    def copy(self) -> Hand:
        """An independent copy (moves and undo history included)."""
        other = object.__new__(Hand)
        for name in Hand.__slots__:
            setattr(other, name, getattr(self, name))
        other._held = self._held[:]
        other._captured = self._captured[:]
        other._surs = self._surs[:]
        other._snaps = self._snaps[:]
        other._legal = None
        return other

    # -- playing ------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat to play now, or ``None`` once the hand is over."""
        return self._to_move

    def is_over(self) -> bool:
        return self._to_move is None

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move (empty once the hand is over)."""
        legal = self._legal
        if legal is None:
            seat = self._to_move
            if seat is None:
                return []
            # CaptureRules.options, inlined for every card in hand: the engine's hot loop
            # (``looks``: how each card's options are found, see ``CaptureRules``).
            table = self._table
            looks = self._looks
            reach = self._reach
            cap = self._cap
            legal = []
            for index in self._held[seat]:
                legal += looks[index](table & reach[index]) or cap.work_out(index, table)
            self._legal = legal
        return legal.copy()

    def push(self, move: Move | str, seat: int | None = None) -> None:
        """Play ``move`` (a Move, or its text) for the seat to move.

        With ``seat``, refuse the move unless it is that seat's turn.  An illegal move
        raises ``IllegalMove`` saying why, and changes nothing.
        """
        legal = self._legal
        if seat is not None or legal is None or move not in legal:
            move = self._vet(move, seat)
        index, taken, bit = move
        mover = self._to_move
        hands = self._held
        held = hands[mover]
        hands[mover] = held.replace(_ONE[index], b"")
        table = self._table
        if taken:
            rest = table ^ taken
            side = self._side[mover]
            captured = self._captured
            before = captured[side]
            captured[side] = before | taken | bit
            if rest or not self._sur_live or not self._sur_cards & bit:
                self._snaps.append((move, mover, held, table, before, self._last))
            else:
                # A sur: the capture cleared the table.
                self._surs[side] += 1
                self._snaps.append((move, mover, held, table, before, self._last, True))
            self._last = mover
            self._table = rest
        else:
            self._snaps.append((move, mover, held, table))
            self._table = table | bit
        self._legal = None
        following = self._next[mover]
        if hands[following]:
            self._to_move = following
        else:
            # The next player has no card left, so nobody has: the deal round is over.
            self._end_round(following)

    def _vet(self, move: Move | str, seat: int | None) -> Move:
        """The move to play, or why it may not be played now (``IllegalMove``)."""
        mover = self._to_move
        if mover is None:
            raise IllegalMove("the hand is over")
        if seat is not None and seat != mover:
            raise IllegalMove(f"it is seat {mover}'s turn")
        if type(move) is not Move:
            if not isinstance(move, str):
                raise IllegalMove(f"{move!r} is not a move: give a Move or its text, "
                                  "e.g. 7♣ x 4♦")
            return self.parse_move(move)
        if move.index not in self._held[mover]:
            raise IllegalMove(f"you do not hold {move.card}")
        options = self._cap.options(move.index, self._table)
        if move not in options:
            raise IllegalMove(self._cap.why_not(move, self._table))
        return options[options.index(move)]

    def _end_round(self, following: int) -> None:
        """Every hand is empty: deal the next round (``following`` leads it again), or end
        the hand."""
        if self._round < self._rounds:
            self._round = number = self._round + 1
            self._held = list(self._deals[number])
            self._sur_live = number < self._rounds or self.rules.sur_in_last_deal
            self._to_move = following
            return
        self._to_move = None
        rest = self._table
        if rest and self._last is not None:
            self._swept = rest
            self._table = 0
            self._captured[self._side[self._last]] |= rest

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._snaps:
            raise IndexError("no move to undo" + (" since this hand was determinized"
                                                  if self._history else ""))
        snap = self._snaps.pop()
        move, mover = snap[0], snap[1]
        if self._to_move is None:
            if self._swept:
                self._captured[self._side[self._last]] ^= self._swept
                self._swept = 0
        elif sum(map(len, self._held)) == 4 * self.players:
            # Every hand is full: the move ended a deal round and the next was dealt.
            self._round -= 1
            self._held = [b""] * self.players
            self._sur_live = self._round < self._rounds or self.rules.sur_in_last_deal
        self._held[mover] = snap[2]
        self._table = snap[3]
        if len(snap) > 4:
            side = self._side[mover]
            self._captured[side] = snap[4]
            self._last = snap[5]
            if len(snap) > 6:
                self._surs[side] -= 1
        self._to_move = mover
        self._legal = None
        return move

    def parse_move(self, text: str) -> Move:
        """Read a move for the seat to move, checking it against the hand.

        A bare card (``"7c"``) is leaving it on the table when that is legal; otherwise it
        is the one capture that card can make (several: the error lists them).
        """
        move = Move.parse(text)
        seat = self._to_move
        if seat is None:
            raise IllegalMove("the hand is over")
        if move.index not in self._held[seat]:
            raise IllegalMove(f"you do not hold {move.card}")
        options = self._cap.options(move.index, self._table)
        if move in options:
            return options[options.index(move)]
        if not move.taken:
            if len(options) == 1:
                return options[0]
            raise IllegalMove(f"{move.card} can capture in {len(options)} ways; say which: "
                              + "; ".join(str(option) for option in options))
        raise IllegalMove(self._cap.why_not(move, self._table))

    # -- what is where ------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat (seat % 2 with teams of four, else the seat)."""
        return self._side[seat]

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards, in card order."""
        return [[CARDS[index] for index in held] for held in self._held]

    @property
    def table(self) -> list[Card]:
        return cards_of(self._table)

    @property
    def captured(self) -> list[list[Card]]:
        """The cards each side has taken so far (the final sweep included once over)."""
        return [cards_of(mask) for mask in self._captured]

    @property
    def surs(self) -> list[int]:
        """Surs made so far per side, before any cancelling."""
        return self._surs[:]

    @property
    def last_capturer(self) -> int | None:
        return self._last

    @property
    def deal_round(self) -> int:
        return self._round

    @property
    def deal_rounds(self) -> int:
        return self._rounds

    def _slot(self, number: int, seat: int) -> int:
        """Where in the deck the 4 cards of deal round ``number`` for ``seat`` begin."""
        players = self.players
        base = 0 if number == 1 else 4 * players + 4 + (number - 2) * 4 * players
        return base + 4 * ((seat - self.leader) % players)

    @property
    def stock(self) -> list[Card]:
        """The cards still to be dealt, in deal order."""
        if self._round >= self._rounds:
            return []
        if self._deck is not None:
            return [CARDS[index] for index in self._deck[self._slot(self._round + 1,
                                                                   self.leader):]]
        order = [(self.leader + k) % self.players for k in range(self.players)]
        return [CARDS[index] for number in range(self._round + 1, self._rounds + 1)
                for seat in order for index in self._deals[number][seat]]

    @property
    def deck(self) -> tuple[Card, ...] | None:
        """The effective deal order (opening-table fixes applied): ``Hand.new(rules,
        players=..., deck=hand.deck, leader=...)`` deals this very hand.  ``None`` for a
        hand built from a position."""
        return None if self._deck is None else tuple(CARDS[index] for index in self._deck)

    @property
    def totals(self) -> tuple[int, ...] | None:
        """The match points per side before this hand, if given."""
        return self._totals

    @property
    def move_stack(self) -> list[Move]:
        """Every move played this hand, in order."""
        return [entry[1] for entry in self._history] + [snap[0] for snap in self._snaps]

    def history(self) -> list[tuple[int, Move, bool]]:
        """(seat, move, whether it was a sur) for every move played this hand."""
        return list(self._history) + [(snap[1], snap[0], len(snap) > 6)
                                      for snap in self._snaps]

    @property
    def swept(self) -> list[Card]:
        """The cards left on the table at the end that went to the last capturer."""
        return cards_of(self._swept)

    # -- scores -------------------------------------------------------------------------

    def score(self) -> list[int]:
        """Points per side for this hand (so far, if it is not over), surs included."""
        return hand_points(self._captured, self._surs, self.rules, self._totals)

    def score_sheet(self) -> list[dict]:
        """Per side: cards, clubs, counting cards, bonus, surs and points (JSON-able)."""
        return score_sheet(self._captured, self._surs, self.rules, self._totals)

    def outcome(self) -> Outcome | None:
        """Points per side; returns per seat are side points minus the mean (sum zero)."""
        if self._to_move is not None:
            return None
        points = self.score()
        mean = sum(points) / len(points)
        returns = tuple(float(points[self._side[seat]] - mean) for seat in range(self.players))
        best = max(points)
        top = [side for side, p in enumerate(points) if p == best]
        if len(top) == len(points):
            winners: tuple[int, ...] = ()
            reason = f"a tie at {best} points each"
        else:
            winners = tuple(seat for seat in range(self.players) if self._side[seat] in top)
            reason = f"{best} points to " + ", ".join(
                str(p) for side, p in enumerate(points) if side not in top)
        return Outcome(returns=returns, winners=winners, reason=reason, points=tuple(points))

    # -- hidden information -------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator), as JSON-able data.

        Its own hand, the table, every capture and move (all played face up), counts of the
        other hands and the stock; never another hand, the stock's order or the seed.
        """
        if seat is not None and seat not in range(self.players):
            raise ValueError(f"seat must be 0 to {self.players - 1}, or None for a spectator")
        over = self._to_move is None
        return {
            "game": "pasur",
            "players": self.players,
            "sides": self.sides,
            "seat": seat,
            "side": None if seat is None else self._side[seat],
            "to_move": self._to_move,
            "leader": self.leader,
            "dealer": self.dealer,
            "deal_round": self._round,
            "deal_rounds": self._rounds,
            "hand": None if seat is None else [CARDS[i].text for i in self._held[seat]],
            "hand_sizes": [len(held) for held in self._held],
            "table": [c.text for c in cards_of(self._table)],
            "stock_size": 4 * self.players * (self._rounds - self._round),
            "captured": [[c.text for c in cards_of(mask)] for mask in self._captured],
            "surs": self._surs[:],
            "last_capturer": self._last,
            "moves": [{"seat": s, "move": m.text, "sur": sur} for s, m, sur in self.history()],
            "swept": [c.text for c in cards_of(self._swept)],
            "legal_moves": ([m.text for m in self.legal_moves()]
                            if seat is not None and seat == self._to_move else []),
            "over": over,
            "points": self.score() if over else None,
        }

    def determinize(self, seat: int, rng: random.Random) -> Hand:
        """A full hand consistent with what ``seat`` has seen: the other hands and the
        stock are dealt afresh from the cards ``seat`` cannot see (sizes kept).

        Moves already played cannot be undone on the result (that would reveal the true
        hands they came from).
        """
        if seat not in range(self.players):
            raise ValueError(f"seat must be 0 to {self.players - 1}")
        other = self.copy()
        other._history = tuple(self.history())
        other._snaps = []
        future = range(self._round + 1, self._rounds + 1)
        hidden = [s for s in range(self.players) if s != seat]
        if self._deck is not None:
            # Keep a full deck: redraw the hidden places of this round and every later one.
            deck = list(self._deck)
            places = [pos for s in hidden
                      for pos in range(self._slot(self._round, s), self._slot(self._round, s) + 4)
                      if deck[pos] in self._held[s]]
            if future:
                places += range(self._slot(future[0], self.leader), 52)
            # Shuffle the unseen cards from card order, not from where they really are,
            # so that the sample depends on nothing the seat has not seen.
            cards = sorted(deck[pos] for pos in places)
            rng.shuffle(cards)
            for pos, card in zip(places, cards, strict=True):
                deck[pos] = card
            other._deck = bytes(deck)
            redrawn = set(places)
            for s in hidden:
                start = self._slot(self._round, s)
                other._held[s] = bytes(sorted(deck[pos] for pos in range(start, start + 4)
                                              if pos in redrawn))
            deals = list(self._deals)
            for number in future:
                deals[number] = tuple(
                    bytes(sorted(deck[self._slot(number, s):self._slot(number, s) + 4]))
                    for s in range(self.players))
            other._deals = deals
            return other
        pool = [CARDS[index] for s in hidden for index in self._held[s]]
        pool += [CARDS[index] for number in future for held in self._deals[number]
                 for index in held]
        pool.sort()
        rng.shuffle(pool)
        cards = iter(pool)
        for s in hidden:
            other._held[s] = _indexes([next(cards) for _ in self._held[s]])
        deals = list(self._deals)
        for number in future:
            deals[number] = tuple(_indexes([next(cards) for _ in range(4)])
                                  for _ in range(self.players))
        other._deals = deals
        return other

    def __repr__(self) -> str:
        state = "over" if self._to_move is None else f"seat {self._to_move} to move"
        return (f"<Hand {self.players} players, deal {self._round}/{self._rounds}, {state}, "
                f"table {format_cards(cards_of(self._table)) or '(empty)'}>")
