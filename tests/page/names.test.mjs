// Seats, bots and games by their names in the page's language.
import "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { BOT_LEVELS, gameTitle, kindLabel, normalizeSeats, presetName } from
  "../../cardtable/server/static/js/names.js";
import { setLanguage, t } from "../../cardtable/server/static/js/i18n.js";

test("a person's seat and each bot level have their words", () => {
  setLanguage("en", { remember: false });
  assert.equal(kindLabel("human"), t("seat.human"));
  for (const level of BOT_LEVELS) assert.equal(kindLabel(`bot:${level}`), t(`bot.${level}`));
  assert.notEqual(kindLabel("bot:easy"), kindLabel("bot:hard"));
});

test("a bot the page has no word for is named by the server's name", () => {
  setLanguage("en", { remember: false });
  assert.ok(kindLabel("bot:my_experiment").includes("my_experiment"));
});

test("a game and a rule set without words keep the server's names", () => {
  assert.equal(gameTitle("nosuchgame", "No Such Game"), "No Such Game");
  assert.equal(presetName("pasur", "nosuchpreset"), "nosuchpreset");
  assert.notEqual(presetName("pasur", "standard"), "standard");
});

test("seats sent as strings or objects come out the same shape", () => {
  assert.deepEqual(normalizeSeats(["human", "bot:easy"]).map((s) => [s.seat, s.kind]),
    [[0, "human"], [1, "bot:easy"]]);
  assert.deepEqual(normalizeSeats([{ seat: 3, kind: "bot", bot: "hard" }]).map((s) => [s.seat, s.kind]),
    [[3, "bot:hard"]]);
  assert.deepEqual(normalizeSeats(null), []);
});
