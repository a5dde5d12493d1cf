"""Cards keep their order on screen in every language: a move's cards as the eye reads them.

Persian is written right to left, cards left to right ("K♦", "10♠").  Without isolating
them, a right-to-left line shows "K♦ K♥" as "♥K♦ K".  Here a move with several cards is
said in each language and put on the page, and the characters' positions on screen are
read back: within a card its rank stands left of its suit, a run of cards reads left to
right, and cards joined by words come in the order the line is read (right to left in
Persian).
"""

from __future__ import annotations

from typing import Any

import pytest

LOCALES = {"en": "en-US", "pt": "pt-BR", "fa": "fa-IR", "ru": "ru-RU"}

MEASURE = """([sentence]) => {
  const line = document.createElement("p");
  line.id = "bidi-probe";
  line.textContent = sentence;
  document.getElementById("main").prepend(line);
  const node = line.firstChild;
  // the x of each character's box, by its index in the text
  const xs = [];
  for (let i = 0; i < sentence.length; i++) {
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const box = range.getBoundingClientRect();
    xs.push(box.width ? box.left + box.width / 2 : null);
  }
  line.remove();
  return xs;
}"""


def positions(page: Any, sentence: str) -> list[float | None]:
    return list(page.evaluate(MEASURE, [sentence]))


def card_xs(sentence: str, xs: list[float | None], card: str) -> list[float]:
    """The screen x of each character of ``card``'s first appearance in ``sentence``."""
    at = sentence.index(card)
    found = [xs[at + i] for i in range(len(card))]
    assert all(x is not None for x in found), (card, sentence)
    return [x for x in found if x is not None]


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_move_of_several_cards_reads_in_order_in_every_language(open_page: Any,
                                                                  lang: str) -> None:
    page = open_page("/", locale=LOCALES[lang])
    page.wait_for_function("() => window.cardtableModules?.get('/js/games.js')")
    said = page.evaluate("""() => {
      const { sayMove } = window.cardtableModules.get('/js/games.js');
      const { t } = window.cardtableModules.get('/js/i18n.js');
      return [sayMove('pasur', 'J♠ x K♦ K♥'), t('say.pasur.lay', { card: 'A♠ 10♠' }),
              document.documentElement.dir];
    }""")
    joined, run, direction = said
    assert direction == ("rtl" if lang == "fa" else "ltr")

    # cards joined by words: in the order the line is read
    xs = positions(page, joined)
    order = ["J♠", "K♦", "K♥"]
    firsts = [card_xs(joined, xs, card)[0] for card in order]
    reading = sorted(firsts, reverse=direction == "rtl")
    assert firsts == reading, (lang, joined, firsts)
    # each card's rank left of its suit, whatever the line's direction
    for card in order:
        rank, suit = card_xs(joined, xs, card)
        assert rank < suit, (lang, card, joined)

    # a run of cards ("A♠ 10♠"): left to right, as written
    xs = positions(page, run)
    ace, ten = card_xs(run, xs, "A♠ 10♠")[0], card_xs(run, xs, "A♠ 10♠")[3]
    characters = card_xs(run, xs, "A♠ 10♠")
    assert ace < ten and characters == sorted(characters), (lang, run, characters)
