"""Invariants, checked on many random hands: no card created or lost, points add up,
replays reproduce, undo is exact, hidden cards stay hidden, bad moves change nothing."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pasur_helpers import PRESET_NAMES, all_cards, rules, state

from cardtable.cards import CARDS, Card, cards_of, mask_of, pack
from cardtable.game import IllegalMove
from cardtable.pasur import PRESETS, Hand, Move, bonus_side, capture_options, sur_points

SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def dealt(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    """A freshly dealt hand under a random preset and player count, and a move chooser."""
    preset = draw(st.sampled_from(PRESET_NAMES))
    players = draw(st.sampled_from(PRESETS[preset].player_counts))
    seed = draw(st.integers(0, 2**32))
    hand = Hand.new(PRESETS[preset], players=players, seed=seed, leader=seed % players)
    return hand, random.Random(draw(st.integers(0, 2**32)))


@given(dealt())
@SETTINGS
def test_no_card_is_created_or_lost_and_the_pack_lasts_48_plays(case):
    hand, rng = case
    rounds = {2: 6, 3: 4, 4: 3}[hand.players]
    plays = 0
    while not hand.is_over():
        assert sorted(all_cards(hand)) == pack(52)
        assert hand.deal_round == 1 + plays // (4 * hand.players)
        hand.push(rng.choice(hand.legal_moves()))
        plays += 1
    assert plays == 48 and hand.deal_rounds == rounds
    assert sorted(all_cards(hand)) == pack(52)
    assert hand.table == [] or hand.last_capturer is None


@given(dealt())
@SETTINGS
def test_twenty_points_plus_surs_whenever_the_bonus_is_won(case):
    hand, rng = case
    assume(hand.rules.bonus == "clubs")  # standard, wikipedia and multicapture
    while not hand.is_over():
        hand.push(rng.choice(hand.legal_moves()))
    captured = [mask_of(pile) for pile in hand.captured]
    surs = sum(sur_points(hand.surs, hand.rules))
    if bonus_side(captured, hand.rules) is not None and hand.last_capturer is not None:
        assert sum(hand.score()) == 20 + surs
    else:
        assert sum(hand.score()) == 13 + surs


@given(dealt())
@SETTINGS
def test_the_same_seed_and_moves_replay_the_same_hand(case):
    hand, rng = case
    again = Hand.new(hand.rules, players=hand.players, deck=hand.deck, leader=hand.leader)
    while not hand.is_over():
        assert state(again) == state(hand)
        move = rng.choice(hand.legal_moves())
        hand.push(move)
        again.push(str(move))
    assert state(again) == state(hand) and again.score() == hand.score()


@given(dealt(), st.integers(1, 48))
@SETTINGS
def test_pop_undoes_exactly(case, length):
    hand, rng = case
    seen = []
    for _ in range(length):
        if hand.is_over():
            break
        seen.append(state(hand))
        hand.push(rng.choice(hand.legal_moves()))
    copy = hand.copy()
    while seen:
        hand.pop()
        assert state(hand) == seen.pop()
    assert hand.move_stack == []
    assert copy.move_stack and state(copy) != state(hand)  # the copy kept its own moves


@given(dealt(), st.integers(0, 47))
@SETTINGS
def test_a_view_never_holds_another_hand_or_the_stock(case, moves):
    hand, rng = case
    for _ in range(moves):
        hand.push(rng.choice(hand.legal_moves()))
    for seat in [*range(hand.players), None]:
        view = hand.view(seat)
        words = set(json.dumps(view, ensure_ascii=False).replace('"', " ").split())
        hidden = {c.text for s, held in enumerate(hand.hands) if s != seat for c in held}
        hidden |= {c.text for c in hand.stock}
        assert not hidden & words, seat
        assert "seed" not in view and "stock" not in view and "deck" not in view
        if seat is not None:
            assert view["hand"] == [c.text for c in hand.hands[seat]]


@given(dealt(), st.integers(0, 47), st.integers(0, 2**32))
@SETTINGS
def test_determinize_keeps_everything_the_seat_has_seen(case, moves, seed):
    hand, rng = case
    for _ in range(moves):
        hand.push(rng.choice(hand.legal_moves()))
    for source in (hand, Hand.from_position(hand.rules, hands=hand.hands, table=hand.table,
                                            stock=hand.stock, to_move=hand.to_move,
                                            captured=hand.captured, surs=hand.surs,
                                            last_capturer=hand.last_capturer,
                                            deal_round=hand.deal_round)):
        seat = seed % hand.players
        world = source.determinize(seat, random.Random(seed))
        assert world.view(seat)["hand"] == source.view(seat)["hand"]
        assert {k: v for k, v in world.view(seat).items() if k != "moves"} == {
            k: v for k, v in source.view(seat).items() if k != "moves"}
        assert [len(h) for h in world.hands] == [len(h) for h in source.hands]
        unseen = sorted([c for s, h in enumerate(source.hands) if s != seat for c in h]
                        + source.stock)
        assert sorted([c for s, h in enumerate(world.hands) if s != seat for c in h]
                      + world.stock) == unseen
        assert sorted(all_cards(world)) == sorted(all_cards(source))
        if world.deck is not None:
            assert sorted(world.deck) == pack(52)
        assert world.move_stack == source.move_stack
        play_on = random.Random(seed)
        while not world.is_over():
            world.push(play_on.choice(world.legal_moves()))
        assert sorted(all_cards(world)) == sorted(all_cards(source))


@given(dealt(), st.integers(0, 47), st.integers(0, 2**32))
@SETTINGS
def test_determinize_depends_only_on_what_the_seat_has_seen(case, moves, seed):
    # A twin hand: the same cards dealt to the same seats, but each hidden hand and the
    # stock in another order.  Nothing the seat sees can tell the two apart.
    hand, rng = case
    seat = seed % hand.players
    twin_deck = list(hand.deck)
    shuffler = random.Random(seed)
    players = hand.players
    for other in range(players):
        if other != seat:
            start = 4 * ((other - hand.leader) % players)
            block = twin_deck[start:start + 4]
            shuffler.shuffle(block)
            twin_deck[start:start + 4] = block
    stock = twin_deck[4 * players + 4:]
    shuffler.shuffle(stock)
    twin_deck[4 * players + 4:] = stock
    twin = Hand.new(hand.rules, players=players, deck=twin_deck, leader=hand.leader)
    for _ in range(moves):
        if sum(map(len, hand.hands)) == 1:
            break  # the next deal differs between the twins; this round's hands do not
        move = rng.choice(hand.legal_moves())
        hand.push(move)
        twin.push(move)
    assert hand.view(seat) == twin.view(seat)
    assert hand.stock != twin.stock  # ... though they differ
    one = hand.determinize(seat, random.Random(seed))
    two = twin.determinize(seat, random.Random(seed))
    assert one.hands == two.hands and one.stock == two.stock


@given(dealt(), st.integers(0, 47), st.randoms(use_true_random=False))
@SETTINGS
def test_an_illegal_move_changes_nothing(case, moves, chooser):
    hand, rng = case
    for _ in range(moves):
        hand.push(rng.choice(hand.legal_moves()))
    legal = hand.legal_moves()
    before = state(hand)
    table = hand.table
    for _ in range(20):
        card = chooser.choice(CARDS)
        taken = chooser.sample(table, chooser.randint(0, min(3, len(table))))
        if card in taken:
            continue
        move = Move(card, taken)
        if move in legal:
            continue
        try:
            hand.push(move)
        except IllegalMove as error:
            assert str(error)
        else:
            raise AssertionError(f"{move} was accepted but is not legal")
        assert state(hand) == before
    for move in legal:
        assert hand.parse_move(str(move)) == move == Move.parse(str(move))


def splits_into_elevens(cards: list[Card], total: int) -> bool:
    """Whether ``cards`` split into groups that each sum to ``total``."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    return any(first.rank + sum(c.rank for c in group) == total
               and splits_into_elevens([c for c in rest if c not in group], total)
               for size in range(len(rest) + 1) for group in itertools.combinations(rest, size))


def brute_force(card: Card, table: list[Card], multi: bool) -> set[frozenset[Card]]:
    """Every capture by the rules' words, from all subsets of the table."""
    numbers = [c for c in table if c.rank <= 10]
    if card.rank > 11:
        return {frozenset([c]) for c in table if c.rank == card.rank}
    if card.rank == 11:
        swept = frozenset(c for c in table if c.rank <= 11)
        return {swept} if swept else set()
    subsets = [list(s) for size in range(1, len(numbers) + 1)
               for s in itertools.combinations(numbers, size)]
    if not multi:
        return {frozenset(s) for s in subsets if card.rank + sum(c.rank for c in s) == 11}
    return {frozenset(s) for s in subsets if splits_into_elevens(s, 11 - card.rank)}


@given(st.lists(st.sampled_from(CARDS), min_size=1, max_size=11, unique=True),
       st.sampled_from(["standard", "multicapture"]))
@settings(max_examples=300, deadline=None)
def test_captures_agree_with_a_brute_force_search(cards, preset):
    card, table = cards[0], cards[1:]
    multi = PRESETS[preset].multi_sets
    options = capture_options(card, table, rules(preset, king_queen_take_all=False))
    assert set(options) == brute_force(card, table, multi)
    assert len(options) == len(set(options))


@given(st.lists(st.sampled_from(CARDS), min_size=2, max_size=14, unique=True),
       st.sampled_from(PRESET_NAMES), st.booleans())
@settings(max_examples=200, deadline=None)
def test_legal_moves_are_each_card_s_options(cards, preset, kids):
    # The hot loop of Hand.legal_moves against the plain rules, card by card.
    held, table = cards[:4], cards[4:]
    other = [c for c in CARDS if c not in cards][:len(held)]
    hand = Hand.from_position(rules(preset, kids=kids), hands=[held, other], table=table)
    legal = hand.legal_moves()
    for card in held:
        mine = [m for m in legal if m.card == card]
        options = capture_options(card, table, hand.rules)
        assert {m.captured for m in mine if m.captured} == set(options)
        leaves = Move(card) in mine
        assert leaves == (not options or not hand.rules.forced_capture)
    assert cards_of(mask_of(table)) == hand.table
