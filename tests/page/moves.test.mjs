// Moves said in words, as the move log and the screen reader say them.
import "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pasur from "../../cardtable/server/static/js/pasur.js";
import * as durak from "../../cardtable/server/static/js/durak.js";
import { sayMove } from "../../cardtable/server/static/js/games.js";
import { setLanguage } from "../../cardtable/server/static/js/i18n.js";

test("a Pasur capture names the card played and every card taken", () => {
  setLanguage("en", { remember: false });
  const move = pasur.parseMove("7♣ x 4♦ 2♠");
  assert.deepEqual([move.card, move.captures], ["7♣", ["4♦", "2♠"]]);
  assert.equal(pasur.sayMove("7♣ x 4♦ 2♠"), "play 7♣ to take 4♦ and 2♠");
  assert.equal(pasur.sayMove("7C"), "lay 7♣ on the table");
});

test("a Durak defence names the attack beaten and the card that beats it", () => {
  setLanguage("en", { remember: false });
  assert.equal(durak.sayMove("defend 9♣ with J♣"), "beat 9♣ with J♣");
  assert.equal(durak.sayMove("attack 9♣ 9♦"), "attack with 9♣ and 9♦");
});

test("a move of a game the page does not know is said as its text", () => {
  assert.equal(sayMove("nosuchgame", "do something"), "do something");
});

test("moves are said in every language, with the cards as they are", () => {
  for (const lang of ["en", "pt", "fa", "ru"]) {
    setLanguage(lang, { remember: false });
    const said = pasur.sayMove("K♦ x K♥");
    assert.ok(said.includes("K♦") && said.includes("K♥"), `${lang}: ${said}`);
  }
  setLanguage("en", { remember: false });
});

test("in Persian a run of cards is set apart from the sentence's direction", async () => {
  const { isolateCards, t } = await import("../../cardtable/server/static/js/i18n.js");
  assert.equal(isolateCards("K♦ K♥ and A♠ 10♠"), "\u2066K♦ K♥\u2069 and \u2066A♠ 10♠\u2069");
  assert.equal(isolateCards("take 10 of them"), "take 10 of them");
  setLanguage("fa", { remember: false });
  const said = pasur.sayMove("J♠ x K♦ K♥");
  assert.ok(said.includes("\u2066J♠\u2069") && said.includes("\u2066K♦\u2069"), said);
  setLanguage("en", { remember: false });
  assert.ok(!pasur.sayMove("J♠ x K♦ K♥").includes("\u2066"));
});
