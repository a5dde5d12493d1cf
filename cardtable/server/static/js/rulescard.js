// @ts-check
// The rules in force at a table, in the player's language: a short folded card whose
// sentences come from the game's module (rulesLines(rules)), for the rule set the server
// says this table plays (GET /api/tables/{id}).

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The card, or nothing when the game's module has no words for its rules yet. */
export function rulesCard(module, rules) {
  if (!rules || !module.rulesLines) return null;
  const lines = module.rulesLines(rules).filter(Boolean);
  if (!lines.length) return null;
  return h("details", { class: "rules-card" },
    h("summary", {}, t("rulescard.title")),
    h("ul", {}, lines.map((line) => h("li", {}, line))));
}

/** "Every card" -> "every card" inside a sentence (scripts without case stay as they are). */
export function lowerFirst(text) {
  const s = String(text);
  return s.charAt(0).toLocaleLowerCase() + s.slice(1);
}
