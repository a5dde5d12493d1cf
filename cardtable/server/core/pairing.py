"""Tournament pairing and scoring as pure functions: no clock, no database, no event loop.

Two kinds of tournament share the scoring of a game (``points``: a win 2, a draw 1, a loss
0) and differ in how tables are formed:

* an **arena** runs for a fixed time; a player who finishes a game waits, and is seated
  again at once with the waiting players nearest them in the standings
  (``pair_arena``).  After two wins in a row each game is worth double until one is not
  won (``arena_points``).
* a **swiss** plays a fixed number of rounds; each round every player is seated by score
  at a table of the chosen size, and players who have met are kept apart where another
  seating allows it (``pair_swiss``); when the players do not divide into tables, the
  lowest-placed among those with the fewest byes sit the round out, each scored as a win.

A table of more than two seats (a Durak game of three or four) has one loser (the durak)
and the rest win, so points come from each seat's result alone.

>>> arena_points("win", 0), arena_points("win", 1), arena_points("win", 2)
((2, 1), (2, 2), (4, 3))
>>> arena_points("draw", 3), arena_points("loss", 3)
((2, 0), (0, 0))
>>> [list(t) for t in pair_swiss([SwissPlayer(p, 0, 1500) for p in "abcde"], 2).tables]
[['a', 'b'], ['c', 'd']]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["BASE_POINTS", "ArenaRound", "Standing", "SwissPlayer", "SwissRound", "Waiting",
           "arena_points", "pair_arena", "pair_swiss", "repeats", "standings"]

BASE_POINTS = {"win": 2, "draw": 1, "loss": 0}
"""A game's points by its result, before an arena's streak doubles them."""
STREAK = 2
"""Wins in a row after which an arena's games count double."""
BYE_POINTS = BASE_POINTS["win"]
"""A swiss bye scores as a win (at most one a player where the numbers allow)."""
WINDOW = 3
"""A swiss table is chosen among the next ``WINDOW * size`` players by rank (bounded
work: ``C(3k - 1, k - 1)`` groups looked at a table, 220 for tables of four)."""
SWAP_PASSES = 8
"""Rounds of swapping players between tables to take repeats out of a swiss round."""


def arena_points(result: str, streak: int) -> tuple[int, int]:
    """The points an arena game earns and the player's streak after it: a win is 2, a
    draw 1, a loss 0, each doubled while the player is on a streak (``STREAK`` wins in a
    row or more before this game); anything but a win ends the streak."""
    if result not in BASE_POINTS:
        raise ValueError(f"a result is win, draw or loss, not {result!r}")
    base = BASE_POINTS[result]
    points = base * 2 if streak >= STREAK else base
    return points, streak + 1 if result == "win" else 0


# -- arena ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Waiting:
    """A player waiting to be seated in an arena."""

    player: str
    score: int
    rating: int = 1500
    since: float = 0.0
    """When they began to wait (seconds on the tournament's clock)."""
    last: frozenset[str] = frozenset()
    """The others at their last table: not seated with them again at once where avoidable."""
    apart: frozenset[str] = frozenset()
    """Players never seated with them (a block either way): they wait rather than sit
    together."""


@dataclass(frozen=True)
class ArenaRound:
    """What one call of ``pair_arena`` seats: full tables, and groups seated with bots."""

    tables: tuple[tuple[str, ...], ...] = ()
    with_bots: tuple[tuple[str, ...], ...] = ()

    @property
    def seated(self) -> set[str]:
        return {p for group in (*self.tables, *self.with_bots) for p in group}


def _rank_key(score: int, rating: int, player: str) -> tuple[int, int, str]:
    return (-score, -rating, player)


def pair_arena(waiting: Iterable[Waiting], size: int, *, others_playing: bool,
               bots: bool = False, now: float = 0.0, bot_wait: float = 10.0) -> ArenaRound:
    """Seat the waiting players of an arena at tables of ``size``.

    The highest-placed waiting player is seated with the next ones by score (then
    rating), skipping anyone who sat at the same last table as someone already chosen,
    and anyone kept ``apart`` from them (a block); a table that can only be made by
    repeating one is made only when nobody else is playing (no one else can come to
    wait), and one that would seat a block never.  A player no table can be made for
    waits, and the next is seated.  The players left over stay waiting, unless
    the organiser allows bots (``bots``), they are the only ones waiting, and they have
    waited ``bot_wait`` seconds: then they sit together with bots in the other seats.

    >>> w = [Waiting("ann", 6), Waiting("bob", 4, last=frozenset({"cy"})),
    ...      Waiting("cy", 4, last=frozenset({"bob"})), Waiting("dee", 0)]
    >>> pair_arena(w, 2, others_playing=True).tables
    (('ann', 'bob'), ('cy', 'dee'))
    """
    if size < 2:
        raise ValueError("a table seats two players or more")
    left = sorted(waiting, key=lambda w: _rank_key(w.score, w.rating, w.player))
    tables: list[tuple[str, ...]] = []
    kept: list[Waiting] = []   # those no table could be made for: they wait
    while len(left) >= size:
        group = _arena_group(left, size, repeat=not others_playing)
        if group is None:
            kept.append(left[0])
            left = left[1:]
            continue
        tables.append(tuple(w.player for w in group))
        chosen = {w.player for w in group}
        left = [w for w in left if w.player not in chosen]
    left = kept + left
    with_bots: tuple[tuple[str, ...], ...] = ()
    seated_any = bool(tables)
    if bots and left and not seated_any and len(left) < size and all(
            now - w.since >= bot_wait for w in left):
        with_bots = (tuple(w.player for w in left),)
    return ArenaRound(tuple(tables), with_bots)


def _arena_group(ranked: list[Waiting], size: int, *, repeat: bool) -> list[Waiting] | None:
    """The first table of ``ranked``: its top player and the next who did not just sit
    together; with ``repeat``, the next ones whatever the last table was.  Players kept
    ``apart`` are never seated together.  ``None``: the top player waits."""
    first = ranked[0]
    group = [first]
    for other in ranked[1:]:
        if any(other.player in w.last or w.player in other.last for w in group):
            continue
        if any(other.player in w.apart or w.player in other.apart for w in group):
            continue
        group.append(other)
        if len(group) == size:
            return group
    if not repeat:
        return None
    group = [first]   # nobody else can come: repeat the last table, never a block
    for other in ranked[1:]:
        if not any(other.player in w.apart or w.player in other.apart for w in group):
            group.append(other)
            if len(group) == size:
                return group
    return None


# -- swiss ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SwissPlayer:
    """A swiss entrant as the next round's pairing sees them."""

    player: str
    score: int
    rating: int = 1500
    met: frozenset[str] = frozenset()
    """Everyone they have sat at a table with."""
    byes: int = 0


@dataclass(frozen=True)
class SwissRound:
    """One round: its tables (each in seat order), and who sits it out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


def repeats(tables: Iterable[Sequence[str]], met: dict[str, frozenset[str]]) -> int:
    """How many pairs of players seated together have met before.

    >>> repeats([("a", "b", "c")], {"a": frozenset({"b"}), "b": frozenset({"a"})})
    1
    """
    return sum(1 for table in tables for x, y in itertools.combinations(table, 2)
               if y in met.get(x, frozenset()))


def pair_swiss(players: Sequence[SwissPlayer], size: int) -> SwissRound:
    """The next swiss round of ``players`` at tables of ``size``.

    Who sits out: ``len(players) % size`` players, the lowest placed among those with
    the fewest byes so far.  The rest are ranked by score, then rating, then name; the
    top unseated player is seated with the ``size - 1`` players among the next
    ``WINDOW * size`` who give the fewest pairs that have met, then the nearest ranks.
    Then players are swapped between tables while a swap lowers the pairs that have met,
    first only where it keeps a table's scores within one score group of each other, then
    allowing one group more at a time until no pair repeats (``SWAP_PASSES`` rounds of
    swaps at each width): meeting someone new comes before meeting one's exact equal.
    """
    if size < 2:
        raise ValueError("a table seats two players or more")
    ranked = sorted(players, key=lambda p: _rank_key(p.score, p.rating, p.player))
    out = len(ranked) % size
    byes: list[SwissPlayer] = []
    if out:
        fewest = sorted(ranked, key=lambda p: (p.byes, -ranked.index(p)))
        byes = fewest[:out]
        ranked = [p for p in ranked if p not in byes]
    met = {p.player: p.met for p in ranked}
    rank = {p.player: i for i, p in enumerate(ranked)}
    score = {p.player: p.score for p in ranked}
    tables: list[list[str]] = []
    left = [p.player for p in ranked]
    while left:
        first, rest = left[0], left[1:]
        window = rest[: WINDOW * size]
        best = min(itertools.combinations(window, size - 1), key=lambda others: (
            repeats([(first, *others)], met), sum(rank[o] for o in others)))
        tables.append([first, *best])
        left = [p for p in rest if p not in best]
    _swap_out_repeats(tables, met, score)
    tables = [sorted(table, key=lambda p: rank[p]) for table in tables]
    return SwissRound(tuple(tuple(t) for t in tables), tuple(p.player for p in byes))


def _swap_out_repeats(tables: list[list[str]], met: dict[str, frozenset[str]],
                      score: dict[str, int]) -> None:
    """Swap players between tables while a swap lowers the repeats, the tables' score
    spread widened a group at a time (``pair_swiss``)."""
    groups = sorted(set(score.values()), reverse=True)
    level = {s: i for i, s in enumerate(groups)}

    def spread(table: list[str]) -> int:
        levels = [level[score[p]] for p in table]
        return max(levels) - min(levels)

    for widen in range(len(groups)):
        if repeats(tables, met) == 0:
            return
        _swaps(tables, met, spread, widen)


def _swaps(tables: list[list[str]], met: dict[str, frozenset[str]],
           spread: Callable[[list[str]], int], widen: int) -> None:
    for _ in range(SWAP_PASSES):
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            a, b = tables[i], tables[j]
            here = repeats([a], met) + repeats([b], met)
            if here == 0:
                continue
            allowed = max(spread(a), spread(b), 1) + widen
            for x, y in itertools.product(range(len(a)), range(len(b))):
                na, nb = a.copy(), b.copy()
                na[x], nb[y] = b[y], a[x]
                if (repeats([na], met) + repeats([nb], met) < here
                        and max(spread(na), spread(nb)) <= allowed):
                    tables[i], tables[j] = a, b = na, nb
                    here = repeats([a], met) + repeats([b], met)
                    improved = True
                    if here == 0:
                        break
        if not improved:
            return


# -- standings ----------------------------------------------------------------------------------
@dataclass
class Standing:
    """One player's line of the standings."""

    player: str
    points: int = 0
    games: int = 0
    wins: int = 0
    rating: int = 1500
    tiebreak: int = 0
    """Swiss: the sum of the final points of everyone they sat with, once a game
    (Buchholz); arena: their points a game, in hundredths (performance)."""
    rank: int = 0
    opponents: list[str] = field(default_factory=list)


def standings(lines: Iterable[Standing], kind: str) -> list[Standing]:
    """The standings in order, ``rank`` and ``tiebreak`` set: points first, then the
    tie-break (swiss: Buchholz; arena: points a game), then wins, then rating, then name.
    Players equal on all but name share a rank.

    >>> a = Standing("a", points=4, games=2, wins=2, opponents=["b", "c"])
    >>> b = Standing("b", points=2, games=2, wins=1, opponents=["a", "c"])
    >>> c = Standing("c", points=2, games=2, wins=1, opponents=["a", "b"])
    >>> [(s.player, s.rank, s.tiebreak) for s in standings([c, b, a], "swiss")]
    [('a', 1, 4), ('b', 2, 6), ('c', 2, 6)]
    """
    lines = list(lines)
    points = {s.player: s.points for s in lines}
    for s in lines:
        if kind == "swiss":
            s.tiebreak = sum(points.get(o, 0) for o in s.opponents)
        else:
            s.tiebreak = (100 * s.points) // s.games if s.games else 0
    lines.sort(key=lambda s: (-s.points, -s.tiebreak, -s.wins, -s.rating, s.player))
    previous: tuple[int, int, int, int] | None = None
    for i, s in enumerate(lines):
        key = (s.points, s.tiebreak, s.wins, s.rating)
        s.rank = lines[i - 1].rank if key == previous else i + 1
        previous = key
    return lines
