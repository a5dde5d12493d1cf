"""The state of a game of Transfer Durak, and everything that only reads it.

``State`` holds a game's fields (slots: the fixed facts, then what the moves change) and
answers questions about them: the public properties, the outcome, what a seat may see
(``view``), and the rules of turn order that only read (who defends after a seat, who may
throw in, what may be transferred).  ``Game`` (``game.py``) adds the moves that change it;
a ``Snapshot`` (``snapshot.py``) saves what they change, for ``pop``.

>>> from cardtable.durak.game import Game
>>> game = Game.from_position(hands=["9♣ 7♦", "10♦ 6♠"], trump="♥", attacker=0)
>>> isinstance(game, State), game.phase, game.to_move, game.defender
(True, 'lead', 0, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..cards import Card, Suit, cards_of
from ..game import Outcome
from .moves import Move
from .rules import ROUND_LIMIT, Rules
from .tables import (
    ATTACKS_OF,
    DEFENCES,
    DEFEND,
    EXCHANGES,
    GROUP,
    LEAD,
    OVER,
    PASS,
    PHASES,
    RANK_SHIFT,
    SHOWS,
    STRENGTH,
    SUIT_MASK,
    TAKE,
    TRANSFERS_OF,
    attacks,
    pack_facts,
    seating,
)

if TYPE_CHECKING:
    from .snapshot import BetweenRounds, Snapshot

__all__ = ["State"]


class State:
    """A game's fields and the questions they answer; see ``Game`` for the moves.

    Seats are numbered clockwise: seat ``i + 1`` is seat ``i``'s left neighbour.
    """

    # Slots, not a __dict__: a game has more attributes than CPython's shared-key instance
    # dicts hold (30), so without them every attribute access on the hot path is slower.
    __slots__ = ("_att", "_attacker", "_beaters", "_beats", "_between", "_cap_now",
                 "_clockwise", "_defender", "_discard", "_drawn", "_exchange",
                 "_first_transfer", "_hands", "_known", "_late", "_legal", "_limit", "_loser",
                 "_lowest", "_marks", "_moves", "_nb_only", "_open", "_orig", "_out", "_pack",
                 "_pack_mask", "_passed", "_passport", "_phase", "_prefix", "_round", "_shown",
                 "_simple_throw", "_stock", "_team", "_teams", "_tmask", "_to_move", "_tranks",
                 "_trump", "_trump_card", "_undoing", "dealer", "deck", "players",
                 "previous_loser", "rules")

    # The fixed facts, set once by ``__init__`` (copies share them).
    rules: Rules
    players: int
    deck: tuple[Card, ...] | None
    """The deal order: ``Game.new(rules, players=..., deck=game.deck, dealer=game.dealer,
    loser=game.previous_loser)`` deals this game again (``None`` for a position)."""
    dealer: int | None
    previous_loser: int | None
    """The last game's durak, if this game was dealt after it: it dealt, its left neighbour
    led."""
    _teams: int
    _team: tuple[int, ...]
    _clockwise: tuple[tuple[tuple[int, ...], ...], ...]
    _pack: tuple[Card, ...]
    _pack_mask: int
    _lowest: int
    _nb_only: bool
    _passport: bool
    _late: bool
    _first_transfer: bool
    _exchange: bool
    _simple_throw: bool
    _trump: int
    _beaters: tuple[int, ...]
    # The state: what ``push`` changes and a ``Snapshot`` saves.
    _hands: list[int]
    """Each seat's cards (a mask), changed in place."""
    _known: list[int]
    """The cards everyone knows to be in each hand (taken, shown, the face-up card drawn)."""
    _stock: tuple[Card, ...]
    _prefix: tuple[int, ...]
    """The masks of the stock's prefixes, for drawing several cards at once."""
    _drawn: int
    _trump_card: Card | None
    _discard: int
    _round: int
    _out: int
    """The seats that have left the game (a mask)."""
    _loser: int | None
    _phase: int
    _attacker: int
    _defender: int
    _orig: int
    _to_move: int
    _cap_now: int
    """The most attack cards this round may hold before the defence starts."""
    _att: tuple[Card, ...]
    """The attack cards, in the order played."""
    _open: int
    """The attack cards not beaten yet (a mask)."""
    _beats: tuple[tuple[Card, Card], ...]
    """(attack card, the card that beat it), in the order beaten."""
    _tmask: int
    """Every card on the table (a mask)."""
    _tranks: int
    """The four cards of each rank on the table (a mask): what may be added."""
    _limit: int
    """The most attack cards once the defence has started; 0 before."""
    _passed: int
    """The throwers who passed since the last card was added (a mask)."""
    _shown: int
    """The trumps shown for passport transfers this round (a mask)."""
    _legal: list[Move] | None
    """The legal moves, once asked for, until the next push or pop."""
    _between: BetweenRounds | None
    """The fields only a round's end or an exchange changes, as saved for snapshots; set
    to ``None`` whenever one of them changes (``_set_stock``, ``_close_round``)."""
    # The history.
    _moves: list[Move]
    _marks: list[Snapshot]
    """Snapshots for ``pop``: the start (or the copy's), then one per move once undone."""
    _undoing: bool
    """Set by the first ``pop``: from then on ``push`` saves a snapshot of every move."""

    def __init__(self, rules: Rules, players: int) -> None:
        """Use ``Game.new`` or ``Game.from_position``: this only sets the fixed facts."""
        self.rules = rules
        self.players = players
        teams = rules.teams(players)
        self._teams = teams
        self._team, self._clockwise = seating(players, teams)
        self._pack, self._pack_mask, self._lowest = pack_facts(rules.pack_size)
        self._nb_only = rules.neighbours_only
        self._passport = rules.passport
        self._late = rules.late_transfer
        self._first_transfer = rules.first_round_transfer
        self._exchange = rules.trump_six_exchange
        self._simple_throw = not (rules.neighbours_only or rules.partners)
        self.deck = None
        self.dealer = None
        self.previous_loser = None
        self._moves = []
        self._marks = []
        self._undoing = False
        self._legal = None

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
                            key=lambda c: (c.suit == trump, STRENGTH[c.index], c.suit)))

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

    @property
    def draw_reason(self) -> str | None:
        """Why a drawn game ended, in words (``None`` unless it is a draw): the last
        defence emptied every hand, or ``rules.max_rounds`` rounds ended with no durak
        (then cards are still held)."""
        if not self.is_draw:
            return None
        if any(self._hands):
            return (f"draw: the round limit ({self.rules.max_rounds}, the rule option "
                    f"max_rounds) was reached with no durak")
        return "draw: the last defence emptied every hand"

    def outcome(self) -> Outcome | None:
        """The durak's side shares -1, the others share +1; a draw is 0 for all."""
        if self._phase != OVER:
            return None
        n = self.players
        if self._loser is None:
            reason = self.draw_reason
            assert reason is not None   # (over without a durak: a draw)
            return Outcome(returns=(0.0,) * n, winners=(), reason=reason)
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

    def __repr__(self) -> str:
        return (f"<durak.Game players={self.players} round={self._round} "
                f"phase={PHASES[self._phase]} to_move={self.to_move}>")

    # -- legal moves -----------------------------------------------------------------------
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
                row = DEFENCES[index]
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
                same = hand & GROUP[rank] if rank >= 0 else 0
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
                        moves.extend(TRANSFERS_OF[same][room])
                    if self._passport and room >= 0:
                        card = same & SUIT_MASK[self._trump]
                        if card and not self._shown & card:
                            moves.append(SHOWS[card.bit_length() - 1])
            moves.append(TAKE)
            if self._exchange:
                self._add_exchange(moves, hand)
            self._legal = moves
            return moves[:]
        if phase == LEAD:
            room = self._hands[self._defender].bit_count()
            if room > self._cap_now:
                room = self._cap_now
            moves = attacks(hand, room)
        elif phase == OVER:
            self._legal = moves
            return []
        else:
            candidates = hand & self._tranks
            if candidates:
                room = self._limit - len(self._att)
                single = ATTACKS_OF.get(candidates)   # the usual case: cards of one rank
                if single is not None:
                    moves.extend(single[room])
                else:
                    moves = attacks(candidates, room)
            moves.append(PASS)
        if self._exchange:
            self._add_exchange(moves, hand)
        self._legal = moves
        return moves[:]

    def _generate(self) -> list[Move]:
        """The legal moves now, cached (not a copy: for ``push``)."""
        self.legal_moves()
        return cast(list[Move], self._legal)   # just filled by ``legal_moves``

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

    # -- turn order (read only) -----------------------------------------------------------
    def _round_cap(self) -> int:
        """The most attack cards any round may hold: six (five in a first round, if so)."""
        return self.rules.first_round_limit if self._round == 1 else ROUND_LIMIT

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

    def _transfer_rank(self) -> int:
        """The rank (index into ``GROUP``) a transfer must match, or -1 if none may."""
        if self._round == 1 and not self.rules.first_round_transfer:
            return -1
        if not self._beats:
            return RANK_SHIFT[self._att[0].index] >> 2
        open_ = self._open
        if not self._late or not open_:
            return -1
        rank = (open_ & -open_).bit_length() - 1 >> 2
        return rank if not open_ & ~GROUP[rank] else -1

    def _add_exchange(self, moves: list[Move], hand: int) -> None:
        exchange = self._exchange_card()
        if exchange is not None and hand & exchange.mask:
            moves.append(EXCHANGES[exchange.index])

    def _exchange_card(self) -> Card | None:
        """The lowest trump, if it may be swapped for the face-up card now."""
        if len(self._stock) - self._drawn < 2 or self._trump_card is None:
            return None
        card = Card(self._lowest, self._trump)
        return card if card is not self._trump_card else None
