// @ts-check
// Pasur at the table: your hand, the table's cards, the other hands as backs, scores,
// surs and the deal round.  Choose a card, then (when it has several) the capture:
// the captures come from the legal move texts ("7♣" stays; "7♣ x 4♦ 2♠" takes).

import { h } from "./dom.js";
import { t, num, joinList, upperFirst } from "./i18n.js";
import { cardElement, cardKey, cardLabel, openHand, parseCard } from "./cards.js";
import { lowerFirst } from "./rulescard.js";

/** "7♣ x 4♦ 2♠" -> {text, card: "7♣", captures: ["4♦", "2♠"]}. */
export function parseMove(text) {
  const [played, rest] = String(text).split(/\s+x\s+/i);
  return {
    text: String(text),
    card: cardKey(played.trim()),
    captures: rest ? rest.trim().split(/\s+/).filter(Boolean).map(cardKey) : [],
  };
}

/** A move in words, to be said in a sentence: "7♣ x 4♦ 2♠" -> "play 7♣ to take 4♦
 * and 2♠", "7♣" -> "lay 7♣ on the table". */
export function sayMove(text) {
  const move = parseMove(text);
  return move.captures.length
    ? t("say.pasur.take", { card: move.card, cards: joinList(move.captures, { and: true }) })
    : t("say.pasur.lay", { card: move.card });
}

/** Legal moves grouped by the hand card they play. */
export function movesByCard(legal) {
  const out = new Map();
  for (const text of legal) {
    const move = parseMove(text);
    if (!out.has(move.card)) out.set(move.card, []);
    out.get(move.card).push(move);
  }
  return out;
}

function sideOf(view, seat) {
  const sides = view.sides || view.players || 2;
  return seat % sides;
}

/** Who sits on a side, by name ("You & Seat 3"). */
function sideName(view, side, seatName) {
  const players = view.players || 2;
  const sides = view.sides || players;
  const names = [];
  for (let seat = 0; seat < players; seat += 1) if (seat % sides === side) names.push(seatName(seat));
  return joinList(names, { and: true });
}

function sortHand(cards) {
  return [...cards].sort((a, b) => {
    const x = parseCard(a), y = parseCard(b);
    if (!x || !y) return 0;
    return x.rank - y.rank || "CDHS".indexOf(x.suit) - "CDHS".indexOf(y.suit);
  });
}

function backs(count, limit = 8) {
  const row = h("span", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(count, limit); i += 1) {
    row.appendChild(cardElement(null, { faceDown: true, classes: ["small"] }));
  }
  return row;
}

export function render(ctx) {
  const { view, mySeat, selection } = ctx;
  const players = view.players || 2;
  const match = view.match || {};
  const lastEntry = Array.isArray(view.moves) && view.moves.length
    ? view.moves[view.moves.length - 1] : null;
  const options = movesByCard(ctx.legal);
  const selected = selection.card && options.has(selection.card) ? selection.card : null;
  let choices = selected ? options.get(selected) : [];
  if (selected && selection.filter) {
    const narrowed = choices.filter((m) => m.captures.includes(selection.filter));
    if (narrowed.length) choices = narrowed;
  }
  const capturable = new Set(choices.flatMap((m) => m.captures));

  // -- the other players --------------------------------------------------------------------
  const opponents = [];
  for (let seat = 0; seat < players; seat += 1) {
    if (seat === mySeat) continue;
    const count = (view.hand_sizes || [])[seat] ?? 0;
    const tags = [];
    if (seat === view.dealer) tags.push(h("span", { class: "tag" }, t("pasur.dealer")));
    if (seat === view.last_capturer) tags.push(h("span", { class: "tag" }, t("pasur.lastCapturer")));
    opponents.push(h("div", {
      class: `seat-box${seat === ctx.state.to_move && !ctx.state.over ? " to-move" : ""}`,
      dataset: { seat },
    },
    h("div", { class: "seat-name" }, ctx.seatName(seat), ...tags),
    // A replay knows every hand (ctx.hands); at the live table the others are backs.
    Array.isArray(ctx.hands?.[seat])
      ? openHand(sortHand(ctx.hands[seat]), { label: t("table.handOf", { name: ctx.seatName(seat) }) })
      : backs(count),
    h("div", { class: "seat-count" }, t("table.cards", { n: count }))));
  }

  // -- the table ----------------------------------------------------------------------------
  const tableCards = view.table || [];
  const tableRow = h("div", { class: "table-cards", role: "group",
                              "aria-label": t("table.table") });
  const fromSeat = lastEntry ? lastEntry.seat : null;
  const enterFrom = fromSeat === null ? "" : fromSeat === mySeat ? "from-below" : "from-above";
  for (const text of tableCards) {
    const key = cardKey(text);
    const isTarget = capturable.has(key);
    const classes = [];
    if (ctx.isNew("table", key)) classes.push("enter", enterFrom);
    if (isTarget) classes.push("capturable");
    const el = cardElement(key, { button: isTarget, classes });
    dropTarget(el, ctx, options, key);
    if (isTarget) {
      el.dataset.focusKey = `table:${key}`;
      el.addEventListener("click", () => {
        const containing = choices.filter((m) => m.captures.includes(key));
        if (containing.length === 1) ctx.play(containing[0].text);
        else { selection.filter = key; ctx.rerender(); }
      });
    }
    tableRow.appendChild(el);
  }
  // Cards that just left the table fade out where they lay.
  if (ctx.previousView && ctx.previousView.table) {
    for (const text of ctx.previousView.table) {
      const key = cardKey(text);
      if (ctx.animate && !tableCards.map(cardKey).includes(key)) {
        // to the capturer's pile: down to mine, up to another's
        const toward = fromSeat === null ? "" : fromSeat === mySeat ? "to-below" : "to-above";
        const ghost = cardElement(key, { classes: ["leaving", toward].filter(Boolean) });
        ghost.setAttribute("aria-hidden", "true");
        ghost.addEventListener("animationend", () => ghost.remove());
        tableRow.appendChild(ghost);
      }
    }
  }
  if (!tableCards.length) tableRow.appendChild(h("p", { class: "empty" }, t("table.emptyTable")));
  dropTarget(tableRow, ctx, options, null);
  const stock = view.stock_size ?? 0;
  const felt = [
    h("div", { class: "pile stock", title: t("pasur.stock", { n: stock }) },
      stock > 0 ? cardElement(null, { faceDown: true }) : h("span", { class: "card-slot" }),
      h("span", { class: "pile-count" }, t("pasur.stock", { n: stock }))),
    tableRow,
  ];
  const handOver = handOverPanel(ctx);
  // the flash sits where the hand's summary strip has its close button: one or the other
  if (lastEntry && lastEntry.sur && !handOver) felt.push(h("div", { class: "sur-flash", role: "status" }, "SUR!"));
  if (handOver) felt.push(handOver);

  // -- scores ---------------------------------------------------------------------------------
  const sides = view.sides || players;
  const totals = match.totals || [];
  const captured = view.captured || [];
  const surs = view.surs || [];
  const scoreRows = [];
  for (let side = 0; side < sides; side += 1) {
    const taken = captured[side] || [];
    const clubs = taken.filter((c) => parseCard(c)?.suit === "C").length;
    scoreRows.push(h("tr", { class: mySeat !== null && sideOf(view, mySeat) === side ? "my-side" : "",
                             dataset: { side } },
      h("th", { scope: "row" }, sideName(view, side, ctx.seatName)),
      h("td", { class: "total" }, num(totals[side] ?? 0)),
      h("td", {}, num(taken.length)),
      h("td", {}, num(clubs)),
      h("td", { class: "surs" }, num(surs[side] ?? 0))));
  }
  const scores = h("table", { class: "scores" },
    h("caption", {}, t("pasur.score")),
    h("thead", {}, h("tr", {},
      h("th", {}, ""), h("th", { scope: "col" }, t("pasur.total")),
      h("th", { scope: "col" }, t("pasur.captured")), h("th", { scope: "col" }, t("pasur.clubs")),
      h("th", { scope: "col" }, t("pasur.surs")))),
    h("tbody", {}, scoreRows));
  const handPoints = match.hand_points || [];
  const handsTable = handPoints.length ? h("table", { class: "scores hands" },
    h("caption", {}, t("pasur.hands")),
    h("tbody", {}, handPoints.map((points, index) => h("tr", {},
      h("th", { scope: "row" }, t("pasur.handNo", { n: index + 1 })),
      points.map((p) => h("td", {}, num(p))))))) : null;
  const facts = h("ul", { class: "facts" },
    match.hand_number ? h("li", {}, t("pasur.handNo", { n: match.hand_number })) : null,
    view.deal_round ? h("li", { class: "deal-round" },
      t("pasur.dealRound", { n: view.deal_round, of: view.deal_rounds ?? view.deal_round })) : null,
    match.fixed_hands ? null : (match.target ? h("li", {}, t("pasur.target", { n: match.target })) : null));

  // -- my hand -----------------------------------------------------------------------------
  const hand = [];
  if (mySeat !== null && Array.isArray(view.hand)) {
    const row = h("div", { class: "hand-cards", role: "group", "aria-label": t("table.hand") });
    sortHand(view.hand).forEach((text, i) => {
      const key = cardKey(text);
      const playable = ctx.myTurn && options.has(key);
      const classes = [];
      if (key === selected) classes.push("selected");
      if (!playable) classes.push("inactive");
      if (ctx.isNew("hand", key)) classes.push("enter", "from-above");
      const label = i < 9 ? `${cardLabel(key)} (${num(i + 1)})` : cardLabel(key);
      const why = playable ? "" : t(ctx.myTurn ? "why.noMove" : "why.notYourTurn");
      const el = cardElement(key, { button: true, classes, label: why ? `${label}: ${why}` : label });
      el.dataset.focusKey = `hand:${key}`;
      el.setAttribute("aria-pressed", String(key === selected));
      if (!playable) {
        el.setAttribute("aria-disabled", "true");
        if (mySeat !== null && !ctx.state.over) el.title = why;
      }
      if (playable) {
        el.draggable = true;
        el.dataset.moves = String(options.get(key).length);
        el.addEventListener("dragstart", (/** @type {DragEvent} */ event) => {
          dragged = key;
          event.dataTransfer.setData("text/plain", key);
          event.dataTransfer.effectAllowed = "move";
        });
        el.addEventListener("dragend", () => { dragged = null; });
      }
      el.addEventListener("click", () => {
        if (!playable) return;
        const own = options.get(key);
        // One move: the first tap plays it when the player looks first no more (the
        // setting) or when it is the only move there is; else it shows what it would take.
        const forced = options.size === 1;
        if (own.length === 1 && (key === selected || !ctx.confirm || forced)) {
          ctx.play(own[0].text);
          return;
        }
        selection.card = key === selected ? null : key;
        selection.filter = null;
        selection.focusChoice = true;
        ctx.rerender();
      });
      row.appendChild(el);
    });
    hand.push(row);
  }

  // -- the choices for the selected card ------------------------------------------------------
  const choiceButtons = [];
  let prompt = "";
  if (ctx.myTurn) {
    prompt = !selected ? t("pasur.chooseCard")
      : choices.length === 1 ? `${upperFirst(sayMove(choices[0].text))}: ${t("say.again")}.`
        : t("pasur.chooseCapture", { card: cardLabel(selected) });
    for (const move of choices) {
      const label = move.captures.length
        ? t("pasur.capture", { cards: joinList(move.captures.map(cardLabel), { and: true }) })
        : t("pasur.lay", { card: cardLabel(move.card) });
      const button = h("button", { type: "button", class: "choice", dataset: {
        move: move.text, focusKey: `choice:${move.text}` }, "aria-label": label },
      move.captures.length
        ? [h("span", { class: "choice-word" }, t("pasur.take")), ...move.captures.map((c) =>
            cardElement(c, { classes: ["mini"] }))]
        : [h("span", { class: "choice-word" }, t("pasur.lay", { card: "" }).trim()),
           cardElement(move.card, { classes: ["mini"] })]);
      const mark = (on) => {
        for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".table-cards .card"))) {
          el.classList.toggle("target", on && move.captures.includes(el.dataset.card));
        }
      };
      button.addEventListener("mouseenter", () => mark(true));
      button.addEventListener("mouseleave", () => mark(false));
      button.addEventListener("focus", () => mark(true));
      button.addEventListener("blur", () => mark(false));
      button.addEventListener("click", () => ctx.play(move.text));
      choiceButtons.push(button);
    }
  }
  let focus = null;
  if (selection.focusChoice && choiceButtons.length) {
    focus = ".choices button.choice";
    selection.focusChoice = false;
  }

  return {
    opponents,
    felt,
    info: [scores, handsTable, facts],
    hand,
    choices: choiceButtons,
    actions: [],
    prompt,
    focus,
  };
}

let dragged = null;   // the hand card being dragged, if any

/** A table card (or the table itself, `key` null) takes a dragged hand card: dropped on a
 * card it captures, it plays the one capture with that card (several: they are offered);
 * dropped on the table, it lays the card when that is its move. */
function dropTarget(el, ctx, options, key) {
  const movesFor = (card) => {
    const own = options.get(card) || [];
    return key === null ? own.filter((m) => !m.captures.length)
      : own.filter((m) => m.captures.includes(key));
  };
  el.addEventListener("dragover", (event) => {
    if (dragged && movesFor(dragged).length) {
      event.preventDefault();
      el.classList.add("drop-target");
    }
  });
  el.addEventListener("dragleave", () => el.classList.remove("drop-target"));
  el.addEventListener("drop", (event) => {
    el.classList.remove("drop-target");
    const card = dragged || event.dataTransfer.getData("text/plain");
    const moves = card ? movesFor(card) : [];
    if (!moves.length) return;
    event.preventDefault();
    event.stopPropagation();
    dragged = null;
    if (moves.length === 1) { ctx.play(moves[0].text); return; }
    ctx.selection.card = card;
    ctx.selection.filter = key;
    ctx.selection.focusChoice = true;
    ctx.rerender();
  });
}

const dismissedHands = new Set();

/** Between hands: the last hand's points per side, over the felt until the next hand's
 * first deal is played out or the player closes it (a replay shows them in its info). */
function handOverPanel(ctx) {
  const { view, state } = ctx;
  const match = view.match || {};
  const handPoints = match.hand_points || [];
  if (state.over || ctx.replaying || !handPoints.length || view.deal_round !== 1) return null;
  const key = `${state.table || ""}:${handPoints.length}`;
  if (dismissedHands.has(key)) return null;
  const points = handPoints[handPoints.length - 1];
  const sheet = (match.hand_sheets || [])[handPoints.length - 1]
    || points.map((p) => ({ points: p }));
  return h("section", { class: "summary hand-summary", "aria-live": "polite" },
    h("h2", {}, `${t("pasur.handSummary")} · ${t("pasur.handNo", { n: handPoints.length })}`),
    sheetTable(sheet, view, ctx.seatName, { totals: match.totals || [] }),
    h("button", { type: "button", class: "close-hand-summary", dataset: { focusKey: "close-hand" },
      onclick: () => { dismissedHands.add(key); ctx.rerender(); } }, t("table.close")));
}

/** One line of a finished match for the history: the winners and the totals. */
export function resultLine(summary, seatName) {
  const winners = summary.winners || [];
  const totals = (summary.totals || []).map((x) => num(x)).join(" : ");
  const who = winners.length ? t("table.winner", { names: joinList(winners.map(seatName), { and: true }) })
    : t("table.draw");
  return totals ? `${who} (${totals})` : who;
}

/** The end of the match. */
export function summary(state, { seatName }) {
  return state.over ? finalSummary(state, seatName) : null;
}

// A hand's score sheet, one named column per part of the points.
const SHEET_COLUMNS = [
  ["cards", "cards"], ["clubs", "clubs"], ["two_clubs", "twoClubs"], ["ten_diamonds", "tenDiamonds"],
  ["aces", "aces"], ["jacks", "jacks"], ["surs", "surs"], ["bonus", "bonus"], ["points", "points"],
];

function sheetCell(value) {
  if (typeof value === "boolean") return value ? "✓" : "–";
  return typeof value === "number" ? num(value) : String(value ?? "");
}

/** A hand's sheet: a row per side, a named column per part (each heading's full words in
 * its title), the match total last when given.  On a narrow screen the same sheet turns
 * on its side (a row per part, a column per side) so that every number is in view. */
export function sheetTable(sheet, view, seatName, { totals = null, caption = null } = {}) {
  const sides = sheet.length;
  const columns = SHEET_COLUMNS.filter(([key]) => sheet.some((line) => key in line));
  const heading = (name) => h("abbr", { title: t(`pasur.col.${name}Long`) }, t(`pasur.col.${name}`));
  const names = sheet.map((_, side) => sideName({ ...view, sides }, side, seatName));
  const narrow = typeof matchMedia === "function" && matchMedia("(max-width: 600px)").matches;
  const cap = caption ? h("caption", {}, caption) : null;
  if (narrow) {
    const rows = columns.map(([key, name]) => h("tr", { dataset: { part: key } },
      h("th", { scope: "row" }, heading(name)),
      sheet.map((line) => h("td", { class: key === "points" ? "points" : "" }, sheetCell(line[key])))));
    if (totals) {
      rows.push(h("tr", { class: "total", dataset: { part: "total" } },
        h("th", { scope: "row" }, t("pasur.col.total")),
        sheet.map((_, side) => h("td", { class: "total" }, num(totals[side] ?? 0)))));
    }
    return h("table", { class: "sheet hand turned" }, cap,
      h("thead", {}, h("tr", {}, h("td", {}), names.map((n) => h("th", { scope: "col" }, n)))),
      h("tbody", {}, rows));
  }
  return h("table", { class: "sheet hand" }, cap,
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("pasur.side")),
      columns.map(([, name]) => h("th", { scope: "col" }, heading(name))),
      totals ? h("th", { scope: "col", class: "total" }, t("pasur.col.total")) : null)),
    h("tbody", {}, sheet.map((line, side) => h("tr", { dataset: { side } },
      h("th", { scope: "row" }, names[side]),
      columns.map(([key]) => h("td", { class: key === "points" ? "points" : "", dataset: { part: key } },
        sheetCell(line[key]))),
      totals ? h("td", { class: "total" }, num(totals[side] ?? 0)) : null))));
}

function finalSummary(state, seatName) {
  const view = state.view || {};
  const result = state.summary || {};
  const totals = result.totals || view.match?.totals || [];
  const winners = result.winners || [];
  const sides = result.sides || view.sides || totals.length;
  const parts = [];
  const winnerLine = winners.length
    ? t("table.winner", { names: joinList(winners.map(seatName), { and: true }) }) : t("table.draw");
  parts.push(h("p", { class: "result-line" }, winnerLine));
  parts.push(h("table", { class: "sheet totals" },
    h("caption", {}, t("pasur.matchSummary")),
    h("thead", {}, h("tr", {}, h("th", {}, t("pasur.side")), h("th", {}, t("pasur.total")))),
    h("tbody", {}, totals.map((total, side) => h("tr", { dataset: { side } },
      h("th", { scope: "row" }, sideName({ ...view, sides }, side, seatName)),
      h("td", {}, num(total)))))));
  // The last hand first: it decided the match.
  const hands = (result.hands || []).map((hand, index) => ({ hand, index })).reverse();
  for (const { hand, index } of hands) {
    parts.push(sheetTable(hand.sheet || [], { ...view, sides }, seatName, {
      caption: `${t("pasur.handSummary")} · ${t("pasur.handNo", { n: index + 1 })}` }));
  }
  return h("div", { class: "summary-body" }, parts);
}

/** The move log's lines for the move that led from `previous` to `state`: who played
 * what, a sur, and at a hand's end who took the cards left on the table. */
export function logLines(previous, state, seatName) {
  const last = state.last_move;
  const move = parseMove(last.move);
  const name = () => seatName(last.seat);
  const view = state.view || {};
  const before = previous?.view || {};
  const lines = [move.captures.length
    ? { say: () => t("log.pasur.capture", { name: name(), card: move.card, cards: move.captures.join(" ") }),
        kind: "capture" }
    : { say: () => t("log.pasur.lay", { name: name(), card: move.card }), kind: "lay" }];
  const entries = Array.isArray(view.moves) ? view.moves : [];
  const entry = entries[entries.length - 1];
  if (entry && entry.sur && entry.seat === last.seat && cardKey(parseMove(entry.move).card) === move.card) {
    lines.push({ say: () => t("log.pasur.sur", { name: name() }), kind: "sur" });
  }
  const handsBefore = (before.match?.hand_points || []).length;
  const handsNow = (view.match?.hand_points || []).length;
  if (previous && (handsNow > handsBefore || (state.over && !previous.over))) {
    let left = Array.isArray(view.swept) && view.swept.length && state.over ? view.swept.map(cardKey) : null;
    if (!left) {
      const table = (before.table || []).map(cardKey);
      left = move.captures.length ? table.filter((c) => !move.captures.includes(c)) : [...table, move.card];
    }
    const taker = move.captures.length ? last.seat : before.last_capturer;
    const n = Math.max(handsNow, 1);
    lines.push(left.length && taker !== null && taker !== undefined
      ? { say: () => t("log.pasur.handEnd", { n, name: seatName(taker), cards: left.join(" ") }), kind: "end" }
      : { say: () => t("log.pasur.handEndEmpty", { n }), kind: "end" });
  }
  return lines;
}

/** The rules card's sentences for a Pasur rule set (rules_to_dict's fields). */
export function rulesLines(rules) {
  const word = (option, value) => lowerFirst(t(`rules.pasur.${option}.${value}`));
  const lines = [t("rulescard.pasur.goal")];
  if (rules.king_queen_take_all) lines.push(t("rulescard.pasur.kingsAll"));
  if (rules.jack) lines.push(t("rulescard.pasur.jack", { what: word("jack", rules.jack) }));
  if (rules.sur_by) {
    lines.push(t("rulescard.pasur.sur", { by: word("sur_by", rules.sur_by), n: rules.sur_points ?? 5,
      last: rules.sur_in_last_deal ? "" : t("rulescard.pasur.notLast") }));
  }
  if (rules.sur_scoring === "net") lines.push(t("rulescard.pasur.net"));
  lines.push(t("rulescard.pasur.points", { ace: rules.ace_points ?? 1, jack: rules.jack_points ?? 1,
    two: rules.two_clubs_points ?? 2, ten: rules.ten_diamonds_points ?? 3,
    bonus: rules.bonus_points ?? 7, most: word("bonus", rules.bonus || "clubs") }));
  lines.push(rules.fixed_hands ? t("rulescard.pasur.hands", { n: rules.fixed_hands })
    : t("rulescard.pasur.target", { n: rules.target ?? 62 }));
  return lines;
}
