# size: the episode and its learned move features read one public summary; they stay together
"""Transfer Durak as a research episode: the deck dealt card by card, decisions as ints.

The deal is a run of chance nodes, one card each, in the order the engine's
``Game.new(deck=...)`` reads a deck: six cards to each player clockwise from the dealer's
left, then the trump card (turned face up), then the stock from its top.  So the stock's
order is drawn at the start, but nobody sees it: a card shows only to whoever draws it,
and the information states never hold the stock's order.  (With six players the pack is
dealt out and the dealer's last card is the trump card, as the rules say.)

Actions (``NUM_ACTIONS`` = 3200), with ``card.index`` (A♣ 0, A♦ 1, ..., K♠ 51) and a rank's
suits as a 4-bit set ``m`` (♣ 1, ♦ 2, ♥ 4, ♠ 8):

- ``0`` take, ``1`` pass;
- ``2 + 15 * (rank - 1) + (m - 1)``: attack (lead or throw in) with the cards of that rank
  and suits;
- ``197 + 15 * (rank - 1) + (m - 1)``: transfer by playing those cards;
- ``392 + card.index``: transfer by showing that trump (the "passport" variation);
- ``444 + card.index``: exchange that lowest trump for the face-up trump card (a variation);
- ``496 + 52 * attack.index + beater.index``: beat that attack card with that card.

Returns: the durak -1 and every other player 1 / (players - 1) (partners share their
side's result), a draw 0 for all; the engine's ``Outcome.returns``.  A game still going
after ``max_moves`` decisions ends there as a draw, with ``truncated`` true.

>>> import random
>>> episode = DurakEpisode("transfer", players=2)
>>> episode.apply_chance(random.Random(5))
>>> len(episode.history), episode.current_player()
(36, 0)
>>> [episode.action_text(a) for a in episode.legal_actions()][:3]
['attack A♥', 'attack 6♦', 'attack 6♠']
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, NoReturn

import numpy as np

from .. import games
from .._engine import load_core
from ..cards import CARDS, Card, Suit, cards_of, format_cards, mask_of, pack
from ..durak import PHASES, Game, Move, MoveKind, Rules, strength
from ..durak.engine import CompiledGame
from ..game import IllegalMove
from . import tensors
from .base import CHANCE, TERMINAL, Episode, Layout, bits, nth_card
from .base import DEAL as _DEAL
from .base import OVER as _OVER
from .base import PLAY as _PLAY

__all__ = ["ATTACK", "DEFEND", "EXCHANGE", "NUM_ACTIONS", "PASS", "SHOW", "TAKE", "TRANSFER",
           "DurakEpisode", "action_of", "move_of"]

TAKE, PASS, ATTACK, TRANSFER, SHOW, EXCHANGE, DEFEND = 0, 1, 2, 197, 392, 444, 496
NUM_ACTIONS = DEFEND + 52 * 52
_SPEC = games.get("durak")
# the core's episode steps, where the built core has them (a core built before them, left
# in a checkout that was not rebuilt, plays through the pure engine's reading instead)
_COMPILED: Any = CompiledGame if hasattr(CompiledGame, "_episode_push") else None
_CORE: Any = load_core("cardtable.durak._core") if _COMPILED is not None else None
_OBSERVED = ("observed",)
"""The key of the observation's size and its pieces' starts in an episode's layouts."""
_ACTIONS: dict[Move, int] = {}
_ROUND_CLOSED = ("lead", "over")
_OVER_PHASE = PHASES.index("over")
_PLAYING = ("player", "to_move", "hand", "unbeaten", "beaten", "defences", "discard", "phase",
            "shown", "passed", "out", "trump_suit", "trump_card", "known", "attacker",
            "defender", "original_attacker", "hand_sizes", "trump_card_in_stock", "stock",
            "limit", "first_round")
"""The pieces ``DurakEpisode._playing_pieces`` reads the starts of, in its order."""
"""The phases after a move that closed a round (one that left cards on the table)."""


def _group(cards: tuple[Card, ...]) -> int:
    """15 * (rank - 1) + (suit set - 1) for cards of one rank."""
    suits = 0
    for card in cards:
        suits |= 1 << card.suit
    return 15 * (cards[0].rank - 1) + suits - 1


def _cards_of_group(number: int) -> list[Card]:
    rank, suits = number // 15 + 1, number % 15 + 1
    return [Card(rank, suit) for suit in Suit if suits >> suit & 1]


def action_of(move: Move) -> int:
    """The action number of a Durak move.

    >>> action_of(Move.parse("take")), action_of(Move.parse("attack 9♣ 9♦"))
    (0, 124)
    >>> action_of(Move.parse("defend 9♣ with J♣"))
    2200
    """
    kind = move.kind
    if kind is MoveKind.TAKE:
        return TAKE
    if kind is MoveKind.PASS:
        return PASS
    if kind is MoveKind.ATTACK:
        return ATTACK + _group(move.cards)
    if kind is MoveKind.TRANSFER:
        return SHOW + move.cards[0].index if move.shown else TRANSFER + _group(move.cards)
    if kind is MoveKind.EXCHANGE:
        return EXCHANGE + move.cards[0].index
    attack, beater = move.cards
    return DEFEND + 52 * attack.index + beater.index


def move_of(action: int) -> Move:
    """The Durak move an action number names (whether or not it is legal now).

    >>> str(move_of(124)), str(move_of(2200))
    ('attack 9♣ 9♦', 'defend 9♣ with J♣')
    """
    action = int(action)
    if action == TAKE:
        return Move(MoveKind.TAKE)
    if action == PASS:
        return Move(MoveKind.PASS)
    if ATTACK <= action < TRANSFER:
        return Move(MoveKind.ATTACK, _cards_of_group(action - ATTACK))
    if TRANSFER <= action < SHOW:
        return Move(MoveKind.TRANSFER, _cards_of_group(action - TRANSFER))
    if SHOW <= action < EXCHANGE:
        return Move(MoveKind.TRANSFER, [CARDS[action - SHOW]], shown=True)
    if EXCHANGE <= action < DEFEND:
        return Move(MoveKind.EXCHANGE, [CARDS[action - EXCHANGE]])
    if DEFEND <= action < NUM_ACTIONS:
        attack, beater = divmod(action - DEFEND, 52)
        if attack != beater:
            return Move(MoveKind.DEFEND, [CARDS[attack], CARDS[beater]])
    raise IllegalMove(f"{action} is not a Durak action (0 to {NUM_ACTIONS - 1}; "
                      "see docs/research.md)")


class DurakEpisode(Episode):
    """One game of Transfer Durak as chance nodes and int decisions (see the module).

    ``dealer`` deals (its left neighbour is dealt first); ``loser`` is the previous game's
    durak, who deals (``dealer`` is then ignored) while its left neighbour leads; without
    it, the lowest trump leads.
    """

    game = "durak"
    num_actions = NUM_ACTIONS
    count_pieces = ("stock", "hand_sizes", "limit")
    """Pieces that hold counts (0 to 52); every other piece holds 0 or 1."""

    def __init__(self, preset: str = "transfer", players: int = 2, dealer: int = 0,
                 loser: int | None = None, max_moves: int = 1000,
                 rules: Rules | None = None) -> None:
        self.preset = preset
        self.custom = rules
        self.rules = rules if rules is not None else _SPEC.rules(preset)
        self.rules.check_players(players)
        for name, seat in (("dealer", dealer), ("loser", loser)):
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                     or not 0 <= seat < players):
                raise ValueError(f"{name} must be a seat from 0 to {players - 1}, not {seat!r}")
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise ValueError(f"max_moves must be a whole number 1 or more, not {max_moves!r}")
        self.players = players
        self.dealer = dealer if loser is None else loser
        self.loser = loser
        self.max_moves = max_moves
        self.pack = pack(self.rules.pack_size)
        self.pack_mask = mask_of(self.pack)
        self.history: list[int] = []
        self._layouts = {}
        self.truncated = False
        self._deck: list[Card] = []
        self._left = self.pack_mask
        self._game: Game | None = None
        self._phase = _DEAL
        self._moves = 0
        self._legal_cache: dict[int, Move] | None = None
        self._log: list[tuple[int, Move, tuple[int, ...]]] = []   # seat, move, draws
        self._played = [0] * players
        self._taken = [0] * players
        self._drawn = [0] * players
        self._hands = [0] * players
        self._stock_mask = 0
        self._table_mask = 0
        self._pub_at = -1
        self._pub_cache: dict[str, Any] = {}

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"preset": self.preset, "players": self.players,
                               "dealer": self.dealer, "loser": self.loser,
                               "max_moves": self.max_moves}
        if self.custom is not None:
            out["rules"] = self.custom
        return out

    _lists = ("_deck", "_log", "_played", "_taken", "_drawn", "_hands")

    def _copy_more(self, other: DurakEpisode) -> None:
        other._game = self._game.copy() if self._game is not None else None

    def _inner(self) -> Game | None:
        return self._game

    @property
    def _game_dealt(self) -> Game:
        """The engine's game, which exists from the end of the deal on (while seats play,
        and once the game is over)."""
        game = self._game
        assert game is not None, "the deal is not complete yet"
        return game

    # -- whose turn, and what they may do ---------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase != _DEAL:
            return []
        return tensors.outcomes(self._left)

    def sample_chance(self, rng: random.Random) -> int:
        return nth_card(self._left, rng.randrange(self._left.bit_count()))

    def apply_chance(self, rng: random.Random) -> None:
        """Deal the rest of the pack with ``rng`` (``Episode.apply_chance``: the same cards
        from the same draws, each chance node's card the ``rng.randrange``-th of those left),
        in one loop rather than a step per card."""
        if self._phase != _DEAL:
            return
        mask = self._left
        left = [index for index in range(52) if mask >> index & 1]
        randrange, history, deck, drawn = rng.randrange, self.history, self._deck, self._drawn
        n, first = self.players, 6 * self.players
        for _ in range(len(left) - 1):
            card = CARDS[left.pop(randrange(len(left)))]
            history.append(card.index)
            deck.append(card)
            mask ^= card.mask
            if len(deck) <= first:
                drawn[(self.dealer + 1 + (len(deck) - 1) // 6) % n] |= card.mask
        self._left = mask
        self.apply(left[rng.randrange(1)])   # the last card ends the deal

    def current_player(self) -> int:
        if self._phase == _PLAY:
            game: Any = self._game
            seat: int = game.to_move
            return seat
        return CHANCE if self._phase == _DEAL else TERMINAL

    def legal_actions(self) -> list[int]:
        if self._phase == _DEAL:
            return [card.index for card in cards_of(self._left)]
        if self._phase != _PLAY:
            return []
        game: Any = self._game
        if type(game) is _COMPILED:
            actions: list[int] = game._legal_actions()
            return actions
        return sorted(self._legal)

    @property
    def _legal(self) -> dict[int, Move]:
        """The legal moves by action number (none unless a seat is to move), worked out
        when asked."""
        if self._phase != _PLAY:
            return {}
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal_now()
        return legal

    def apply(self, action: int) -> None:
        action = int(action)
        if self._phase == _DEAL:
            if not 0 <= action < 52 or not self._left >> action & 1:
                what = CARDS[action].text if 0 <= action < 52 else repr(action)
                raise IllegalMove(f"{what} cannot be dealt now: it is not among the cards "
                                  "left to deal")
            self._deal(CARDS[action])
        elif self._phase == _PLAY:
            game: Any = self._game
            if type(game) is _COMPILED:
                # the core plays it and keeps the lists _push keeps (the reference)
                entry = game._episode_push(action, self._played, self._taken, self._drawn,
                                           self._hands) if 0 <= action < NUM_ACTIONS else None
                if entry is None:
                    self._refuse(action)
                # (_after_move written out: this is the hot path)
                self._moves += 1
                self._log.append(entry)
                self._legal_cache = None
                self._pub_at = -1
                if game.is_over():
                    self._phase = _OVER
                elif self._moves >= self.max_moves:
                    self._phase = _OVER
                    self.truncated = True
            else:
                move = self._legal.get(action)
                if move is None:
                    self._refuse(action)
                self._push(move)
        else:
            raise IllegalMove("the game is over")
        self.history.append(action)

    def _deal(self, card: Card) -> None:
        self._deck.append(card)
        self._left ^= card.mask
        n = self.players
        if len(self._deck) <= 6 * n:
            seat = (self.dealer + 1 + (len(self._deck) - 1) // 6) % n
            self._drawn[seat] |= card.mask
        if self._left:
            return
        game = self._game = Game.new(self.rules, players=n, deck=self._deck,
                                     dealer=self.dealer, loser=self.loser)
        self._hands = list(game._hands)   # (both engines keep the hands as masks)
        self._stock_mask = mask_of(game.stock)
        self._phase = _PLAY
        self._legal_cache = None

    def _refuse(self, action: int) -> NoReturn:
        """Raise the engine's ``IllegalMove`` for an action not legal now, saying why."""
        self._game_dealt.push(move_of(action))   # raises IllegalMove saying why
        raise AssertionError("an action missing from the legal list was accepted")

    def _push(self, move: Move) -> None:
        game = self._game_dealt
        seat = game.to_move
        assert seat is not None, "a move is pushed only while the game goes on"
        table_before = self._table_mask
        game.push(move)
        kind = move.kind
        hands = self._hands
        if kind is MoveKind.ATTACK or (kind is MoveKind.TRANSFER and not move.shown):
            self._played[seat] |= move.mask
            hands[seat] &= ~move.mask
            self._table_mask |= move.mask
        elif kind is MoveKind.DEFEND:
            beater = move.cards[1].mask
            self._played[seat] |= beater
            hands[seat] &= ~beater
            self._table_mask |= beater
        draws: tuple[int, ...] = ()
        if kind is MoveKind.EXCHANGE or (table_before and game.phase in _ROUND_CLOSED):
            # the round closed (or a card was swapped with the stock): look again (the
            # hands as the engine's masks: sorting them into cards costs more than the move)
            before = hands
            hands = self._hands = list(game._hands)
            stock = mask_of(game.stock)
            left_stock = self._stock_mask & ~stock
            self._stock_mask = stock
            if game.phase in _ROUND_CLOSED:   # (an exchange mid-round leaves the table)
                self._table_mask = 0
            out = []
            for other in range(self.players):
                gained = hands[other] & ~before[other]
                self._taken[other] |= gained & table_before
                drawn = gained & left_stock
                self._drawn[other] |= drawn
                out.append(drawn)
            draws = tuple(out)
        self._after_move((seat, move, draws))

    def _after_move(self, entry: tuple[int, Move, tuple[int, ...]]) -> None:
        """What follows every move: the log, and whether the game is over or cut short."""
        self._moves += 1
        self._log.append(entry)
        self._legal_cache = None
        self._pub_at = -1
        if self._game_dealt.is_over():
            self._phase = _OVER
        elif self._moves >= self.max_moves:
            self._phase = _OVER
            self.truncated = True

    def _legal_now(self) -> dict[int, Move]:
        game: Any = self._game_dealt
        if type(game) is _COMPILED:
            numbered: dict[int, Move] = game._legal_numbered()   # (the core's move
            return numbered                                      # numbers are the actions)
        out = {}
        for move in game.legal_moves():
            action = _ACTIONS.get(move)
            if action is None:
                action = _ACTIONS[move] = action_of(move)
            out[action] = move
        return out

    @property
    def _pub(self) -> dict[str, Any]:
        """What everyone sees now, worked out when a view asks for it."""
        if self._pub_at == self._moves:
            return self._pub_cache
        game = self._game_dealt
        # the engine's own fields (the same in the pure and the compiled engine), read
        # directly: building the whole public view each move costs more than the move
        over = game._phase == _OVER_PHASE
        beaten, defences, played, stock = _table_masks(game)
        passed, out = game._passed, game._out
        self._pub_cache = {
            "hands": self._hands,
            "known": list(game._known),
            "unbeaten": played & ~beaten,
            "beaten": beaten,
            "defences": defences,
            "discard": game._discard,
            "stock": stock,
            "trump": int(game._trump),
            "trump_card": game._trump_card,
            "in_stock": stock > 0,
            "phase": game._phase,
            "attacker": None if over else game._attacker,
            "defender": None if over else game._defender,
            "original": None if over else game._orig,
            "limit": game._limit or 0,
            "round": game._round,
            "passed": [seat for seat in range(self.players) if passed >> seat & 1],
            "out": [seat for seat in range(self.players) if out >> seat & 1],
            "shown": game._shown,
        }
        self._pub_at = self._moves
        return self._pub_cache

    # -- moves and actions --------------------------------------------------------------

    @property
    def engine(self) -> Game | None:
        """The engine's game once the deal is complete."""
        return self._game

    def legal_moves(self) -> list[Move]:
        if self._phase != _PLAY:
            return []
        return [self._legal[action] for action in sorted(self._legal)]

    def actions_for(self, move: Move) -> list[int]:
        """The action that makes ``move`` (one action: Durak needs no second step)."""
        action = action_of(move)
        if action not in self._legal:
            raise IllegalMove(f"{move} is not legal now")
        return [action]

    def action_text(self, action: int, player: int | None = None) -> str:
        action = int(action)
        if player == CHANCE:
            return f"deal {CARDS[action]}" if 0 <= action < 52 else f"deal {action}?"
        try:
            return str(move_of(action))
        except IllegalMove:
            return f"action {action} (not a Durak action)"

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """(seat, move) for every move made this game."""
        return [(seat, move) for seat, move, _ in self._log]

    # -- results ------------------------------------------------------------------------

    def returns(self) -> list[float]:
        if self._phase != _OVER or self.truncated:
            return [0.0] * self.players
        outcome = self._game_dealt.outcome()
        assert outcome is not None, "a game over has an outcome"
        return list(outcome.returns)

    # -- what a seat sees ---------------------------------------------------------------

    def _hands_now(self) -> list[int]:
        if self._phase != _DEAL:
            return self._hands
        masks = [0] * self.players
        for k, card in enumerate(self._deck[:6 * self.players]):
            masks[(self.dealer + 1 + k // 6) % self.players] |= card.mask
        return masks

    def _trump_card_now(self) -> Card | None:
        """The face-up trump card, once it has been dealt."""
        if self._phase != _DEAL:
            return self._pub["trump_card"]
        n = self.players
        if len(self._deck) > 6 * n:
            return self._deck[6 * n]
        return None

    def layout(self, kind: str = "observation", private: str = "single") -> Layout:
        self._check_view(kind, private)
        n = self.players
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,)), ("to_move", (n,))]
        if private == "single":
            pieces.append(("hand", (52,)))
        elif private == "all":
            pieces.append(("hands", (n, 52)))
        pieces += [("unbeaten", (52,)), ("beaten", (52,)), ("defences", (52,)),
                   ("trump_suit", (4,)), ("trump_card", (52,)), ("trump_card_in_stock", (1,)),
                   ("stock", (1,)), ("discard", (52,)), ("known", (n, 52)),
                   ("hand_sizes", (n,)), ("phase", (len(PHASES),)), ("attacker", (n,)),
                   ("defender", (n,)), ("original_attacker", (n,)), ("limit", (1,)),
                   ("first_round", (1,)), ("passed", (n,)), ("out", (n,)), ("shown", (52,))]
        if kind == "information_state":
            pieces += [("played", (n, 52)), ("taken", (n, 52))]
            if private == "single":
                pieces.append(("drawn", (52,)))
            elif private == "all":
                pieces.append(("all_drawn", (n, 52)))
        return Layout(pieces)

    def write(self, views: dict[str, np.ndarray], seat: int, kind: str = "observation",
              private: str = "single") -> None:
        self._check_seat(seat)
        self._check_view(kind, private)
        views["player"][seat] = 1.0
        hands = self._hands_now()
        if private == "single":
            bits(views["hand"], hands[seat])
        elif private == "all":
            for other, mask in enumerate(hands):
                bits(views["hands"][other], mask)
        views["hand_sizes"][:] = [mask.bit_count() for mask in hands]
        trump_card = self._trump_card_now()
        if trump_card is not None:
            views["trump_suit"][trump_card.suit] = 1.0
            views["trump_card"][trump_card.index] = 1.0
        if kind == "information_state":
            for other in range(self.players):
                bits(views["played"][other], self._played[other])
                bits(views["taken"][other], self._taken[other])
            if private == "single":
                bits(views["drawn"], self._drawn[seat])
            elif private == "all":
                for other in range(self.players):
                    bits(views["all_drawn"][other], self._drawn[other])
        if self._phase == _DEAL:
            views["stock"][0] = len(self._deck) - 6 * self.players if trump_card else 0
            views["trump_card_in_stock"][0] = 1.0 if trump_card else 0.0
            return
        pub = self._pub
        mover = self.current_player()
        if mover >= 0:
            views["to_move"][mover] = 1.0
        bits(views["unbeaten"], pub["unbeaten"])
        bits(views["beaten"], pub["beaten"])
        bits(views["defences"], pub["defences"])
        views["trump_card_in_stock"][0] = 1.0 if pub["in_stock"] else 0.0
        views["stock"][0] = pub["stock"]
        bits(views["discard"], pub["discard"])
        for other, mask in enumerate(pub["known"]):
            bits(views["known"][other], mask)
        views["phase"][pub["phase"]] = 1.0
        for name, key in (("attacker", "attacker"), ("defender", "defender"),
                          ("original_attacker", "original")):
            if pub[key] is not None:
                views[name][pub[key]] = 1.0
        views["limit"][0] = pub["limit"]
        views["first_round"][0] = 1.0 if pub["round"] == 1 else 0.0
        for other in pub["passed"]:
            views["passed"][other] = 1.0
        for other in pub["out"]:
            views["out"][other] = 1.0
        bits(views["shown"], pub["shown"])

    def pieces(self, seat: int, kind: str = "observation", private: str = "single"
               ) -> tuple[tuple[int, ...], tuple[Any, ...]] | None:
        """The seat's observation or information state as masks and values
        (``Episode.pieces``); the views with other seats' cards go through ``write``."""
        if private != "single":
            return None
        self._check_seat(seat)
        self._check_view(kind, private)
        if self._phase != _DEAL:
            return self._playing_pieces(seat, kind)
        at = self.offsets(kind)
        hands = self._hands_now()
        masks = [at["player"], 1 << seat, at["hand"], hands[seat]]
        start = at["hand_sizes"]
        values: list[Any] = []
        for other, mask in enumerate(hands):
            values += (start + other, mask.bit_count())
        trump_card = self._trump_card_now()
        if trump_card is not None:
            masks += (at["trump_suit"], 1 << trump_card.suit, at["trump_card"],
                      trump_card.mask)
        if kind == "information_state":
            self._recall_pieces(seat, at, masks)
        values += (at["stock"], len(self._deck) - 6 * self.players if trump_card else 0,
                   at["trump_card_in_stock"], 1.0 if trump_card else 0.0)
        return tuple(masks), tuple(values)

    def _core_starts(self, kind: str) -> tuple[int, ...]:
        """The starts of ``kind``'s pieces in the core's order (``_PLAYING``)."""
        key = ("starts", kind)
        at = self._layouts.get(key)
        if at is None:
            offsets = self.offsets(kind)
            at = self._layouts[key] = tuple(offsets[name] for name in _PLAYING)
        return at

    @classmethod
    def vector_stepper(cls, opponent: str, kind: str) -> Any:
        """The compiled core's ``episode_steps`` against the ``random`` opponent, observation
        view (the core draws the opponents' moves from its own generator, uniform over the
        legal moves as the ``random`` bot's are)."""
        if _CORE is None or opponent != "random" or kind != "observation":
            return None
        return _vector_steps

    def vector_item(self, state: bytearray) -> tuple[Any, ...]:
        return (self._game, self._played, self._taken, self._drawn, self._hands,
                self.history, self._log, state)

    def vector_synced(self, status: int) -> None:
        """(``status`` 1: the game is over; 2: it was cut short at ``max_moves``.)"""
        self._moves = len(self._log)
        self._legal_cache = None
        self._pub_at = -1
        if status == 1:
            self._phase = _OVER
        elif status == 2:
            self._phase = _OVER
            self.truncated = True

    def tensor_list(self, seat: int, kind: str = "observation", private: str = "single"
                    ) -> list[float]:
        """``Episode.tensor_list``, a seat's observation asked of the compiled core
        directly once the deal is over (pyspiel asks for it at every decision)."""
        game: Any = self._game
        if kind == "observation" and private == "single" and type(game) is _COMPILED \
                and self._phase != _DEAL and type(seat) is int and 0 <= seat < self.players:
            found = self._layouts.get(_OBSERVED)
            if found is None:
                found = self._layouts[_OBSERVED] = (self.tensor_size(),
                                                    self._core_starts("observation"))
            listed: list[float] = game._tensor(found[0], seat, found[1], self._phase == _PLAY,
                                               None)
            return listed
        return super().tensor_list(seat, kind, private)

    def _in_core(self, out: Any, seat: int, kind: str, private: str) -> Any:
        """The tensor written by the compiled core in one call (``Core._tensor``: into the
        float32 buffer ``out``, or as a list of floats when ``out`` is the size), or
        ``NotImplemented`` where it does not write it (the pure engine, the deal, the views
        with other seats' cards)."""
        game: Any = self._game
        if private != "single" or type(game) is not _COMPILED or self._phase == _DEAL:
            return NotImplemented
        if type(seat) is not int or not 0 <= seat < self.players:
            self._check_seat(seat)
        if kind != "observation":
            self._check_view(kind, private)
        at = self._core_starts(kind)
        recall = None
        if kind == "information_state":
            offsets = self.offsets(kind)
            recall = (offsets["played"], offsets["taken"], offsets["drawn"], self._played,
                      self._taken, self._drawn)
        return game._tensor(out, seat, at, self._phase == _PLAY, recall)

    def _recall_pieces(self, seat: int, at: dict[str, int], masks: list[int]) -> None:
        """The information state's own pieces: what each seat played and took, and what
        ``seat`` drew."""
        played, taken = at["played"], at["taken"]
        for other in range(self.players):
            masks += (played + 52 * other, self._played[other],
                      taken + 52 * other, self._taken[other])
        masks += (at["drawn"], self._drawn[seat])

    def _playing_pieces(self, seat: int, kind: str) -> tuple[tuple[int, ...], tuple[Any, ...]]:
        """``pieces`` once the deal is over, read from the engine's fields as ``_pub``
        reads them (``write``, the reference, goes through ``_pub``), without the dict."""
        key = ("starts", kind)
        at = self._layouts.get(key)
        if at is None:
            offsets = self.offsets(kind)
            at = self._layouts[key] = tuple(offsets[name] for name in _PLAYING)
        game = self._game_dealt
        in_core = getattr(game, "_pieces", None)
        if in_core is not None:   # the compiled engine reads its own state in one call
            masks_now, values_now = in_core(seat, at, self._phase == _PLAY)
            if kind == "information_state":
                recall: list[int] = []
                self._recall_pieces(seat, self.offsets(kind), recall)
                masks_now += tuple(recall)
            return masks_now, values_now
        hands = self._hands
        seats = (1 << self.players) - 1
        beaten, defences, played, stock = _table_masks(game)
        masks = [at[0], 1 << seat, at[2], hands[seat], at[3], played & ~beaten,
                 at[4], beaten, at[5], defences, at[6], game._discard,
                 at[7], 1 << game._phase, at[8], game._shown,
                 at[9], game._passed & seats, at[10], game._out & seats]
        mover = game.to_move
        if self._phase == _PLAY and mover is not None:
            masks += (at[1], 1 << mover)
        trump_card = game._trump_card
        if trump_card is not None:
            masks += (at[11], 1 << trump_card.suit, at[12], trump_card.mask)
        start = at[13]
        for other, mask in enumerate(game._known):
            masks += (start + 52 * other, mask)
        if game._phase != _OVER_PHASE:
            for offset, who in ((at[14], game._attacker), (at[15], game._defender),
                                (at[16], game._orig)):
                if who is not None:
                    masks += (offset, 1 << who)
        start = at[17]
        values: list[Any] = [at[18], 1.0 if stock > 0 else 0.0, at[19], stock,
                             at[20], game._limit or 0, at[21],
                             1.0 if game._round == 1 else 0.0]
        for other, mask in enumerate(hands):
            values += (start + other, mask.bit_count())
        if kind == "information_state":
            self._recall_pieces(seat, self.offsets(kind), masks)
        return tuple(masks), tuple(values)

    def string(self, seat: int, kind: str = "observation", private: str = "single") -> str:
        self._check_seat(seat)
        self._check_view(kind, private)
        if kind == "observation":
            return self._observation_string(seat, private)
        return self._information_string(seat, private)

    def _hand_lines(self, seat: int, private: str, hands: list[int]) -> list[str]:
        if private == "single":
            return [f"hand: {format_cards(cards_of(hands[seat])) or '-'}"]
        if private == "all":
            return [f"hand of seat {other}: {format_cards(cards_of(mask)) or '-'}"
                    for other, mask in enumerate(hands)]
        return []

    def _observation_string(self, seat: int, private: str) -> str:
        hands = self._hands_now()
        head = f"durak {self.preset}: seat {seat} of {self.players}"
        trump_card = self._trump_card_now()
        if self._phase == _DEAL:
            lines = [f"{head}; dealing ({len(self._deck)} cards dealt)",
                     *self._hand_lines(seat, private, hands)]
            if trump_card is not None:
                lines.append(f"trump card: {trump_card}")
            return "\n".join(lines)
        pub = self._pub
        mover = self.current_player()
        turn = "game over" if mover == TERMINAL else f"seat {mover} to move"
        lines = [f"{head}; round {pub['round']}; {PHASES[pub['phase']]}; {turn}",
                 f"trump {Suit(pub['trump'])} ({trump_card}"
                 + (" under the stock" if pub["in_stock"] else " drawn") + f"); stock "
                 f"{pub['stock']}; discard {format_cards(cards_of(pub['discard'])) or '-'}",
                 *self._hand_lines(seat, private, hands),
                 "hand sizes: " + " ".join(str(m.bit_count()) for m in hands),
                 "table: " + (" ".join(f"{a}/{b or '-'}" for a, b in self._game_dealt.table)
                              or "-")]
        if mover >= 0:
            lines.append(f"attacker seat {pub['attacker']}, defender seat {pub['defender']}"
                         + (f", limit {pub['limit']}" if pub["limit"] else ""))
        for other, mask in enumerate(pub["known"]):
            if mask:
                lines.append(f"known in seat {other}'s hand: {format_cards(cards_of(mask))}")
        for name in ("passed", "out"):
            if pub[name]:
                lines.append(f"{name}: " + " ".join(f"seat {s}" for s in pub[name]))
        if pub["shown"]:
            lines.append(f"shown: {format_cards(cards_of(pub['shown']))}")
        if self._phase == _OVER:
            lines.append("truncated: a draw" if self.truncated else
                         "returns: " + " ".join(f"{r:g}" for r in self.returns()))
        return "\n".join(lines)

    def _information_string(self, seat: int, private: str) -> str:
        n = self.players
        lines = [f"durak {self.preset}: seat {seat} of {n}; seat {self.dealer} deals"]
        dealt = self._deck[:6 * n]
        if private == "single":
            mine = [card for k, card in enumerate(dealt)
                    if (self.dealer + 1 + k // 6) % n == seat]
            lines.append(f"dealt: {format_cards(sorted(mine)) or '-'}")
        elif private == "all":
            lines += [f"dealt to seat {other}: " + format_cards(sorted(
                card for k, card in enumerate(dealt) if (self.dealer + 1 + k // 6) % n == other))
                for other in range(n)]
        trump_card = self._trump_card_now()
        if self._phase == _DEAL:
            lines.append(f"dealing: {len(self._deck)} cards dealt")
            if trump_card is not None:
                lines.append(f"trump card: {trump_card}")
            return "\n".join(lines)
        lines.append(f"trump card: {trump_card}")
        bottom = trump_card.mask if trump_card is not None else 0
        for mover, move, draws in self._log:
            lines.append(f"seat {mover}: {move}")
            for other, drawn in enumerate(draws):
                if not drawn:
                    continue
                if private == "all" or (private == "single" and other == seat):
                    lines.append(f"seat {other} draws {format_cards(cards_of(drawn))}")
                else:
                    count = drawn.bit_count()
                    lines.append(f"seat {other} draws {count} card{'s' if count > 1 else ''}"
                                 + (f" with {trump_card}" if drawn & bottom else ""))
        if self.truncated:
            lines.append("truncated")
        return "\n".join(lines)

    # -- hidden information -------------------------------------------------------------

    def hidden_from(self, seat: int) -> int:
        """The cards ``seat`` cannot see: other hands' unknown cards and the stock (less
        the face-up trump card at its bottom), as a mask."""
        self._check_seat(seat)
        if self._phase == _DEAL:
            trump_card = self._trump_card_now()
            return self.pack_mask & ~self._hands_now()[seat] & ~(
                trump_card.mask if trump_card else 0)
        pub = self._pub
        mask = 0
        for other in range(self.players):
            if other != seat:
                mask |= pub["hands"][other] & ~pub["known"][other]
        stock = self._game_dealt.stock
        if stock:
            mask |= mask_of(stock[:-1])
        return mask

    def _opening_trumps(self) -> int:
        """Trumps no first hand can have held: all of them when nobody showed one to lead,
        else those below the one shown (without a previous loser, the lowest trump leads)."""
        if self.loser is not None:
            return 0
        n = self.players
        trump_card = self._deck[6 * n] if len(self._deck) > 6 * n else self._deck[6 * n - 1]
        trumps = [card for card in self._deck[:6 * n] if card.suit == trump_card.suit]
        if not trumps:
            return mask_of(card for card in self.pack if card.suit == trump_card.suit)
        lowest = strength(min(trumps, key=strength))
        return mask_of(card for card in self.pack
                       if card.suit == trump_card.suit and strength(card) < lowest)

    def resample(self, seat: int, rng: random.Random) -> DurakEpisode:
        """Deal the cards ``seat`` cannot see afresh and replay: an episode with the same
        information state for ``seat``, drawn uniformly from those it cannot tell apart."""
        self._check_seat(seat)
        if self._phase == _OVER:
            return self.copy()
        if self._phase == _DEAL:
            # the other hands and the rest of the deal are open: redeal what seat has not seen
            hidden = self.hidden_from(seat)
            slots = [k for k, card in enumerate(self._deck) if hidden & card.mask]
            history = self.history[:]
            for k, card in zip(slots, rng.sample(cards_of(hidden), len(slots)), strict=True):
                history[k] = card.index
            return self.replay(self.params(), history)
        hidden = self.hidden_from(seat)
        where = {card: k for k, card in enumerate(self._deck)}
        slots = sorted(where[card] for card in cards_of(hidden))
        first = 6 * self.players
        banned = hidden & self._opening_trumps()
        late = [k for k in slots if k >= first]
        forced = cards_of(banned)
        places = rng.sample(late, len(forced))
        taken = set(places)
        rest_slots = [k for k in slots if k not in taken]
        rest_cards = cards_of(hidden & ~banned)
        rng.shuffle(rest_cards)
        history = self.history[:]
        for k, card in zip(places + rest_slots, forced + rest_cards, strict=True):
            history[k] = card.index
        return self.replay(self.params(), history)

    def __repr__(self) -> str:
        turn = {CHANCE: "dealing", TERMINAL: "over"}.get(self.current_player(),
                                                        f"seat {self.current_player()}")
        return f"<DurakEpisode {self.preset} {self.players} players, {turn}>"

    def __str__(self) -> str:
        """The whole truth, for debugging (every hand and the stock shown)."""
        lines = [repr(self)]
        lines += [f"seat {seat}: {format_cards(cards_of(mask)) or '-'}"
                  for seat, mask in enumerate(self._hands_now())]
        if self._game is not None:
            lines.append(f"table: {' '.join(f'{a}/{b or chr(45)}' for a, b in self._game.table)}")
            lines.append(f"stock: {format_cards(self._game.stock) or '-'}")
            lines.append(f"moves: {self._moves}")
        else:
            lines.append(f"dealt: {len(self._deck)}")
        return "\n".join(lines)

    # -- what the research frameworks need to know of this game ---------------------------

    gymnasium_env = ("DurakEnv", "cardtable/TransferDurak-v0", "one game of Transfer Durak")
    uct_c = 1.5
    """OpenSpiel's ISMCTS exploration by default: returns are about 1."""
    openspiel_parameters: ClassVar[dict[str, Any]] = {
        "preset": "transfer", "players": 2, "dealer": 0, "loser": -1, "max_moves": 1000}
    """``python_transfer_durak``'s parameters: ``preset`` ("transfer"), ``players`` (2 to
    6), ``dealer``, ``loser`` (the previous game's durak, who deals while its left neighbour
    leads; -1 for a first game, led by the lowest trump) and ``max_moves`` (a game still
    going after that many decisions ends as a draw)."""

    @classmethod
    def from_openspiel(cls, params: dict[str, Any]) -> DurakEpisode:
        loser = params["loser"]
        return cls(params["preset"], params["players"], params["dealer"],
                   None if loser == -1 else loser, params["max_moves"])

    def openspiel_params(self) -> dict[str, Any]:
        params = dict(self.params())
        params["loser"] = -1 if params["loser"] is None else params["loser"]
        return params

    def utility_range(self) -> tuple[float, float]:
        return -1.0, 1.0

    def max_game_length(self) -> int:
        return self.max_moves

    def max_chance_nodes(self) -> int:
        """The pack: every card is dealt at one chance node, at the start."""
        return len(self.pack)

    def learned_features(self) -> DurakMoveFeatures:
        """The features the shipped learned policy reads beside the tensor: per legal
        move, called with the episode."""
        return DurakMoveFeatures()

    @classmethod
    def from_state(cls, state: Any) -> DurakEpisode:
        """Replay a Durak game as an episode: its deck and its moves."""
        if state.deck is None:
            raise ValueError("this Durak game has no deck to replay (it was built from a "
                             "position or determinized); the OpenSpiel bot plays dealt games")
        preset = _SPEC.preset_of(state.rules)
        if preset is None:
            raise ValueError("python_transfer_durak is loaded by preset, and these rules are "
                             "not one of the presets")
        problem = "no replay tried"
        for loser in (None, state.dealer):
            episode = cls(preset, state.players, state.dealer, loser,
                          max(1000, 2 * len(state.move_stack) + 1))
            try:
                for card in state.deck:
                    episode.apply(card.index)
                for move in state.move_stack:
                    episode.apply(episode.actions_for(move)[0])
            except IllegalMove as error:
                problem = str(error)
                continue
            if episode._game_dealt.view(None) == state.view(None):
                return episode
            problem = "the replayed game differs from the real one"
        raise ValueError(f"could not replay this Durak game: {problem}")


def _vector_steps(items: list[tuple[Any, ...]], actions: list[int], observations: np.ndarray,
                  masks: np.ndarray, status: np.ndarray, seat: int,
                  template: DurakEpisode) -> None:
    """``DurakEpisode.vector_stepper``: every environment stepped in one core call
    (``episode_steps`` in cardtable/durak/_core.c says what it does)."""
    _CORE.episode_steps(items, actions, observations, masks, status, seat,
                        template._core_starts("observation"), template.max_moves)


# -- the learned policy's features ---------------------------------------------------------
SLOTS = 64
"""The learned policy chooses among the first ``SLOTS`` legal moves (in action order)."""
PER_MOVE = 16
"""Features of each legal move."""
_KINDS = (MoveKind.TAKE, MoveKind.PASS, MoveKind.ATTACK, MoveKind.TRANSFER, MoveKind.DEFEND,
          MoveKind.EXCHANGE)


def _worth(trump: int) -> tuple[float, ...]:
    """How much each card is worth keeping, 0 to 1: its strength, trumps above all plain
    cards."""
    return tuple((strength(card) + (9 if card.suit == trump else 0)) / 23.0 for card in CARDS)


_WORTH = tuple(_worth(trump) for trump in range(4))


class DurakMoveFeatures:
    """What each legal move of the seat to move spends, from what that seat may see: its
    own legal moves and public counts (no other hand, no stock order).

    Per move (``PER_MOVE``): its kind (take, pass, attack, transfer, defend, exchange), how
    many cards it puts down, the least and the most worth among them and how many are
    trumps, for a defence how much the beater is worth above the attack card (for a take,
    how many cards it picks up), the stock, the mover's and the fullest other hand, whether
    it is the cheapest move of its kind, and a constant.  ``__call__`` gives a
    ``(SLOTS, PER_MOVE)`` array and the legal actions, slot by slot.

    >>> episode = DurakEpisode()
    >>> episode.apply_chance(random.Random(5))
    >>> features, actions = DurakMoveFeatures()(episode)
    >>> features.shape, len(actions) == len(episode.legal_actions())
    ((64, 16), True)
    """

    slots = SLOTS
    per_move = PER_MOVE
    size = SLOTS * PER_MOVE

    def __call__(self, episode: DurakEpisode) -> tuple[np.ndarray, list[int]]:
        out = np.zeros((SLOTS, PER_MOVE), np.float32)
        if episode.current_player() < 0:
            return out, []
        seat = episode.current_player()
        actions = sorted(episode._legal)[:SLOTS]
        pub = episode._pub
        worth = _WORTH[pub["trump"]]
        trump = pub["trump"]
        sizes = [mask.bit_count() for mask in pub["hands"]]
        stock = pub["stock"] / 24.0
        mine = sizes[seat] / 12.0
        most = max((size for other, size in enumerate(sizes) if other != seat),
                   default=0) / 12.0
        on_table = (pub["unbeaten"] | pub["beaten"] | pub["defences"]).bit_count() / 12.0
        cheapest: dict[MoveKind, float] = {}
        rows = []
        for action in actions:
            move = episode._legal[action]
            kind = move.kind
            spent: tuple[Card, ...] = ()
            gap = 0.0
            if kind is MoveKind.DEFEND:
                attack, beater = move.cards
                spent = (beater,)
                gap = worth[beater.index] - worth[attack.index]
            elif kind is MoveKind.TAKE:
                gap = on_table
            elif kind is MoveKind.EXCHANGE:
                face_up = pub["trump_card"]
                gap = worth[face_up.index] - worth[move.cards[0].index] if face_up else 0.0
            elif kind is not MoveKind.PASS:
                spent = move.cards
            values = [worth[card.index] for card in spent]
            high = max(values, default=0.0)
            rows.append((kind, len(spent), min(values, default=0.0), high,
                         sum(card.suit == trump for card in spent), gap))
            if kind not in cheapest or high < cheapest[kind]:
                cheapest[kind] = high
        for k, (kind, count, low, high, trumps, gap) in enumerate(rows):
            out[k, _KINDS.index(kind)] = 1.0
            out[k, 6:] = (count / 4.0, low, high, trumps / 4.0, gap, stock, mine, most,
                          1.0 if high == cheapest[kind] else 0.0, 1.0)
        return out, actions


def _table_masks(game: Any) -> tuple[int, int, int, int]:
    """The table from the engine's own fields (alike in the pure and the compiled engine):
    the attacks beaten, their beaters, every attack, and the cards left in the stock."""
    beaten = defences = 0
    for attack, beater in game._beats:
        beaten |= attack.mask
        defences |= beater.mask
    played = 0
    for attack in game._att:
        played |= attack.mask
    return beaten, defences, played, len(game._stock) - game._drawn
