// @ts-check
// Any game the page has no drawing of its own for (games.js): the table drawn from what
// every view holds.  Your hand, the cards on the table, the other hands as backs, the
// view's other plain facts, and every legal move as a button showing its text; a hand
// card that some moves name narrows the buttons to those moves (or plays the only one).

import { h } from "./dom.js";
import { t, num, joinList } from "./i18n.js";
import { cardElement, cardKey, cardLabel, isCardText, moveText, openHand } from "./cards.js";

// Fields every game's view may hold that are drawn on their own, not listed as facts.
const DRAWN = new Set(["game", "seat", "players", "to_move", "over", "legal_moves", "hand",
                       "hand_sizes", "table"]);

function humanize(name) { return String(name).replace(/_/g, " "); }

/** A card as a picture, anything else as its text. */
function item(text, classes = []) {
  return isCardText(text) ? cardElement(cardKey(text), { classes })
    : h("span", { class: "token" }, String(text));
}

/** The cards a move's text names, in their canonical form. */
function cardsNamed(text) {
  return String(text).split(/\s+/).filter(isCardText).map(cardKey);
}

function backs(count, limit = 8) {
  const row = h("span", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(count, limit); i += 1) {
    row.appendChild(cardElement(null, { faceDown: true, classes: ["small"] }));
  }
  return row;
}

function plainValue(value) {
  if (Array.isArray(value)) return value.every((v) => v === null || typeof v !== "object");
  return value !== null && typeof value !== "object";
}

function valueText(value) {
  if (Array.isArray(value)) return value.map((v) => (typeof v === "number" ? num(v) : String(v ?? "—"))).join(" · ");
  if (typeof value === "number") return num(value);
  if (typeof value === "boolean") return value ? t("option.yes") : t("option.no");
  return String(value);
}

/** The plain fields of an object (a view, a result) as a list of facts. */
function facts(data, skip = new Set()) {
  const list = h("ul", { class: "facts generic-facts" });
  for (const [key, value] of Object.entries(data || {})) {
    if (skip.has(key) || value === null || value === undefined || !plainValue(value)) continue;
    if (Array.isArray(value) && !value.length) continue;
    list.appendChild(h("li", { dataset: { fact: key } }, `${humanize(key)}: `,
      typeof value === "string" && cardsNamed(value).length ? moveText(value)
        : h("strong", {}, valueText(value))));
  }
  return list.children.length ? list : null;
}

export function render(ctx) {
  const { view, mySeat, selection, state } = ctx;
  const players = view.players || ctx.players || 2;
  const legal = ctx.legal;
  const naming = (card) => legal.filter((text) => cardsNamed(text).includes(card));
  const chosen = selection.card && naming(selection.card).length ? selection.card : null;

  // -- the other players --------------------------------------------------------------------
  const opponents = [];
  for (let seat = 0; seat < players; seat += 1) {
    if (seat === mySeat) continue;
    const count = (view.hand_sizes || [])[seat];
    opponents.push(h("div", {
      class: `seat-box${seat === state.to_move && !state.over ? " to-move" : ""}`,
      dataset: { seat },
    },
    h("div", { class: "seat-name" }, ctx.seatName(seat)),
    Array.isArray(ctx.hands?.[seat])
      ? openHand(ctx.hands[seat], { label: t("table.handOf", { name: ctx.seatName(seat) }) })
      : typeof count === "number" ? backs(count) : null,
    typeof count === "number" ? h("div", { class: "seat-count" }, t("table.cards", { n: count })) : null));
  }

  // -- the table ------------------------------------------------------------------------------
  const onTable = (Array.isArray(view.table) ? view.table.flat() : []).filter((x) => x !== null && x !== undefined);
  const tableRow = h("div", { class: "table-cards", role: "group", "aria-label": t("table.table") },
    onTable.map((text) => item(text, ctx.isNew("table", cardKey(text)) ? ["enter"] : [])));
  if (!onTable.length) tableRow.appendChild(h("p", { class: "empty" }, t("table.emptyTable")));

  // -- my hand --------------------------------------------------------------------------------
  const hand = [];
  if (mySeat !== null && Array.isArray(view.hand)) {
    const row = h("div", { class: "hand-cards", role: "group", "aria-label": t("table.hand") });
    view.hand.forEach((text) => {
      const key = cardKey(text);
      const moves = ctx.myTurn && isCardText(text) ? naming(key) : [];
      if (!moves.length) {
        row.appendChild(item(text, ctx.myTurn ? ["inactive"] : []));
        return;
      }
      const el = cardElement(key, { button: true, classes: key === chosen ? ["selected"] : [],
                                    label: cardLabel(key) });
      el.dataset.focusKey = `hand:${key}`;
      el.setAttribute("aria-pressed", String(key === chosen));
      el.addEventListener("click", () => {
        if (moves.length === 1) { ctx.play(moves[0]); return; }
        selection.card = key === chosen ? null : key;
        ctx.rerender();
      });
      row.appendChild(el);
    });
    hand.push(row);
  }

  // -- every legal move as a button -------------------------------------------------------------
  const shown = chosen ? naming(chosen) : legal;
  const choices = shown.map((text) => h("button", {
    type: "button", class: "choice generic-move", dataset: { move: text, focusKey: `move:${text}` },
    onclick: () => ctx.play(text) }, moveText(text)));

  return {
    opponents,
    felt: [tableRow],
    info: [facts(view, DRAWN)].filter(Boolean),
    hand,
    choices,
    actions: [],
    prompt: ctx.myTurn ? t("table.chooseMove") : "",
    focus: null,
  };
}

/** "Seat 1 wins" from a result's `winners`, if it has them. */
export function resultLine(summary, seatName) {
  if (!summary || !Array.isArray(summary.winners)) return "";
  return summary.winners.length
    ? t("table.winner", { names: joinList(summary.winners.map(seatName), { and: true }) })
    : t("table.draw");
}

/** The end of the game: who won (when the result says) and the result's plain facts. */
export function summary(state, { seatName }) {
  if (!state.over) return null;
  const result = state.summary || {};
  const line = resultLine(result, seatName);
  return h("div", { class: "summary-body" },
    line ? h("p", { class: "result-line" }, line) : null,
    facts(result, new Set(["over", "winners"])));
}
