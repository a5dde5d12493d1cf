"""One hand of Pasur: a single pass through the pack, scored at its end.

The hand is a mutable board in the style of python-chess: ``push`` plays a move and saves
a small named record (``_snapshots``), ``pop`` restores it.  The table and the captures
are 52-bit masks and each player's hand the bytes of its card indexes; the public
attributes (``hands``, ``table``, ``captured``...) build card lists on demand.

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
from typing import Any

from .._engine import load_core
from ..cards import CARDS, Card, cards_of, format_cards, mask_of, parse_cards
from ..game import AmbiguousMove, IllegalMove, InvalidMove, Outcome, make_rng
from ._options import OptionMemory, Options
from ._setup import SETUPS, Setup, setup_of
from ._snapshots import Capture, Snapshot, Sur, Trail
from .captures import ALL_MASK, why_not
from .deal import check_distinct, deal_getters, fix_opening, shuffled, slot, sort_blocks
from .moves import Move
from .rules import PRESETS, Rules
from .scoring import hand_points, score_sheet

__all__ = ["Hand"]

_CORE = load_core("cardtable.pasur._core")


def _shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: in the compiled core where there is one (the same draws from
    the same generator, so the same order; a generator of another class shuffles itself)."""
    if _CORE is not None and type(rng) is random.Random:
        _CORE.shuffle(rng, items)
    else:
        rng.shuffle(items)


_ONE = tuple(bytes([index]) for index in range(52))
_BITS = tuple(1 << index for index in range(52))


def _cards(value: str | Iterable[Card]) -> list[Card]:
    return parse_cards(value) if isinstance(value, str) else list(value)


def _indexes(cards: Iterable[Card]) -> bytes:
    """A hand as the bytes of its card indexes, in card order (removing one card is then
    a single ``bytes.replace``)."""
    return bytes(sorted(card.index for card in cards))


class Hand:
    """A hand of Pasur in progress: seats, hands, table, stock, captures and surs.

    Sides: with teams of four, side = seat % 2; otherwise side = seat.
    """

    __slots__ = (
        "_captured", "_deals", "_deck", "_held", "_history", "_last", "_legal", "_looks",
        "_memory", "_next", "_reach", "_round", "_rounds", "_side", "_snaps", "_sur_cards",
        "_sur_live", "_surs", "_swept", "_table", "_to_move", "_totals", "dealer", "leader",
        "players", "rules", "sides",
    )

    rules: Rules
    players: int
    sides: int
    leader: int
    dealer: int
    _captured: list[int]          # each side's captured cards, a mask per side
    _deals: list[tuple[bytes, ...] | None]   # per deal round (from 1): each seat's cards
    _deck: bytes | None           # the effective deal order (None: built from a position)
    _held: list[bytes]            # each seat's cards now: the bytes of their indexes, sorted
    _history: tuple[tuple[int, Move, bool], ...]   # (seat, move, sur) that cannot be undone
    _last: int | None
    _legal: list[Move] | None     # the legal moves, until the next push or pop
    _looks: tuple[Callable[[int], Options | None], ...]
    _memory: OptionMemory
    _next: tuple[int, ...]
    _reach: tuple[int, ...]
    _round: int
    _rounds: int
    _side: tuple[int, ...]
    _snaps: list[Snapshot]
    _sur_cards: int
    _sur_live: bool
    _surs: list[int]
    _swept: int
    _table: int
    _to_move: int | None
    _totals: tuple[int, ...] | None

    # -- making a hand ------------------------------------------------------------------

    def __init__(self) -> None:
        raise TypeError("start a hand with Hand.new(rules, ...) or Hand.from_position(...)")

    @classmethod
    def _blank(cls, rules: Rules, players: int, leader: int,
               totals: Sequence[int] | None) -> Hand:
        setup = SETUPS.get(id(rules) << 3 | players)
        if setup is None or setup.rules is not rules:
            setup = setup_of(rules, players)
        sides = setup.sides
        if type(leader) is not int or not 0 <= leader < players:
            raise ValueError(f"leader must be a seat from 0 to {players - 1}, not {leader!r}")
        dealer = setup.dealers[leader]
        if totals is not None:
            totals = tuple(totals)
            if len(totals) != sides or any(type(t) is not int for t in totals):
                raise ValueError(f"totals must be {sides} whole numbers, one per side, "
                                 f"not {totals!r}")
        self = cls._fresh(setup, players)
        self._totals = totals
        self.leader = leader
        self.dealer = dealer
        return self

    @classmethod
    def _fresh(cls, setup: Setup, players: int) -> Hand:
        """A hand under ``setup`` with no card anywhere yet (the compiled hand makes its
        own: ``cardtable/pasur/compiled.py``)."""
        self = object.__new__(cls)
        sides = setup.sides
        self.rules = setup.rules
        self.players = players
        self.sides = sides
        memory = setup.memory
        self._memory = memory
        self._looks = memory.looks
        self._reach = memory.reach
        self._side = setup.side
        self._next = setup.following
        self._sur_cards = setup.sur_cards
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
            order = shuffled(rng)
        else:
            cards = _cards(deck)
            if any(not isinstance(card, Card) for card in cards):
                raise ValueError("a deck is a list of 52 Cards")
            if len(cards) != 52 or mask_of(cards) != ALL_MASK:
                have = mask_of(cards)
                missing = format_cards(cards_of(ALL_MASK & ~have)) or "none"
                raise ValueError(f"a deck has each of the 52 cards once; this one has "
                                 f"{len(cards)} cards (missing: {missing})")
            # (seeded from the deck's text when no seed is given: the same deck deals alike)
            rng = (make_rng(seed) if seed is not None
                   else random.Random(" ".join(c.text for c in cards)))
            order = [card.index for card in cards]
        start = 4 * players
        bits = _BITS
        table = (bits[order[start]] | bits[order[start + 1]] | bits[order[start + 2]]
                 | bits[order[start + 3]])
        if table & SETUPS[id(rules) << 3 | players].opening:
            # (the opening-table rule may change this deal: a jack, or a face that redeals)
            order = fix_opening(order, players, rules, rng)
            table = (bits[order[start]] | bits[order[start + 1]] | bits[order[start + 2]]
                     | bits[order[start + 3]])
        self._deck = bytes(order)
        blocks = sort_blocks(order)
        getters = deal_getters(players, leader)
        first: tuple[bytes, ...] = getters[0](blocks)
        deals: list[tuple[bytes, ...] | None] = [None, first]
        for pick in getters[1:]:
            deals.append(pick(blocks))
        self._deals = deals
        self._held = list(first)
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
        check_distinct([card for place in (*held, table_cards, stock_cards, *taken)
                        for card in place])
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

    @classmethod
    def from_masks(cls, rules: Rules = PRESETS["standard"], *, held: Sequence[int],
                   table: int, stock: int, leader: int, deal_round: int,
                   captured: Sequence[int] | None = None, surs: Sequence[int] | None = None,
                   last_capturer: int | None = None) -> Hand:
        """The hand at the start of a deal round, from masks of ``card.mask`` bits: what
        ``from_position`` makes of the same cards with ``to_move=leader``, the stock dealt
        in card order, without reading cards (the research adapters deal card by card and
        start each round's hand so).  Every seat holds the same 1 to 4 cards' count."""
        players = len(held)
        if players not in (2, 3, 4):
            raise ValueError(f"a position has 2, 3 or 4 hands, not {players}")
        self = cls._blank(rules, players, leader, None)
        places = [*held, table, stock, *(captured or ())]
        everything = 0
        for mask in places:
            if type(mask) is not int or mask < 0 or mask & ~ALL_MASK or mask & everything:
                raise ValueError("the places are masks of 52-card bits, no card in two")
            everything |= mask
        size = held[leader].bit_count()
        per_round = 4 * players
        if not 1 <= size <= 4 or any(mask.bit_count() != size for mask in held) \
                or stock.bit_count() % per_round:
            raise ValueError(f"every seat holds the same 1 to 4 cards, and the stock a "
                             f"multiple of {per_round}")
        if type(deal_round) is not int or deal_round < 1:
            raise ValueError(f"deal_round counts from 1, not {deal_round!r}")
        sides = self.sides
        if (captured is not None and len(captured) != sides) or (surs is not None and (
                len(surs) != sides or any(type(n) is not int or n < 0 for n in surs))):
            raise ValueError(f"captured and surs need one entry per side ({sides})")
        if last_capturer is not None and last_capturer not in range(players):
            raise ValueError(f"last_capturer is a seat from 0 to {players - 1}, or None")
        self._place(held, table, stock, deal_round, captured, surs, last_capturer)
        return self

    def _place(self, held: Sequence[int], table: int, stock: int, deal_round: int,
               captured: Sequence[int] | None, surs: Sequence[int] | None,
               last_capturer: int | None) -> None:
        """``from_masks``'s checked position put in place (the compiled hand does it in
        C)."""
        players, leader, per_round = self.players, self.leader, 4 * self.players
        cards = bytes(card.index for card in cards_of(stock))
        deals: list[tuple[bytes, ...] | None] = [None] * (deal_round + 1)
        order = [(leader + k) % players for k in range(players)]
        for start in range(0, len(cards), per_round):
            dealt = [b""] * players
            for k, seat in enumerate(order):
                dealt[seat] = cards[start + 4 * k:start + 4 * k + 4]
            deals.append(tuple(dealt))
        self._deals = deals
        self._held = [bytes(card.index for card in cards_of(mask)) for mask in held]
        self._table = table
        if captured is not None:
            self._captured = list(captured)
        if surs is not None:
            self._surs = list(surs)
        self._last = last_capturer
        self._round, self._rounds = deal_round, deal_round + len(cards) // per_round
        self._to_move = leader
        self._sur_live = self._round < self._rounds or self.rules.sur_in_last_deal

    def copy(self, *, stack: bool = True) -> Hand:
        """An independent copy.  With ``stack`` its moves can be undone as here; without,
        the moves made so far stay in its history but cannot be undone (``pop``)."""
        other = object.__new__(Hand)
        for name in Hand.__slots__:
            setattr(other, name, getattr(self, name))
        other._held = self._held[:]
        other._captured = self._captured[:]
        other._surs = self._surs[:]
        if stack:
            other._snaps = self._snaps[:]
        else:
            other._history = tuple(self.history())
            other._snaps = []
        other._legal = None
        return other

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the option memory's tables, found again from ``_memory``."""
        return {n: getattr(self, n) for n in Hand.__slots__ if n not in ("_looks", "_reach")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._looks, self._reach = self._memory.looks, self._memory.reach

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
            # OptionMemory.options, inlined for every card in hand: the engine's hot loop
            # (``looks``: how each card's options are found, see ``OptionMemory``).
            table = self._table
            looks = self._looks
            reach = self._reach
            legal = []
            for index in self._held[seat]:
                legal += looks[index](table & reach[index]) or self._memory.work_out(index,
                                                                                    table)
            self._legal = legal
        return legal.copy()

    def push(self, move: Move | str, *, seat: int | None = None) -> None:
        """Play ``move`` (one of the legal moves, or its text) for the seat to move.

        With ``seat``, refuse the move unless it is that seat's turn.  A move that cannot
        be played now raises ``InvalidMove`` (not a move at all), ``IllegalMove`` (not
        legal now, saying why) or ``AmbiguousMove`` (text naming several legal moves), and
        changes nothing.
        """
        legal = self._legal
        if seat is None and legal is not None:
            # One of the legal moves just listed?  (By identity: moves are interned, and
            # a loop of ``is`` costs less than the comparisons ``in`` would make.)
            for known in legal:
                if known is move:
                    move = known
                    break
            else:
                move = self._vet(move, seat)
        else:
            move = self._vet(move, seat)
        taken = move.taken
        mover = self._to_move
        assert mover is not None   # (the move is legal, so somebody is to move)
        hands = self._held
        held = hands[mover]
        hands[mover] = held.replace(_ONE[move.index], b"")
        table = self._table
        if taken:
            rest = table ^ taken
            side = self._side[mover]
            captured = self._captured
            before = captured[side]
            bit = move.bit
            captured[side] = before | taken | bit
            if rest or not self._sur_live or not self._sur_cards & bit:
                capture = Capture()
            else:
                # A sur: the capture cleared the table.
                self._surs[side] += 1
                capture = Sur()
            # (each field set where one kind of record is made: Python specializes each
            # store to one class)
            capture.move = move
            capture.seat = mover
            capture.held = held
            capture.table = table
            capture.captured = before
            capture.last = self._last
            self._snaps.append(capture)
            self._last = mover
            self._table = rest
        else:
            trail = Trail()
            trail.move = move
            trail.seat = mover
            trail.held = held
            trail.table = table
            self._snaps.append(trail)
            self._table = table | move.bit
        self._legal = None
        following = self._next[mover]
        if hands[following]:
            self._to_move = following
        else:
            # The next player has no card left, so nobody has: the deal round is over.
            self._end_round(following)

    def _vet(self, move: object, seat: int | None) -> Move:
        """The move to play, or why it may not be played now."""
        mover = self._to_move
        if mover is None:
            raise IllegalMove("the hand is over")
        if seat is not None and seat != mover:
            raise IllegalMove(f"it is seat {mover}'s turn")
        if type(move) is not Move:
            if not isinstance(move, str):
                # (a tuple of a move's numbers is not a move either)
                raise InvalidMove(f"{move!r} is not a move: give a Move or its text, "
                                  "e.g. 7♣ x 4♦")
            return self.parse_move(move)
        if move.index not in self._held[mover]:
            raise IllegalMove(f"you do not hold {move.card}")
        options = self._memory.options(move.index, self._table)
        if move not in options:
            raise IllegalMove(why_not(move, cards_of(self._table), self.rules))
        return options[options.index(move)]

    def _end_round(self, following: int) -> None:
        """Every hand is empty: deal the next round (``following`` leads it again), or end
        the hand."""
        if self._round < self._rounds:
            self._round = number = self._round + 1
            dealt = self._deals[number]
            assert dealt is not None
            self._held = list(dealt)
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
            raise IndexError("no move to undo" + (
                ": the moves before were made before this hand was determinized or copied "
                "without its stack" if self._history else ""))
        snap = self._snaps.pop()
        if self._to_move is None:
            if self._swept:
                assert self._last is not None
                self._captured[self._side[self._last]] ^= self._swept
                self._swept = 0
        elif sum(map(len, self._held)) == 4 * self.players:
            # Every hand is full: the move ended a deal round and the next was dealt.
            self._round -= 1
            self._held = [b""] * self.players
            self._sur_live = self._round < self._rounds or self.rules.sur_in_last_deal
        snap.restore(self)
        self._to_move = snap.seat
        self._legal = None
        return snap.move

    def parse_move(self, text: str) -> Move:
        """Read a move for the seat to move, checking it against the hand.

        A bare card (``"7c"``) is leaving it on the table when that is legal; otherwise it
        is the one capture that card can make (several: ``AmbiguousMove`` lists them).
        Text that is no move raises ``InvalidMove``, a move not legal now ``IllegalMove``.
        """
        move = Move.parse(text)
        seat = self._to_move
        if seat is None:
            raise IllegalMove("the hand is over")
        if move.index not in self._held[seat]:
            raise IllegalMove(f"you do not hold {move.card}")
        options = self._memory.options(move.index, self._table)
        if move in options:
            return options[options.index(move)]
        if not move.taken:
            if len(options) == 1:
                return options[0]
            raise AmbiguousMove(f"{move.card} can capture in {len(options)} ways; say "
                                "which: " + "; ".join(str(option) for option in options))
        raise IllegalMove(why_not(move, cards_of(self._table), self.rules))

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
    def hand_masks(self) -> list[int]:
        """Each seat's cards as a mask of ``card.mask`` bits (for code that works on masks,
        such as the research adapters and the bots)."""
        return [sum(_BITS[index] for index in held) for held in self._held]

    @property
    def table_mask(self) -> int:
        """The table as a mask of ``card.mask`` bits."""
        return self._table

    @property
    def captured_masks(self) -> list[int]:
        """The cards each side has taken so far, as masks of ``card.mask`` bits."""
        return self._captured[:]

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
        return slot(self.players, self.leader, number, seat)

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
                for seat in order for index in self._dealt(number)[seat]]

    def _dealt(self, number: int) -> tuple[bytes, ...]:
        """Each seat's cards of deal round ``number`` (this one or a later one)."""
        dealt = self._deals[number]
        assert dealt is not None
        return dealt

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
        return [entry[1] for entry in self._history] + [snap.move for snap in self._snaps]

    def history(self) -> list[tuple[int, Move, bool]]:
        """(seat, move, whether it was a sur) for every move played this hand."""
        return list(self._history) + [(snap.seat, snap.move, snap.sur)
                                      for snap in self._snaps]

    @property
    def swept(self) -> list[Card]:
        """The cards left on the table at the end that went to the last capturer."""
        return cards_of(self._swept)

    # -- scores -------------------------------------------------------------------------

    def score(self) -> list[int]:
        """Points per side for this hand (so far, if it is not over), surs included."""
        return hand_points(self._captured, self._surs, self.rules, self._totals)

    def score_sheet(self) -> list[dict[str, Any]]:
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

    def view(self, seat: int | None) -> dict[str, Any]:
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
        other = self.copy(stack=False)
        future = range(self._round + 1, self._rounds + 1)
        hidden = [s for s in range(self.players) if s != seat]
        # (the seats' cards written back whole: the compiled hand's _held is a copy)
        held = other._held
        if self._deck is not None:
            # Keep a full deck: redraw the hidden places of this round and every later one.
            deck = list(self._deck)
            places = [pos for s in hidden
                      for pos in range(self._slot(self._round, s), self._slot(self._round, s) + 4)
                      if deck[pos] in held[s]]
            if future:
                places += range(self._slot(future[0], self.leader), 52)
            # Shuffle the unseen cards from card order, not from where they really are,
            # so that the sample depends on nothing the seat has not seen.
            cards = sorted(deck[pos] for pos in places)
            _shuffle(rng, cards)
            for pos, card in zip(places, cards, strict=True):
                deck[pos] = card
            other._deck = bytes(deck)
            redrawn = set(places)
            for s in hidden:
                start = self._slot(self._round, s)
                held[s] = bytes(sorted(deck[pos] for pos in range(start, start + 4)
                                       if pos in redrawn))
            other._held = held
            deals = list(self._deals)
            for number in future:
                deals[number] = tuple(
                    bytes(sorted(deck[self._slot(number, s):self._slot(number, s) + 4]))
                    for s in range(self.players))
            other._deals = deals
            return other
        pool = [CARDS[index] for s in hidden for index in held[s]]
        pool += [CARDS[index] for number in future for dealt in self._dealt(number)
                 for index in dealt]
        pool.sort()
        _shuffle(rng, pool)
        unseen = iter(pool)
        for s in hidden:
            held[s] = _indexes([next(unseen) for _ in held[s]])
        other._held = held
        deals = list(self._deals)
        for number in future:
            deals[number] = tuple(_indexes([next(unseen) for _ in range(4)])
                                  for _ in range(self.players))
        other._deals = deals
        return other

    def __repr__(self) -> str:
        state = "over" if self._to_move is None else f"seat {self._to_move} to move"
        return (f"<Hand {self.players} players, deal {self._round}/{self._rounds}, {state}, "
                f"table {format_cards(cards_of(self._table)) or '(empty)'}>")
