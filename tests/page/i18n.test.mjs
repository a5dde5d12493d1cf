// The page's words: each language's own plural forms, numbers written as the language writes
// them, lists joined in its words, and every key in every language.
import "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ALL_STRINGS, LANGUAGES, detectLanguage, joinList, localDigits, num, percent, setLanguage, t } from
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

/** The count messages: those English words as a form for one and a form for more. */
const COUNT_KEYS = Object.keys(ALL_STRINGS.en).filter((key) => typeof ALL_STRINGS.en[key] === "object");

test("every count message has a form for each plural category of every language", () => {
  assert.ok(COUNT_KEYS.length >= 12, COUNT_KEYS.join(" "));
  const missing = [];
  for (const [lang, strings] of Object.entries(ALL_STRINGS)) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const key of COUNT_KEYS) {
      const value = strings[key];
      if (typeof value !== "object") { missing.push(`${lang} ${key}: one form for every count`); continue; }
      for (const form of categories) if (!(form in value)) missing.push(`${lang} ${key} ${form}`);
      for (const form of Object.keys(value)) {
        if (!categories.includes(form)) missing.push(`${lang} ${key} has ${form}, which ${lang} has not`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test("every count message at 0, 1, 2, 5 and 21, in every language: the language's own form, its number in its digits", () => {
  for (const lang of Object.keys(LANGUAGES)) {
    setLanguage(lang, { remember: false });
    const rules = new Intl.PluralRules(lang);
    for (const key of COUNT_KEYS) {
      for (const n of COUNTS) {
        // the count is n; a refusal's count keeps its parameter's name (seats still free)
        const said = t(key, { n, free: n, by: "x", last: "" });
        const form = ALL_STRINGS[lang][key][rules.select(n)];
        assert.ok(/\{(n|free)\}/.test(form), `${lang} ${key} ${rules.select(n)} names no count`);
        assert.ok(said.includes(num(n)), `${lang} ${key} ${n}: ${said}`);
        assert.ok(!/\{\w+\}/.test(said), `${lang} ${key} ${n}: ${said}`);
        if (lang === "fa") assert.ok(!/[0-9]/.test(said), `Persian digits only: ${said}`);
      }
    }
  }
  setLanguage("en", { remember: false });
});

test("counts read as each language says them", () => {
  const said = (lang, key, extra = {}) => {
    setLanguage(lang, { remember: false });
    return COUNTS.map((n) => t(key, { n, ...extra }));
  };
  assert.deepEqual(said("ru", "lobby.seatsFree"), ["0 свободных мест", "1 свободное место",
    "2 свободных места", "5 свободных мест", "21 свободное место"]);
  assert.deepEqual(said("ru", "rulescard.durak.pack").map((s) => s.split(";")[0]),
    ["Колода из 0 карт", "Колода из 1 карты", "Колода из 2 карт", "Колода из 5 карт",
      "Колода из 21 карты"]);
  assert.deepEqual(said("pt", "table.cards"), ["0 carta", "1 carta", "2 cartas", "5 cartas", "21 cartas"]);
  assert.deepEqual(said("en", "quick.bots").map((s) => s.split(" (")[0].split("after ")[1]),
    ["0 seconds", "1 second", "2 seconds", "5 seconds", "21 seconds"]);
  assert.deepEqual(said("fa", "table.cards"), ["۰ کارت", "۱ کارت", "۲ کارت", "۵ کارت", "۲۱ کارت"]);
  setLanguage("en", { remember: false });
});

test("a fraction chooses its form by how it is written: 1.0 points, 1 point", () => {
  setLanguage("en", { remember: false });
  const signed = { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" };
  assert.equal(t("table.hintPoints", { n: 1, nOptions: signed }), "+1.0 points");
  assert.equal(t("table.hintPoints", { n: -0.5, nOptions: signed }), "\u22120.5 points");
  assert.equal(t("table.hintPoints", { n: 1 }), "1 point");
  setLanguage("ru", { remember: false });
  assert.equal(t("table.hintPoints", { n: 2, nOptions: signed }), "+2,0 очка");
  setLanguage("en", { remember: false });
});

test("a minus is a minus sign, and a share a percentage, in the page's language", () => {
  setLanguage("en", { remember: false });
  assert.equal(num(-3), "\u22123");
  assert.equal(percent(0.34), "34%");
  setLanguage("ru", { remember: false });
  assert.equal(num(-1.5), "\u22121,5");
  assert.equal(percent(0.34), "34\u00a0%");
  setLanguage("fa", { remember: false });
  assert.equal(percent(0.34), "۳۴٪");
  assert.ok(num(-1.5).includes("\u2212۱٫۵"), num(-1.5));
  setLanguage("en", { remember: false });
});

test("the server's numbers in its words are written as the page writes its own", () => {
  const text = "takes 10♠ and 2♣: about 0.47 points, expected +5.5 (-0.3) on 125 deals";
  assert.equal(localDigits(text, "pt"),
    "takes 10♠ and 2♣: about 0,47 points, expected +5,5 (\u22120,3) on 125 deals");
  const persian = localDigits(text, "fa");
  assert.ok(!/[0-9](?![0-9]*[♣♦♥♠])/.test(persian), persian);   // a card's rank is its name
  assert.ok(persian.includes("10♠") && persian.includes("۰٫۴۷") && persian.includes("\u2212۰٫۳"), persian);
  assert.ok(!persian.includes("."), persian);
  assert.equal(localDigits(text, "en"), text.replace("-", "\u2212"));
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

test("a whole count under a thousand, written without Intl, is what Intl writes", () => {
  for (const lang of Object.keys(LANGUAGES)) {
    setLanguage(lang, { remember: false });
    const format = new Intl.NumberFormat(lang === "fa" ? "fa-IR" : lang);
    for (let n = 0; n < 1000; n += 1) assert.equal(num(n), format.format(n), `${lang} ${n}`);
    // and from a thousand on, Intl's own grouping
    assert.equal(num(1000), format.format(1000), lang);
    assert.equal(num(25000), format.format(25000), lang);
  }
  setLanguage("en", { remember: false });
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
