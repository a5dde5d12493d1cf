"""A game of Transfer Durak: the deal, the rounds, and every rule of the source.

Card sets are 52-bit masks (``card.mask``); moves are interned and come from tables
built at import; hands are lists changed in place; ``push`` saves nothing until the game
is first undone: ``pop`` then plays the moves again from the start (or the copy's) and
every later move is marked, so that each later ``pop`` restores its mark; ``legal_moves``
is cached until the next ``push`` or ``pop``.  See ``docs/durak.md`` for the turn
protocol.

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
from typing import Any

from ..cards import CARDS, Card, Suit, cards_of, pack, parse_cards
from ..game import IllegalMove, Outcome, make_rng
from .moves import Move, MoveError, MoveKind, split_move_text
from .rules import HAND_SIZE, ROUND_LIMIT, Rules

__all__ = ["PHASES", "Game", "strength"]

LEAD, DEFEND, THROW, TAKING, OVER = range(5)
PHASES = ("lead", "defend", "throw-in", "taking", "over")
"""The phase names ``view()`` and ``phase`` use, indexed by the internal phase number."""

ATTACK_, DEFEND_, TRANSFER_, TAKE_, PASS_, EXCHANGE_ = (
    MoveKind.ATTACK, MoveKind.DEFEND, MoveKind.TRANSFER, MoveKind.TAKE, MoveKind.PASS,
    MoveKind.EXCHANGE)


def strength(card: Card) -> int:
    """A card's place in its suit in Durak: 2..10, J=11, Q=12, K=13, A=14."""
    return 14 if card.rank == 1 else card.rank


# -- tables built once ---------------------------------------------------------------------
_STRENGTH = tuple(strength(card) for card in CARDS)
_MASK = attrgetter("mask")
_NOT_ACES = sum(c.mask for c in CARDS if c.rank != 1)
_SEATING: dict[tuple[int, int], tuple[tuple, tuple]] = {}
"""``(players, teams)``: each seat's team, and ``[start][skip]``: from seat ``start`` (or
``players``, the same as 0) the seats in turn clockwise, but those in the mask ``skip``."""
_SUIT_MASK = tuple(sum(c.mask for c in CARDS if c.suit == s) for s in Suit)
_HIGHER = tuple(sum(o.mask for o in CARDS if o.suit == c.suit and _STRENGTH[o.index]
                    > _STRENGTH[c.index]) for c in CARDS)
_BEATERS = tuple(tuple(_HIGHER[c.index] | (_SUIT_MASK[t] if c.suit != t else 0) for c in CARDS)
                 for t in Suit)
"""``_BEATERS[trump][card.index]``: every card that beats ``card``."""
_RANK_SHIFT = tuple((c.rank - 1) * 4 for c in CARDS)
_GROUP = tuple(15 << (4 * r) for r in range(13))
"""The four cards of a rank, by rank - 1."""
_SUBSETS = tuple(sorted(((sub, sub.bit_count()) for sub in range(1, 16) if sub & g == sub),
                        key=lambda item: (item[1], item[0])) for g in range(16))
"""Non-empty subsets of a 4-bit suit group, fewest cards first."""


def _moves_by_group(kind: MoveKind) -> tuple[tuple[Move | None, ...], ...]:
    return tuple(tuple(Move(kind, [CARDS[4 * r + s] for s in range(4) if sub >> s & 1])
                       if sub else None for sub in range(16)) for r in range(13))


def _lists_by_room(by_group: tuple) -> tuple:
    """``[rank][group][room]``: the moves of that rank using at most ``room`` cards."""
    return tuple(tuple(tuple(tuple(row[sub] for sub, count in _SUBSETS[group] if count <= room)
                             for room in range(7)) for group in range(16)) for row in by_group)


_ATTACKS = _lists_by_room(_moves_by_group(ATTACK_))
_TRANSFERS = _lists_by_room(_moves_by_group(TRANSFER_))
_ATTACKS_OF = {group << (4 * r): _ATTACKS[r][group] for r in range(13) for group in range(1, 16)}
"""The attacks with some cards of one rank (a mask), by room: ``[mask][room]``."""
_TRANSFERS_OF = {group << (4 * r): _TRANSFERS[r][group] for r in range(13)
                 for group in range(1, 16)}


_BY_BYTE = tuple(tuple(tuple(_ATTACKS[2 * k][byte & 15][room]
                             + (_ATTACKS[2 * k + 1][byte >> 4][room] if k < 6 else ())
                             for byte in range(256)) for k in range(7)) for room in range(7))
"""``_BY_BYTE[room][k][byte]``: the attacks with the cards of ``byte``, the ``k``-th byte of
a mask (the ranks ``2k`` and ``2k + 1``, counted from 0), using at most ``room`` cards: the
moves of a whole hand are seven lookups with no loop (``_attacks``)."""


def _attacks(mask: int, room: int) -> list[Move]:
    """Every attack with cards of ``mask`` (of one rank a move), using at most ``room``."""
    b0, b1, b2, b3, b4, b5, b6 = mask.to_bytes(7, "little")
    t0, t1, t2, t3, t4, t5, t6 = _BY_BYTE[room]
    return [*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6]]


_PACKS: dict[int, tuple] = {}
"""Per pack size: (cards, mask, lowest strength), built on first use."""
_SHOWS = tuple(Move(TRANSFER_, [c], shown=True) for c in CARDS)
_EXCHANGES = tuple(Move(EXCHANGE_, [c]) for c in CARDS)
_DEFENCES = tuple(tuple(Move(DEFEND_, [a, d]) if a is not d else None for d in CARDS)
                  for a in CARDS)
_TAKE = Move(TAKE_)
_PASS = Move(PASS_)


def _text(mask: int) -> str:
    return " ".join(c.text for c in cards_of(mask))


def _rank_name(rank: int) -> str:
    return {1: "ace", 11: "jack", 12: "queen", 13: "king"}.get(rank, str(rank))


class Game:
    """One game of Transfer Durak, from the deal to the durak (or a draw).

    Build one with ``Game.new`` (a deal) or ``Game.from_position`` (a round about to
    start).  Seats are numbered clockwise: seat ``i + 1`` is seat ``i``'s left neighbour.
    """

    # Slots, not a __dict__: a game has more attributes than CPython's shared-key instance
    # dicts hold (30), so without them every attribute access on the hot path is slower.
    __slots__ = ("_att", "_attacker", "_beaters", "_beats", "_cap_now", "_clockwise", "_defender",
                 "_discard", "_drawn", "_exchange", "_first_transfer", "_hands", "_known", "_late",
                 "_legal", "_limit", "_loser", "_lowest", "_marks", "_moves", "_nb_only", "_open",
                 "_orig", "_out", "_pack", "_pack_mask", "_passed", "_passport", "_phase",
                 "_prefix", "_round", "_shown", "_simple_throw", "_stock", "_team", "_teams",
                 "_tmask", "_to_move", "_tranks", "_trump", "_trump_card", "_undoing", "dealer",
                 "deck", "players", "previous_loser", "rules")

    # -- construction ----------------------------------------------------------------------
    def __init__(self, rules: Rules, players: int) -> None:
        """Use ``Game.new`` or ``Game.from_position``: this only sets the fixed facts."""
        self.rules = rules
        self.players = players
        teams = rules.teams(players)
        self._teams = teams
        seating = _SEATING.get((players, teams))
        if seating is None:
            seating = _SEATING[(players, teams)] = (
                tuple(seat % teams for seat in range(players)),
                tuple(tuple(tuple(seat for seat in ((start + k) % players
                                                    for k in range(players))
                                  if not skip >> seat & 1) for skip in range(1 << players))
                      for start in range(players + 1)))
        self._team, self._clockwise = seating
        info = _PACKS.get(rules.pack_size)
        if info is None:
            cards = tuple(pack(rules.pack_size))
            info = _PACKS[rules.pack_size] = (
                cards, sum(c.mask for c in cards), min(_STRENGTH[c.index] for c in cards))
        self._pack, self._pack_mask, self._lowest = info
        self._nb_only = rules.neighbours_only
        self._passport = rules.passport
        self._late = rules.late_transfer
        self._first_transfer = rules.first_round_transfer
        self._exchange = rules.trump_six_exchange
        self._simple_throw = not (rules.neighbours_only or rules.partners)
        self.deck: tuple[Card, ...] | None = None
        """The deal order: ``Game.new(rules, players=..., deck=game.deck, dealer=game.dealer,
        loser=game.previous_loser)`` deals this game again (``None`` for a position)."""
        self.dealer: int | None = None
        self.previous_loser: int | None = None
        """The last game's durak, if this game was dealt after it: it dealt, its left
        neighbour led."""
        self._moves: list[Move] = []
        self._marks: list[tuple] = []
        self._undoing = False
        self._legal: list[Move] | None = None

    @classmethod
    def new(cls, rules: Rules | None = None, *, players: int = 2,
            seed: int | random.Random | None = None, deck: Sequence[Card] | None = None,
            dealer: int | None = None, loser: int | None = None) -> Game:
        """Deal a game: six each clockwise from the dealer's left, then the trump card.

        ``deck`` (dealt from the front) replaces the shuffle; ``loser`` is the previous
        game's durak, who deals (``dealer`` defaults to it) while their left neighbour
        leads.  Without ``loser`` the holder of the lowest trump leads.
        """
        rules = Rules() if rules is None else rules
        rules.check_players(players)
        game = cls(rules, players)
        full = game._pack
        if deck is None:
            order = list(full)
            make_rng(seed).shuffle(order)
        else:
            order = [Card.parse(c) if isinstance(c, str) else c for c in deck]
            if len(order) != len(full) or set(order) != set(full):
                raise ValueError(f"the deck must hold each card of the {len(full)}-card pack "
                                 f"exactly once (got {len(order)} cards)")
        for name, seat in (("dealer", dealer), ("loser", loser)):
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                     or not 0 <= seat < players):
                raise ValueError(f"the {name} must be a seat from 0 to {players - 1}, "
                                 f"not {seat!r}")
        if loser is not None:
            if dealer is not None and dealer != loser:
                raise ValueError(f"the loser of the last game (seat {loser}) deals, "
                                 f"not seat {dealer}")
            dealer = loser
        dealer = 0 if dealer is None else dealer
        game.deck = tuple(order)
        game.dealer = dealer
        game.previous_loser = loser
        hands = [0] * players
        for i in range(players):   # each card its own bit: the sum of the masks is the hand
            hands[(dealer + 1 + i) % players] = sum(map(_MASK, order[HAND_SIZE * i:
                                                                     HAND_SIZE * (i + 1)]))
        rest = order[HAND_SIZE * players:]
        known = [0] * players
        if rest:
            trump_card = rest[0]
            stock = (*rest[1:], rest[0])
        else:
            trump_card = order[HAND_SIZE * players - 1]   # the dealer's last card, kept
            known[dealer] |= trump_card.mask
            stock = ()
        trump = trump_card.suit
        if loser is not None:
            leader = (loser + 1) % players
        else:
            leader = (dealer + 1) % players
            held = sum(hands) & _SUIT_MASK[trump]   # every trump dealt
            if held:
                lowest = held & _NOT_ACES or held   # the ace is the highest
                lowest &= -lowest
                leader = next(seat for seat in range(players) if hands[seat] & lowest)
                known[leader] |= lowest   # shown to claim the lead
        game._setup(hands, known, stock, trump, trump_card, 0, leader, round_number=1)
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
        players = len(hands)
        rules.check_players(players)
        trump = Suit.parse(trump) if isinstance(trump, str) else Suit(trump)
        full = set(pack(rules.pack_size))
        seen: set[Card] = set()

        def cards(value: Iterable[Card] | str, what: str) -> list[Card]:
            out = parse_cards(value) if isinstance(value, str) else list(value)
            for card in out:
                if not isinstance(card, Card):
                    raise ValueError(f"{what}: {card!r} is not a card")
                if card not in full:
                    raise ValueError(f"{what}: {card} is not in the {rules.pack_size}-card pack")
                if card in seen:
                    raise ValueError(f"{what}: {card} appears twice in the position")
                seen.add(card)
            return out

        hand_masks = [sum(c.mask for c in cards(h, f"seat {i}'s hand"))
                      for i, h in enumerate(hands)]
        stock_cards = tuple(cards(stock, "the stock"))
        cards(discard, "the discard pile")
        if stock_cards and stock_cards[-1].suit != trump:
            raise ValueError(f"the last card of the stock ({stock_cards[-1]}) is the face-up "
                             f"trump card, so trump is {stock_cards[-1].suit}, not {trump}")
        if not isinstance(attacker, int) or not 0 <= attacker < players:
            raise ValueError(f"the attacker must be a seat from 0 to {players - 1}")
        if not hand_masks[attacker]:
            raise ValueError(f"seat {attacker} holds no cards and cannot attack")
        game = cls(rules, players)
        if not isinstance(round_number, int) or round_number < 1:
            raise ValueError("the round number counts from 1")
        discard_mask = game._pack_mask & ~(sum(hand_masks) | sum(c.mask for c in stock_cards))
        game._setup(hand_masks, [0] * players, stock_cards, trump,
                    stock_cards[-1] if stock_cards else None, discard_mask, attacker,
                    round_number=round_number)
        if game._phase != OVER and game._defender_after(attacker) is None:
            raise ValueError(f"seat {attacker} has no one to attack")
        return game

    def _setup(self, hands: list[int], known: list[int], stock: tuple[Card, ...],
               trump: Suit, trump_card: Card | None, discard: int, leader: int, *,
               round_number: int) -> None:
        self._trump = int(trump)
        self._beaters = _BEATERS[trump]
        self._hands = list(hands)   # changed in place: marks hold tuples
        self._known = list(known)
        self._set_stock(tuple(stock))
        self._trump_card = trump_card
        self._discard = discard
        self._att: tuple[Card, ...] = ()
        self._open = 0                                  # unbeaten attack cards
        self._beats: tuple[tuple[Card, Card], ...] = ()  # (attack, beater), as beaten
        self._tmask = 0
        self._tranks = 0
        self._limit = 0
        self._passed = 0
        self._shown = 0
        self._round = round_number
        self._cap_now = self._round_cap()
        self._out = 0 if all(hands) else sum(1 << s for s in range(self.players)
                                             if not hands[s])
        self._loser: int | None = None
        self._phase = LEAD
        self._attacker = self._orig = self._to_move = leader
        self._defender = leader
        if not self._finished():
            self._start_round(leader)
        self._mark()

    # -- public state ----------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """The seat that decides now; ``None`` once the game is over."""
        return None if self._phase == OVER else self._to_move

    @property
    def trump(self) -> Suit:
        return Suit(self._trump)

    @property
    def trump_card(self) -> Card | None:
        """The face-up card that named trump (``None`` only for a position without one)."""
        return self._trump_card

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards still to draw, top first; the last is the face-up trump card."""
        return self._stock[self._drawn:]

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every hand (the whole truth: not for a player's eyes; see ``view``)."""
        return tuple(self.hand(seat) for seat in range(self.players))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """One hand, low cards first and trumps last."""
        trump = self._trump
        return tuple(sorted(cards_of(self._hands[seat]),
                            key=lambda c: (c.suit == trump, _STRENGTH[c.index], c.suit)))

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards everyone knows to be in ``seat``'s hand (taken from the table, shown)."""
        return tuple(cards_of(self._known[seat]))

    @property
    def attacker(self) -> int:
        """The current attacker (after a transfer: the player who transferred)."""
        return self._attacker

    @property
    def original_attacker(self) -> int:
        """The player who led this round; draws first."""
        return self._orig

    @property
    def defender(self) -> int:
        return self._defender

    @property
    def table(self) -> tuple[tuple[Card, Card | None], ...]:
        """(attack card, the card that beat it or ``None``) in the order they were played."""
        beaten = dict(self._beats)
        return tuple((attack, beaten.get(attack)) for attack in self._att)

    @property
    def discard(self) -> tuple[Card, ...]:
        return tuple(cards_of(self._discard))

    @property
    def phase(self) -> str:
        """One of "lead", "defend", "throw-in", "taking", "over"."""
        return PHASES[self._phase]

    @property
    def round_number(self) -> int:
        """Rounds count from 1; the first round may have its own limit and transfer rule."""
        return self._round

    @property
    def limit(self) -> int | None:
        """The most attack cards this round, once fixed by the defence (else ``None``)."""
        return self._limit or None

    @property
    def out(self) -> tuple[int, ...]:
        """Seats that have left the game, their hands empty with no stock to draw."""
        return tuple(s for s in range(self.players) if self._out >> s & 1)

    @property
    def move_stack(self) -> list[Move]:
        """Every move played so far, first to last."""
        return list(self._moves)

    @property
    def teams(self) -> int:
        """The number of sides: the players, or the teams of partners."""
        return self._teams

    def team_of(self, seat: int) -> int:
        """The team of a seat: ``seat % teams`` (without partners each seat is a team)."""
        return self._team[seat]

    @property
    def loser(self) -> int | None:
        """The durak once the game is over; ``None`` for a draw or a game still on."""
        return self._loser

    @property
    def losing_team(self) -> int | None:
        return None if self._loser is None else self._team[self._loser]

    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def is_draw(self) -> bool:
        return self._phase == OVER and self._loser is None

    def outcome(self) -> Outcome | None:
        """The durak's side shares -1, the others share +1; a draw is 0 for all."""
        if self._phase != OVER:
            return None
        n = self.players
        if self._loser is None:
            return Outcome(returns=(0.0,) * n, winners=(),
                           reason="draw: the last defence emptied every hand")
        team = self._team[self._loser]
        losing = [s for s in range(n) if self._team[s] == team]
        lose, win = -1.0 / len(losing), 1.0 / (n - len(losing))
        returns = tuple(lose if self._team[s] == team else win for s in range(n))
        reason = (f"seat {self._loser} is the durak" if len(losing) == 1
                  else f"seat {self._loser} is the durak: team {team} "
                       f"(seats {', '.join(map(str, losing))}) loses")
        return Outcome(returns=returns, winners=tuple(s for s in range(n)
                                                      if self._team[s] != team),
                       reason=reason)

    # -- moves -----------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make (empty once the game is over)."""
        moves = self._legal
        if moves is not None:
            return moves[:]
        # Worked out here, then cached until the next push or pop: a fresh copy each time.
        phase = self._phase
        seat = self._to_move
        hand = self._hands[seat]
        moves = []
        if phase == DEFEND:
            beaters = self._beaters
            open_ = self._open
            while open_:
                low = open_ & -open_
                index = low.bit_length() - 1
                open_ ^= low
                row = _DEFENCES[index]
                m = hand & beaters[index]
                while m:
                    low = m & -m
                    moves.append(row[low.bit_length() - 1])
                    m ^= low
            # once a card is beaten no transfer is possible (unless late transfers are on)
            if not self._beats:
                # every card on the table has the lead's rank: the defender's cards of it
                same = hand & self._tranks
                if same and self._round == 1 and not self._first_transfer:
                    same = 0
            elif self._late:
                rank = self._transfer_rank()
                same = hand & _GROUP[rank] if rank >= 0 else 0
            else:
                same = 0
            if same:
                # ``_defender_after(seat)``, inlined
                hands, team = self._hands, self._team
                mine = team[seat]
                for nd in self._clockwise[seat + 1][1 << seat]:
                    if hands[nd] and team[nd] != mine:
                        break
                else:
                    nd = None
                if nd is not None:
                    room = hands[nd].bit_count() - self._open.bit_count()
                    cap_room = self._cap_now - len(self._att)
                    if cap_room < room:
                        room = cap_room
                    if room > 0:
                        moves.extend(_TRANSFERS_OF[same][room])
                    if self._passport and room >= 0:
                        card = same & _SUIT_MASK[self._trump]
                        if card and not self._shown & card:
                            moves.append(_SHOWS[card.bit_length() - 1])
            moves.append(_TAKE)
            if self._exchange:
                self._add_exchange(moves, hand)
            self._legal = moves
            return moves[:]
        if phase == LEAD:
            room = self._hands[self._defender].bit_count()
            if room > self._cap_now:
                room = self._cap_now
            moves = _attacks(hand, room)
        elif phase == OVER:
            self._legal = moves
            return []
        else:
            candidates = hand & self._tranks
            if candidates:
                room = self._limit - len(self._att)
                single = _ATTACKS_OF.get(candidates)   # the usual case: cards of one rank
                if single is not None:
                    moves.extend(single[room])
                else:
                    moves = _attacks(candidates, room)
            moves.append(_PASS)
        if self._exchange:
            self._add_exchange(moves, hand)
        self._legal = moves
        return moves[:]

    def _generate(self) -> list[Move]:
        """The legal moves now (cached)."""
        self.legal_moves()
        return self._legal

    def is_legal(self, move: Move) -> bool:
        legal = self._legal
        if legal is None:
            legal = self._generate()
        return move in legal

    def push(self, move: Move | str, *, seat: int | None = None) -> None:
        """Play ``move`` (a ``Move`` or its text); with ``seat``, check it is that seat's
        turn.  An illegal move raises ``IllegalMove`` and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._generate()
        if seat is not None or move not in legal:
            move = self._checked(move, seat, legal)
        try:
            kind = move.kind
        except AttributeError:   # an object that says it equals anything is not a move
            raise IllegalMove(f"{move!r} is not a Durak move") from None
        if self._undoing:   # ``_mark(legal)``, inlined: a search pushes and pops a lot
            self._marks.append((len(self._moves), tuple(self._hands), tuple(self._known),
                                self._stock, self._prefix, self._drawn, self._trump_card,
                                self._discard, self._round, self._out, self._loser,
                                self._phase, self._attacker, self._defender, self._orig,
                                self._to_move, self._cap_now, self._att, self._open,
                                self._beats, self._tmask, self._tranks, self._limit,
                                self._passed, self._shown, None if legal is _REPLAY else legal))
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
            self._beats += (move.cards,)
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
            self._defender = self._to_move = self._defender_after(seat)
            self._limit = 0
            return
        else:   # EXCHANGE_
            mask = move.mask
            old = self._trump_card.mask
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

    def _checked(self, move: Move | str, seat: int | None, legal: Any) -> Move:
        """``push``'s checks when the move is not simply a legal ``Move``: read a text,
        check the seat, and explain why an illegal move is refused."""
        if move.__class__ is not Move:
            if isinstance(move, str):
                move = self.parse_move(move)
            else:
                raise IllegalMove(f"{move!r} is not a Durak move")
        if seat is not None and seat != self.to_move:
            if self._phase == OVER:
                raise IllegalMove("the game is over")
            raise IllegalMove(f"it is seat {self._to_move}'s turn, not seat {seat}'s")
        if move not in legal:
            raise IllegalMove(self._why_illegal(move))
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
        while mark[0] > at:
            mark = marks.pop()
        if mark[0] < at:
            marks.append(mark)   # kept: the state to play the moves again from
        (_, hands, known, self._stock, self._prefix, self._drawn, self._trump_card,
         self._discard, self._round, self._out, self._loser, self._phase, self._attacker,
         self._defender, self._orig, self._to_move, self._cap_now, self._att, self._open,
         self._beats, self._tmask, self._tranks, self._limit, self._passed, self._shown,
         self._legal) = mark
        self._hands = list(hands)
        self._known = list(known)
        start = mark[0]
        if start < at:
            again = moves[start:]
            del moves[start:]
            for replayed in again:   # each marked as it is pushed (``_undoing``)
                self._legal = _REPLAY
                self.push(replayed)
            self._legal = None
        return move

    def _mark(self, legal: Any = None) -> None:
        """Mark the whole state after the moves so far (and its legal moves, if known) for
        ``pop`` to go back to."""
        self._marks.append((len(self._moves), tuple(self._hands), tuple(self._known),
                            self._stock, self._prefix, self._drawn, self._trump_card,
                            self._discard, self._round, self._out, self._loser, self._phase,
                            self._attacker, self._defender, self._orig, self._to_move,
                            self._cap_now, self._att, self._open, self._beats, self._tmask,
                            self._tranks, self._limit, self._passed, self._shown,
                            None if legal is _REPLAY else legal))

    def peek(self) -> Move | None:
        """The last move played, if any."""
        return self._moves[-1] if self._moves else None

    def copy(self, *, stack: bool = True) -> Game:
        """An independent game in the same state; without ``stack`` it cannot undo."""
        other = object.__new__(Game)
        for name, value in zip(Game.__slots__, _ALL_STATE(self), strict=True):
            setattr(other, name, value)
        other._hands = list(self._hands)
        other._known = list(self._known)
        if stack:
            other._moves = list(self._moves)
            other._marks = list(self._marks)
        else:
            other._moves = []
            other._marks = []
            other._mark()
        return other

    # -- the engine ------------------------------------------------------------------------
    def _round_cap(self) -> int:
        """The most attack cards any round may hold: six (five in a first round, if so)."""
        return self.rules.first_round_limit if self._round == 1 else ROUND_LIMIT

    def _set_stock(self, stock: tuple[Card, ...]) -> None:
        """A new stock (top first), with the masks of its prefixes for fast drawing."""
        self._stock = stock
        self._drawn = 0
        self._prefix = (0, *accumulate(map(_MASK, stock), or_))

    def _defender_after(self, seat: int) -> int | None:
        """The next player clockwise holding cards who is not ``seat``'s partner."""
        hands, team = self._hands, self._team
        mine = team[seat]
        for other in self._clockwise[seat + 1][1 << seat]:
            if hands[other] and team[other] != mine:
                return other
        return None

    def _throwers(self) -> int:
        """Seats that may add cards now, on public grounds only (a mask)."""
        hands, team = self._hands, self._team
        defender = self._defender
        dteam = team[defender]
        n = self.players
        allowed = 0
        bit = 1
        for seat in range(n):
            if hands[seat] and team[seat] != dteam:
                allowed |= bit
            bit <<= 1
        if self._nb_only:
            near = 1 << self._attacker
            out = self._out
            for step in (1, -1):
                seat = defender
                for _ in range(n - 1):
                    seat = (seat + step) % n
                    if not out >> seat & 1:
                        near |= 1 << seat
                        break
            allowed &= near
        return allowed

    def _close_round(self, taken: bool) -> None:
        # Runs every few moves: ``_finished`` and ``_start_round`` are inlined here (keep
        # them in step).
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
        for other in clockwise[leader + 1][1 << leader]:
            if hands[other] and team[other] != mine:
                break
        else:
            other = None
        self._defender = other

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
        self._phase = LEAD
        self._attacker = self._orig = self._to_move = leader
        self._defender = self._defender_after(leader)

    def _transfer_rank(self) -> int:
        """The rank (index into ``_GROUP``) a transfer must match, or -1 if none may."""
        if self._round == 1 and not self.rules.first_round_transfer:
            return -1
        if not self._beats:
            return _RANK_SHIFT[self._att[0].index] >> 2
        open_ = self._open
        if not self._late or not open_:
            return -1
        rank = (open_ & -open_).bit_length() - 1 >> 2
        return rank if not open_ & ~_GROUP[rank] else -1

    def _add_exchange(self, moves: list[Move], hand: int) -> None:
        exchange = self._exchange_card()
        if exchange is not None and hand & exchange.mask:
            moves.append(_EXCHANGES[exchange.index])

    def _exchange_card(self) -> Card | None:
        """The lowest trump, if it may be swapped for the face-up card now."""
        if len(self._stock) - self._drawn < 2 or self._trump_card is None:
            return None
        card = Card(self._lowest, self._trump)
        return card if card is not self._trump_card else None

    # -- explanations ----------------------------------------------------------------------
    def _why_illegal(self, move: Move) -> str:
        """Why ``move`` is not legal now, in words a player understands."""
        if self._phase == OVER:
            return "the game is over"
        seat, phase, kind = self._to_move, self._phase, move.kind
        hand = self._hands[seat]
        defender = self._defender
        trump = Suit(self._trump)
        missing = move.mask & ~hand
        if kind is EXCHANGE_:
            if not self.rules.trump_six_exchange:
                return "the trump-six exchange is not played under these rules"
            card = move.cards[0]
            if card.suit != trump or _STRENGTH[card.index] != self._lowest:
                return f"only the lowest trump can be exchanged, not {card}"
            if missing:
                return f"seat {seat} does not hold {card}"
            return ("the face-up trump card can no longer be exchanged: it is the last card "
                    "of the stock")
        if phase == LEAD:
            if kind is not ATTACK_:
                return (f"seat {seat} leads this round: attack with one card or several of "
                        f"one rank (there is nothing to {kind.value} yet)")
            if missing:
                return f"seat {seat} does not hold {_text(missing)}"
            count = len(move.cards)
            held = self._hands[defender].bit_count()
            if count > held:
                return (f"the attack would be {count} cards but seat {defender} holds "
                        f"only {held}")
            return f"the attack would be {count} cards; the limit this round is {self._cap_now}"
        if phase == DEFEND:
            if kind is ATTACK_ or kind is PASS_:
                return (f"seat {defender} must beat, transfer or take now; cards can be "
                        "added once every attack card is beaten or the defender takes")
            if kind is DEFEND_:
                attack, beater = move.cards
                if attack not in self._att:
                    return f"{attack} is not an attack card on the table"
                beaten = dict(self._beats).get(attack)
                if beaten is not None:
                    return f"{attack} is already beaten by {beaten}"
                if beater.mask & ~hand:
                    return f"seat {seat} does not hold {beater}"
                if attack.suit == trump and beater.suit != trump:
                    return f"{beater} does not beat {attack}: a trump is beaten only by a " \
                           f"higher trump (trump is {trump})"
                if beater.suit == attack.suit:
                    return f"{beater} does not beat {attack}: it is lower"
                return f"{beater} does not beat {attack}: trump is {trump}"
            return self._why_no_transfer(move, seat, hand)
        # THROW or TAKING
        if kind is not ATTACK_:
            if phase == THROW:
                return (f"every attack card is beaten: seat {seat} may add cards or pass")
            return f"seat {defender} takes: seat {seat} may add cards or pass"
        if missing:
            return f"seat {seat} does not hold {_text(missing)}"
        if not move.mask & self._tranks:
            ranks = sorted({_STRENGTH[c.index] for c in cards_of(self._tmask)})
            names = ", ".join(_rank_name(1 if r == 14 else r) for r in ranks)
            return (f"{move.cards[0]} cannot be added: only ranks on the table ({names}) "
                    "may be added")
        return (f"the attack would be {len(self._att) + len(move.cards)} cards; the limit "
                f"this round is {self._limit}")

    def _why_no_transfer(self, move: Move, seat: int, hand: int) -> str:
        if move.shown and not self.rules.passport:
            return ("a transfer by showing a trump (passport) is not played under these "
                    "rules: play the card")
        if self._round == 1 and not self.rules.first_round_transfer:
            return "you cannot transfer in the first round under these rules"
        rank = self._transfer_rank()
        if rank < 0:
            if not self.rules.late_transfer or not self._open:
                return "you cannot transfer: an attack card is already beaten"
            return "you cannot transfer: the unbeaten attack cards are not all of one rank"
        name = _rank_name(rank + 1)
        if any(_RANK_SHIFT[c.index] >> 2 != rank for c in move.cards):
            return f"you cannot transfer with {move.cards[0]}: the attack is of {name}s"
        missing = move.mask & ~hand
        if missing:
            return f"seat {seat} does not hold {_text(missing)}"
        if move.shown:
            card = move.cards[0]
            if card.suit != self._trump:
                return f"{card} is not a trump: only a trump can be shown to transfer"
            if self._shown & card.mask:
                return f"{card} was already shown this round"
        nd = self._defender_after(seat)
        if nd is None:
            return "you cannot transfer: no one can take over the defence"
        faced = self._open.bit_count() + (0 if move.shown else len(move.cards))
        total = len(self._att) + (0 if move.shown else len(move.cards))
        held = self._hands[nd].bit_count()
        if faced > held:
            return (f"you cannot transfer: seat {nd} holds {held} "
                    f"card{'s' if held != 1 else ''} and the attack would be {faced}")
        return (f"you cannot transfer: the attack would be {total} cards and the limit this "
                f"round is {self._cap_now}")

    # -- text ------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """Read a move in context: full forms (``defend 9♣ with J♣``) and short ones (a bare
        ``9d`` or ``beat J♣`` when only one legal move fits)."""
        try:
            kind, shown, cards = split_move_text(text)
        except MoveError as error:
            raise IllegalMove(str(error)) from None
        legal = self.legal_moves()
        short = kind is None or (kind is DEFEND_ and len(cards) < 2) or (
            not cards and kind in (ATTACK_, TRANSFER_, EXCHANGE_))
        if not short:
            try:
                move = Move(kind, cards, shown=shown)
            except MoveError as error:
                raise IllegalMove(str(error)) from None
            if move in legal:
                return move
            raise IllegalMove(self._why_illegal(move))
        fits = [m for m in legal if _fits(m, kind, shown, cards)]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            if self._phase == OVER:
                raise IllegalMove("the game is over")
            raise IllegalMove(f"no legal move fits {text!r}; the legal moves are: "
                              + ", ".join(map(str, legal)))
        raise IllegalMove(f"{text!r} could mean " + ", ".join(map(str, fits))
                          + ": say which")

    def __repr__(self) -> str:
        return (f"<durak.Game players={self.players} round={self._round} "
                f"phase={PHASES[self._phase]} to_move={self.to_move}>")

    # -- what a seat may see ---------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as plain JSON-able data."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat}: seats are 0 to {self.players - 1}")
        over = self._phase == OVER
        data: dict[str, Any] = {
            "game": "durak",
            "players": self.players,
            "seat": seat,
            "phase": PHASES[self._phase],
            "round": self._round,
            "to_move": self.to_move,
            "attacker": None if over else self._attacker,
            "original_attacker": None if over else self._orig,
            "defender": None if over else self._defender,
            "trump": Suit(self._trump).symbol,
            "trump_card": self._trump_card.text if self._trump_card else None,
            "trump_card_in_stock": self._drawn < len(self._stock),
            "stock": len(self._stock) - self._drawn,
            "discard": self._discard.bit_count(),
            "hand": [c.text for c in self.hand(seat)] if seat is not None else None,
            "hand_sizes": [h.bit_count() for h in self._hands],
            "known": [[c.text for c in cards_of(k)] for k in self._known],
            "table": [[a.text, d.text if d else None] for a, d in self.table],
            "limit": self._limit or None,
            "shown": [c.text for c in cards_of(self._shown)],
            "passed": [s for s in range(self.players) if self._passed >> s & 1],
            "out": list(self.out),
            "teams": [self._team[s] for s in range(self.players)] if self.rules.partners
            else None,
            "loser": self._loser,
            "draw": self.is_draw,
            "legal_moves": [str(m) for m in self.legal_moves()]
            if seat is not None and seat == self.to_move else [],
        }
        return data

    def determinize(self, seat: int | None, rng: random.Random | int | None = None) -> Game:
        """A full game consistent with what ``seat`` has seen (``None``: a spectator): the
        other hands and the stock are dealt at random from the unseen cards, but cards known
        to be in a hand (taken from the table, shown) stay there.  It cannot undo past
        this point."""
        rng = make_rng(rng)
        other = self.copy(stack=False)
        other.deck = None
        hands, known = self._hands, self._known
        remaining = len(self._stock) - self._drawn
        bottom = self._stock[-1] if remaining else None
        fixed = self._tmask | self._discard | (bottom.mask if bottom else 0)
        if seat is not None:
            fixed |= hands[seat]
        for s in range(self.players):
            if s != seat:
                fixed |= known[s] & hands[s]
        unseen = cards_of(self._pack_mask & ~fixed)
        rng.shuffle(unseen)
        at = 0
        new_hands = list(hands)
        for s in range(self.players):
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
        other._hands = new_hands
        other._set_stock(stock)
        other._legal = None
        other._marks = []
        other._mark()
        return other


_ALL_STATE = attrgetter(*Game.__slots__)


class _Replay:
    """Stands for the legal moves while ``pop`` plays moves again: they were legal."""

    __slots__ = ()

    def __contains__(self, move: object) -> bool:
        return True


_REPLAY = _Replay()


def _fits(move: Move, kind: MoveKind | None, shown: bool, cards: list[Card]) -> bool:
    """Whether a short text (keyword and/or some cards) describes ``move``."""
    if kind is not None and (move.kind is not kind or move.shown != shown):
        return False
    if not cards:
        return kind is not None
    if move.kind is DEFEND_:
        if len(cards) == 2:
            return tuple(cards) == move.cards
        return len(cards) == 1 and (cards[0] is move.cards[1]
                                    or (kind is DEFEND_ and cards[0] is move.cards[0]))
    return set(cards) == set(move.cards)
