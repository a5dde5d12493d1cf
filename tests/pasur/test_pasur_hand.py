"""A hand of Pasur, rule point by rule point: the deal, the opening table, playing,
surs, the end of the hand, and refusing what the rules do not allow."""

from __future__ import annotations

import random

import pytest
from pasur_helpers import PRESET_NAMES, deck, rules, state

from cardtable.cards import Card, parse_cards
from cardtable.game import MOVE_ERRORS, AmbiguousMove, IllegalMove, InvalidMove
from cardtable.pasur import PRESETS, Hand, Move, opening_step

CLEAN = deck("A♣ 2♣ 3♣ 4♣", "A♦ 2♦ 3♦ 4♦", "5♣ 6♣ 7♣ 8♣")
"""Seat 0 holds A-4 of clubs, seat 1 A-4 of diamonds, the table 5-8 of clubs."""


def texts(cards: list[Card]) -> list[str]:
    return [card.text for card in cards]


def moves(hand: Hand) -> list[str]:
    return [str(move) for move in hand.legal_moves()]


# -- the deal ---------------------------------------------------------------------------

def test_an_explicit_deck_is_dealt_from_the_front_leader_first():
    hand = Hand.new(PRESETS["standard"], deck=CLEAN, leader=1)
    assert texts(hand.hands[1]) == ["A♣", "2♣", "3♣", "4♣"]
    assert texts(hand.hands[0]) == ["A♦", "2♦", "3♦", "4♦"]
    assert texts(hand.table) == ["5♣", "6♣", "7♣", "8♣"]
    assert hand.stock == CLEAN[12:]
    assert hand.to_move == 1 and hand.deck == tuple(CLEAN)


def test_each_later_deal_round_gives_four_to_each_player_in_turn_order():
    hand = Hand.new(PRESETS["wikipedia"], players=3, deck=CLEAN[:4] + CLEAN[12:20]
                    + CLEAN[4:12] + CLEAN[20:], leader=2)
    first_stock = hand.stock[:12]
    rng = random.Random(1)
    while hand.deal_round == 1:
        hand.push(rng.choice(hand.legal_moves()))
    assert hand.deal_round == 2 and hand.to_move == 2
    assert hand.hands[2] == sorted(first_stock[0:4])
    assert hand.hands[0] == sorted(first_stock[4:8])
    assert hand.hands[1] == sorted(first_stock[8:12])


@pytest.mark.parametrize("players, rounds", [(2, 6), (3, 4), (4, 3)])
def test_the_pack_lasts_a_fixed_number_of_deal_rounds(players, rounds):
    hand = Hand.new(PRESETS["wikipedia"], players=players, seed=5)
    assert (hand.deal_round, hand.deal_rounds) == (1, rounds)
    assert len(hand.stock) == 48 - 4 * players


def test_a_bad_deck_is_refused():
    with pytest.raises(ValueError, match="52 cards once; this one has 51 cards"):
        Hand.new(PRESETS["standard"], deck=CLEAN[:51])
    with pytest.raises(ValueError, match=r"missing: A♣"):
        Hand.new(PRESETS["standard"], deck=[CLEAN[1], *CLEAN[1:]])


@pytest.mark.parametrize("preset, dealer_leads", [
    ("standard", False), ("wikipedia", False), ("turkish", True), ("multicapture", False)])
def test_who_leads_the_hand(preset, dealer_leads):
    players = 2 if preset == "standard" else 3
    hand = Hand.new(PRESETS[preset], players=players, seed=3, leader=1)
    assert hand.to_move == hand.leader == 1
    assert hand.dealer == (1 if dealer_leads else 0)


def test_the_same_seed_deals_the_same_hand():
    for preset in PRESET_NAMES:
        one, two = (Hand.new(PRESETS[preset], seed=99) for _ in range(2))
        assert state(one) == state(two) and one.deck == two.deck
    assert Hand.new(PRESETS["standard"], seed=1).deck != Hand.new(PRESETS["standard"],
                                                                  seed=2).deck


# -- the opening table ------------------------------------------------------------------

def opening(preset: str, table: str, stock: str = "", **changes: object) -> tuple[Hand, list]:
    given = deck("A♣ 2♣ 3♣ 4♣", "A♦ 2♦ 3♦ 4♦", table, stock)
    return Hand.new(rules(preset, **changes), deck=given), given


def assert_replaced(hand: Hand, given: list, slot: int) -> None:
    """The jack at table ``slot`` went into the stock; the stock's first card took its place."""
    jack = given[8 + slot]
    assert hand.deck[:8] == tuple(given[:8])
    expected_table = given[8:12]
    expected_table[slot] = given[12]
    assert hand.deck[8:12] == tuple(expected_table)
    assert jack in hand.stock and given[12] not in hand.stock


def assert_redealt(hand: Hand, given: list) -> None:
    assert hand.deck[:12] != tuple(given[:12])
    assert sorted(hand.deck) == sorted(given)


@pytest.mark.parametrize("preset, table, replaced, changes, action, slot", [
    ("standard", "5♣ 6♣ 7♣ 8♣", False, {}, "keep", None),
    ("standard", "5♣ J♠ 7♣ J♥", False, {}, "replace", 1),       # the first jack dealt
    ("standard", "5♣ J♠ 7♣ 8♣", True, {}, "replace", 1),        # as often as needed
    ("wikipedia", "5♣ J♠ 7♣ 8♣", True, {}, "redeal", None),     # a jack replaced a jack
    ("wikipedia", "J♣ 6♣ J♠ 8♣", False, {}, "redeal", None),    # two jacks
    ("turkish", "Q♣ Q♠ Q♥ 8♣", False, {}, "redeal", None),      # three queens
    ("turkish", "Q♣ Q♠ 7♣ 8♣", False, {}, "keep", None),
    ("standard", "5♣ Q♠ 7♣ 8♣", False, {"opening_any_face_redeal": True}, "redeal", None),
    ("standard", "5♣ J♠ 7♣ 8♣", False, {"opening_jacks": "redeal_table"}, "redeal_table",
     None),
    ("standard", "5♣ J♠ 7♣ 8♣", False, {"opening_jacks": "stay"}, "keep", None),
])
def test_the_opening_table_rule_says_what_to_do(preset, table, replaced, changes, action,
                                                slot):
    step = opening_step(rules(preset, **changes), parse_cards(table), replaced=replaced)
    assert (step.action, step.slot) == (action, slot)


@pytest.mark.parametrize("preset", ["standard", "wikipedia", "multicapture"])
def test_a_single_opening_jack_is_put_back_and_replaced(preset):
    hand, given = opening(preset, "5♣ J♠ 7♣ 8♣", "9♥")
    assert_replaced(hand, given, 1)
    assert texts(hand.table) == ["5♣", "7♣", "8♣", "9♥"]


def test_standard_replaces_every_opening_jack():
    hand, given = opening("standard", "J♠ 6♣ J♥ 8♣", "9♥ 10♥")
    assert not [card for card in hand.table if card.rank == 11]
    assert hand.deck[:8] == tuple(given[:8])
    assert Card.parse("J♠") in hand.stock and Card.parse("J♥") in hand.stock
    assert {c.text for c in hand.table} >= {"6♣", "8♣"}


@pytest.mark.parametrize("preset", ["wikipedia", "multicapture"])
def test_two_opening_jacks_redeal(preset):
    hand, given = opening(preset, "J♠ 6♣ J♥ 8♣")
    assert_redealt(hand, given)


def test_wikipedia_redeals_when_the_replacement_is_a_jack():
    hand, given = opening("wikipedia", "5♣ J♠ 7♣ 8♣", "J♥ 9♥")
    assert_redealt(hand, given)
    standard, _ = opening("standard", "5♣ J♠ 7♣ 8♣", "J♥ 9♥")
    assert standard.deck[:8] == tuple(given[:8])  # standard just replaces again


def test_turkish_redeals_on_any_opening_jack():
    hand, given = opening("turkish", "5♣ J♠ 7♣ 8♣")
    assert_redealt(hand, given)
    assert not [card for card in hand.table if card.rank == 11]


@pytest.mark.parametrize("preset, face_count, redeal", [
    ("turkish", 2, False), ("turkish", 3, True), ("multicapture", 2, True),
    ("standard", 3, False), ("wikipedia", 4, False)])
def test_several_opening_queens_or_kings(preset, face_count, redeal):
    for rank in "QK":
        faces = [f"{rank}{suit}" for suit in "♣♦♥♠"][:face_count]
        table = " ".join(faces + ["5♣", "6♣", "7♣"][:4 - face_count])
        hand, given = opening(preset, table)
        if redeal:
            assert_redealt(hand, given)
        else:
            assert hand.deck == tuple(given)


def test_family_variations_of_the_opening_table():
    hand, given = opening("standard", "5♣ 6♣ Q♥ 8♣", opening_any_face_redeal=True)
    assert_redealt(hand, given)
    assert not [card for card in hand.table if card.rank > 10]
    hand, given = opening("standard", "5♣ J♠ 7♣ 8♣", opening_jacks="redeal")
    assert_redealt(hand, given)
    hand, given = opening("standard", "5♣ J♠ 7♣ 8♣", opening_jacks="stay")
    assert hand.deck == tuple(given)


def test_some_families_deal_the_table_again_and_the_hands_stay():
    # playpasur: "some families deal the whole table again" when a jack opens it.
    hand, given = opening("standard", "5♣ J♠ 7♣ 8♣", "J♥ 9♥", opening_jacks="redeal_table")
    assert hand.deck[:8] == tuple(given[:8])              # both hands as dealt
    assert hand.deck[8:12] != tuple(given[8:12])          # a new table ...
    assert not [card for card in hand.table if card.rank == 11]   # ... with no jack
    assert sorted(hand.deck) == sorted(given)
    # the old table went back into the stock: its cards are on the table or still to come
    rest = set(hand.table) | set(hand.stock)
    assert set(parse_cards("5♣ J♠ 7♣ 8♣")) <= rest


def test_the_table_is_dealt_again_from_the_hand_s_generator():
    table_again = rules("standard", opening_jacks="redeal_table")
    given = deck("A♣ 2♣ 3♣ 4♣", "A♦ 2♦ 3♦ 4♦", "5♣ J♠ 7♣ 8♣")
    first = Hand.new(table_again, deck=given, seed=3)
    assert Hand.new(table_again, deck=given, seed=3).deck == first.deck
    tables = {Hand.new(table_again, deck=given, seed=seed).deck[8:12] for seed in range(20)}
    assert len(tables) > 10


@pytest.mark.parametrize("table", ["5♣ Q♠ 7♣ 8♣", "5♣ 6♣ 7♣ 8♣"])
def test_the_table_is_dealt_again_only_for_a_jack(table):
    hand, given = opening("standard", table, opening_jacks="redeal_table")
    assert hand.deck == tuple(given)


def test_faces_that_redeal_still_redeal_the_pack_when_jacks_deal_the_table_again():
    # Three queens under the turkish count redeal everything, whatever a jack would do.
    hand, given = opening("turkish", "Q♣ Q♦ Q♥ J♠", opening_jacks="redeal_table")
    assert_redealt(hand, given)
    assert hand.deck[:8] != tuple(given[:8])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_effective_deck_deals_the_same_hand_with_no_fix(preset):
    for table in ("5♣ J♠ 7♣ 8♣", "J♠ J♥ Q♦ Q♠", "Q♣ Q♦ Q♥ 2♥"):
        hand, _given = opening(preset, table, "J♦ 9♥")
        again = Hand.new(PRESETS[preset], deck=hand.deck)
        assert again.deck == hand.deck and state(again) == state(hand)
        # ... and the same deck always fixes the same way.
        assert opening(preset, table, "J♦ 9♥")[0].deck == hand.deck


# -- playing ----------------------------------------------------------------------------

@pytest.mark.parametrize("preset, forced", [
    ("standard", True), ("wikipedia", True), ("turkish", False), ("multicapture", True)])
def test_a_card_that_can_capture_must_capture(preset, forced):
    # playpasur: 4♠ on the table, 7♥ K♣ 9♦ in hand: any may be played, but 7♥ must take.
    hand = Hand.from_position(PRESETS[preset], hands=["7♥ K♣ 9♦", "2♣ 3♣ 5♣"], table="4♠")
    expected = ["7♥ x 4♠", "9♦", "K♣"]
    assert moves(hand) == (expected if forced else ["7♥", *expected])
    before = state(hand)
    if forced:
        with pytest.raises(IllegalMove, match="7♥ can take 4♠ from the table: a card that "
                                              "can capture must capture"):
            hand.push(Move.parse("7♥"))
        assert state(hand) == before
    else:
        hand.push(Move.parse("7♥"))
        assert texts(hand.table) == ["4♠", "7♥"]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_card_that_takes_nothing_stays_on_the_table(preset):
    hand = Hand.from_position(PRESETS[preset], hands=["9♦ 2♣", "3♣ 5♣"], table="4♠ K♥")
    hand.push(Move.parse("9♦"))
    assert texts(hand.table) == ["4♠", "9♦", "K♥"]
    assert hand.captured == [[], []] and hand.last_capturer is None


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_jack_with_nothing_to_take_stays_and_is_no_capture(preset):
    hand = Hand.from_position(PRESETS[preset], hands=["J♦ 2♣", "3♣ 5♣"], table="")
    assert moves(hand) == ["2♣", "J♦"]
    hand.push(Move.parse("J♦"))
    assert texts(hand.table) == ["J♦"] and hand.last_capturer is None
    assert hand.surs == [0, 0] and hand.captured == [[], []]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_capture_moves_the_card_and_the_taken_cards_to_the_side_s_pile(preset):
    hand = Hand.from_position(PRESETS[preset], hands=["7♣ 2♣", "3♣ 5♣"], table="A♠ 3♦ 9♥")
    hand.push(hand.parse_move("7♣ x A♠ 3♦"))
    assert texts(hand.captured[0]) == ["A♠", "3♦", "7♣"]
    assert texts(hand.table) == ["9♥"] and hand.last_capturer == 0 and hand.to_move == 1


def test_partners_share_a_pile_and_surs():
    family = rules("standard", player_counts=(2, 4))
    hand = Hand.from_position(family, hands=["2♣", "3♣", "7♥", "5♣"], table="4♠",
                              to_move=2, stock="6♥ 6♠ 6♦ 6♣ 8♥ 8♠ 8♦ 8♣ 9♥ 9♠ 9♦ 9♣ "
                                             "10♥ 10♠ 10♦ 10♣")
    assert [hand.side_of(seat) for seat in range(4)] == [0, 1, 0, 1] and hand.sides == 2
    hand.push(hand.parse_move("7h"))  # seat 2 clears the table: a sur for side 0
    assert hand.surs == [1, 0] and hand.last_capturer == 2
    assert texts(hand.captured[0]) == ["4♠", "7♥"] and hand.captured[1] == []


def test_turns_go_round_in_seat_order():
    hand = Hand.new(PRESETS["turkish"], players=3, seed=8, leader=1)
    seen = []
    for _ in range(6):
        seen.append(hand.to_move)
        hand.push(hand.legal_moves()[0])
    assert seen == [1, 2, 0, 1, 2, 0]


# -- surs -------------------------------------------------------------------------------

def sur_after(preset: str, hand_text: str, table: str, *, last_deal: bool = False,
              **changes: object) -> int:
    """Seat 0 plays its first legal capture; how many surs does its side have after?"""
    stock = "" if last_deal else "6♥ 6♠ 6♦ 6♣ 8♥ 8♠ 8♦ 8♣"
    hand = Hand.from_position(rules(preset, **changes), hands=[hand_text, "9♣ 9♦"],
                              table=table, stock=stock)
    capture = next(move for move in hand.legal_moves() if move.taken)
    hand.push(capture)
    assert hand.table == []
    return hand.surs[0]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_clearing_the_table_with_a_number_card_is_a_sur(preset):
    assert sur_after(preset, "7♥ 2♣", "4♠") == 1


@pytest.mark.parametrize("preset, counts", [
    ("standard", False), ("wikipedia", True), ("turkish", True), ("multicapture", True)])
def test_clearing_the_table_with_a_king_or_queen(preset, counts):
    assert sur_after(preset, "K♥ 2♣", "K♠") == int(counts)
    assert sur_after(preset, "Q♥ 2♣", "Q♠") == int(counts)


@pytest.mark.parametrize("preset, counts", [
    ("standard", False), ("wikipedia", False), ("turkish", False), ("multicapture", True)])
def test_clearing_the_table_with_a_jack(preset, counts):
    assert sur_after(preset, "J♥ 2♣", "3♦ 5♣") == int(counts)


def test_a_jack_sur_counts_as_a_family_variation():
    assert PRESETS["standard"].sur_by == "number"
    hand = Hand.from_position(rules("standard", sur_by="any"), hands=["J♥ 2♣", "9♣ 9♦"],
                              table="3♦ 5♣", stock="6♥ 6♠ 6♦ 6♣ 8♥ 8♠ 8♦ 8♣")
    hand.push(hand.parse_move("jh"))
    assert hand.surs == [1, 0]


@pytest.mark.parametrize("hand_text, table, counts", [
    ("J♥ 2♣", "3♦ 5♣", True),    # a jack sweeps the table
    ("7♥ 2♣", "4♠", True),       # a number card makes 11 with the last card
    ("K♥ 2♣", "K♠", False),      # a king takes the last king
    ("Q♥ 2♣", "Q♠", False),      # a queen takes the last queen
])
def test_some_tables_count_a_jack_s_sur_but_never_a_king_s_or_queen_s(hand_text, table, counts):
    # playpasur: "a sur with a jack ... is no sur in the common rule, though some tables
    # count it"; the capture must otherwise be made with a number card.
    assert sur_after("standard", hand_text, table, sur_by="number_or_jack") == int(counts)


def test_a_jack_s_sur_under_number_or_jack_still_waits_for_the_last_deal_rule():
    assert sur_after("standard", "J♥ 2♣", "3♦ 5♣", last_deal=True,
                     sur_by="number_or_jack") == 0
    assert sur_after("standard", "J♥ 2♣", "3♦ 5♣", last_deal=True, sur_by="number_or_jack",
                     sur_in_last_deal=True) == 1


@pytest.mark.parametrize("preset, counts", [
    ("standard", False), ("wikipedia", False), ("turkish", True), ("multicapture", True)])
def test_surs_in_the_last_deal_round(preset, counts):
    assert sur_after(preset, "7♥ 2♣", "4♠", last_deal=True) == int(counts)


@pytest.mark.parametrize("preset, counts", [
    ("standard", False), ("wikipedia", False), ("turkish", True), ("multicapture", True)])
def test_clearing_the_table_with_the_last_card_of_the_hand(preset, counts):
    hand = Hand.from_position(PRESETS[preset], hands=["7♥", ""], table="4♠", to_move=0)
    hand.push(hand.parse_move("7h x 4s"))
    assert hand.is_over() and hand.surs[0] == int(counts) and hand.swept == []


# -- the end of the hand ----------------------------------------------------------------

def test_the_table_left_at_the_end_goes_to_the_last_capturer_and_is_no_sur():
    # Turkish example: each player holds one card; A and B capture, C and D cannot, and
    # what is left on the table belongs to B.
    hand = Hand.from_position(PRESETS["turkish"], hands=["7♣", "8♦", "K♥", "10♠"],
                              table="4♦ 3♣ 9♥ 6♠")
    for text in ("7c x 4d", "8d x 3c", "kh", "ts"):
        hand.push(hand.parse_move(text))
    assert hand.is_over() and hand.last_capturer == 1
    assert texts(hand.swept) == ["6♠", "9♥", "10♠", "K♥"]
    assert texts(hand.captured[1]) == ["3♣", "6♠", "8♦", "9♥", "10♠", "K♥"]
    assert hand.table == [] and hand.surs == [0, 0, 0, 0]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_last_sweep_is_never_a_sur(preset):
    hand = Hand.from_position(PRESETS[preset], hands=["7♥", "9♣"], table="4♠ 10♦",
                              last_capturer=None)
    hand.push(hand.parse_move("7h x 4s"))
    hand.push(hand.parse_move("9c"))
    assert hand.is_over() and texts(hand.swept) == ["9♣", "10♦"]
    assert hand.surs == [0, 0] and len(hand.captured[0]) == 4


def test_with_no_capture_at_all_the_table_stays():
    hand = Hand.from_position(PRESETS["standard"], hands=["K♣", "Q♦"], table="")
    hand.push(Move.parse("K♣"))
    hand.push(Move.parse("Q♦"))
    assert hand.is_over() and texts(hand.table) == ["Q♦", "K♣"] and hand.swept == []


def test_score_and_outcome_of_a_finished_hand():
    hand = Hand.from_position(PRESETS["standard"], hands=["7♥", "9♣"], table="4♠ 10♦",
                              captured=["A♣ A♦ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣", "J♣"])
    assert hand.outcome() is None
    hand.push(hand.parse_move("7h"))
    hand.push(hand.parse_move("9c"))
    # side 0: 2 aces, 2♣, 10♦, 9 clubs -> 1+1+2+3+7 = 14; side 1: J♣ -> 1.
    assert hand.score() == [14, 1]
    outcome = hand.outcome()
    assert outcome.points == (14, 1) and outcome.winners == (0,)
    assert outcome.returns == (6.5, -6.5) and sum(outcome.returns) == 0


# -- refusing what the rules do not allow -------------------------------------------------

@pytest.fixture
def position() -> Hand:
    return Hand.from_position(PRESETS["standard"], hands=["7♥ K♣ 9♦", "2♣ 3♣ 5♣"],
                              table="4♠ 2♦ A♥")


@pytest.mark.parametrize("move, reason", [
    ("Q♠", "you do not hold Q♠"),
    ("7♥ x 4♦", "4♦ is not on the table"),
    ("7♥ x 2♦", r"7 \+ 2 = 9, not 11 \(7♥ can: 7♥ x 4♠\)"),
    ("9♦ x A♥", r"9 \+ 1 = 10, not 11 \(9♦ can: 9♦ x 2♦\)"),
    ("9♦", "9♦ can take 2♦ from the table: a card that can capture must capture"),
    ("K♣ x 4♠", "a king takes only a king"),
    ("2♣", "you do not hold 2♣"),
    ("7♥ x 4♠ 2♦ A♥", r"7 \+ 1 \+ 2 \+ 4 = 14, not 11"),
])
def test_an_illegal_move_says_why_and_changes_nothing(position, move, reason):
    before = state(position)
    with pytest.raises(IllegalMove, match=reason):
        position.push(Move.parse(move))
    if " x " in move or Card.parse(move) not in position.hands[0]:
        # The same, as text (a bare card held is read as the capture it must make).
        with pytest.raises(IllegalMove, match=reason):
            position.push(move)
    assert state(position) == before


def test_playing_out_of_turn_or_after_the_end_is_refused(position):
    before = state(position)
    with pytest.raises(IllegalMove, match="it is seat 0's turn"):
        position.push(Move.parse("2♣"), seat=1)
    with pytest.raises(InvalidMove, match="is not a move"):
        position.push(42)
    assert state(position) == before
    over = Hand.from_position(PRESETS["standard"], hands=["K♣", "Q♦"], table="")
    over.push("kc")
    over.push("qd")
    with pytest.raises(IllegalMove, match="the hand is over"):
        over.push(Move.parse("K♠"))
    assert over.legal_moves() == [] and over.to_move is None


def test_a_bare_card_is_read_as_the_one_move_it_can_make(position):
    assert str(position.parse_move("7h")) == "7♥ x 4♠"
    assert str(position.parse_move("KC")) == "K♣"
    hand = Hand.from_position(PRESETS["standard"], hands=["9♦ 2♣", "3♣ 5♣"],
                              table="2♦ 2♠ A♥")
    with pytest.raises(AmbiguousMove, match="9♦ can capture in 2 ways; say which: "
                                            "9♦ x 2♦; 9♦ x 2♠"):
        hand.parse_move("9d")
    turkish = Hand.from_position(PRESETS["turkish"], hands=["7♥ 2♣", "3♣ 5♣"], table="4♠")
    assert str(turkish.parse_move("7h")) == "7♥"  # leaving it is legal there
    for move in turkish.legal_moves():
        assert turkish.parse_move(str(move)) == move


@pytest.mark.parametrize("text, error, reason", [
    ("7z", InvalidMove, "'7z' is not a move"),
    ("7h x", InvalidMove, "name the cards after 'x'"),
    ("Q♠", IllegalMove, "you do not hold Q♠"),
    ("7h x 2d", IllegalMove, r"7 \+ 2 = 9, not 11"),
])
def test_text_that_is_no_move_or_no_legal_move_says_which(position, text, error, reason):
    before = state(position)
    for cache in ("cold", "warm"):
        if cache == "warm":
            position.legal_moves()
        with pytest.raises(error, match=reason):
            position.push(text)
        with pytest.raises(error, match=reason):
            position.parse_move(text)
        assert state(position) == before


def test_text_naming_several_legal_moves_is_ambiguous():
    hand = Hand.from_position(PRESETS["standard"], hands=["9♦ 2♣", "3♣ 5♣"],
                              table="2♦ 2♠ A♥")
    before = state(hand)
    with pytest.raises(AmbiguousMove, match="say which: 9♦ x 2♦; 9♦ x 2♠"):
        hand.push("9d")
    assert state(hand) == before
    assert issubclass(AmbiguousMove, ValueError) and AmbiguousMove in MOVE_ERRORS


def fresh(position: Hand, cache: str) -> Hand:
    """A copy of ``position`` whose legal moves are not yet listed (cold) or are (warm)."""
    hand = position.copy()   # (a copy lists its legal moves afresh)
    if cache == "warm":
        hand.legal_moves()
    return hand


@pytest.mark.parametrize("cache", ["cold", "warm"])
def test_a_tuple_of_a_move_s_numbers_is_no_move(position, cache):
    before = state(position)
    move = position.legal_moves()[0]
    assert not isinstance(move, tuple)
    hand = fresh(position, cache)
    with pytest.raises(InvalidMove, match="is not a move"):
        hand.push((move.index, move.taken, move.bit))
    assert state(hand) == before
    hand.push(move)
    assert all(type(m) is Move for m in hand.move_stack)


@pytest.mark.parametrize("cache", ["cold", "warm"])
def test_a_move_that_is_not_one_of_the_legal_moves_is_refused(position, cache):
    # 7♥ must take the 4♠; leaving it, or taking what makes no 11, is no legal move.
    before = state(position)
    for move in (Move.parse("7♥"), Move.parse("7♥ x 2♦ A♥"), Move.parse("2♣")):
        assert move not in position.legal_moves()
        hand = fresh(position, cache)
        with pytest.raises(IllegalMove):
            hand.push(move)
        assert state(hand) == before


def test_a_copy_without_its_stack_plays_on_alike_but_cannot_undo(position):
    position.push(position.parse_move("7h"))
    light = position.copy(stack=False)
    assert state(light) == state(position) and light.history() == position.history()
    with pytest.raises(IndexError, match="no move to undo"):
        light.pop()
    move = light.legal_moves()[0]
    light.push(move)
    assert light.pop() == move and state(light) == state(position)
    assert position.pop() == Move.parse("7♥ x 4♠")   # the original keeps its own stack


def test_legal_moves_are_a_fresh_list_each_time(position):
    first = position.legal_moves()
    first.clear()
    assert position.legal_moves() != []


def test_a_position_must_fit_the_turn():
    with pytest.raises(ValueError, match="do not fit seat 0 being to move"):
        Hand.from_position(PRESETS["standard"], hands=["7♥", "2♣ 3♣ 5♣"], table="")
    with pytest.raises(ValueError, match="appear"):
        Hand.from_position(PRESETS["standard"], hands=["7♥", "7♥"], table="")
    with pytest.raises(ValueError, match="multiple of 8"):
        Hand.from_position(PRESETS["standard"], hands=["7♥", "2♣"], table="", stock="3♣")
    hand = Hand.from_position(PRESETS["standard"], hands=["7♥", "2♣ 3♣"], table="",
                              to_move=1)
    assert hand.leader == 0 and hand.to_move == 1
    assert parse_cards("2♣ 3♣") == hand.hands[1]


def _round_starts(seed: int) -> list[Hand]:
    """The position at the start of every deal round of a random hand."""
    rng = random.Random(seed)
    rules = list(PRESETS.values())[seed % len(PRESETS)]
    hand = Hand.new(rules, players=rng.choice(rules.player_counts), seed=seed)
    starts = []
    while not hand.is_over():
        if all(len(cards) == 4 for cards in hand.hands):
            starts.append(hand.copy())
        hand.push(rng.choice(hand.legal_moves()))
    return starts


@pytest.mark.parametrize("seed", range(8))
def test_a_hand_from_masks_is_the_hand_from_the_same_position(seed: int) -> None:
    for start in _round_starts(seed):
        leader = start.to_move
        assert leader is not None
        stock = sum(card.mask for card in start.stock)
        where = Hand.from_position(
            start.rules, hands=start.hands, table=start.table, stock=sorted(start.stock),
            to_move=leader, captured=start.captured, surs=start.surs,
            last_capturer=start.last_capturer, deal_round=start.deal_round)
        made = Hand.from_masks(
            start.rules, held=start.hand_masks, table=start.table_mask, stock=stock,
            leader=leader, captured=start.captured_masks, surs=start.surs,
            last_capturer=start.last_capturer, deal_round=start.deal_round)
        rng = random.Random(seed)
        while True:
            assert made.view(leader) == where.view(leader)
            assert (made.stock, made.hands, made.legal_moves()) == (
                where.stock, where.hands, where.legal_moves())
            if made.is_over():
                break
            move = rng.choice(made.legal_moves())
            made.push(move)
            where.push(move)


@pytest.mark.parametrize("bad", [
    {"held": [0b1111, 0b111 << 4]},                       # unequal hands
    {"held": [0b1111, 0b1111]},                           # a card in two places
    {"held": [1 << 52 | 0b111, 0b1111 << 4]},             # not a card
    {"held": [0, 0]},                                     # empty hands
    {"held": [0b1111, 0b1111 << 4], "stock": 1 << 51},    # a stock not of whole rounds
    {"held": [0b1111, 0b1111 << 4], "deal_round": 0},
    {"held": [0b1111, 0b1111 << 4], "surs": [0]},
    {"held": [0b1111, 0b1111 << 4], "last_capturer": 2},
    {"held": [0b1111]},
])
def test_a_hand_from_masks_refuses_what_is_no_position(bad: dict) -> None:
    arguments = {"table": 0b1111 << 8, "stock": 0, "leader": 0, "deal_round": 6, **bad}
    with pytest.raises(ValueError):
        Hand.from_masks(PRESETS["standard"], **arguments)
