"""What a played card can take: moves, and every legal capture for a card and a table.

Sets of cards are 52-bit masks (``card.mask``): a rank's four cards are four adjacent
bits, so "the cards of ranks up to 6" is one mask and a table can be narrowed to the cards
a given play could ever take with one ``&``.  The options of a card are worked out once per
(card, narrowed table) and remembered, which makes listing legal moves a few dictionary
look-ups.

>>> from cardtable.cards import parse_cards
>>> table = parse_cards("A♠ 2♣ 2♥ 4♦ 10♣")
>>> [format_cards(sorted(c)) for c in capture_options(Card.parse("9♦"), table)]
['2♣', '2♥']
>>> capture_options(Card.parse("K♠"), table)
[]
>>> Move.parse("7c x 4d 2s")
Move.parse('7♣ x 2♠ 4♦')
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable
from typing import ClassVar

from ..cards import CARDS, Card, CardError, cards_of, format_cards, mask_of
from ..game import IllegalMove
from .rules import PRESETS, Rules

__all__ = [
    "ALL_MASK",
    "JACK_MASK",
    "KING_MASK",
    "NUMBER_MASK",
    "QUEEN_MASK",
    "RANK_MASKS",
    "Move",
    "capture_options",
]

RANK_MASKS: tuple[int, ...] = (0, *(0xF << 4 * (rank - 1) for rank in range(1, 14)))
"""The four cards of each rank, indexed by rank (1..13)."""
NUMBER_MASK = (1 << 40) - 1
"""A to 10: the cards that count in sums."""
JACK_MASK, QUEEN_MASK, KING_MASK = RANK_MASKS[11], RANK_MASKS[12], RANK_MASKS[13]
ALL_MASK = (1 << 52) - 1
_UP_TO_RANK = tuple((1 << 4 * rank) - 1 for rank in range(14))
"""Cards of rank 1..n, indexed by n."""


class Move(namedtuple("_MoveKey", "index taken bit")):
    """One play: a card from the hand, and the table cards it takes (none: it stays).

    A move is a small immutable value (a named tuple of the card's index, the mask of
    the cards taken and the card's bit), so it compares, hashes and sorts by value; the
    engine interns them, so a hand hands out one object per (card, captured) pair.
    ``str(move)`` is ``7♣`` for a card left on the table and ``7♣ x 2♠ 4♦`` for a capture
    (taken cards in card order); ``Move.parse`` reads both, in ASCII too.
    """

    __slots__ = ()

    index: int
    taken: int
    bit: int

    def __new__(cls, card: Card, captured: Iterable[Card] = ()) -> Move:
        if not isinstance(card, Card):
            raise TypeError(f"a move plays a Card, not {card!r}")
        taken = mask_of(captured)
        if taken & card.mask:
            raise ValueError(f"{card} cannot take itself")
        return _move(card.index, taken)

    def __reduce__(self) -> tuple:
        return (_move, (self.index, self.taken))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict) -> Move:
        return self

    @property
    def card(self) -> Card:
        """The card played."""
        return CARDS[self.index]

    @property
    def captured(self) -> frozenset[Card]:
        """The table cards taken (empty: the card stays on the table)."""
        return frozenset(cards_of(self.taken))

    @property
    def text(self) -> str:
        card = CARDS[self.index].text
        return card + " x " + format_cards(cards_of(self.taken)) if self.taken else card

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"

    @property
    def is_capture(self) -> bool:
        return self.taken != 0

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``7♣``, ``7♣ x 4♦ 2♠``, ``7c x 4d 2s``, ``TD x AS`` or ``jh``.

        This reads the text alone; ``Hand.parse_move`` also checks it against the hand
        and turns a bare card into the capture it must make.
        """
        if not isinstance(text, str):
            raise IllegalMove(f"{text!r} is not a move: write a card, or a card, 'x' and "
                              "the cards it takes, e.g. 7♣ x 4♦")
        head, sep, tail = text.strip().replace("×", "x").replace("X", "x").partition("x")
        try:
            card = Card.parse(head.strip())
            taken = [Card.parse(word) for word in tail.replace(",", " ").split()]
        except CardError as error:
            raise IllegalMove(f"{text!r} is not a move: {error}") from None
        if sep and not taken:
            raise IllegalMove(f"{text!r} is not a move: name the cards after 'x', "
                              f"or write just {card} to leave it on the table")
        taken_mask = mask_of(taken)
        if len(taken) != taken_mask.bit_count():
            raise IllegalMove(f"{text!r} is not a move: a card is named twice")
        if taken_mask & card.mask:
            raise IllegalMove(f"{text!r} is not a move: {card} cannot take itself")
        return _move(card.index, taken_mask)


_MOVES: dict[int, Move] = {}
"""The interned moves of every card but the jacks, by ``taken << 6 | index``."""
_JACK_MOVES: tuple[dict[int, Move], ...] = ({}, {}, {}, {})
"""The interned moves of each jack, by the mask taken (a sweeping jack makes many)."""
_new_key = tuple.__new__


def _move(index: int, taken: int) -> Move:
    """The interned Move for a card index and a taken mask."""
    if 40 <= index < 44:
        moves = _JACK_MOVES[index - 40]
        return moves.get(taken) or _intern(moves, taken, 50_000, index, taken)
    key = taken << 6 | index
    return _MOVES.get(key) or _intern(_MOVES, key, 100_000, index, taken)


def _intern(memory: dict[int, Move], key: int, limit: int, index: int, taken: int) -> Move:
    """Make a Move and keep it under ``key``, forgetting them all once ``limit`` are kept."""
    if len(memory) >= limit:
        memory.clear()
    move = memory[key] = _new_key(Move, (index, taken, 1 << index))
    return move


_LOW = _UP_TO_RANK[5]
"""A to 5.  A set of number cards summing to 11 or less holds at most one card above 5, so
every such set is one card above 5 (or none) plus a set of these low cards."""
_HIGH = NUMBER_MASK & ~_LOW
_LOW_SUMS: dict[int, tuple] = {}
_CROWD = 3
"""The most table cards near that a card's options are kept by (``CaptureRules.known``):
tables with more seldom come back (in random play, 4 cards near are found kept about
one time in two, 5 cards one time in six, against all but always for 3 or fewer), and
keeping them costs memory and pushes out those that do.  Their options are still kept
by plain table."""
_KEEP = 200_000
"""How many options the memories of all cards may keep together; past it, the card that
keeps the most forgets its own."""


def _low_sums(low: int) -> tuple:
    """For a mask of low cards, the subsets (masks) summing to each total 0..11, then for
    each total 0..11 the mask of the low cards (A to 5) and the high cards (6 to 10) that
    make that total alone or with some of these low cards (remembered).

    Each list comes out in mask order: a subset is added when its highest card is.
    """
    found = _LOW_SUMS.get(low)
    if found is None:
        sums: list[list[int]] = [[0]] + [[] for _ in range(11)]
        rest = low
        while rest:
            bit = rest & -rest
            value = (bit.bit_length() + 3) // 4
            for total in range(11, value - 1, -1):
                below = sums[total - value]
                if below:
                    sums[total] += [subset | bit for subset in below]
            rest ^= bit
        useful = [_LOW] * 12
        for total in range(6, 12):
            for value in range(6, min(total, 10) + 1):
                if value == total or sums[total - value]:
                    useful[total] |= RANK_MASKS[value]
        if len(_LOW_SUMS) >= 20_000:
            _LOW_SUMS.clear()
        found = _LOW_SUMS[low] = (*(tuple(subsets) for subsets in sums), *useful)
    return found


def _sum_sets(table: int, total: int) -> list[int]:
    """Every set of number cards on ``table`` whose values add up to ``total`` (1..11)."""
    sums = _low_sums(table & _LOW)
    out = list(sums[total])
    high = table & _HIGH & _UP_TO_RANK[min(total, 10)]
    while high:
        bit = high & -high
        value = (bit.bit_length() + 3) // 4
        if value == total:
            out.append(bit)
        else:
            out += [subset | bit for subset in sums[total - value]]
        high ^= bit
    return out


def _disjoint_unions(sets: list[int]) -> list[int]:
    """Every union of one or more pairwise disjoint sets among ``sets`` (in no order).

    Taken one set at a time: the unions reachable with the sets so far, each kept once
    however many ways it splits into sets (counting the ways instead would blow up on a
    table of many small cards).
    """
    unions = {0}
    add = unions.add
    for part in sets:
        for union in tuple(unions):
            if not union & part:
                add(union | part)
    unions.discard(0)
    return list(unions)


def _singles(mask: int) -> list[int]:
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit)
        mask ^= bit
    return out


def _sweeper(index: int, forced: bool,
             trail: tuple[Move]) -> Callable[[int], tuple[Move, ...]]:
    """The options of a sweeping jack (card ``index``) from ``near``: one move taking all
    it reaches (interned), in a new tuple."""
    moves = _JACK_MOVES[index - 40]

    def sweep(near: int) -> tuple[Move, ...]:
        if not near:
            return trail
        move = moves.get(near) or _move(index, near)
        return (move,) if forced else (trail[0], move)
    return sweep


class CaptureRules:
    """The capture part of a rule set, with its tables and a memory of worked options.

    ``reach[i]`` is every table card that card ``i`` could ever take, so its options
    depend only on ``near = table & reach[i]``: ``known[i]`` maps that to the options
    (when at most ``_CROWD`` cards are near), which makes listing a hand's moves one
    dictionary look-up per card.  A sweeping jack's options are not kept: it takes all
    it reaches, and its tables vary too much for a memory to pay.

    Tables far outnumber the lists of options they give, so a list is made once and
    shared by every table that gives it: a new table seldom adds an object.  The cards A
    to 5 reach up to 10, but a set making 11 with them holds at most one card above 5,
    and a high card (6 to 10) that makes no set with the low cards (A to 5) near changes
    nothing: so their options are also kept by their plain table, the cards they reach
    less those high cards (``plains[i]``), and by the cards found in some set
    (``by_union[i]``), which both recur far more often (see ``plain_options``).  Other
    cards' lists are shared through ``lists``.  When more than ``_KEEP`` options are kept
    by table (or half as many by plain table or union), the card that keeps the most
    forgets them, to keep the memory bounded.
    """

    __slots__ = ("by_union", "forced", "jack", "kept", "kids", "known", "lists", "looks", "multi",
                 "plain_kept", "plains", "reach", "sweeps", "take_all", "trails", "ways")

    _shared: ClassVar[dict[tuple, CaptureRules]] = {}

    def __init__(self, forced: bool, multi: bool, take_all: bool, jack: str,
                 kids: bool) -> None:
        self.forced, self.multi, self.take_all, self.jack, self.kids = (
            forced, multi, take_all, jack, kids)
        reach = []
        for card in CARDS:
            rank = card.rank
            if rank <= 10:
                reach.append(RANK_MASKS[rank] if kids else _UP_TO_RANK[11 - rank])
            elif rank == 11:
                reach.append({"sweep": NUMBER_MASK | JACK_MASK, "sweep_all": ALL_MASK,
                              "eleven": JACK_MASK if kids else NUMBER_MASK | JACK_MASK}[jack])
            else:
                reach.append(RANK_MASKS[rank])
        self.reach: tuple[int, ...] = tuple(reach)
        self.trails: tuple[tuple[Move, ...], ...] = tuple((_move(i, 0),) for i in range(52))
        self.plains: tuple[dict[int, tuple[Move, ...]], ...] = tuple({} for _ in range(20))
        self.by_union: tuple[dict[int, tuple[Move, ...]], ...] = tuple({} for _ in range(20))
        self.lists: dict[tuple[Move, ...], tuple[Move, ...]] = {}
        self.kept = self.plain_kept = 0
        # How each card's options are worked out when not known: 0 from scratch, 1 by
        # plain tables (A to 5 with sums to 11, one set at a time), 2 by plain tables with
        # several sets at once.
        self.ways: tuple[int, ...] = tuple(
            (2 if multi else 1) if index < 20 and not kids else 0 for index in range(52))
        self.sweeps: tuple[bool, ...] = tuple(40 <= index < 44 and jack != "eleven"
                                              for index in range(52))
        self.known: tuple[dict[int, tuple[Move, ...]], ...] = tuple({} for _ in range(52))
        # How ``Hand.legal_moves`` finds each card's options from ``near``: its memory's
        # ``get`` (the memories are only ever cleared, never replaced), or for a sweeping
        # jack, a function that makes them at once (``None``: work them out).
        self.looks: tuple[Callable[[int], tuple[Move, ...] | None], ...] = tuple(
            _sweeper(index, forced, self.trails[index]) if self.sweeps[index]
            else self.known[index].get for index in range(52))

    @classmethod
    def of(cls, rules: Rules) -> CaptureRules:
        """The shared capture rules of a rule set (one per distinct capture setting)."""
        key = (rules.forced_capture, rules.multi_sets, rules.king_queen_take_all,
               rules.jack, rules.kids)
        found = cls._shared.get(key)
        if found is None:
            found = cls._shared[key] = cls(*key)
        return found

    def captures(self, index: int, table: int) -> list[int]:
        """Every mask of table cards card ``index`` can take (in mask order)."""
        rank = index // 4 + 1
        near = table & self.reach[index]
        if not near:
            return []
        if rank == 11 and self.jack != "eleven":
            return [near]
        if rank > 11:
            return [near] if self.take_all else _singles(near)
        if self.kids:
            sets = _singles(near)
        elif rank == 11:
            sets = _singles(near & JACK_MASK) + _sum_sets(near, 11)
        else:
            sets = _sum_sets(near, 11 - rank)
        if self.multi and len(sets) > 1:
            sets = _disjoint_unions(sets)
        sets.sort()
        return sets

    def options(self, index: int, table: int) -> tuple[Move, ...]:
        """The legal moves with card ``index`` on ``table``.

        ``Hand.legal_moves`` inlines this for speed: keep the two in step.
        """
        return self.known[index].get(table & self.reach[index]) or self.work_out(index, table)

    def work_out(self, index: int, table: int) -> tuple[Move, ...]:
        """Work out card ``index``'s options on ``table``, and keep them (a sweeping
        jack's are not kept)."""
        near = table & self.reach[index]
        way = self.ways[index]
        if way:
            # A to 5: only the high cards near that make a set with some low cards near
            # count (``plain``).
            low = near & _LOW
            sums = _LOW_SUMS.get(low) or _low_sums(low)
            plain = near & sums[22 - (index >> 2)]
            plains = self.plains[index]
            found = plains.get(plain)
            if found is None:
                found = plains[plain] = self.plain_options(index, plain, sums)
                self.plain_kept += 1
                if self.plain_kept > _KEEP // 2:
                    most = max(self.plains + self.by_union, key=len)
                    self.plain_kept -= len(most)
                    most.clear()
        elif near and self.sweeps[index]:
            return self.looks[index](near)
        else:
            found = self.worked(index, near)
            found = self.lists.get(found) or self.keep(found)
        if near.bit_count() <= _CROWD:
            self.known[index][near] = found
            self.kept += 1
            if self.kept > _KEEP:
                self.forget()
        return found

    def keep(self, options: tuple[Move, ...]) -> tuple[Move, ...]:
        """Keep a new list of options, to be shared by every table that gives it."""
        lists = self.lists
        if len(lists) >= _KEEP // 2:
            lists.clear()
        lists[options] = options
        return options

    def forget(self) -> None:
        """Forget the options of the card that keeps the most (the memory's bound)."""
        most = max(self.known, key=len)
        self.kept -= len(most)
        most.clear()

    def plain_options(self, index: int, plain: int, sums: tuple) -> tuple[Move, ...]:
        """The options of card ``index`` (A to 5) on its plain table ``plain``, whose low
        cards have the sums ``sums`` (``_low_sums``): its sets among the low cards, then
        for each high card near (in card order) the sets it makes with them; with several
        sets at once (multi_sets), every union of disjoint sets.

        They depend only on the cards found in some set, so they are kept by those too
        (``by_union``): a table seen before with other cards that make no set costs only
        the sets.  (Loops, not comprehensions: each of those makes a function.)
        """
        total = 10 - (index >> 2)
        sets = list(sums[total])
        high = plain >> 20
        while high:
            bit = high & -high
            card = bit << 20
            value = (bit.bit_length() + 23) >> 2
            if value == total:
                sets.append(card)
            else:
                for subset in sums[total - value]:
                    sets.append(subset | card)
            high ^= bit
        if not sets:
            return self.trails[index]
        union = 0
        for mask in sets:
            union |= mask
        by_union = self.by_union[index]
        found = by_union.get(union)
        if found is None:
            if self.multi and len(sets) > 1:
                sets = _disjoint_unions(sets)
                sets.sort()
            get = _MOVES.get
            moves = []
            for mask in sets:
                moves.append(get(mask << 6 | index) or _move(index, mask))
            found = by_union[union] = (
                tuple(moves) if self.forced else (self.trails[index][0], *moves))
            self.plain_kept += 1
        return found

    def worked(self, index: int, near: int) -> tuple[Move, ...]:
        """The options of a card from the table cards it reaches, from scratch."""
        if not near:
            return self.trails[index]
        if ((index >= 44 and (self.take_all or not near & (near - 1)))
                or (40 <= index < 44 and self.jack != "eleven")):
            # A sweeping jack, or a king or queen taking all (or the only one) of its rank.
            # (A jack that counts eleven takes one jack or a sum, like the number cards.)
            move = _move(index, near)
            return (move,) if self.forced else (self.trails[index][0], move)
        return self._moves(index, self.captures(index, near))

    def _moves(self, index: int, captures: list[int]) -> tuple[Move, ...]:
        """Options from capture masks: see ``_options``."""
        get = _MOVES.get
        return self._options(index, [get(mask << 6 | index) or _move(index, mask)
                                     for mask in captures])

    def _options(self, index: int, captures: list[Move] | tuple[Move, ...]) -> tuple[Move, ...]:
        """Options from captures: the trail when there is none, or when capturing is not
        forced."""
        if not captures:
            return self.trails[index]
        if self.forced:
            return tuple(captures)
        return (self.trails[index][0], *captures)

    def why_not(self, move: Move, table: int) -> str:
        """Why ``move`` (with a card the player holds) is not legal on ``table``."""
        card = move.card
        taken = self.captures(move.index, table)
        if not move.taken:
            first = cards_of(taken[0])
            return (f"{card} can take {format_cards(first)} from the table: a card that "
                    "can capture must capture")
        missing = move.taken & ~table
        if missing:
            return (f"{format_cards(cards_of(missing))} "
                    f"{'is' if missing.bit_count() == 1 else 'are'} not on the table")
        options = ", ".join(str(_move(move.index, m)) for m in taken)
        can = f" ({card} can: {options})" if taken else f" ({card} can take nothing here)"
        rank = card.rank
        if rank == 11 and self.jack != "eleven":
            what = ("every card" if self.jack == "sweep_all" else "every number card and jack")
            return f"a jack takes {what} on the table at once{can}"
        if rank > 11:
            name = "king" if rank == 13 else "queen"
            if move.taken & ~RANK_MASKS[rank]:
                return f"a {name} takes only a {name}{can}"
            return (f"a {name} takes every {name} on the table at once{can}"
                    if self.take_all else f"a {name} takes one {name} at a time{can}")
        if self.kids:
            return f"in kids' pasur a card takes a card of its own rank{can}"
        picked = cards_of(move.taken)
        faces = [c for c in picked if c.rank > 10 and not (rank == 11 and c.rank == 11)]
        if faces:
            return f"{format_cards(faces)} cannot be taken by a sum to 11{can}"
        own = rank if rank <= 10 else 0
        total = own + sum(c.rank for c in picked)
        if total != 11:
            sums = " + ".join(str(v) for v in ([own] if own else [])
                              + [c.rank for c in picked])
            return f"{sums} = {total}, not 11{can}"
        return f"each set taken must make 11 with {card}; take one set at a time{can}"


def capture_options(card: Card, table: Iterable[Card],
                    rules: Rules = PRESETS["standard"]) -> list[frozenset[Card]]:
    """Every legal capture for playing ``card`` onto ``table``, as the table cards taken.

    An empty list means the card can only stay on the table.
    """
    table_mask = mask_of(table)
    if table_mask & card.mask:
        raise ValueError(f"{card} cannot be both played and on the table")
    return [frozenset(cards_of(m)) for m in CaptureRules.of(rules).captures(card.index,
                                                                           table_mask)]
