// The server's refusals said in the player's words, by their code.
import "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { refusalText } from "../../cardtable/server/static/js/refusals.js";
import { ALL_STRINGS, setLanguage } from "../../cardtable/server/static/js/i18n.js";

const CODED = Object.keys(ALL_STRINGS.en).filter((key) => key.startsWith("code."));

test("a known code is said in the page's language, not the server's English", () => {
  const code = CODED[0].slice("code.".length);
  setLanguage("ru", { remember: false });
  const said = refusalText({ code, reason: "the server's English" });
  assert.notEqual(said, "the server's English");
  assert.ok(said.length > 0);
  setLanguage("en", { remember: false });
});

test("an unknown code shows the server's reason", () => {
  setLanguage("pt", { remember: false });
  assert.equal(refusalText({ code: "no_such_code", reason: "try later" }), "try later");
  setLanguage("en", { remember: false });
});

test("what is not an error body is shown as text", () => {
  assert.equal(refusalText("plain words"), "plain words");
  assert.equal(refusalText(null), "");
});

test("a seat parameter is said as the seat's name when a namer is given", () => {
  setLanguage("en", { remember: false });
  const withSeat = CODED.find((key) => /\{seat\}/.test(ALL_STRINGS.en[key]));
  assert.ok(withSeat, "some refusal names a seat");
  const said = refusalText({ code: withSeat.slice("code.".length), reason: "x", seat: 2 },
    { seatName: (seat) => `Player${seat}` });
  assert.ok(said.includes("Player2"), said);
});
