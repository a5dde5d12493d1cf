"""The Pasur core held to the pure engine, position by position (the differential test).

``play_both`` plays one hand on a ``pasur.Hand`` (the reference) and on the compiled
core's ``Board`` copied from it, and requires at every position the same legal moves in
the same order, the same cards everywhere, the same view and record, then the same
outcome; along the way it copies both mid-hand, determinizes, pops back to the start and
replays a playout the core ran alone.  ``random_rules`` draws an option set from every
choice the rules offer.  tests/pasur/test_pasur_core.py runs it on hypothesis-chosen cases,
benchmarks/engine_differential.py on 100,000 positions and more (under AddressSanitizer too).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.cards import CARDS, cards_of
from cardtable.pasur import PRESETS, Hand, Rules
from cardtable.pasur.moves import move_of
from cardtable.pasur.scoring import hand_points

Choose = Callable[[Sequence[Any]], Any]

CHOICES: dict[str, Sequence[Any]] = {
    "teams_of_four": (True, False),
    "dealer_leads": (True, False),
    "opening_jacks": ("replace", "replace_one", "redeal", "redeal_table", "stay"),
    "opening_same_face_redeal": (0, 2, 3, 4),
    "opening_any_face_redeal": (True, False),
    "forced_capture": (True, False),
    "multi_sets": (True, False),
    "king_queen_take_all": (True, False),
    "jack": ("sweep", "sweep_all", "eleven"),
    "kids": (True, False),
    "sur_by": ("number", "number_or_jack", "not_jack", "any"),
    "sur_in_last_deal": (True, False),
    "sur_scoring": ("net", "each"),
    "sur_points": (0, 5, 10),
    "bonus": ("clubs", "cards"),
    "bonus_minimum": (0, 7, 27),
    "ace_points": (0, 1, 2),
    "jack_points": (0, 1),
    "seven_diamonds_points": (0, 1),
}
"""Every play and scoring option, with the values a draw picks from."""


def random_rules(choose: Choose) -> tuple[Rules, int]:
    """A preset, or a rule set with every option drawn by ``choose``; and a player count."""
    preset = choose([*PRESETS, "drawn"])
    if preset != "drawn":
        rules = PRESETS[preset]
    else:
        rules = dataclasses.replace(
            PRESETS["standard"], player_counts=(2, 3, 4),
            **{name: choose(values) for name, values in CHOICES.items()})
    return rules, choose(rules.player_counts)


def board_of(hand: Hand) -> Any:
    from cardtable.pasur import _core
    return _core.Board(hand)


def _pairs(hand: Hand) -> list[tuple[int, int]]:
    return [(move.index, move.taken) for move in hand.legal_moves()]


def same(board: Any, hand: Hand, seats: Sequence[int | None] = (None,)) -> None:
    """The board and the hand hold the same position, listed and seen alike."""
    legal = board.legal()
    assert legal == _pairs(hand), (legal, _pairs(hand), hand)
    got = board.state()
    want = {"held": tuple(hand.hand_masks), "table": hand.table_mask,
            "captured": tuple(hand.captured_masks), "surs": tuple(hand.surs),
            "last": hand.last_capturer, "to_move": hand.to_move, "round": hand.deal_round,
            "swept": sum(card.mask for card in hand.swept)}
    assert got == want, (got, want)
    for seat in seats:
        view = hand.view(seat)
        # the view as the board's fields make it
        assert view["hand_sizes"] == [mask.bit_count() for mask in got["held"]]
        assert view["table"] == [card.text for card in cards_of(got["table"])]
        assert view["captured"] == [[c.text for c in cards_of(m)] for m in got["captured"]]
        assert view["surs"] == list(got["surs"]) and view["to_move"] == got["to_move"]
        if seat is not None:
            assert view["hand"] == [c.text for c in cards_of(got["held"][seat])]
            if seat == got["to_move"]:
                assert view["legal_moves"] == [move_of(i, t).text for i, t in legal]


def _record(board: Any) -> list[tuple[int, Any, bool]]:
    return [(seat, move_of(index, taken), sur) for seat, index, taken, sur in board.moves()]


def play_both(hand: Hand, rng: random.Random) -> int:
    """Play ``hand`` out on both engines as described above; return the positions compared.

    ``hand`` is played on and comes back to where it started.
    """
    start = len(hand.move_stack)
    board = board_of(hand)
    positions = 0
    seats: list[int | None] = [None, *range(hand.players)]
    fork = rng.randrange(49)
    copies: tuple[Hand, Any] | None = None
    while True:
        same(board, hand, seats if rng.random() < 0.2 else ())
        positions += 1
        if hand.move_stack and len(hand.move_stack) - start == fork and copies is None:
            copies = hand.copy(), board.copy()
            positions += _determinized(hand, rng)
        if hand.is_over():
            break
        move = rng.choice(hand.legal_moves())
        hand.push(move)
        board.push(move.index, move.taken)
    # the record and the outcome
    assert _record(board) == hand.history()[start:]
    assert hand_points(*board.score()[:2], hand.rules, hand.totals) == hand.score()
    assert board.score()[2] is True
    if copies is not None:
        # a copy made mid-hand did not move with the original, and plays on alike
        copied, board_copy = copies
        same(board_copy, copied)
        while not copied.is_over():
            move = rng.choice(copied.legal_moves())
            copied.push(move)
            board_copy.push(move.index, move.taken)
            same(board_copy, copied)
            positions += 1
    # back to the start, move by move
    while len(hand.move_stack) > start:
        popped = board.pop()
        move = hand.pop()
        assert popped == (move.index, move.taken)
        same(board, hand)
        positions += 1
    assert board.depth == 0
    positions += _playout_replayed(hand, rng)
    return positions


def _determinized(hand: Hand, rng: random.Random) -> int:
    """A determinization of ``hand`` played out on both engines."""
    if hand.is_over():
        return 0
    seat = rng.randrange(hand.players)
    seed = rng.getrandbits(32)
    deal = hand.determinize(seat, random.Random(seed))
    # the core's shuffle deals exactly what random.Random.shuffle deals
    from cardtable.pasur import hand as hand_module
    core, hand_module._CORE = hand_module._CORE, None
    try:
        pure = hand.determinize(seat, random.Random(seed))
    finally:
        hand_module._CORE = core
    assert (pure.hands, pure.stock, pure.deck) == (deal.hands, deal.stock, deal.deck)
    board = board_of(deal)
    positions = 0
    while True:
        same(board, deal)
        positions += 1
        if deal.is_over():
            return positions
        move = rng.choice(deal.legal_moves())
        deal.push(move)
        board.push(move.index, move.taken)


def _playout_replayed(hand: Hand, rng: random.Random) -> int:
    """A playout the core runs alone, replayed move by move on the hand (each move the core
    chose is legal there and leaves the same position); the hand comes back."""
    board = board_of(hand)
    policy = rng.choice(("random", "basic"))
    stop = hand.deal_round + rng.randrange(3) if rng.random() < 0.5 else 10**6
    played = board.playout(policy, rng.getrandbits(64), stop)
    assert played == board.depth
    assert board.to_move is None or board.state()["round"] > stop
    for seat, index, taken, sur in board.moves():
        assert hand.to_move == seat
        move = move_of(index, taken)
        assert move in hand.legal_moves()
        hand.push(move)
        assert hand.history()[-1][2] == sur
    same(board, hand)
    for _ in range(played):
        hand.pop()
    return played


def positions_of(count: int, seed: int) -> tuple[int, int]:
    """Compare at least ``count`` positions on random hands and rule sets drawn from
    ``seed``; return (positions, hands)."""
    rng = random.Random(seed)
    positions = hands = 0
    while positions < count:
        rules, players = random_rules(rng.choice)
        hand = Hand.new(rules, players=players, seed=rng.getrandbits(32),
                        leader=rng.randrange(players))
        if rng.random() < 0.3:
            for _ in range(rng.randrange(48)):
                hand.push(rng.choice(hand.legal_moves()))
            hand = hand.copy(stack=False)
        positions += play_both(hand, rng)
        hands += 1
    return positions, hands


def card_points_of(rules: Rules) -> tuple[int, ...]:
    """Each card's points under ``rules`` (what the core's basic policy reads)."""
    from cardtable.pasur.scoring import card_points
    return tuple(card_points(CARDS[index].mask, rules) for index in range(52))


# -- the compiled Hand against the pure Hand (the same public classes' two engines) -------

BAD_TEXTS = ["", " ", "x", "7c x", "7c x 7c", "7c x 4d 4d", "zz", "7♣ x 4♦", "J♣", "K♠ x",
             "10", "Tc x Ac", "pass", "A♣ x 2♣ 3♣ 5♣", "Q♦"]
BAD_OBJECTS: list[Any] = [None, 3, 3.5, b"7c", object(), [1], (0, 0), True, CARDS[0],
                          move_of(0, 2), move_of(51, 0), move_of(40, (1 << 40) - 1)]
BAD_SEATS: list[Any] = ["0", 1.0, -1, 99, True, object()]


def shown(hand: Any) -> tuple[Any, ...]:
    """Everything public a hand shows, and the private fields the bots and adapters read."""
    return (hand.to_move, hand.is_over(), hand.deal_round, hand.deal_rounds, hand.hands,
            hand.table, hand.captured, hand.hand_masks, hand.table_mask, hand.captured_masks,
            hand.surs, hand.last_capturer, hand.stock, hand.deck, hand.totals, hand.swept,
            hand.move_stack, hand.history(), hand.score(), hand.outcome(), repr(hand),
            hand.leader, hand.dealer, hand.players, hand.sides, hand._held, hand._deals,
            hand._table, hand._captured, hand._surs, hand._round, hand._rounds)


def twins_alike(pure: Hand, twin: Any, seats: Sequence[int | None] = ()) -> None:
    legal = pure.legal_moves()
    assert twin.legal_moves() == legal
    assert shown(twin) == shown(pure)
    for seat in seats:
        assert twin.view(seat) == pure.view(seat)


def answer(action: Callable[[], Any]) -> tuple[Any, ...]:
    try:
        result = action()
    except Exception as error:   # the refusal itself is what is compared
        return (type(error), str(error))
    return ("ok", result)


def refused_alike(pure: Hand, twin: Any, move: Any, seat: Any = None) -> None:
    """A bad input gets the same answer from both engines, and changes neither."""
    before = shown(pure)
    if seat is None:
        want = answer(lambda: pure.push(move))
        got = answer(lambda: twin.push(move))
    else:
        want = answer(lambda: pure.push(move, seat=seat))
        got = answer(lambda: twin.push(move, seat=seat))
    assert got == want, (move, seat)
    if want[0] != "ok":
        assert shown(pure) == before
    twins_alike(pure, twin)


def bad_input(pure: Hand, twin: Any, rng: random.Random) -> None:
    legal = pure.legal_moves()
    choice = rng.randrange(5)
    if choice == 0:
        refused_alike(pure, twin, rng.choice(BAD_TEXTS))
    elif choice == 1:
        refused_alike(pure, twin, rng.choice(BAD_OBJECTS))
    elif choice == 2:
        refused_alike(pure, twin, move_of(rng.randrange(52), 1 << rng.randrange(52) & ~1))
    elif choice == 3 and legal:
        move = rng.choice(legal)
        refused_alike(pure, twin, rng.choice([str(move), move.card.text, str(move).lower()]))
    elif legal:
        refused_alike(pure, twin, rng.choice(legal), seat=rng.choice(BAD_SEATS))


def play_twins(pure: Hand, twin: Any, rng: random.Random) -> int:
    """Play one hand on both engines, comparing every position; copy, determinize, pickle
    and pop back to the start along the way.  Returns the positions compared."""
    import pickle

    start = len(pure.move_stack)
    seats: list[int | None] = [None, *range(pure.players)]
    positions = 0
    while True:
        twins_alike(pure, twin, seats if rng.random() < 0.2 else ())
        positions += 1
        if rng.random() < 0.15:
            bad_input(pure, twin, rng)
        if rng.random() < 0.05 and not pure.is_over():
            seat, seed = rng.randrange(pure.players), rng.getrandbits(32)
            deal = pure.determinize(seat, random.Random(seed))
            other = twin.determinize(seat, random.Random(seed))
            assert type(other) is type(twin)
            twins_alike(deal, other, seats)
            positions += 1
        if rng.random() < 0.05:
            stack = rng.random() < 0.5
            copied, other = pure.copy(stack=stack), twin.copy(stack=stack)
            if rng.random() < 0.5:
                other = pickle.loads(pickle.dumps(other))
            assert type(other) is type(twin)
            while not copied.is_over():
                twins_alike(copied, other)
                move = rng.choice(copied.legal_moves())
                copied.push(move)
                other.push(move)
                positions += 1
            twins_alike(copied, other, seats)
        if pure.is_over():
            break
        legal = pure.legal_moves()
        at = rng.randrange(len(legal))
        move, seat = legal[at], pure.to_move
        pure.push(move)
        way = rng.randrange(4)
        if way == 0:
            twin.push(str(move))
        elif way == 1:
            twin.push(move, seat=seat)
        elif way == 2:
            twin.push(move)
        else:
            twin.push(twin.legal_moves()[at])   # (one of its own listed moves)
    assert twin.score_sheet() == pure.score_sheet()
    while len(pure.move_stack) > start:
        assert twin.pop() == pure.pop()
        twins_alike(pure, twin)
        positions += 1
    assert answer(twin.pop) == answer(pure.pop)
    return positions


def twins_of(count: int, seed: int) -> tuple[int, int]:
    """Compare at least ``count`` positions of the two engines' hands on random rule sets
    drawn from ``seed`` (new hands, hands from the deck of one, and hands from positions
    part played); return (positions, hands)."""
    from cardtable.pasur.compiled import Hand as CompiledHand
    from cardtable.pasur.hand import Hand as PureHand

    rng = random.Random(seed)
    positions = hands = 0
    while positions < count:
        rules, players = random_rules(rng.choice)
        leader, deal_seed = rng.randrange(players), rng.getrandbits(32)
        pure = PureHand.new(rules, players=players, seed=deal_seed, leader=leader)
        how = rng.randrange(3)
        if how == 0:
            twin = CompiledHand.new(rules, players=players, seed=deal_seed, leader=leader)
        elif how == 1:
            twin = CompiledHand.new(rules, players=players, deck=pure.deck, leader=leader,
                                    seed=deal_seed)
        else:
            for _ in range(rng.randrange(40)):
                pure.push(rng.choice(pure.legal_moves()))
            if pure.is_over():
                continue
            where: dict[str, Any] = dict(
                hands=pure.hands, table=pure.table, stock=pure.stock, to_move=pure.to_move,
                captured=pure.captured, surs=pure.surs, last_capturer=pure.last_capturer,
                deal_round=pure.deal_round)
            pure = PureHand.from_position(rules, **where)
            twin = CompiledHand.from_position(rules, **where)
        positions += play_twins(pure, twin, rng)
        hands += 1
    return positions, hands
