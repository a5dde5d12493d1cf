// Cards as the page reads and names them.
import "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { cardKey, cardLabel, isCardText, isRed, parseCard } from
  "../../cardtable/server/static/js/cards.js";
import { setLanguage } from "../../cardtable/server/static/js/i18n.js";

test("a card is read from its symbol or its letters, in any case", () => {
  assert.deepEqual(parseCard("10♦"), { rank: 10, suit: "D", text: "10♦" });
  assert.deepEqual(parseCard("TD"), { rank: 10, suit: "D", text: "10♦" });
  assert.deepEqual(parseCard("qh"), { rank: 12, suit: "H", text: "Q♥" });
  assert.equal(cardKey("A♤"), "A♠");
});

test("what is not a card is not read as one", () => {
  for (const text of ["", "1♦", "11♣", "take", "K", "♠", "KX", null]) {
    assert.equal(parseCard(/** @type {any} */ (text)), null, String(text));
    assert.equal(isCardText(/** @type {any} */ (text)), false);
  }
  assert.equal(cardKey("take"), "take");
});

test("diamonds and hearts are red, clubs and spades black", () => {
  assert.deepEqual(["C", "D", "H", "S"].map(isRed), [false, true, true, false]);
});

test("a card is named in the page's language", () => {
  setLanguage("en", { remember: false });
  assert.equal(cardLabel("7♣"), "7 of clubs");
  assert.equal(cardLabel("QS"), "queen of spades");
  setLanguage("ru", { remember: false });
  assert.equal(cardLabel("Q♠"), "дама пик");
  setLanguage("en", { remember: false });
});
