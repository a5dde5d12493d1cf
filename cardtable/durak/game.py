"""A game of Transfer Durak: the moves that change its state (``push``, ``pop``, ``copy``).

``Game`` adds the moves to ``State`` (``state.py``: the fields, and everything that only
reads them, the legal moves included).  Hands are lists changed in place; ``push`` saves
nothing until the game is first undone: ``pop`` then plays the moves again from the start
(or the copy's), and from then on every move is saved as a ``Snapshot`` (``snapshot.py``),
so that each later ``pop`` restores one; ``legal_moves`` is cached until the next ``push``
or ``pop``.
A game starts from a ``Deal`` (``deal.py``); why a move is refused is worked out apart
(``explain.py``) and a move's text is read in ``moves.py``.  See ``docs/durak.md`` for
the turn protocol.

>>> from cardtable.durak import Game, Rules
>>> game = Game.new(Rules(), players=3, seed=7)
>>> game.players, len(game.stock), game.trump_card.suit is game.trump
(3, 18, True)
>>> while not game.is_over():
...     game.push(game.legal_moves()[0])
>>> game.outcome().returns
(0.5, -1.0, 0.5)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import accumulate
from operator import attrgetter, or_

from ..cards import Card, Suit, cards_of
from ..game import IllegalMove, InvalidMove, make_rng
from .deal import Deal, deal, first_dealer, read_deck, read_position
from .explain import why_illegal
from .moves import Move, MoveKind, read_move
from .rules import HAND_SIZE, ROUND_LIMIT, Rules
from .snapshot import Snapshot
from .state import State
from .tables import BEATERS, DEFEND, LEAD, MASK, OVER, TAKING, THROW

__all__ = ["Game"]

ATTACK_, DEFEND_, TRANSFER_, TAKE_, PASS_, EXCHANGE_ = (
    MoveKind.ATTACK, MoveKind.DEFEND, MoveKind.TRANSFER, MoveKind.TAKE, MoveKind.PASS,
    MoveKind.EXCHANGE)


class Game(State):
    """One game of Transfer Durak, from the deal to the durak (or a draw).

    Build one with ``Game.new`` (a deal) or ``Game.from_position`` (a round about to
    start).  Seats are numbered clockwise: seat ``i + 1`` is seat ``i``'s left neighbour.
    ``State`` holds the fields and reads them; this class makes the moves.
    """

    __slots__ = ()

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules | None = None, *, players: int = 2,
            seed: int | random.Random | None = None,
            deck: Sequence[Card | str] | None = None, dealer: int | None = None,
            loser: int | None = None) -> Game:
        """Deal a game: six each clockwise from the dealer's left, then the trump card.

        ``deck`` (dealt from the front) replaces the shuffle; ``loser`` is the previous
        game's durak, who deals (``dealer`` defaults to it) while their left neighbour
        leads.  Without ``loser`` the holder of the lowest trump leads.
        """
        rules = Rules() if rules is None else rules
        rules.check_players(players)
        game = cls(rules, players)
        if deck is None:
            order = list(game._pack)
            make_rng(seed).shuffle(order)
        else:
            order = read_deck(deck, game._pack)
        dealer = first_dealer(players, dealer, loser)
        game.deck = tuple(order)
        game.dealer = dealer
        game.previous_loser = loser
        game._setup(deal(order, players=players, dealer=dealer, loser=loser), round_number=1)
        return game

    @classmethod
    def from_position(cls, rules: Rules | None = None, *,
                      hands: Sequence[Iterable[Card] | str], trump: Suit | str,
                      stock: Iterable[Card] | str = (), attacker: int,
                      discard: Iterable[Card] | str = (), round_number: int = 1) -> Game:
        """A round about to start: ``attacker`` leads against the next player clockwise.

        ``stock`` is listed top first; its last card is the face-up trump card.  Cards of
        the pack found nowhere else are taken to be in the discard pile.
        """
        rules = Rules() if rules is None else rules
        rules.check_players(len(hands))
        start = read_position(rules, hands=hands, trump=trump, stock=stock,
                              attacker=attacker, discard=discard, round_number=round_number)
        game = cls(rules, len(hands))
        game._setup(start, round_number=round_number)
        return game

    def _setup(self, start: Deal, *, round_number: int) -> None:
        """The state before the first round (of a game, or of a position) starts."""
        hands = start.hands
        self._trump = int(start.trump)
        self._beaters = BEATERS[start.trump]
        self._hands = list(hands)
        self._known = list(start.known)
        self._set_stock(start.stock)
        self._trump_card = start.trump_card
        self._discard = start.discard
        self._att = self._beats = ()
        self._open = self._tmask = self._tranks = self._limit = self._passed = self._shown = 0
        self._round = round_number
        self._cap_now = self._round_cap()
        self._out = 0 if all(hands) else sum(1 << s for s in range(self.players)
                                             if not hands[s])
        self._loser = None
        self._phase = LEAD
        self._attacker = self._orig = self._to_move = self._defender = start.leader
        if not self._finished():
            self._start_round(start.leader)
        self._marks.append(Snapshot.save(self, None))

    # -- moves -----------------------------------------------------------------------------
    def push(self, move: Move | str, *, seat: int | None = None) -> None:
        """Play ``move`` (a ``Move`` or its text); with ``seat``, check it is that seat's
        turn.  A move not legal now raises ``IllegalMove`` saying why (text that is no move:
        ``InvalidMove``; a short text that fits several moves: ``AmbiguousMove``), and
        nothing changes."""
        legal = self._legal
        if legal is None:
            legal = self._generate()
        if seat is not None or move not in legal:
            move = self._checked(move, seat, legal)
        try:
            kind = move.kind
        except AttributeError:   # an object that says it equals anything is not a move
            raise InvalidMove(f"{move!r} is not a Durak move") from None
        if self._undoing:   # a search: every move is marked for ``pop``
            self._marks.append(_save(self, None if legal is _REPLAY else legal))
        self._moves.append(move)
        self._legal = None
        seat = self._to_move
        # The hands and known cards are lists changed in place (marks hold tuples).  The
        # usual moves end with the next thrower to find (from ``start``): see below.
        if kind is ATTACK_:
            own = move._own
            hands = self._hands
            hands[seat] ^= own
            known = self._known
            if known[seat] & own:
                known[seat] &= ~own
            phase = self._phase
            if phase == LEAD:   # the table is empty
                self._att = move.cards
                self._open = self._tmask = own
                self._tranks = move._group
                self._phase = DEFEND
                self._to_move = self._defender
                return
            self._att += move.cards
            self._open |= own
            self._tmask |= own
            self._tranks |= move._group
            if phase == THROW:
                self._phase = DEFEND
                self._to_move = self._defender
                return
            self._passed = 0
            if hands[seat] and self._limit > len(self._att):
                return   # the same thrower keeps the turn
            start = seat + 1
        elif kind is PASS_:
            if self.players == 2:   # the only thrower passed: the round is over
                self._close_round(self._phase == TAKING)
                return
            self._passed |= 1 << seat
            start = seat + 1
        elif kind is DEFEND_:
            own = move._own
            hands = self._hands
            if not self._limit:
                # the defence starts: the limit becomes min(cap, cards beaten + hand)
                limit = len(self._beats) + hands[seat].bit_count()
                cap = self._cap_now
                self._limit = limit if limit < cap else cap
            hands[seat] ^= own
            known = self._known
            if known[seat] & own:
                known[seat] &= ~own
            self._beats += (move.cards,)   # type: ignore[operator]  # a defence: a pair
            self._open ^= move._hit
            self._tmask |= own
            self._tranks |= move._group
            if self._open:
                return   # the defender goes on
            self._phase = THROW
            self._passed = 0
            start = self._attacker
        elif kind is TAKE_:
            if not self._limit:
                limit = len(self._beats) + self._hands[seat].bit_count()
                cap = self._cap_now
                self._limit = limit if limit < cap else cap
            self._phase = TAKING
            self._passed = 0
            start = self._attacker
        elif kind is TRANSFER_:
            mask = move.mask
            if move.shown:
                self._shown |= mask
                self._known[seat] |= mask
            else:
                self._hands[seat] ^= mask
                known = self._known
                if known[seat] & mask:
                    known[seat] &= ~mask
                self._att += move.cards
                self._open |= mask
                self._tmask |= mask
            self._attacker = seat
            # a transfer is legal only when someone can take over the defence
            self._defender = self._to_move = self._defender_after(seat)  # type: ignore[assignment]
            self._limit = 0
            return
        else:   # EXCHANGE_
            mask = move.mask
            trump_card = self._trump_card
            assert trump_card is not None   # legal only while it lies under the stock
            old = trump_card.mask
            self._hands[seat] ^= mask | old
            known = self._known
            known[seat] = known[seat] & ~mask | old
            self._set_stock((*self._stock[self._drawn:-1], move.cards[0]))
            self._trump_card = move.cards[0]
            return
        # The next thrower clockwise from ``start`` who has not passed, or the round's close
        # when there is none.
        if self._limit > len(self._att):
            if self.players == 2:
                # the attacker is the only thrower (the defender never passes), whatever
                # the rules say about who may throw in
                seat = 1 - self._defender
                if self._hands[seat] and not self._passed:
                    self._to_move = seat
                    return
            elif self._simple_throw:
                # anyone holding cards but the defender may add: one pass round the table
                hands = self._hands
                for seat in self._clockwise[start][self._passed | 1 << self._defender]:
                    if hands[seat]:
                        self._to_move = seat
                        return
            else:
                allowed = self._throwers() & ~self._passed
                if allowed:
                    for seat in self._clockwise[start][0]:
                        if allowed >> seat & 1:
                            self._to_move = seat
                            return
        self._close_round(self._phase == TAKING)

    def _checked(self, move: object, seat: int | None, legal: list[Move]) -> Move:
        """``push``'s checks when the move is not simply a legal ``Move``: read a text,
        check the seat, and explain why an illegal move is refused."""
        if type(move) is not Move:
            if isinstance(move, str):
                move = self.parse_move(move)
            else:
                raise InvalidMove(f"{move!r} is not a Durak move")
        if seat is not None and seat != self.to_move:
            if self._phase == OVER:
                raise IllegalMove("the game is over")
            raise IllegalMove(f"it is seat {self._to_move}'s turn, not seat {seat}'s")
        if move not in legal:
            raise IllegalMove(why_illegal(self, move))
        return move

    def pop(self) -> Move:
        """Undo the last move and return it.

        ``push`` saves nothing at first: the state is marked when a game starts (or is
        copied without its moves), and the first ``pop`` goes back to the last mark and
        plays the moves since then again.  From then on (a search) every move is marked, so
        that each later ``pop`` only restores its mark."""
        moves = self._moves
        if not moves:
            raise IndexError("no move to undo")
        self._undoing = True
        move = moves.pop()
        marks = self._marks
        at = len(moves)
        mark = marks.pop()
        while mark.moves > at:
            mark = marks.pop()
        start = mark.moves
        if start < at:
            marks.append(mark)   # kept: the state to play the moves again from
        mark.restore(self)
        if start < at:
            again = moves[start:]
            del moves[start:]
            for replayed in again:   # each marked as it is pushed (``_undoing``)
                self._legal = _REPLAY
                self.push(replayed)
            self._legal = None
        return move

    def copy(self, *, stack: bool = True) -> Game:
        """An independent game in the same state; without ``stack`` it cannot undo."""
        other = object.__new__(Game)
        for name, value in zip(State.__slots__, _ALL_STATE(self), strict=True):
            setattr(other, name, value)
        other._hands = list(self._hands)
        other._known = list(self._known)
        if stack:
            other._moves = list(self._moves)
            other._marks = list(self._marks)
        else:
            other._moves = []
            other._marks = [Snapshot.save(other, None)]
        return other

    # -- the engine ------------------------------------------------------------------------
    def _set_stock(self, stock: tuple[Card, ...]) -> None:
        """A new stock (top first), with the masks of its prefixes for fast drawing."""
        self._between = None   # the stock changes: snapshots save it afresh
        self._stock = stock
        self._drawn = 0
        self._prefix = (0, *accumulate(map(MASK, stock), or_))

    def _close_round(self, taken: bool) -> None:
        # Runs every few moves: ``_finished`` and ``_start_round`` are inlined here (keep
        # them in step).  The fields between rounds change: snapshots save them afresh.
        self._between = None
        hands, known = self._hands, self._known   # lists, changed in place
        defender, orig = self._defender, self._orig
        tmask = self._tmask
        if taken:
            hands[defender] |= tmask
            known[defender] |= tmask
        else:
            self._discard |= tmask
        self._att = self._beats = ()
        self._open = self._tmask = self._tranks = self._limit = 0
        self._passed = self._shown = 0
        n = self.players
        drawn, size = self._drawn, len(self._stock)
        if n == 2:
            # Two players, written out: the one who led draws first, then the other; the
            # defender leads next unless it took (or is out of cards).
            if drawn < size:
                prefix = self._prefix
                seat = orig
                for _ in (0, 1):
                    need = HAND_SIZE - hands[seat].bit_count()
                    if need > 0:
                        end = drawn + need
                        if end >= size:
                            hands[seat] |= prefix[size] & ~prefix[drawn]
                            # the face-up trump card, seen by all
                            known[seat] |= prefix[size] & ~prefix[size - 1]
                            drawn = size
                            break
                        hands[seat] |= prefix[end] & ~prefix[drawn]
                        drawn = end
                    seat = 1 - seat
                self._drawn = drawn
            if not (hands[0] and hands[1]):
                self._out |= (0 if hands[0] else 1) | (0 if hands[1] else 2)
                self._finished()
                return
            if self._round >= self.rules.max_rounds:
                self._phase = OVER   # a draw at the round limit (``_finished``'s draw)
                self._loser = None
                return
            leader = defender if not taken else 1 - defender
            self._round += 1
            self._cap_now = ROUND_LIMIT
            self._phase = LEAD
            self._attacker = self._orig = self._to_move = leader
            self._defender = 1 - leader
            return
        out = self._out
        if drawn < size:
            prefix = self._prefix
            seat = orig
            for step in range(n + 1):
                if step == n:
                    if defender == orig:
                        break
                    seat = defender
                elif step and (seat == defender or out >> seat & 1):
                    seat = seat + 1 if seat + 1 < n else 0
                    continue
                need = HAND_SIZE - hands[seat].bit_count()
                if need > 0:
                    end = drawn + need if drawn + need < size else size
                    hands[seat] |= prefix[end] & ~prefix[drawn]
                    if end == size:   # the face-up trump card, seen by all
                        known[seat] |= prefix[size] & ~prefix[size - 1]
                        drawn = end
                        break
                    drawn = end
                seat = seat + 1 if seat + 1 < n else 0
            self._drawn = drawn
        if drawn < size:
            # the stock is not used up: everyone still in drew up to six
            holding = n - out.bit_count()
        else:
            holding = 0
            bit = 1
            for hand in hands:
                if hand:
                    holding += 1
                else:
                    out |= bit
                bit <<= 1
            self._out = out
        if (holding < 2 or self._teams != n) and self._finished():
            return
        if self._round >= self.rules.max_rounds:
            self._phase = OVER   # a draw at the round limit
            self._loser = None
            return
        clockwise = self._clockwise
        if not taken and hands[defender]:
            leader = defender
        else:
            for leader in clockwise[defender + 1][1 << defender]:   # someone else holds cards
                if hands[leader]:
                    break
        self._round += 1
        self._cap_now = ROUND_LIMIT
        self._phase = LEAD
        self._attacker = self._orig = self._to_move = leader
        # the defender: as ``_defender_after(leader)``
        team = self._team
        mine = team[leader]
        for other in clockwise[leader + 1][1 << leader]:   # there is one: the game goes on
            if hands[other] and team[other] != mine:
                self._defender = other
                break

    def _finished(self) -> bool:
        """End the game when no two sides hold cards: a durak, or a draw."""
        hands, team = self._hands, self._team
        if self._teams == self.players:
            count = 0
            for hand in hands:
                if hand:
                    count += 1
            if count > 1:
                return False
        holding = [s for s in range(self.players) if hands[s]]
        if len({team[s] for s in holding}) > 1:
            return False
        self._phase = OVER
        if holding:
            # the durak: the one left holding cards (partners: the one holding most)
            self._loser = max(holding, key=lambda s: (hands[s].bit_count(), -s))
        else:
            self._loser = None
        return True

    def _start_round(self, leader: int) -> None:
        defender = self._defender_after(leader)
        if defender is None:   # only a position can be so
            raise ValueError(f"seat {leader} has no one to attack")
        self._phase = LEAD
        self._attacker = self._orig = self._to_move = leader
        self._defender = defender

    # -- text ------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """Read a move in context: full forms (``defend 9♣ with J♣``) and short ones (a bare
        ``9d`` or ``beat J♣`` when only one legal move fits).

        Raises ``InvalidMove`` for text that is no move, ``AmbiguousMove`` for a short form
        that fits several legal moves, and ``IllegalMove`` (saying why) for a move that is
        not legal now."""
        legal = self.legal_moves()
        move = read_move(text, legal)
        if move is None:
            if self._phase == OVER:
                raise IllegalMove("the game is over")
            raise IllegalMove(f"no legal move fits {text!r}; the legal moves are: "
                              + ", ".join(map(str, legal)))
        if move not in legal:
            raise IllegalMove(why_illegal(self, move))
        return move

    def determinize(self, seat: int, rng: random.Random) -> Game:
        """A full game consistent with what ``seat`` has seen: the other hands and the
        stock are dealt from the unseen cards by ``rng`` (required, so that a search can
        be repeated), but cards known to be in a hand (taken from the table, shown) stay
        there.  It cannot undo past this point."""
        new_hands, stock = deal_unseen(self, seat, rng)
        other = self.copy(stack=False)
        other.deck = None
        other._hands = new_hands
        other._set_stock(stock)
        other._legal = None
        other._marks = [Snapshot.save(other, None)]
        return other


def deal_unseen(game: Game, seat: int, rng: random.Random
                ) -> tuple[list[int], tuple[Card, ...]]:
    """The hands and the stock dealt afresh from what ``seat`` has not seen: cards known to
    be in a hand stay there, the stock's face-up bottom card stays last.  Both engines'
    ``determinize`` deal with it, so that one ``rng`` deals them alike."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat!r}: seats are 0 to {game.players - 1}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"determinize deals with a random.Random, not {rng!r}")
    hands, known = game._hands, game._known
    remaining = len(game._stock) - game._drawn
    bottom = game._stock[-1] if remaining else None
    fixed = game._tmask | game._discard | (bottom.mask if bottom else 0)
    fixed |= hands[seat]
    for s in range(game.players):
        if s != seat:
            fixed |= known[s] & hands[s]
    unseen = cards_of(game._pack_mask & ~fixed)
    rng.shuffle(unseen)
    at = 0
    new_hands = list(hands)
    for s in range(game.players):
        if s == seat:
            continue
        need = hands[s].bit_count() - (known[s] & hands[s]).bit_count()
        mask = known[s] & hands[s]
        for card in unseen[at:at + need]:
            mask |= card.mask
        at += need
        new_hands[s] = mask
    stock = tuple(unseen[at:])
    if bottom is not None:
        stock = (*stock, bottom)
    if len(stock) != remaining:   # pragma: no cover - a broken invariant, not a state
        raise AssertionError("determinize lost track of the unseen cards")
    return new_hands, stock


_ALL_STATE = attrgetter(*State.__slots__)
"""Every field of a game at once, for ``copy``."""


class _Replay(list[Move]):
    """Stands for the legal moves while ``pop`` plays moves again: they were legal."""

    __slots__ = ()

    def __contains__(self, move: object) -> bool:
        return True


_REPLAY = _Replay()

_save = Snapshot.save
"""``Snapshot.save`` bound once: ``push`` calls it for every move of a search."""
