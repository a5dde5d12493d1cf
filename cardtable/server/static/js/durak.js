// @ts-check
// Transfer Durak at the table: the attack and defence pairs, the trump card and stock,
// every hand's size, who attacks whom, and buttons for attack, beat, transfer, take and
// pass.  Everything you can do is read from the legal move texts:
// "attack 9♣ 9♦", "defend 9♣ with J♣", "transfer 9♠", "transfer show 9♠", "take", "pass".

import { h } from "./dom.js";
import { t, num, suitName, joinList, upperFirst } from "./i18n.js";
import { cardElement, cardKey, cardLabel, isCardText, openHand, parseCard } from "./cards.js";

const KINDS = {
  attack: "attack", lead: "attack", throw: "attack", add: "attack", play: "attack",
  defend: "defend", beat: "defend", cover: "defend",
  transfer: "transfer",
  take: "take", pickup: "take",
  pass: "pass", done: "pass", bito: "pass",
};

/** "defend 9♣ with J♣" -> {kind: "defend", cards: ["9♣", "J♣"], shown: false, text}. */
export function parseMove(text) {
  const words = String(text).trim().split(/\s+/);
  const kind = KINDS[words[0].toLowerCase()] || words[0].toLowerCase();
  const shown = words.includes("show");
  const cards = words.filter(isCardText).map(cardKey);
  return { text: String(text), kind, cards, shown };
}

/** A move in words, to be said in a sentence: "defend 9♣ with J♣" -> "beat 9♣ with J♣",
 * "attack 9♣ 9♦" -> "attack with 9♣ and 9♦", "transfer show 9♠" -> "show 9♠ to transfer". */
export function sayMove(text) {
  const move = parseMove(text);
  const cards = joinList(move.cards, { and: true });
  if (move.kind === "defend") return t("say.durak.defend", { attack: move.cards[0], card: move.cards[1] });
  if (move.kind === "attack") return t("say.durak.attack", { cards });
  if (move.kind === "transfer") return t(move.shown ? "say.durak.transferShow" : "say.durak.transfer", { cards });
  if (move.kind === "take") return t("say.durak.take");
  if (move.kind === "pass") return t("say.durak.pass");
  return String(text);
}

/** What the player may do now, in words: "Transfer with A♦ or take", "Beat 7♠ or take",
 * "Throw in or say done". */
function mayDo(view, { attacks, transfers, defences, take, pass }) {
  const or = (cards) => joinList([...new Set(cards)], { or: true });
  const table = view.table || [];
  const open = table.filter(([, beaten]) => !beaten).map(([attack]) => cardKey(attack));
  if (take && !defences.length && !transfers.length && !attacks.length && !pass && open.length) {
    // nothing to choose: say why taking is all there is
    return `${upperFirst(t("may.durak.nothingBeats", { cards: joinList(open, { and: true }) }))}.`;
  }
  const parts = [];
  if (defences.length) parts.push(t("may.durak.beat", { cards: or(defences.map((m) => m.cards[0])) }));
  const openly = transfers.filter((m) => !m.shown);
  if (openly.length) parts.push(t("may.durak.transfer", { cards: or(openly.flatMap((m) => m.cards)) }));
  const shown = transfers.filter((m) => m.shown);
  if (shown.length) parts.push(t("may.durak.transferShow", { cards: or(shown.flatMap((m) => m.cards)) }));
  if (attacks.length) parts.push(t(table.length ? "may.durak.throwIn" : "may.durak.lead"));
  if (take) parts.push(t("may.durak.take"));
  if (pass) {
    const allBeaten = table.length && table.every(([, d]) => d) && view.phase !== "taking";
    parts.push(t(allBeaten ? "may.durak.done" : "may.durak.pass"));
  }
  return parts.length ? `${upperFirst(joinList(parts, { or: true }))}.` : "";
}

let dragged = null;   // the hand card being dragged, if any

/** Let a hand card be dragged onto the table (the attack, a transfer) or onto the attack
 * card it beats: one gesture a move. */
function draggable(el, key) {
  el.draggable = true;
  el.addEventListener("dragstart", (event) => {
    dragged = key;
    event.dataTransfer.setData("text/plain", key);
    event.dataTransfer.effectAllowed = "move";
  });
  el.addEventListener("dragend", () => { dragged = null; });
}

/** ``el`` takes a dragged hand card when ``moveFor(card)`` names a move: dropped there, the
 * move is played. */
function dropTarget(el, ctx, moveFor) {
  el.addEventListener("dragover", (event) => {
    if (dragged && moveFor(dragged)) {
      event.preventDefault();
      el.classList.add("drop-target");
    }
  });
  el.addEventListener("dragleave", () => el.classList.remove("drop-target"));
  el.addEventListener("drop", (event) => {
    el.classList.remove("drop-target");
    const card = dragged || cardKey(event.dataTransfer.getData("text/plain"));
    const move = card ? moveFor(card) : null;
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    dragged = null;
    ctx.play(move.text);
  });
}

const SUIT_LETTER = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };

function trumpSuit(view) {
  if (view.trump && SUIT_LETTER[view.trump]) return SUIT_LETTER[view.trump];
  if (typeof view.trump === "string" && /^[CDHS]$/i.test(view.trump)) return view.trump.toUpperCase();
  const card = parseCard(view.trump_card);
  return card ? card.suit : null;
}

/** Ace high; trumps after the other suits. */
function sortHand(cards, trump) {
  const order = (text) => {
    const c = parseCard(text);
    if (!c) return 0;
    const rank = c.rank === 1 ? 14 : c.rank;
    const suit = c.suit === trump ? 4 : "CDHS".indexOf(c.suit);
    return suit * 100 + rank;
  };
  return [...cards].sort((a, b) => order(a) - order(b));
}

function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((x) => set.has(x));
}

function rankOf(text) { return parseCard(text)?.rank; }

/** Ace high, for comparing cards of one suit. */
function power(text) {
  const rank = rankOf(text);
  return rank === 1 ? 14 : rank;
}

/** Why a card of my hand can do nothing now, in words: it is lower than the card to
 * beat, neither of its suit nor a trump, no card of its rank is on the table, or nothing
 * more may be added. */
export function whyNot(card, view, mySeat, trump) {
  const table = view.table || [];
  const open = table.filter(([, d]) => !d).map(([a]) => cardKey(a));
  const c = parseCard(card);
  if (!c) return "";
  if (view.defender === mySeat && open.length) {
    const sameSuit = open.filter((a) => parseCard(a)?.suit === c.suit);
    if (sameSuit.length) return t("durak.why.lower");
    if (c.suit !== trump) return t("durak.why.notTrump");
    return t("durak.why.lower");
  }
  if (view.defender !== mySeat && table.length) {
    const ranks = new Set(table.flat().filter(Boolean).map((x) => rankOf(cardKey(x))));
    return ranks.has(c.rank) ? t("durak.why.cannotAdd") : t("durak.why.noRank");
  }
  return "";
}

export function render(ctx) {
  const { view, mySeat, selection, state } = ctx;
  const players = view.players || (view.hand_sizes || []).length || 2;
  const trump = trumpSuit(view);
  const moves = ctx.legal.map(parseMove);
  const byKind = (kind) => moves.filter((m) => m.kind === kind);
  const attacks = byKind("attack");
  const transfers = byKind("transfer");
  const defences = byKind("defend");
  const take = byKind("take")[0];
  const pass = byKind("pass")[0];
  const others = moves.filter((m) => !["attack", "transfer", "defend", "take", "pass"].includes(m.kind)
                                     || (m.kind === "transfer" && m.shown));
  const chosen = (selection.cards || []).filter((c) => (view.hand || []).map(cardKey).includes(c));
  const out = new Set(view.out || []);
  const passed = new Set(view.passed || []);

  // Cards in hand that take part in some legal move.
  const usable = new Set();
  for (const m of [...attacks, ...transfers]) if (!m.shown) m.cards.forEach((c) => usable.add(c));
  for (const m of defences) usable.add(m.cards[1]);

  // Defences open to the chosen card (or to the chosen attack card).
  const beatsWith = (card) => defences.filter((m) => m.cards[1] === card);
  const target = selection.target || null;
  const beatChoices = chosen.length === 1 ? beatsWith(chosen[0]) : [];
  const targets = new Set(beatChoices.map((m) => m.cards[0]));
  const openAttacks = new Set(defences.map((m) => m.cards[0]));
  // The attack or transfer the table takes: the chosen cards, or a card dragged there
  // (with the chosen cards of its rank).
  const tableMove = (cards) => [...attacks, ...transfers].find((m) => !m.shown && sameSet(m.cards, cards));
  const areaMove = chosen.length ? tableMove(chosen) : null;
  const dropMove = (card) => (chosen.includes(card) && tableMove(chosen)) || tableMove([card]);

  // -- the other players ------------------------------------------------------------------
  const opponents = [];
  for (let seat = 0; seat < players; seat += 1) {
    if (seat === mySeat) continue;
    const count = (view.hand_sizes || [])[seat] ?? 0;
    const known = ((view.known || [])[seat] || []).map(cardKey);
    const tags = [];
    if (seat === view.attacker) tags.push(h("span", { class: "tag attacker" }, t("durak.attacker")));
    if (seat === view.defender) tags.push(h("span", { class: "tag defender" }, t("durak.defender")));
    if (out.has(seat)) tags.push(h("span", { class: "tag out" }, t("durak.out")));
    if (passed.has(seat) && view.defender !== seat) tags.push(h("span", { class: "tag" }, "✓"));
    let row;
    if (Array.isArray(ctx.hands?.[seat])) {
      // A replay knows every hand: all of it face up, trumps last.
      row = openHand(sortHand(ctx.hands[seat], trump), {
        label: t("table.handOf", { name: ctx.seatName(seat) }),
        classesOf: (c) => [parseCard(c)?.suit === trump ? "trump" : "", known.includes(c) ? "known" : ""]
          .filter(Boolean) });
    } else {
      row = h("span", { class: "backs", "aria-hidden": "true" });
      const shownKnown = known.slice(0, Math.min(count, 8));
      shownKnown.forEach((c) => row.appendChild(cardElement(c, { classes: ["small", "known"] })));
      for (let i = shownKnown.length; i < Math.min(count, 8); i += 1) {
        row.appendChild(cardElement(null, { faceDown: true, classes: ["small"] }));
      }
    }
    opponents.push(h("div", {
      class: `seat-box${seat === state.to_move && !state.over ? " to-move" : ""}${out.has(seat) ? " is-out" : ""}`,
      dataset: { seat },
    }, h("div", { class: "seat-name" }, ctx.seatName(seat), ...tags), row,
    h("div", { class: "seat-count" }, t("table.cards", { n: count }))));
  }

  // -- the felt: stock with the trump under it, the pairs, the discard ---------------------
  const stock = view.stock ?? 0;
  const trumpCard = view.trump_card;
  const deck = h("div", { class: "deck" },
    h("div", { class: "pile stock durak-stock" },
      trumpCard ? cardElement(trumpCard, {
        classes: ["trump-card", view.trump_card_in_stock === false ? "drawn" : ""].filter(Boolean),
        label: `${t("durak.trump")}: ${cardLabel(trumpCard)}` }) : null,
      stock > 1 ? cardElement(null, { faceDown: true, classes: ["stock-top"] }) : null),
    h("div", { class: "deck-facts" },
      h("span", { class: "trump-suit", dataset: { suit: trump || "" } },
        `${t("durak.trump")}: `, h("strong", { class: trump === "D" || trump === "H" ? "red" : "black" },
          trump ? `${view.trump || ""} ${suitName(trump)}` : "—")),
      h("span", { class: "stock-count" }, t("durak.stock", { n: stock })),
      h("span", { class: "discard-count" }, t("durak.discard", { n: view.discard ?? 0 }))));

  const pairs = h("div", { class: "battle", role: "group", "aria-label": t("table.table") });
  const lastSeat = state.last_move?.seat;
  const enterFrom = lastSeat === undefined || lastSeat === null ? ""
    : lastSeat === mySeat ? "from-below" : "from-above";
  for (const [attackText, defenceText] of view.table || []) {
    const attack = cardKey(attackText);
    const isTarget = (targets.has(attack)) || (!chosen.length && openAttacks.has(attack));
    const classes = [];
    if (ctx.isNew("battle", attack)) classes.push("enter", enterFrom);
    if (targets.has(attack)) classes.push("beatable");
    if (target === attack) classes.push("selected");
    const attackEl = cardElement(attack, { button: isTarget, classes });
    if (openAttacks.has(attack)) {
      dropTarget(attackEl, ctx, (card) => defences.find((m) => m.cards[0] === attack && m.cards[1] === card));
    }
    if (isTarget) {
      attackEl.dataset.focusKey = `attack:${attack}`;
      attackEl.addEventListener("click", () => {
        const move = beatChoices.find((m) => m.cards[0] === attack);
        if (move) { ctx.play(move.text); return; }
        selection.target = target === attack ? null : attack;
        selection.cards = [];
        ctx.rerender();
      });
    }
    const pair = h("div", { class: `pair${defenceText ? " beaten" : ""}` }, attackEl);
    if (defenceText) {
      const defence = cardKey(defenceText);
      const dClasses = ["defence"];
      if (ctx.isNew("battle", defence)) dClasses.push("enter", enterFrom);
      pair.appendChild(cardElement(defence, { classes: dClasses }));
    }
    pairs.appendChild(pair);
  }
  // Cards that just left the table (beaten off, or taken) fade away where they lay.
  const onTable = new Set((view.table || []).flat().filter(Boolean).map(cardKey));
  const gone = ((ctx.previousView && ctx.previousView.table) || [])
    .map((pair) => pair.filter(Boolean).map(cardKey))
    .filter((pair) => !pair.some((c) => onTable.has(c)));
  // beaten off: to the discard; taken: into the taker's hand (down if it is mine)
  const beatenOff = (view.discard ?? 0) > (ctx.previousView?.discard ?? 0);
  const taker = ctx.previousView?.defender;
  const toward = beatenOff ? "to-discard" : taker === mySeat ? "to-below" : "to-above";
  for (const pair of gone) {
    if (!ctx.animate) continue;
    const ghost = h("div", { class: `pair leaving-pair ${toward}`, "aria-hidden": "true" },
      ...pair.map((c, i) => cardElement(c, { classes: i ? ["defence"] : [] })));
    ghost.addEventListener("animationend", () => ghost.remove());
    pairs.appendChild(ghost);
  }
  if (!(view.table || []).length && !(ctx.animate && gone.length)) {
    pairs.appendChild(h("p", { class: "empty" }, t("table.emptyTable")));
  }
  // The table itself: tapped with cards chosen, or a card dropped on it, it attacks (or
  // throws in, or transfers) with them.
  dropTarget(pairs, ctx, dropMove);
  if (areaMove) {
    pairs.classList.add("can-play");
    pairs.dataset.move = areaMove.text;
    pairs.addEventListener("click", (event) => {
      if (event.target.closest("button")) return;   // an attack card has its own tap
      ctx.play(areaMove.text);
    });
  }
  const felt = [deck, pairs];

  // -- who attacks whom ---------------------------------------------------------------------
  const facts = h("ul", { class: "facts" },
    view.attacker !== null && view.attacker !== undefined && view.defender !== null
      && view.defender !== undefined
      ? h("li", { class: "roles" }, t(view.attacker === mySeat ? "durak.youAttack"
        : view.defender === mySeat ? "durak.attacksYou" : "durak.attacks", {
        a: ctx.seatName(view.attacker), d: ctx.seatName(view.defender) }))
      : null,
    view.phase === "taking" && view.defender !== null && view.defender !== undefined
      ? h("li", {}, t("durak.taking", { name: ctx.seatName(view.defender) })) : null);

  // -- my hand ---------------------------------------------------------------------------------
  const hand = [];
  if (mySeat !== null && Array.isArray(view.hand)) {
    const row = h("div", { class: "hand-cards", role: "group", "aria-label": t("table.hand") });
    sortHand(view.hand, trump).forEach((text, i) => {
      const key = cardKey(text);
      const canBeatTarget = target && defences.some((m) => m.cards[0] === target && m.cards[1] === key);
      const playable = ctx.myTurn && (usable.has(key));
      const classes = [];
      if (chosen.includes(key)) classes.push("selected");
      if (!playable) classes.push("inactive");
      if (canBeatTarget) classes.push("beatable");
      if (parseCard(key)?.suit === trump) classes.push("trump");
      if (ctx.isNew("hand", key)) classes.push("enter", "from-above");
      let label = i < 9 ? `${cardLabel(key)} (${num(i + 1)})` : cardLabel(key);
      const why = playable || state.over ? ""
        : ctx.myTurn ? whyNot(key, view, mySeat, trump) : t("why.notYourTurn");
      if (why) label = `${label}: ${why}`;
      const el = cardElement(key, { button: true, classes, label });
      el.dataset.focusKey = `hand:${key}`;
      el.setAttribute("aria-pressed", String(chosen.includes(key)));
      if (!playable) el.setAttribute("aria-disabled", "true");
      if (why) { el.title = why; el.dataset.why = why; }
      if (playable) draggable(el, key);
      el.addEventListener("click", () => {
        if (!playable) return;
        if (canBeatTarget) {
          const move = defences.find((m) => m.cards[0] === target && m.cards[1] === key);
          ctx.play(move.text);
          return;
        }
        let next;
        if (chosen.includes(key)) next = chosen.filter((c) => c !== key);
        else if (chosen.length && rankOf(chosen[0]) === rankOf(key)) next = [...chosen, key];
        else next = [key];
        selection.cards = next;
        selection.target = null;
        // A card that can only beat: go straight to the attack cards it beats.
        const onlyBeats = next.length === 1 && beatsWith(key).length > 0
          && ![...attacks, ...transfers].some((m) => m.cards.includes(key));
        selection.focusChoice = onlyBeats;
        ctx.rerender();
      });
      row.appendChild(el);
    });
    hand.push(row);
  }

  // -- buttons --------------------------------------------------------------------------------
  const actions = [];
  const choices = [];
  let prompt = "";
  if (ctx.myTurn) {
    const attackMove = attacks.find((m) => sameSet(m.cards, chosen));
    const transferMove = transfers.find((m) => !m.shown && sameSet(m.cards, chosen));
    if (attacks.length) {
      const word = (view.table || []).length ? t("durak.throwIn") : t("durak.attack");
      actions.push(h("button", { type: "button", class: "action attack primary",
        disabled: !attackMove, dataset: { focusKey: "action:attack", action: "attack" },
        onclick: () => attackMove && ctx.play(attackMove.text) }, word));
    }
    if (transfers.some((m) => !m.shown)) {
      actions.push(h("button", { type: "button", class: "action transfer",
        disabled: !transferMove, dataset: { focusKey: "action:transfer", action: "transfer" },
        onclick: () => transferMove && ctx.play(transferMove.text) }, t("durak.transfer")));
    }
    if (take) {
      actions.push(h("button", { type: "button", class: "action take",
        dataset: { focusKey: "action:take", action: "take", move: take.text },
        onclick: () => ctx.play(take.text) }, t("durak.take")));
    }
    if (pass) {
      const word = (view.table || []).length && view.table.every(([, d]) => d)
        && view.phase !== "taking" ? t("durak.done") : t("durak.pass");
      actions.push(h("button", { type: "button", class: "action pass",
        dataset: { focusKey: "action:pass", action: "pass", move: pass.text },
        onclick: () => ctx.play(pass.text) }, word));
    }
    for (const m of others) {
      actions.push(h("button", { type: "button", class: "action other",
        dataset: { focusKey: `action:${m.text}`, move: m.text },
        onclick: () => ctx.play(m.text) }, upperFirst(sayMove(m.text))));
    }
    for (const m of beatChoices) {
      choices.push(h("button", { type: "button", class: "choice beat",
        dataset: { move: m.text, focusKey: `beat:${m.text}` },
        "aria-label": `${t("durak.beat")}: ${cardLabel(m.cards[0])}`,
        onclick: () => ctx.play(m.text) },
      h("span", { class: "choice-word" }, t("durak.beat")),
      cardElement(m.cards[0], { classes: ["mini"] })));
    }
    const orTable = areaMove ? t("may.durak.orTable", { what: sayMove(areaMove.text) }) : "";
    if (chosen.length === 1 && beatChoices.length) {
      prompt = [t("durak.chooseTarget", { card: cardLabel(chosen[0]) }), orTable].filter(Boolean).join(" ");
    } else if (target) prompt = t("durak.chooseBeatFor", { card: cardLabel(target) });
    else if (areaMove) prompt = t("may.durak.tapTable", { what: sayMove(areaMove.text) });
    else prompt = mayDo(view, { attacks, transfers, defences, take, pass });
  }

  let focus = null;
  if (selection.focusChoice && choices.length) {
    focus = ".choices button.choice";
    selection.focusChoice = false;
  }
  // Passing as the only move: the page may play it by itself (a setting says).
  const auto = ctx.myTurn && moves.length === 1 && moves[0].kind === "pass" ? moves[0].text : null;
  return { opponents, felt, info: [facts], hand, choices, actions, prompt, focus, auto,
           autoNote: auto ? t("table.autoPassed") : "" };
}

/** One line of a finished game for the history: who was the durak, if anyone. */
export function resultLine(summary, seatName) {
  if (summary.loser === null || summary.loser === undefined || summary.draw) return t("durak.noDurak");
  return t("durak.durak", { name: seatName(summary.loser) });
}

export function summary(state, { mySeat, seatName }) {
  if (!state.over) return null;
  const result = state.summary || {};
  const view = state.view || {};
  const loser = result.loser ?? view.loser ?? null;
  const draw = result.draw ?? view.draw ?? false;
  let line;
  if (loser === null || loser === undefined || draw) line = t("durak.noDurak");
  else if (loser === mySeat) line = t("durak.youAreDurak");
  else line = t("durak.durak", { name: seatName(loser) });
  // The order the players went out in; the durak, still holding cards, last.
  const order = [...(view.out || [])];
  const sizes = view.hand_sizes || result.hands_left || [];
  const players = view.players || sizes.length;
  for (let seat = 0; seat < players; seat += 1) if (!order.includes(seat) && seat !== loser) order.push(seat);
  if (loser !== null && loser !== undefined && !order.includes(loser)) order.push(loser);
  const finishing = h("ol", { class: "finishing-order", "aria-label": t("durak.finishingOrder") },
    order.map((seat) => h("li", { dataset: { seat }, class: seat === loser ? "durak" : "" },
      seatName(seat),
      seat === loser && sizes[seat] ? ` (${t("durak.stillHolding", { n: sizes[seat] })})` : "")));
  return h("div", { class: "summary-body" },
    h("p", { class: "result-line durak-result", dataset: { loser: loser ?? "" } }, line),
    h("h3", { class: "finishing-title" }, t("durak.finishingOrder")),
    finishing);
}

/** The move log's lines for the move that led from `previous` to `state`: who attacked,
 * added, beat, transferred, took or passed; where a round ends (beaten off, or taken) and
 * who leads the next; who went out. */
export function logLines(previous, state, seatName) {
  const last = state.last_move;
  const move = parseMove(last.move);
  const me = state.seat;
  const name = () => seatName(last.seat);
  const view = state.view || {};
  const before = previous?.view || {};
  const cards = move.cards.join(" ");
  const lines = [];
  const say = (key, params, kind) => lines.push({ say: () => t(key, params()), kind });
  if (move.kind === "attack") {
    say((before.table || []).length ? "log.durak.throw" : "log.durak.attack",
      () => ({ name: name(), cards }), "attack");
  } else if (move.kind === "defend") {
    say("log.durak.defend", () => ({ name: name(), attack: move.cards[0], card: move.cards[1] }), "defend");
  } else if (move.kind === "transfer") {
    say(move.shown ? "log.durak.transferShow" : "log.durak.transfer", () => ({ name: name(), cards }),
      "transfer");
  } else if (move.kind === "take") {
    say(last.seat === me ? "log.durak.takeYou" : "log.durak.take", () => ({ name: name() }), "take");
  } else if (move.kind === "pass") {
    say(last.seat === me ? "log.durak.passYou" : "log.durak.pass", () => ({ name: name() }), "pass");
  } else {
    say("log.durak.other", () => ({ name: name(), move: last.move }), "other");
  }
  const outBefore = new Set(before.out || []);
  for (const seat of view.out || []) {
    if (!outBefore.has(seat)) say("log.durak.out", () => ({ name: seatName(seat) }), "out");
  }
  const roundOver = previous && (before.table || []).length && !(view.table || []).length;
  if (roundOver && !state.over) {
    const leader = view.attacker;
    if ((view.discard ?? 0) > (before.discard ?? 0)) {
      say("log.durak.beaten", () => ({ name: seatName(leader) }), "end");
    } else {
      const taker = before.defender;
      say("log.durak.taken", () => ({ name: seatName(leader), taker: seatName(taker) }), "end");
    }
  }
  return lines;
}

/** The rules card's sentences for a Durak rule set (rules_to_dict's fields). */
export function rulesLines(rules) {
  const lines = [t("rulescard.durak.pack", { n: rules.pack_size ?? 36 }), t("rulescard.durak.beat"),
    t("rulescard.durak.transfer")];
  if (rules.first_round_transfer === false) lines.push(t("rulescard.durak.noFirstTransfer"));
  if (rules.passport) lines.push(t("rulescard.durak.passport"));
  lines.push(t("rulescard.durak.limit", { first: rules.first_round_limit ?? 6 }));
  if (rules.neighbours_only) lines.push(t("rulescard.durak.neighbours"));
  if (rules.partners) lines.push(t("rulescard.durak.partners"));
  lines.push(t("rulescard.durak.end"));
  return lines;
}
