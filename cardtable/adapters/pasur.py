# size: the episode and the learned policy's features read one layout; they stay together
"""Pasur as a research episode: one hand, dealt card by card, decided in small ints.

The deal is a run of chance nodes, one card each, in the engine's deal order: the
leader's 4 cards, each following seat's 4, then the 4 opening table cards.  The opening
table rule of the preset then applies (``cardtable.pasur.opening_step``, the engine's
rule): a jack that must go back is returned to the stock (everyone sees it go) and a chance
node deals its replacement from the rest of the stock; a redeal starts the deal over; a
table redeal sends the 4 table cards back into the stock (everyone sees them go) and deals
the table again, card by card.  Each later deal round is dealt the same way, card by card,
when the hands run out, so the stock's order is never drawn before it is dealt.

Actions (``NUM_ACTIONS`` = 105):

- ``0..51`` play the card with that index (``card.index``: A♣ 0, A♦ 1, ..., K♠ 51).  If
  the card has one legal move (it stays on the table, or it has one capture) the move is
  made at once.
- When it has several, the same seat names what it takes, lowest card first:
  ``52 + i`` takes table card ``i``; naming a card that leaves a single capture possible
  completes it.  ``104`` (stop) takes exactly the cards named so far, and with none named
  leaves the card on the table (when the rules let a card that can capture stay).

Returns: per seat, its side's points for the hand minus the mean points of the other
sides (two players: the points difference).  Zero-sum.

>>> import random
>>> episode = PasurEpisode("standard", players=2)
>>> episode.current_player()
-1
>>> episode.apply_chance(random.Random(3))
>>> episode.current_player(), len(episode.history)
(0, 12)
>>> episode.legal_actions()
[8, 15, 35, 38]
>>> [episode.action_text(action) for action in episode.legal_actions()]
['play 3♣', 'play 4♠', 'play 9♠', 'play 10♥']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

import numpy as np

from .. import games
from .._engine import load_core
from ..cards import CARDS, Card, cards_of, format_cards, mask_of
from ..game import IllegalMove
from ..pasur import Hand, Move, Rules, move_options, opening_step, sur_cards
from ..pasur.engine import CompiledHand
from ..pasur.scoring import CLUBS_MASK, card_points
from . import tensors
from .base import CHANCE, TERMINAL, Episode, Layout, bits, nth_card
from .base import DEAL as _DEAL
from .base import OVER as _OVER
from .base import PLAY as _PLAY

__all__ = ["NUM_ACTIONS", "PER_CARD", "STOP", "TAKE", "CompiledPasurEpisode", "PasurEpisode",
           "PasurFeatures", "max_points"]

NUM_ACTIONS = 105
TAKE = 52
"""``TAKE + i``: take table card ``i`` (while choosing a capture)."""
STOP = 104
"""Take exactly the cards named so far (none named: the card stays on the table)."""

_ALL = (1 << 52) - 1
_SPEC = games.get("pasur")


_OBSERVATION = ("player", "to_move", "hand", "table", "captured", "pending", "picked",
                "surs", "hand_sizes", "round", "stock", "last_capturer")
"""The observation's pieces in the order ``PasurEpisode.pieces`` reads their starts."""
_STARTS = ("starts", "observation")
_COMPILED: Any = CompiledHand if hasattr(CompiledHand, "_by_card") else None
"""The compiled hand where its core has the episode's calls (one built before them, left
unrebuilt, plays through the Python reading)."""


def _taken_by(move: Move) -> int:
    return move.taken


def max_points(rules: Rules, sides: int) -> int:
    """An upper bound on one side's points in a hand: every counting card, the bonus and a
    sur on every one of its plays."""
    counting = (rules.bonus_points + 4 * rules.ace_points + 4 * rules.jack_points
                + rules.two_clubs_points + rules.ten_diamonds_points
                + rules.seven_diamonds_points)
    return counting + rules.sur_points * (48 // sides)


def _consistent(taken: int, picked: int) -> bool:
    """Whether a capture starts with the cards named so far (named lowest first)."""
    return taken & ((1 << picked.bit_length()) - 1) == picked


class PasurEpisode(Episode):
    """One hand of Pasur as chance nodes and int decisions (see the module docstring).

    ``preset`` names the rules (``cardtable.pasur.PRESETS``); ``rules`` overrides them with
    any ``Rules``.  ``leader`` is the seat that plays first (and is dealt first).
    """

    game = "pasur"
    num_actions = NUM_ACTIONS
    count_pieces = ("surs", "hand_sizes", "stock")
    """Pieces that hold counts (0 to 52); every other piece holds 0 or 1."""

    def __init__(self, preset: str = "standard", players: int = 2, leader: int = 0,
                 rules: Rules | None = None) -> None:
        self.preset = preset
        self.custom = rules
        self.rules = rules if rules is not None else _SPEC.rules(preset)
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
        self.rules.check_players(players)
        if isinstance(leader, bool) or not isinstance(leader, int) \
                or not 0 <= leader < players:
            raise ValueError(f"leader must be a seat from 0 to {players - 1}, not {leader!r}")
        self.players = players
        self.leader = leader
        self.sides = self.rules.sides(players)
        self.rounds = 48 // (4 * players)
        self.order = tuple((leader + k) % players for k in range(players))
        self._layouts = {}
        self._fresh()

    def __new__(cls, *args: Any, **kwargs: Any) -> PasurEpisode:
        """A ``PasurEpisode`` is the compiled one (``CompiledPasurEpisode``: the whole
        episode in the core) where the compiled hand runs, else this class."""
        if cls is PasurEpisode and _CORE_EPISODE and Hand is _COMPILED:
            return EpisodeCore.__new__(CompiledPasurEpisode)
        return super().__new__(cls)

    def _fresh(self) -> None:
        """The state before the first card is dealt (the compiled episode keeps it in its
        core)."""
        self.history: list[int] = []
        self._phase = _DEAL
        self._round = 1
        self._dealt: list[Card] = []     # this deal round's cards so far, in deal order
        self._pool = _ALL                # cards not dealt yet
        self._exclude = 0                # a returned jack its own replacement cannot be
        self._slot = -1                  # the opening table slot being refilled, if any
        self._replaced = False
        self._returned = 0               # cards seen going back into the stock
        self._redeals = 0
        self._tables: list[int] = []     # opening tables dealt again (table redeals)
        self._opening = 0
        self._deals = [[0] * self.rounds for _ in range(self.players)]
        self._held = [0] * self.players  # each seat's cards while seats play (as masks)
        self._chance: list[tuple[int, int, int, int]] = []   # (history index, seat, round,
        # attempt); seat -1 for a table card
        self._hand: Hand | None = None
        self._by_card: dict[int, tuple[Move, ...]] = {}
        self._pending = -1
        self._picked = 0
        self._plays: list[tuple[int, Move]] = []

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"preset": self.preset, "players": self.players,
                               "leader": self.leader}
        if self.custom is not None:
            out["rules"] = self.custom
        return out

    _lists: ClassVar[tuple[str, ...]] = ("_dealt", "_chance", "_plays", "_tables", "_held")

    def _copy_more(self, other: PasurEpisode) -> None:
        other._deals = [row[:] for row in self._deals]
        other._hand = self._hand.copy() if self._hand is not None else None

    def _inner(self) -> Hand | None:
        return self._hand

    @property
    def _hand_dealt(self) -> Hand:
        """The engine's hand, which exists from the end of the first deal round on (while
        a later round is dealt it still holds the table, the piles and the score)."""
        hand = self._hand
        assert hand is not None, "the first deal round is not complete yet"
        return hand

    # -- whose turn, and what they may do ---------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase != _DEAL:
            return []
        return tensors.outcomes(self._pool & ~self._exclude)

    def sample_chance(self, rng: random.Random) -> int:
        cards = self._pool & ~self._exclude
        return nth_card(cards, rng.randrange(cards.bit_count()))

    def apply_chance(self, rng: random.Random) -> None:
        """Deal at chance nodes with ``rng`` until a seat decides (``Episode.apply_chance``:
        the same cards from the same draws), without ``apply``'s steps per card."""
        history = self.history
        while self._phase == _DEAL:
            cards = self._pool & ~self._exclude
            index = nth_card(cards, rng.randrange(cards.bit_count()))
            self._deal(index)
            history.append(index)

    def current_player(self) -> int:
        if self._phase == _PLAY:
            hand: Any = self._hand
            seat: int = hand.to_move
            return seat
        return CHANCE if self._phase == _DEAL else TERMINAL

    def legal_actions(self) -> list[int]:
        if self._phase == _DEAL:
            return [card.index for card in cards_of(self._pool & ~self._exclude)]
        if self._phase == _OVER:
            return []
        if self._pending < 0:
            return sorted(self._by_card)
        out = [TAKE + (bit.bit_length() - 1) for bit in sorted(self._next_picks())]
        if any(move.taken == self._picked for move in self._by_card[self._pending]):
            out.append(STOP)
        return out

    def _next_picks(self) -> set[int]:
        picked = self._picked
        out = set()
        for move in self._by_card[self._pending]:
            rest = move.taken & ~picked
            if rest and _consistent(move.taken, picked):
                out.add(rest & -rest)
        return out

    # -- playing ------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        action = int(action)
        if self._phase == _DEAL:
            self._deal(action)
        elif self._phase == _PLAY:
            self._decide(action)
        else:
            raise IllegalMove("the hand is over")
        self.history.append(action)

    def _deal(self, index: int) -> None:
        if not 0 <= index < 52 or not (self._pool & ~self._exclude) >> index & 1:
            what = CARDS[index].text if 0 <= index < 52 else repr(index)
            raise IllegalMove(f"{what} cannot be dealt now: it is not in the stock"
                              + (" (a returned jack cannot replace itself)"
                                 if 0 <= index < 52 and self._exclude >> index & 1 else ""))
        card = CARDS[index]
        self._pool ^= card.mask
        seat = -1
        four = 4 * self.players
        dealt, deal_round = self._dealt, self._round
        if self._slot >= 0:
            dealt[four + self._slot] = card
            self._slot, self._exclude, self._replaced = -1, 0, True
        else:
            k = len(dealt)
            dealt.append(card)
            if k < four:
                seat = self.order[k // 4]
                self._deals[seat][deal_round - 1] |= card.mask
        self._chance.append((len(self.history), seat, deal_round, self._redeals))
        if deal_round == 1:
            if len(dealt) == four + 4 and self._slot < 0:
                self._check_opening()
        elif len(dealt) == four:
            self._start_round()

    def _check_opening(self) -> None:
        four = 4 * self.players
        table = self._dealt[four:]
        step = opening_step(self.rules, table, replaced=self._replaced)
        if step.action == "redeal":
            self._redeals += 1
            self._pool, self._dealt, self._replaced, self._returned = _ALL, [], False, 0
            self._tables = []
            for row in self._deals:
                row[0] = 0
        elif step.action == "redeal_table":
            back = mask_of(table)
            self._tables.append(back)
            self._pool |= back
            self._returned |= back
            self._dealt = self._dealt[:four]
        elif step.action == "keep":
            self._opening = mask_of(table)
            self._start_round()
        else:
            assert step.slot is not None
            jack = table[step.slot]
            self._pool |= jack.mask
            self._exclude = jack.mask
            self._returned |= jack.mask
            self._slot = step.slot

    def _start_round(self) -> None:
        """The deal round is complete: build the engine's hand from the position."""
        four = 4 * self.players
        held = [0] * self.players
        for k, card in enumerate(self._dealt[:four]):
            held[self.order[k // 4]] |= card.mask
        # (the stock: only its size matters, each round is dealt here)
        if self._round == 1:
            self._hand = Hand.from_masks(self.rules, held=held,
                                         table=mask_of(self._dealt[four:]), stock=self._pool,
                                         leader=self.leader, deal_round=1)
        else:
            prev = self._hand_dealt
            self._hand = Hand.from_masks(
                self.rules, held=held, table=prev.table_mask, stock=self._pool,
                leader=self.leader, captured=prev.captured_masks, surs=prev.surs,
                last_capturer=prev.last_capturer, deal_round=self._round)
        self._held = held
        self._dealt = []
        self._phase = _PLAY
        self._refresh()

    def _refresh(self) -> None:
        hand: Any = self._hand
        if type(hand) is _COMPILED:   # the core groups and sorts them in one call
            self._by_card = hand._by_card()
            return
        # most cards have one move: only a card with several sorts them (by what they take)
        by_card: dict[int, tuple[Move, ...]] = {}
        several = []
        for move in self._hand_dealt.legal_moves():
            index = move.index
            found = by_card.get(index)
            if found is None:
                by_card[index] = (move,)
            else:
                by_card[index] = (*found, move)
                several.append(index)
        for index in several:
            by_card[index] = tuple(sorted(by_card[index], key=_taken_by))
        self._by_card = by_card

    def _decide(self, action: int) -> None:
        if self._pending < 0:
            seat = self._hand_dealt.to_move
            if not 0 <= action < 52:
                raise IllegalMove(f"seat {seat} plays a card first (actions 0 to 51), "
                                  f"not {self.action_text(action)}")
            moves = self._by_card.get(action)
            if moves is None:
                raise IllegalMove(f"seat {seat} does not hold {CARDS[action]}")
            if len(moves) == 1:
                self._push(moves[0])
            else:
                self._pending, self._picked = action, 0
            return
        moves = self._by_card[self._pending]
        card = CARDS[self._pending]
        if action == STOP:
            move = next((m for m in moves if m.taken == self._picked), None)
            if move is None:
                named = format_cards(cards_of(self._picked))
                raise IllegalMove(f"{card} cannot take just {named or 'nothing'}: name more "
                                  "cards; the choices are: "
                                  + "; ".join(str(m) for m in moves))
            self._push(move)
            return
        if not TAKE <= action < STOP:
            seat = self._hand_dealt.to_move
            raise IllegalMove(f"seat {seat} is choosing what {card} takes: take a table card "
                              f"(52 + its index) or stop (104), not {action}")
        bit = 1 << (action - TAKE)
        if bit not in self._next_picks():
            raise IllegalMove(f"{card} cannot take {CARDS[action - TAKE]} next (cards are "
                              "named lowest first); the choices are: "
                              + "; ".join(str(m) for m in moves))
        picked = self._picked | bit
        left = [m for m in moves if _consistent(m.taken, picked)]
        if len(left) == 1:
            self._push(left[0])
        else:
            self._picked = picked

    def _push(self, move: Move) -> None:
        hand: Any = self._hand
        seat = hand.to_move
        assert seat is not None, "a move is pushed only while the hand goes on"
        before = hand.deal_round
        hand.push(move)
        self._held[seat] &= ~(1 << move.index)
        self._plays.append((seat, move))
        self._pending, self._picked = -1, 0
        if hand.is_over():
            self._phase = _OVER
        elif hand.deal_round != before:
            self._phase = _DEAL
            self._round += 1
        if self._phase == _PLAY:
            self._refresh()
        else:   # (no seat decides until the next deal round starts, which lists them)
            self._by_card = {}

    # -- moves and actions --------------------------------------------------------------

    @property
    def engine(self) -> Hand | None:
        """The engine's hand while a seat decides (``None`` before the first deal ends;
        stale while a later deal round is being dealt)."""
        return self._hand

    def legal_moves(self) -> list[Move]:
        """The engine moves open to the seat to move (empty at chance nodes)."""
        if self._phase != _PLAY:
            return []
        return [move for index in sorted(self._by_card) for move in self._by_card[index]]

    @property
    def choosing(self) -> tuple[Card, list[Card]] | None:
        """While a played card's capture is being chosen: the card and the cards named."""
        if self._pending < 0:
            return None
        return CARDS[self._pending], cards_of(self._picked)

    def move_so_far(self) -> list[int]:
        if self._pending < 0:
            return []
        picked = [card.index + TAKE for card in cards_of(self._picked)]
        return [self._pending, *picked]

    def actions_for(self, move: Move) -> list[int]:
        """The actions that make ``move`` from a decision node with nothing chosen yet."""
        if self._phase != _PLAY or self._pending >= 0:
            raise IllegalMove("actions_for needs a decision node with no card chosen yet")
        moves = self._by_card.get(move.index, ())
        if move not in moves:
            raise IllegalMove(f"{move} is not legal now")
        out = [move.index]
        if len(moves) == 1:
            return out
        picked = 0
        left: Sequence[Move] = moves
        rest = move.taken
        while rest:
            bit = rest & -rest
            rest ^= bit
            picked |= bit
            out.append(TAKE + bit.bit_length() - 1)
            left = [m for m in left if _consistent(m.taken, picked)]
            if len(left) == 1:
                return out
        out.append(STOP)
        return out

    def action_text(self, action: int, player: int | None = None) -> str:
        action = int(action)
        if player == CHANCE:
            return f"deal {CARDS[action]}" if 0 <= action < 52 else f"deal {action}?"
        if 0 <= action < 52:
            return f"play {CARDS[action]}"
        if TAKE <= action < STOP:
            return f"take {CARDS[action - TAKE]}"
        if action == STOP:
            return "stop"
        return f"action {action} (not a Pasur action)"

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """(seat, move) for every move made this hand."""
        return self._plays[:]

    # -- results ------------------------------------------------------------------------

    def points(self) -> list[int] | None:
        """Points per side once the hand is over."""
        return self._hand_dealt.score() if self._phase == _OVER else None

    def returns(self) -> list[float]:
        if self._phase != _OVER:
            return [0.0] * self.players
        points = self._hand_dealt.score()
        total, others = sum(points), self.sides - 1
        return [float(points[seat % self.sides]
                      - (total - points[seat % self.sides]) / others)
                for seat in range(self.players)]

    # -- what a seat sees ---------------------------------------------------------------

    def _hands_now(self) -> list[int]:
        if self._phase == _PLAY:
            return self._hand_dealt.hand_masks
        masks = [0] * self.players
        if self._phase == _DEAL:
            for k, card in enumerate(self._dealt[:4 * self.players]):
                masks[self.order[k // 4]] |= card.mask
        return masks

    def _table_now(self) -> int:
        if self._phase == _DEAL and self._round == 1:
            return mask_of(self._dealt[4 * self.players:])
        return self._hand_dealt.table_mask

    # The engine's hand holds the piles, surs and last capturer from the first deal on
    # (while a later round is dealt, its table and piles are still right).

    def _piles(self) -> list[int]:
        return self._hand.captured_masks if self._hand is not None else [0] * self.sides

    def _sur_counts(self) -> list[int]:
        return self._hand.surs if self._hand is not None else [0] * self.sides

    def _last_capturer(self) -> int | None:
        return self._hand.last_capturer if self._hand is not None else None

    def _stock_size(self) -> int:
        return self._pool.bit_count()

    def layout(self, kind: str = "observation", private: str = "single") -> Layout:
        self._check_view(kind, private)
        n, s, r = self.players, self.sides, self.rounds
        if kind == "observation":
            pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,)), ("to_move", (n,))]
            if private == "single":
                pieces.append(("hand", (52,)))
            elif private == "all":
                pieces.append(("hands", (n, 52)))
            pieces += [("table", (52,)), ("captured", (s, 52)), ("pending", (52,)),
                       ("picked", (52,)), ("surs", (s,)), ("hand_sizes", (n,)),
                       ("round", (r,)), ("stock", (1,)), ("last_capturer", (n,))]
            return Layout(pieces)
        pieces = [("player", (n,))]
        if private == "single":
            pieces.append(("deals", (r, 52)))
        elif private == "all":
            pieces.append(("all_deals", (n, r, 52)))
        pieces += [("opening", (52,)), ("returned", (52,)), ("plays", (48, 104)),
                   ("pending", (52,)), ("picked", (52,))]
        return Layout(pieces)

    def write(self, views: dict[str, np.ndarray], seat: int, kind: str = "observation",
              private: str = "single") -> None:
        self._check_seat(seat)
        self._check_view(kind, private)
        views["player"][seat] = 1.0
        if self._pending >= 0:
            views["pending"][self._pending] = 1.0
            bits(views["picked"], self._picked)
        if kind == "observation":
            mover = self.current_player()
            if mover >= 0:
                views["to_move"][mover] = 1.0
            hands = self._hands_now()
            if private == "single":
                bits(views["hand"], hands[seat])
            elif private == "all":
                for other, mask in enumerate(hands):
                    bits(views["hands"][other], mask)
            bits(views["table"], self._table_now())
            for side, mask in enumerate(self._piles()):
                bits(views["captured"][side], mask)
            views["surs"][:] = self._sur_counts()
            views["hand_sizes"][:] = [mask.bit_count() for mask in hands]
            views["round"][self._round - 1] = 1.0
            views["stock"][0] = self._stock_size()
            last = self._last_capturer()
            if last is not None:
                views["last_capturer"][last] = 1.0
            return
        if private == "single":
            for number, mask in enumerate(self._deals[seat]):
                bits(views["deals"][number], mask)
        elif private == "all":
            for other in range(self.players):
                for number, mask in enumerate(self._deals[other]):
                    bits(views["all_deals"][other, number], mask)
        dealing_opening = self._phase == _DEAL and self._round == 1
        bits(views["opening"], self._table_now() if dealing_opening else self._opening)
        bits(views["returned"], self._returned)
        plays = views["plays"]
        for k, (_, move) in enumerate(self._plays):
            plays[k, move.index] = 1.0
            bits(plays[k, 52:], move.taken)

    def pieces(self, seat: int, kind: str = "observation", private: str = "single"
               ) -> tuple[tuple[int, ...], tuple[Any, ...]] | None:
        """The seat's observation or information state as masks and values
        (``Episode.pieces``); the views with other seats' cards go through ``write``."""
        if private != "single":
            return None
        self._check_seat(seat)
        if kind != "observation":
            self._check_view(kind, private)
            return self._information_pieces(seat)
        at = self._observation_starts()
        phase = self._phase
        hand = self._hand
        # the seats' cards as the episode keeps them while seats play (``write``, the
        # reference, asks the engine's hand)
        hands = self._held if phase == _PLAY else self._hands_now()
        masks = [at[0], 1 << seat, at[2], hands[seat], at[3], self._table_now(),
                 at[9], 1 << (self._round - 1)]
        values: list[Any] = [at[10], self._pool.bit_count()]
        if phase == _PLAY:
            assert hand is not None and hand.to_move is not None
            masks += (at[1], 1 << hand.to_move)
        if self._pending >= 0:
            masks += (at[5], 1 << self._pending, at[6], self._picked)
        if hand is not None:
            start = at[4]
            for side, mask in enumerate(hand.captured_masks):
                masks += (start + 52 * side, mask)
            start = at[7]
            for side, count in enumerate(hand.surs):
                values += (start + side, count)
            if hand.last_capturer is not None:
                masks += (at[11], 1 << hand.last_capturer)
        start = at[8]
        for other, mask in enumerate(hands):
            values += (start + other, mask.bit_count())
        return tuple(masks), tuple(values)

    def _observation_starts(self) -> tuple[int, ...]:
        """Where each piece of the observation starts, as the core writes it (worked out
        once per layout)."""
        at = self._layouts.get(_STARTS)
        if at is None:
            offsets = self.offsets()
            at = self._layouts[_STARTS] = tuple(offsets[name] for name in _OBSERVATION)
        return at

    def _in_core(self, out: Any, seat: int, kind: str, private: str) -> Any:
        """The observation written by the compiled core in one call (``HandCore._tensor``:
        into the float32 buffer ``out``, or as a list of floats when ``out`` is the size)
        while seats play, or ``NotImplemented`` where it does not write it (the pure
        engine, a deal, the information state, the views with other seats' cards)."""
        hand: Any = self._hand
        if kind != "observation" or private != "single" or self._phase != _PLAY \
                or type(hand) is not _COMPILED:
            return NotImplemented
        if type(seat) is not int or not 0 <= seat < self.players:
            self._check_seat(seat)
        at = self._observation_starts()
        return hand._tensor(out, seat, at, self._pending, self._picked, self._round,
                            self._pool.bit_count())

    def _information_pieces(self, seat: int) -> tuple[tuple[int, ...], tuple[Any, ...]]:
        at = self.offsets("information_state")
        masks = [at["player"], 1 << seat]
        start = at["deals"]
        for number, mask in enumerate(self._deals[seat]):
            masks += (start + 52 * number, mask)
        dealing_opening = self._phase == _DEAL and self._round == 1
        masks += (at["opening"], self._table_now() if dealing_opening else self._opening,
                  at["returned"], self._returned)
        if self._pending >= 0:
            masks += (at["pending"], 1 << self._pending, at["picked"], self._picked)
        start = at["plays"]
        for k, (_, move) in enumerate(self._plays):
            masks += (start + 104 * k, 1 << move.index, start + 104 * k + 52, move.taken)
        return tuple(masks), ()

    def string(self, seat: int, kind: str = "observation", private: str = "single") -> str:
        self._check_seat(seat)
        self._check_view(kind, private)
        if kind == "observation":
            return self._observation_string(seat, private)
        return self._information_string(seat, private)

    def _seat_name(self, seat: int) -> str:
        return f"seat {seat}" + (f" (side {seat % 2})" if self.sides != self.players else "")

    def _pending_text(self) -> str:
        if self._pending < 0:
            return ""
        named = format_cards(cards_of(self._picked))
        return (f"\nseat {self._hand_dealt.to_move} plays {CARDS[self._pending]}, choosing what it "
                f"takes: {named or 'nothing named yet'}")

    def _observation_string(self, seat: int, private: str) -> str:
        hands = self._hands_now()
        mover = self.current_player()
        turn = {CHANCE: "dealing", TERMINAL: "hand over"}.get(mover, f"seat {mover} to move")
        lines = [f"pasur {self.preset}: {self._seat_name(seat)} of {self.players}; "
                 f"deal {self._round} of {self.rounds}; stock {self._stock_size()}; {turn}"]
        if private == "single":
            lines.append(f"hand: {format_cards(cards_of(hands[seat])) or '-'}")
        elif private == "all":
            lines += [f"hand of seat {other}: {format_cards(cards_of(mask)) or '-'}"
                      for other, mask in enumerate(hands)]
        lines.append("hand sizes: " + " ".join(str(m.bit_count()) for m in hands))
        lines.append(f"table: {format_cards(cards_of(self._table_now())) or '-'}")
        surs = self._sur_counts()
        for side, mask in enumerate(self._piles()):
            lines.append(f"side {side} captured ({surs[side]} surs): "
                         f"{format_cards(cards_of(mask)) or '-'}")
        last = self._last_capturer()
        if last is not None:
            lines.append(f"last capture: seat {last}")
        if self._phase == _OVER:
            lines.append("points: " + " ".join(str(p) for p in self._hand_dealt.score()))
        return "\n".join(lines) + self._pending_text()

    def _information_string(self, seat: int, private: str) -> str:
        lines = [f"pasur {self.preset}: {self._seat_name(seat)} of {self.players}; "
                 f"seat {self.leader} leads"]
        if self._redeals:
            lines.append(f"redealt {self._redeals} times")
        per_round = 4 * self.players
        for number in range(1, self._round + 1):
            if private == "single":
                mine = format_cards(cards_of(self._deals[seat][number - 1]))
                lines.append(f"deal {number}: hand {mine or '-'}")
            elif private == "all":
                lines.append(f"deal {number}: " + "; ".join(
                    f"seat {other} {format_cards(cards_of(self._deals[other][number - 1]))}"
                    for other in range(self.players)))
            else:
                lines.append(f"deal {number}")
            if number == 1:
                lines += [f"table dealt again: {format_cards(cards_of(mask))}"
                          for mask in self._tables]
                table = self._dealt[per_round:] if self._phase == _DEAL and self._round == 1 \
                    else cards_of(self._opening)
                lines.append(f"table: {format_cards(table) or '-'}")
                if self._returned:
                    lines.append(f"returned to the stock: {format_cards(cards_of(self._returned))}")
            for mover, move in self._plays[(number - 1) * per_round:number * per_round]:
                lines.append(f"seat {mover}: {move}")
        if self._phase == _DEAL:
            lines.append(f"dealing: {len(self._dealt)} cards dealt")
        return "\n".join(lines) + self._pending_text()

    # -- hidden information -------------------------------------------------------------

    def hidden_from(self, seat: int) -> int:
        """The cards ``seat`` cannot see: the other hands (less a card being played) and
        the cards not dealt yet, as a mask."""
        self._check_seat(seat)
        hands = self._hands_now()
        pending = CARDS[self._pending].mask if self._pending >= 0 else 0
        mask = self._pool
        for other, held in enumerate(hands):
            if other != seat:
                mask |= held & ~pending
        return mask

    def resample(self, seat: int, rng: random.Random) -> PasurEpisode:
        """Deal the cards ``seat`` cannot see afresh and replay: an episode with the same
        information state for ``seat``, drawn uniformly from those it cannot tell apart."""
        self._check_seat(seat)
        if self._phase == _OVER:
            return self.copy()
        hidden = self.hidden_from(seat)
        # Only the current deal round's cards can be hidden in hands (every earlier card has
        # been played face up).  Deals thrown in for a redeal keep their cards: they were
        # shuffled back and tell nothing about this deal.
        slots = [at for at, dealt_to, number, attempt in self._chance
                 if number == self._round and attempt == self._redeals
                 and dealt_to not in (-1, seat) and hidden >> self.history[at] & 1]
        # A card sent back from the opening table (a jack, or a table dealt again) went
        # into the stock after the hands were dealt, so it cannot be in a hand of the
        # first deal round.
        banned = self._returned if self._round == 1 else 0
        choices = [card.index for card in cards_of(hidden & ~banned)]
        history = self.history[:]
        for at, index in zip(slots, rng.sample(choices, len(slots)), strict=True):
            history[at] = index
        return self.replay(self.params(), history)

    def __repr__(self) -> str:
        turn = {CHANCE: "dealing", TERMINAL: "over"}.get(self.current_player(),
                                                        f"seat {self.current_player()}")
        return (f"<PasurEpisode {self.preset} {self.players} players, deal "
                f"{self._round}/{self.rounds}, {turn}>")

    def __str__(self) -> str:
        """The whole truth, for debugging (every hand shown)."""
        hands = self._hands_now()
        lines = [repr(self)]
        lines += [f"seat {seat}: {format_cards(cards_of(mask)) or '-'}"
                  for seat, mask in enumerate(hands)]
        lines.append(f"table: {format_cards(cards_of(self._table_now())) or '-'}")
        surs = self._sur_counts()
        lines += [f"side {side}: {format_cards(cards_of(mask)) or '-'} ({surs[side]} surs)"
                  for side, mask in enumerate(self._piles())]
        lines.append(f"stock: {self._stock_size()} cards")
        return "\n".join(lines) + self._pending_text()

    # -- what the research frameworks need to know of this game ---------------------------

    gymnasium_env = ("PasurEnv", "cardtable/Pasur-v0", "one hand of Pasur")
    uct_c = 10.0
    """OpenSpiel's ISMCTS exploration by default: returns are points, a few tens a hand."""
    openspiel_parameters: ClassVar[dict[str, Any]] = {
        "preset": "standard", "players": 2, "leader": 0}
    """``python_pasur``'s parameters: ``preset`` (a name in ``cardtable.pasur.PRESETS``),
    ``players`` (2 to 4, as the preset allows) and ``leader`` (the seat dealt and playing
    first)."""

    def utility_range(self) -> tuple[float, float]:
        bound = float(max_points(self.rules, self.sides))
        return -bound, bound

    def max_game_length(self) -> int:
        """148: a play is its card, the table cards it takes named one each at most, and
        a stop; 48 plays, and no table card is taken twice (the 4 opening cards and the
        cards played are all a hand's table ever holds): 2 × 48 + 52.  Chance nodes are
        not decisions; their number has no bound (a redeal may repeat)."""
        return 2 * 48 + 52

    def learned_features(self) -> PasurFeatures:
        """The features the shipped learned policy reads beside the tensor."""
        return PasurFeatures(self)

    @classmethod
    def from_state(cls, state: Any) -> PasurEpisode:
        """Replay a Pasur hand (or a match's current hand) as an episode: its deck, card by
        card, and its moves as actions."""
        hand = getattr(state, "hand", state)
        if hand.deck is None:
            raise ValueError("this Pasur hand was built from a position and has no deal to "
                             "replay; the OpenSpiel bot plays hands dealt with Hand.new or a "
                             "Match")
        preset = _SPEC.preset_of(hand.rules)
        if preset is None:
            raise ValueError("python_pasur is loaded by preset, and these rules are not one "
                             "of the presets")
        episode = cls(preset, hand.players, hand.leader)
        deck = [card.index for card in hand.deck]
        four = 4 * hand.players
        for action in deck[:four + 4]:
            episode.apply(action)
        at = four + 4
        for move in hand.move_stack:
            for action in episode.actions_for(move):
                episode.apply(action)
            if episode.is_chance_node():
                for action in deck[at:at + four]:
                    episode.apply(action)
                at += four
        return episode


# -- the learned policy's features ---------------------------------------------------------
ALL = (1 << 52) - 1
PER_CARD = 8
"""Features of playing each of the 52 cards (zero for a card not held)."""


def feature_size(episode: Episode) -> int:
    """The length of ``PasurFeatures``' output for this episode's game."""
    return 52 * PER_CARD + 52 + 2


def _mask(vector: np.ndarray) -> int:
    out = 0
    for index in np.flatnonzero(vector):
        out |= 1 << int(index)
    return out


class PasurFeatures:
    """What each card would do, from a seat's observation tensor (nothing else).

    For each held card, its best move (most gained now less what the table left offers
    the next player): the points and clubs it takes, how many cards, a sur, the next
    player's expected best capture after it, and the same threat if the card were left.
    While a capture is being chosen: which table cards the best capture still takes, and
    whether stopping now makes it.

    >>> episode = PasurEpisode()
    >>> episode.apply_chance(random.Random(2))
    >>> x = PasurFeatures(episode)(episode.tensor(0))
    >>> x.shape, int(x[:52 * PER_CARD].reshape(52, PER_CARD)[:, 0].sum())   # 4 cards held
    ((470,), 4)
    """

    def __init__(self, episode: Episode) -> None:
        self.offsets = episode.layout("observation").offsets()
        rules: Rules = episode.rules   # type: ignore[attr-defined]
        self.rules = rules
        self.options = move_options(rules)
        self.surs = sur_cards(rules)
        self.sur_points = rules.sur_points
        self.size = feature_size(episode)
        self._threats: dict[tuple[int, int], float] = {}

    def _piece(self, x: np.ndarray, name: str) -> np.ndarray:
        start, stop = self.offsets[name]
        return x[start:stop]

    def value(self, taken: int, card_bit: int, table: int) -> float:
        """Points now: the counting cards taken with the card, and a sur."""
        if not taken:
            return 0.0
        mask = taken | card_bit
        points = card_points(mask, self.rules) + 0.25 * (mask & CLUBS_MASK).bit_count()
        if taken == table and self.surs & card_bit:
            points += self.sur_points
        return float(points)

    def threat(self, table: int, unseen: int) -> float:
        """The mean over unseen cards of the best the next player takes from ``table``."""
        if not table or not unseen:
            return 0.0
        key = (table, unseen)
        found = self._threats.get(key)
        if found is not None:
            return found
        total = 0.0
        rest = unseen
        while rest:
            low = rest & -rest
            rest ^= low
            best = 0.0
            for move in self.options(low.bit_length() - 1, table):
                if move.taken:
                    best = max(best, self.value(move.taken, low, table))
            total += best
        found = total / unseen.bit_count()
        if len(self._threats) > 200_000:
            self._threats.clear()
        self._threats[key] = found
        return found

    def best(self, index: int, table: int, unseen: int, picked: int = 0
             ) -> tuple[Any, float, float]:
        """The card's best move (among those taking every card of ``picked``), its gain
        and the threat it leaves."""
        bit = 1 << index
        chosen, best_score, best_gain, best_threat = None, -np.inf, 0.0, 0.0
        for move in self.options(index, table):
            if picked & ~move.taken:
                continue
            gain = self.value(move.taken, bit, table)
            after = table & ~move.taken if move.taken else table | bit
            threat = self.threat(after, unseen)
            if gain - threat > best_score:
                chosen, best_score, best_gain, best_threat = move, gain - threat, gain, threat
        return chosen, best_gain, best_threat

    def __call__(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        hand = _mask(self._piece(x, "hand"))
        table = _mask(self._piece(x, "table"))
        seen = hand | table | _mask(self._piece(x, "captured"))
        pending = self._piece(x, "pending")
        unseen = ALL & ~seen
        if pending.any():
            index = int(np.argmax(pending))
            picked = _mask(self._piece(x, "picked"))
            move, _, _ = self.best(index, table, unseen, picked)
            if move is not None:
                rest = move.taken & ~picked
                block = 52 * PER_CARD
                for k in range(52):
                    if rest >> k & 1:
                        out[block + k] = 1.0
                out[-2] = 1.0 if move.taken == picked else 0.0
            out[-1] = 1.0
            return out
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            index = low.bit_length() - 1
            move, gain, threat = self.best(index, table, unseen)
            if move is None:
                continue
            taken = move.taken | low if move.taken else 0
            out[index * PER_CARD:(index + 1) * PER_CARD] = (
                1.0, gain / 5.0, (taken & CLUBS_MASK).bit_count() / 4.0,
                taken.bit_count() / 4.0, 1.0 if move.taken and move.taken == table else 0.0,
                threat / 5.0, card_points(low, self.rules) / 3.0,
                self.threat(table | low, unseen) / 5.0)
        return out


# -- the whole episode on the compiled core -----------------------------------------------
# ``CompiledPasurEpisode`` is what ``PasurEpisode(...)`` makes where the compiled hand runs:
# its state (the deal card by card, the opening-table rule, each deal round's hand, the
# capture being chosen, the plays) lives in ``_core.EpisodeCore`` (cardtable/pasur/_core.c),
# which deals, decides, lists the legal actions and writes the observation in one call
# each, with no Python step per action.  The core gives its fields under the names above,
# so everything else (strings, the information state, resampling, the refusals' reasons)
# is ``PasurEpisode``'s own code reading them: the pure episode stays the reference, and
# tests/adapters/test_core_episode.py plays both on the same actions.
_PASUR_CORE: Any = load_core("cardtable.pasur._core") if _COMPILED is not None else None
if TYPE_CHECKING:
    from ..pasur._core import EpisodeCore
elif hasattr(_PASUR_CORE, "EpisodeCore"):
    EpisodeCore = _PASUR_CORE.EpisodeCore
    _PASUR_CORE.bind_episode(tuple(CARDS))
else:
    EpisodeCore = type("EpisodeCore", (), {"__doc__": "(no compiled core here)"})
_CORE_EPISODE = hasattr(_PASUR_CORE, "EpisodeCore")
"""Whether ``PasurEpisode(...)`` makes the compiled episode."""

_OBSERVATIONS: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}
"""The observation's layout (its pieces' starts in the core's order, and its size) by
players and sides: the same for every episode of that shape."""

_JACK_RULES = {"replace": 0, "replace_one": 1, "redeal": 2, "redeal_table": 3, "stay": 4}
"""``Rules.opening_jacks`` as the core numbers it."""


class CompiledPasurEpisode(EpisodeCore, PasurEpisode):
    """One hand of Pasur as chance nodes and int decisions, played in the compiled core
    (the module docstring; ``PasurEpisode`` says what each action does)."""

    _lists: ClassVar[tuple[str, ...]] = ()

    def _fresh(self) -> None:
        rules = self.rules
        blank = Hand._blank(rules, self.players, self.leader, None)
        self._setup(blank, self.leader, rules.opening_same_face_redeal,
                    rules.opening_any_face_redeal, _JACK_RULES[rules.opening_jacks])
        key = (self.players, self.sides)
        layout = _OBSERVATIONS.get(key)
        if layout is None:
            offsets = self.offsets()
            layout = _OBSERVATIONS[key] = (tuple(offsets[name] for name in _OBSERVATION),
                                           self.tensor_size())
        self._layout(*layout)

    def tensor_list(self, seat: int, kind: str = "observation", private: str = "single"
                    ) -> list[float]:
        """``Episode.tensor_list``, the seat's observation made by the core in one call
        (pyspiel asks for it at every decision)."""
        if kind == "observation" and private == "single":
            listed = self._observation_list(seat)
            if listed is not NotImplemented:
                tensor: list[float] = listed
                return tensor
        return PasurEpisode.tensor_list(self, seat, kind, private)

    def copy(self) -> CompiledPasurEpisode:
        other: CompiledPasurEpisode = EpisodeCore.__new__(type(self))
        other.__dict__.update(self.__dict__)
        self._copy_into(other)
        return other

    def apply_chance(self, rng: random.Random) -> None:
        """Deal at chance nodes with ``rng`` until a seat decides: the same cards from the
        same draws as ``PasurEpisode.apply_chance``."""
        apply = self.apply
        while self._phase == _DEAL:
            cards = self._pool & ~self._exclude
            apply(nth_card(cards, rng.randrange(cards.bit_count())))

    def _refuse(self, action: int) -> NoReturn:
        """Raise the reference's ``IllegalMove`` for an action the core refused: the
        Python episode's own checks, which read the core's fields and refuse it before
        changing anything."""
        phase = self._phase
        if phase == _DEAL:
            PasurEpisode._deal(self, action)
        elif phase == _PLAY:
            PasurEpisode._decide(self, action)
        else:
            raise IllegalMove("the hand is over")
        raise AssertionError(f"the core refused {action}, which the reference takes")

    def _in_core(self, out: Any, seat: int, kind: str, private: str) -> Any:
        """The observation written by the core in one call once the first deal round is
        complete; ``NotImplemented`` (the Python pieces) for the other views and while
        cards are dealt."""
        if kind != "observation" or private != "single":
            return NotImplemented
        if type(seat) is not int or not 0 <= seat < self.players:
            self._check_seat(seat)
        at = self._observation_starts()
        return self._tensor(out, seat, at)

    @classmethod
    def vector_stepper(cls, opponent: str, kind: str) -> Any:
        """The core's ``episode_steps`` against the ``random`` opponent, observation view:
        the chance nodes and the opponents draw from the core's own generator (uniform
        over the cards left and over the legal moves, as the ``random`` bot's are)."""
        if opponent != "random" or kind != "observation":
            return None
        return _vector_steps

    def vector_item(self, state: bytearray) -> tuple[Any, ...]:
        return (self, state)

    def vector_synced(self, status: int) -> None:
        """Nothing to bring up to date: the core holds the whole episode."""


def _vector_steps(items: list[tuple[Any, ...]], actions: list[int], observations: np.ndarray,
                  masks: np.ndarray, status: np.ndarray, seat: int,
                  template: CompiledPasurEpisode) -> None:
    """``CompiledPasurEpisode.vector_stepper``: every environment stepped in one core call
    (``episode_steps`` in cardtable/pasur/_core.c says what it does)."""
    at = template._observation_starts()
    _PASUR_CORE.episode_steps(items, actions, observations, masks, status, seat, at)
