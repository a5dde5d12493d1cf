"""The engine's memory of each card's options: the fast path behind ``Hand.legal_moves``.

The rule is ``captures.capture_options`` (plain code); this module gives the same
captures, in the same order, from 52-bit masks, and remembers the moves they make per
(card, the table cards it could reach), which makes listing legal moves a few dictionary
look-ups.  ``tests/pasur/test_pasur_memory.py`` checks it against the plain rule.

Outside the engine, use ``move_options(rules)`` (exported by ``cardtable.pasur``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..cards import CARDS
from .captures import ALL_MASK, JACK_MASK, NUMBER_MASK, RANK_MASKS
from .moves import _JACK_MOVES, _MOVES, Move, move_of
from .rules import Rules

__all__ = ["OptionMemory", "move_options"]

_UP_TO_RANK = tuple((1 << 4 * rank) - 1 for rank in range(14))
"""Cards of rank 1..n, indexed by n."""
_LOW = _UP_TO_RANK[5]
"""A to 5.  A set of number cards summing to 11 or less holds at most one card above 5, so
every such set is one card above 5 (or none) plus a set of these low cards."""
_HIGH = NUMBER_MASK & ~_LOW
_CROWD = 3
"""The most table cards near that a card's options are kept by (``OptionMemory.known``):
tables with more seldom come back (in random play, 4 cards near are found kept about
one time in two, 5 cards one time in six, against all but always for 3 or fewer), and
keeping them costs memory and pushes out those that do.  Their options are still kept
by plain table."""
_KEEP = 200_000
"""How many options the memories of all cards may keep together; past it, the card that
keeps the most forgets its own."""

Options = tuple[Move, ...]
"""A card's legal moves on a table: the card left there first when it may stay, then each
capture in mask order."""


LowSums = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]
"""What a set of low cards (A to 5) can make, as ``(subsets, useful)``: by total 0..11,
every subset (a mask) of these low cards that sums to it; and by total, the low cards and
the high cards (6 to 10) that make the total alone or with some of these low cards.
(Always unpacked by name where it is used.)"""

_LOW_SUMS: dict[int, LowSums] = {}


def move_options(rules: Rules) -> Callable[[int, int], Options]:
    """The engine's fast ``options(card_index, table_mask)`` for ``rules``: the legal moves
    of one card played on a table given as a mask of ``card.mask`` bits, exactly as
    ``Hand.legal_moves`` lists them for that card (it remembers what it works out).

    >>> from cardtable.cards import Card, mask_of, parse_cards
    >>> from cardtable.pasur import PRESETS
    >>> options = move_options(PRESETS["standard"])
    >>> options(Card.parse("7♦").index, mask_of(parse_cards("A♠ 2♣ 2♥ 4♦ 10♣")))
    (Move.parse('7♦ x 2♣ 2♥'), Move.parse('7♦ x 4♦'))
    """
    return OptionMemory.of(rules).options


def _low_sums(low: int) -> LowSums:
    """For a mask of low cards, the subsets (masks) summing to each total 0..11, and for
    each total the mask of the low cards (A to 5) and the high cards (6 to 10) that make
    that total alone or with some of these low cards (remembered).

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
        found = _LOW_SUMS[low] = (tuple(tuple(subsets) for subsets in sums), tuple(useful))
    return found


def _sum_sets(table: int, total: int) -> list[int]:
    """Every set of number cards on ``table`` whose values add up to ``total`` (1..11)."""
    sums, _ = _low_sums(table & _LOW)
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


def _sweeper(index: int, forced: bool, trail: Options) -> Callable[[int], Options]:
    """The options of a sweeping jack (card ``index``) from ``near``: one move taking all
    it reaches (interned), in a new tuple."""
    moves = _JACK_MOVES[index - 40]

    def sweep(near: int) -> Options:
        if not near:
            return trail
        move = moves.get(near) or move_of(index, near)
        return (move,) if forced else (trail[0], move)
    return sweep


class OptionMemory:
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

    _shared: ClassVar[dict[tuple[bool, bool, bool, str, bool], OptionMemory]] = {}

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
        self.trails: tuple[Options, ...] = tuple((move_of(i, 0),) for i in range(52))
        self.plains: tuple[dict[int, Options], ...] = tuple({} for _ in range(20))
        self.by_union: tuple[dict[int, Options], ...] = tuple({} for _ in range(20))
        self.lists: dict[Options, Options] = {}
        self.kept = self.plain_kept = 0
        # How each card's options are worked out when not known: 0 from scratch, 1 by
        # plain tables (A to 5 with sums to 11, one set at a time), 2 by plain tables with
        # several sets at once.
        self.ways: tuple[int, ...] = tuple(
            (2 if multi else 1) if index < 20 and not kids else 0 for index in range(52))
        self.sweeps: tuple[bool, ...] = tuple(40 <= index < 44 and jack != "eleven"
                                              for index in range(52))
        self.known: tuple[dict[int, Options], ...] = tuple({} for _ in range(52))
        # How ``Hand.legal_moves`` finds each card's options from ``near``: its memory's
        # ``get`` (the memories are only ever cleared, never replaced), or for a sweeping
        # jack, a function that makes them at once (``None``: work them out).
        self.looks: tuple[Callable[[int], Options | None], ...] = tuple(
            _sweeper(index, forced, self.trails[index]) if self.sweeps[index]
            else self.known[index].get for index in range(52))

    @classmethod
    def of(cls, rules: Rules) -> OptionMemory:
        """The shared memory of a rule set (one per distinct capture setting)."""
        return _memory_of(rules.forced_capture, rules.multi_sets, rules.king_queen_take_all,
                          rules.jack, rules.kids)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its setting: unpickled, it is that process's own shared memory of
        the same setting (a hand sent to a bot process takes no tables along)."""
        return (_memory_of, (self.forced, self.multi, self.take_all, self.jack, self.kids))

    def captures(self, index: int, table: int) -> list[int]:
        """Every mask of table cards card ``index`` can take (in mask order): the masks of
        ``capture_options``."""
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

    def options(self, index: int, table: int) -> Options:
        """The legal moves with card ``index`` on ``table``.

        ``Hand.legal_moves`` inlines this for speed (its test keeps the two in step).
        """
        return self.known[index].get(table & self.reach[index]) or self.work_out(index, table)

    def work_out(self, index: int, table: int) -> Options:
        """Work out card ``index``'s options on ``table``, and keep them (a sweeping
        jack's are not kept)."""
        near = table & self.reach[index]
        way = self.ways[index]
        if way:
            # A to 5: only the high cards near that make a set with some low cards near
            # count (``plain``).
            low = near & _LOW
            sums = _LOW_SUMS.get(low) or _low_sums(low)
            _, useful = sums
            plain = near & useful[10 - (index >> 2)]
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
            return self.looks[index](near) or ()
        else:
            found = self.worked(index, near)
            found = self.lists.get(found) or self.keep(found)
        if near.bit_count() <= _CROWD:
            self.known[index][near] = found
            self.kept += 1
            if self.kept > _KEEP:
                self.forget()
        return found

    def keep(self, options: Options) -> Options:
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

    def plain_options(self, index: int, plain: int, sums: LowSums) -> Options:
        """The options of card ``index`` (A to 5) on its plain table ``plain``, whose low
        cards have the sums ``sums`` (``_low_sums``): its sets among the low cards, then
        for each high card near (in card order) the sets it makes with them; with several
        sets at once (multi_sets), every union of disjoint sets.

        They depend only on the cards found in some set, so they are kept by those too
        (``by_union``): a table seen before with other cards that make no set costs only
        the sets.  (Loops, not comprehensions: each of those makes a function.)
        """
        total = 10 - (index >> 2)
        subsets, _ = sums
        sets = list(subsets[total])
        high = plain >> 20
        while high:
            bit = high & -high
            card = bit << 20
            value = (bit.bit_length() + 23) >> 2
            if value == total:
                sets.append(card)
            else:
                for subset in subsets[total - value]:
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
                moves.append(get(mask << 6 | index) or move_of(index, mask))
            found = by_union[union] = (
                tuple(moves) if self.forced else (self.trails[index][0], *moves))
            self.plain_kept += 1
        return found

    def worked(self, index: int, near: int) -> Options:
        """The options of a card from the table cards it reaches, from scratch."""
        if not near:
            return self.trails[index]
        if ((index >= 44 and (self.take_all or not near & (near - 1)))
                or (40 <= index < 44 and self.jack != "eleven")):
            # A sweeping jack, or a king or queen taking all (or the only one) of its rank.
            # (A jack that counts eleven takes one jack or a sum, like the number cards.)
            move = move_of(index, near)
            return (move,) if self.forced else (self.trails[index][0], move)
        get = _MOVES.get
        captures = [get(mask << 6 | index) or move_of(index, mask)
                    for mask in self.captures(index, near)]
        if not captures:
            return self.trails[index]
        if self.forced:
            return tuple(captures)
        return (self.trails[index][0], *captures)


def _memory_of(forced: bool, multi: bool, take_all: bool, jack: str,
               kids: bool) -> OptionMemory:
    """The shared memory of one capture setting, made the first time it is asked for."""
    key = (forced, multi, take_all, jack, kids)
    found = OptionMemory._shared.get(key)
    if found is None:
        found = OptionMemory._shared[key] = OptionMemory(*key)
    return found
