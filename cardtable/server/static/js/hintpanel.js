// @ts-check
// A hint at a table against bots: the move, what it does (in the words the server wrote,
// in the language the page asked in), why it is the hint (the analysis's judge ranks it
// first: a sentence with the figures) and the two or three best moves with their values,
// said in the page's language; when the judge cannot tell the best moves apart (``sure``
// false), the panel says so.  The values are the judge's: Pasur, points ahead of the
// other side by the end of the hand; Durak, the chance of being the durak.

import { h } from "./dom.js";
import { t, language, hasKey, localDigits, percent } from "./i18n.js";
import { moveText } from "./cards.js";
import HINT_WORDS from "./lang/hints.js";

/** A string of lang/hints.js in the page's language (English where it has none). */
function hintWords(key, vars = {}) {
  const table = HINT_WORDS[language()] || HINT_WORDS.en;
  const text = table[key] || HINT_WORDS.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/** Why the hint names its move, in a sentence: the server's when it sends one, else the
 *  judge's ranking said with the two best values. */
export function hintWhy(hint) {
  if (hint.why) return digits(hint.why, hint.lang);
  const choices = Array.isArray(hint.choices) ? hint.choices : [];
  const first = choices.find((c) => c.move === hint.move) || choices[0];
  const second = choices.find((c) => c !== first);
  if (!first) return "";
  if (!second) return hintWords("hint.whyOnly");
  return hintWords("hint.whyRanked", { value: hintValue(first.value, hint.unit),
    second: hintMoveText(second.move), other: hintValue(second.value, hint.unit) });
}

/** A value in the hint's unit, in the page's language: "+1.5 points", "34% durak". */
export function hintValue(value, unit) {
  if (typeof value !== "number") return "";
  if (unit === "points") {
    // "+1.5 points", "−0.3 pontos", "+۱٫۵ امتیاز": the sign always, one decimal
    return t("table.hintPoints", { n: Math.round(value * 10) / 10 + 0,
      nOptions: { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" } });
  }
  if (String(unit).startsWith("chance")) return t("table.hintDurak", { value: percent(value) });
  return `${value} ${unit}`;
}

/** A move's text with its words in the page's language ("attack J♦" -> "حمله J♦"). */
export function hintMoveText(move) {
  return String(move).split(/\s+/).map((word) => {
    const key = `move.${word.toLowerCase()}`;
    return hasKey(key) ? t(key) : word;
  }).join(" ");
}

/** The server's words with Persian digits in Persian, as the page writes its numbers. */
const digits = (text, lang) => localDigits(text, lang || "");

/** The hint's panel: what to play and why, then the best moves with their values. */
export function hintPanel(hint) {
  const choices = Array.isArray(hint.choices) ? hint.choices : [];
  const why = hintWhy(hint);
  return h("section", { class: "hint-panel", "aria-label": t("table.hint"),
    dataset: { move: hint.move, lang: hint.lang || "", sure: hint.sure === false ? "false" : "true" } },
    h("p", { class: "hint-move" }, h("strong", {}, t("table.hintIs", { move: "" })), moveText(hint.move)),
    hint.text ? h("p", { class: "hint-why", lang: hint.lang || null, dir: "auto" }, digits(hint.text, hint.lang)) : null,
    why ? h("p", { class: "hint-ranked", dir: "auto", lang: hint.why ? hint.lang || null : null }, why) : null,
    hint.sure === false ? h("p", { class: "hint-unsure", role: "note" }, hintWords("hint.unsure")) : null,
    choices.length ? h("h3", { class: "hint-best" }, t("table.hintBest")) : null,
    choices.length ? h("ol", { class: "hint-choices" }, ...choices.map((c) =>
      h("li", { class: c.move === hint.move ? "hint-choice chosen" : "hint-choice",
        dataset: { move: c.move, value: String(c.value) } },
        moveText(c.move), " ",
        h("span", { class: "hint-value" }, hintValue(c.value, hint.unit)),
        c.text ? h("span", { class: "hint-choice-why muted", lang: hint.lang || null, dir: "auto" },
          digits(c.text, hint.lang)) : null)))
      : null);
}
