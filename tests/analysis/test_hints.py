"""Hints that explain: the level's move and why, with the best moves and their values."""

import re

import pytest

from cardtable import durak, pasur
from cardtable.analysis.hints import hint
from cardtable.cards import pack, parse_cards


def last_deal(hands, table):
    used = set(parse_cards(" ".join([*hands, table])))
    rest = [c for c in pack(52) if c not in used]
    return pasur.Hand.from_position(hands=hands, table=table, deal_round=6, last_capturer=1,
                                    captured=[rest[0::2], rest[1::2]])


def test_a_pasur_hint_says_what_the_capture_takes_in_points_and_clubs():
    hand = last_deal(["A♠ 4♥", "A♥ 6♣"], "10♦ 5♠")
    given = hint(hand, "greedy")
    assert given.move == "A♠ x 10♦"
    assert "takes 2 cards now: 4 points, 0 clubs" in given.text
    assert "next player's best reply" in given.text
    values = [choice["value"] for choice in given.choices]
    assert values == sorted(values, reverse=True) and len(given.choices) == 2
    assert given.choices[0]["move"] == "A♠ x 10♦" and given.unit == "points"


def test_a_pasur_hint_names_the_sur_a_move_makes():
    hand = pasur.Hand.from_position(hands=["5♣ 9♥ K♠", "2♠ 3♠ Q♦"], table="2♦ 4♠",
                                    stock=" ".join(["A♣ A♦ A♥ A♠ 3♣ 3♦ 3♥ 4♣"]),
                                    deal_round=5)
    given = hint(hand, "greedy")
    assert given.move == "5♣ x 2♦ 4♠" and "a sur" in given.text


def test_a_durak_hint_weighs_taking_against_beating():
    game = durak.Game.from_position(hands=["9♠ 7♦", "10♠ 6♥"], trump="♥", attacker=0)
    game.push("attack 9♠")
    given = hint(game, "basic")
    assert given.move == "defend 9♠ with 10♠"
    assert "the cheapest card that beats it" in given.text
    assert "Taking: 100%" in given.text and "the best beat: 0%" in given.text
    assert given.choices[0]["shown"] == "0% durak"


@pytest.mark.parametrize("lang", ["en", "ru", "pt", "fa"])
def test_hints_are_worded_in_every_language(lang):
    game = durak.Game.from_position(hands=["9♠ 7♦", "10♠ 6♥"], trump="♥", attacker=0)
    game.push("attack 9♠")
    texts = {hint(game, "basic", lang=lang).text, hint(game, "basic", lang="en").text}
    assert len(texts) == (1 if lang == "en" else 2)


def test_no_hint_once_the_game_is_over():
    game = durak.Game.from_position(hands=["9♠", "10♠"], trump="♥", attacker=0)
    game.push("attack 9♠")
    game.push("defend 9♠ with 10♠")
    assert game.is_over()
    with pytest.raises(ValueError, match="over"):
        hint(game, "basic")


def test_a_hint_names_the_deals_its_ranking_was_made_on():
    # the first move of a dealt game: cards are hidden, so the judge deals them
    spec = durak.SPEC
    game = spec.start(spec.rules(), players=2, seed=11)
    given = hint(game, "easy")
    deals = [int(n) for n in re.findall(r"same (\d+) guesses", given.why)]
    assert deals and deals[0] > 0, given.why
