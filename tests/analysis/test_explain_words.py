"""A move's reason in words, as hints, lessons and puzzles say it: counted nouns in the
right form in each language ("1 club", "2 карты"), several cards joined by "and", not
written as the engine writes a move ("1 clubs", "attacks with 10♦ 10♠")."""

from cardtable import durak, pasur
from cardtable.cards import pack, parse_cards
from cardtable.durak.learn import LEARN as DURAK
from cardtable.pasur.learn import LEARN as PASUR


def last_deal(hands: list[str], table: str) -> pasur.Hand:
    used = set(parse_cards(" ".join([*hands, table])))
    rest = [c for c in pack(52) if c not in used]
    return pasur.Hand.from_position(hands=hands, table=table, deal_round=6, last_capturer=1,
                                    captured=[rest[0::2], rest[1::2]])


def explain_pasur(move: str, lang: str) -> str:
    hand = last_deal(["9♣ 4♥", "A♥ 6♦"], "2♣ 8♦")
    return PASUR.explain(hand, hand.parse_move(move), 3.0, lang=lang)


def test_a_pasur_capture_counts_one_club_and_one_point_in_the_singular():
    # 9♣ takes 2♣ (11 together): two cards, both clubs; the 2♣ is worth 2 points
    assert explain_pasur("9♣ x 2♣", "en").startswith("takes 2 cards now: 2 points, 2 clubs;")
    hand = last_deal(["3♣ 4♥", "A♥ 6♦"], "8♦ 5♠")
    text = PASUR.explain(hand, hand.parse_move("3♣ x 8♦"), 1.0, lang="en")
    assert text.startswith("takes 2 cards now: 0 points, 1 club;"), text


def test_russian_counts_take_their_own_forms_and_persian_its_own_separator():
    assert explain_pasur("9♣ x 2♣", "ru").startswith("берёт 2 карты: 2 очка, 2 трефы;")
    persian = explain_pasur("9♣ x 2♣", "fa")
    assert "؛ " in persian and "; " not in persian


def test_a_durak_attack_with_two_cards_says_and_and_one_trump_is_singular():
    game = durak.Game.from_position(hands=["10♦ 10♠ 6♥", "7♣ 8♣ 9♣"], trump="♥", attacker=0)
    text = DURAK.explain(game, game.parse_move("attack 10♦ 10♠"), 0.5)
    assert text.startswith("attacks with 10♦ and 10♠; keeps 1 trump;"), text
    russian = DURAK.explain(game, game.parse_move("attack 10♦ 10♠"), 0.5, lang="ru")
    assert russian.startswith("ходит 10♦ и 10♠;"), russian


def test_a_durak_throw_in_is_said_to_throw_in_not_to_attack():
    # the 9♠ beaten by the 10♠: the 10♦ added to the running attack is a throw-in
    game = durak.Game.from_position(hands=["9♠ 10♦ 6♣", "10♠ 7♦"], trump="♥", attacker=0)
    game.push(game.parse_move("attack 9♠"))
    game.push(game.parse_move("defend 9♠ with 10♠"))
    texts = {lang: DURAK.explain(game, game.parse_move("attack 10♦"), 0.0, lang=lang)
             for lang in ("en", "ru", "pt", "fa")}
    assert texts["en"].startswith("throws in 10♦;"), texts["en"]
    assert texts["ru"].startswith("подкидывает 10♦;"), texts["ru"]
    assert "ataca" not in texts["pt"] and "حمله" not in texts["fa"], texts
