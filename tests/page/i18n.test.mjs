// The page's words: each language's own plural forms, numbers written as the language writes
// them, lists joined in its words, and every key in every language.
import "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ALL_STRINGS, LANGUAGES, detectLanguage, joinList, num, setLanguage, t } from
  "../../cardtable/server/static/js/i18n.js";

const COUNTS = [0, 1, 2, 5, 21];

test("the browser's first language the page speaks is chosen, else English", () => {
  assert.equal(detectLanguage(["de-DE", "ru-RU", "en"]), "ru");
  assert.equal(detectLanguage(["fa"]), "fa");
  assert.equal(detectLanguage(["de", "ja"]), "en");
});

test("a count says the form its language uses for that number", () => {
  setLanguage("ru", { remember: false });
  assert.deepEqual(COUNTS.map((n) => t("table.cards", { n })),
    ["0 карт", "1 карта", "2 карты", "5 карт", "21 карта"]);
  assert.equal(t("table.cards", { n: 1.5 }), "1,5 карты");
  setLanguage("en", { remember: false });
  assert.deepEqual(COUNTS.map((n) => t("table.cards", { n })),
    ["0 cards", "1 card", "2 cards", "5 cards", "21 cards"]);
});

test("a loser's cards in hand are counted in the language's forms", () => {
  setLanguage("ru", { remember: false });
  assert.deepEqual(COUNTS.map((n) => t("durak.stillHolding", { n })),
    ["на руках 0 карт", "на руках 1 карта", "на руках 2 карты", "на руках 5 карт",
      "на руках 21 карта"]);
  setLanguage("en", { remember: false });
  assert.deepEqual([1, 2].map((n) => t("durak.stillHolding", { n })),
    ["still holding 1 card", "still holding 2 cards"]);
});

test("every count message has every plural form its language needs", () => {
  const missing = [];
  for (const [lang, strings] of Object.entries(ALL_STRINGS)) {
    const rules = new Intl.PluralRules(lang);
    const needed = new Set(COUNTS.map((n) => rules.select(n)));
    for (const [key, value] of Object.entries(strings)) {
      if (typeof value !== "object") continue;
      for (const form of needed) if (!(form in value) && form !== "other") missing.push(`${lang} ${key} ${form}`);
      if (!("other" in value)) missing.push(`${lang} ${key} other`);
    }
  }
  assert.deepEqual(missing, []);
});

test("numbers are written in the page's language: Persian digits in Persian", () => {
  setLanguage("fa", { remember: false });
  assert.equal(num(21), "۲۱");
  assert.equal(t("table.cards", { n: 3 }).replace(/[^۰-۹0-9]/g, ""), "۳");
  setLanguage("pt", { remember: false });
  assert.equal(num(1234.5), "1.234,5");
  setLanguage("en", { remember: false });
  assert.equal(num(1234.5), "1,234.5");
});

test("lists are joined in the language's own words", () => {
  setLanguage("ru", { remember: false });
  assert.equal(joinList(["Вы", "Место 2"]), "Вы, Место 2");
  assert.equal(joinList(["A", "B", "C"], { and: true }), "A, B и C");
  setLanguage("en", { remember: false });
  assert.equal(joinList(["A", "B"], { or: true }), "A or B");
});

test("a missing word falls back to English, and an unknown key shows as itself", () => {
  setLanguage("fa", { remember: false });
  assert.equal(t("no.such.key"), "no.such.key");
  setLanguage("en", { remember: false });
});

test("every language has every key English has", () => {
  const english = Object.keys(ALL_STRINGS.en);
  for (const lang of Object.keys(LANGUAGES)) {
    const missing = english.filter((key) => !(key in ALL_STRINGS[lang]));
    assert.deepEqual(missing, [], `${lang} lacks words`);
  }
});
