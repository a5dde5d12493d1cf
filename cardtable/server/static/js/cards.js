// @ts-check
// Cards drawn by the page as SVG: corner indices, pips, framed court cards and a back.
// The suit shapes are paths (not font glyphs), so every machine draws them the same.

import { cardName, t, hasKey } from "./i18n.js";
import { h } from "./dom.js";

const SUIT_OF_SYMBOL = { "♣": "C", "♦": "D", "♥": "H", "♠": "S",
                         "♧": "C", "♢": "D", "♡": "H", "♤": "S" };
const SYMBOL_OF_SUIT = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_OF_TEXT = { A: 1, J: 11, Q: 12, K: 13, T: 10 };
const TEXT_OF_RANK = { 1: "A", 11: "J", 12: "Q", 13: "K" };

/** Read "10♦", "TD", "qh", "A♠" into {rank, suit, text}; null when it is not a card. */
export function parseCard(text) {
  if (typeof text !== "string") return null;
  const clean = text.trim().replace(/\ufe0f/g, "");
  const m = /^(10|[2-9]|[AJQKTajqkt])\s*([♣♦♥♠♧♢♡♤]|[CDHScdhs])$/.exec(clean);
  if (!m) return null;
  const rankText = m[1].toUpperCase();
  const rank = RANK_OF_TEXT[rankText] ?? Number(rankText);
  const suit = SUIT_OF_SYMBOL[m[2]] ?? m[2].toUpperCase();
  return { rank, suit, text: (TEXT_OF_RANK[rank] ?? String(rank)) + SYMBOL_OF_SUIT[suit] };
}

/** The canonical text of a card ("TD" -> "10♦"), or the text unchanged if it is no card. */
export function cardKey(text) {
  const card = parseCard(text);
  return card ? card.text : String(text);
}

export function isCardText(text) { return parseCard(text) !== null; }

export function isRed(suit) { return suit === "D" || suit === "H"; }

export function rankLabel(rank) { return TEXT_OF_RANK[rank] ?? String(rank); }

export function suitSymbol(suit) { return SYMBOL_OF_SUIT[suit] ?? suit; }

/** The accessible name of a card text in the page's language. */
export function cardLabel(text) {
  const card = parseCard(text);
  return card ? cardName(card.rank, card.suit) : String(text);
}

// Suit shapes on a 100x100 box.
const SUIT_PATHS = {
  H: "M50 92C22 68 2 50 2 29 2 13 14 2 28 2 39 2 46 9 50 18 54 9 61 2 72 2 86 2 98 13 98 29 "
     + "98 50 78 68 50 92Z",
  D: "M50 2 86 50 50 98 14 50Z",
  S: "M50 2C76 26 98 42 98 61 98 76 87 86 73 86 64 86 57 81 54 74 55 85 60 92 68 98H32C40 92 "
     + "45 85 46 74 43 81 36 86 27 86 13 86 2 76 2 61 2 42 24 26 50 2Z",
  C: "M50 4A22 22 0 0 1 69 37 22 22 0 1 1 58 76C60 86 64 92 70 98H30C36 92 40 86 42 76A22 22 "
     + "0 1 1 31 37 22 22 0 0 1 50 4Z",
};

const NS = "http://www.w3.org/2000/svg";

/** Add the shared SVG definitions (suit symbols, back pattern) to the page once. */
export function installCardDefs(doc = document) {
  if (doc.getElementById("card-defs")) return;
  const holder = doc.createElementNS(NS, "svg");
  holder.setAttribute("id", "card-defs");
  holder.setAttribute("aria-hidden", "true");
  holder.setAttribute("width", "0");
  holder.setAttribute("height", "0");
  holder.style.position = "absolute";
  holder.innerHTML = `<defs>
    ${Object.entries(SUIT_PATHS).map(([s, d]) =>
      `<symbol id="suit-${s}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`).join("")}
    <pattern id="back-pattern" width="12" height="12" patternUnits="userSpaceOnUse"
             patternTransform="rotate(45)">
      <rect width="12" height="12" fill="#1d4e89"/>
      <rect width="6" height="6" fill="#2a67ad"/>
      <rect x="6" y="6" width="6" height="6" fill="#2a67ad"/>
    </pattern>
  </defs>`;
  doc.body.prepend(holder);
}

// Pip centres for 1..10 on a 100x140 face (x, y); pips below the middle are turned over.
const L = 30, C = 50, R = 70, T = 30, B = 110, M = 70;
const PIPS = {
  1: [[C, M]],
  2: [[C, T], [C, B]],
  3: [[C, T], [C, M], [C, B]],
  4: [[L, T], [R, T], [L, B], [R, B]],
  5: [[L, T], [R, T], [C, M], [L, B], [R, B]],
  6: [[L, T], [R, T], [L, M], [R, M], [L, B], [R, B]],
  7: [[L, T], [R, T], [C, 50], [L, M], [R, M], [L, B], [R, B]],
  8: [[L, T], [R, T], [C, 50], [L, M], [R, M], [C, 90], [L, B], [R, B]],
  9: [[L, T], [R, T], [L, 56.7], [R, 56.7], [C, M], [L, 83.3], [R, 83.3], [L, B], [R, B]],
  10: [[L, T], [R, T], [C, 43], [L, 56.7], [R, 56.7], [L, 83.3], [R, 83.3], [C, 97],
       [L, B], [R, B]],
};

function pip(suit, x, y, size) {
  const flip = y > M + 1 ? ` transform="rotate(180 ${x} ${y})"` : "";
  const h = size / 2;
  return `<use href="#suit-${suit}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${flip}/>`;
}

/** The SVG markup of a card's face. */
export function faceSVG(text) {
  const card = parseCard(text);
  if (!card) return backSVG();
  const { rank, suit } = card;
  const colour = isRed(suit) ? "red" : "black";
  const label = rankLabel(rank);
  const corner = (rotate) => `<g${rotate ? ' transform="rotate(180 50 70)"' : ""}>
      <text x="11" y="21" class="idx" text-anchor="middle">${label}</text>
      <use href="#suit-${suit}" x="4.5" y="25" width="13" height="13"/></g>`;
  let middle;
  if (rank >= 11) {
    middle = `<rect x="22" y="22" width="56" height="96" rx="5" class="court"/>
      <text x="50" y="82" class="court-letter" text-anchor="middle">${label}</text>
      <use href="#suit-${suit}" x="38" y="28" width="24" height="24"/>
      <use href="#suit-${suit}" x="38" y="88" width="24" height="24"
           transform="rotate(180 50 100)"/>`;
  } else if (rank === 1) {
    middle = pip(suit, C, M, 44);
  } else {
    middle = PIPS[rank].map(([x, y]) => pip(suit, x, y, 17)).join("");
  }
  return `<svg class="face ${colour}" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="98" height="138" rx="8" class="paper"/>
    ${corner(false)}${corner(true)}${middle}</svg>`;
}

/** The SVG markup of a card's back. */
export function backSVG() {
  return `<svg class="back" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#123"/>
    <rect x="7" y="7" width="86" height="126" rx="5" fill="url(#back-pattern)"/>
    <rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#fff" stroke-width="2"/>
    <circle cx="50" cy="70" r="15" fill="#fff" opacity=".85"/>
    <use href="#suit-S" x="41" y="61" width="18" height="18" class="back-mark"/></svg>`;
}

/** A card's picture, its markup read once and copied for every card that shows it (a
 * table draws dozens of backs and faces at once: reading each one's markup again is most
 * of a drawing's time on a phone). */
const pictures = new Map();

function picture(markup) {
  let template = pictures.get(markup);
  if (!template) {
    template = document.createElement("template");
    template.innerHTML = markup;
    pictures.set(markup, template);
  }
  return template.content.cloneNode(true);
}

/**
 * A card element.  With `button` it is a focusable <button> carrying its name in
 * aria-label; otherwise a plain figure (face-down cards say so to screen readers).
 */
export function cardElement(text, { button = false, faceDown = false, classes = [],
                                   label = null } = {}) {
  const el = document.createElement(button ? "button" : "span");
  el.className = ["card", faceDown ? "face-down" : "face-up", ...classes].join(" ");
  if (button) el.setAttribute("type", "button");
  if (faceDown) {
    el.append(picture(backSVG()));
    if (!button) { el.setAttribute("role", "img"); el.setAttribute("aria-label", t("card.back")); }
  } else {
    const key = cardKey(text);
    el.dataset.card = key;
    el.append(picture(faceSVG(key)));
    el.setAttribute("aria-label", label ?? cardLabel(key));
    if (!button) el.setAttribute("role", "img");
  }
  return el;
}

/**
 * A hand laid face up in a seat's box (a replay shows every hand once the game is over):
 * small cards in the order given, named as a group for screen readers.
 */
/**
 * @param {string[]} cards
 * @param {{ label?: string, classesOf?: (key: string) => string[] }} [options]
 */
export function openHand(cards, { label = "", classesOf = () => [] } = {}) {
  const row = document.createElement("span");
  row.className = "open-hand";
  row.setAttribute("role", "group");
  if (label) row.setAttribute("aria-label", label);
  for (const text of cards) {
    row.appendChild(cardElement(text, { classes: ["small", "open", ...classesOf(cardKey(text))] }));
  }
  return row;
}

/** Render a move text with its cards as small pictures ("9♣ x 2♦" -> cards and words). */
/** A card as coloured text ("7♦" in red), named for screen readers: cheap to draw by
 * the hundred (a replay's move list). */
export function cardWord(text) {
  const key = cardKey(text);
  const card = parseCard(key);
  return h("span", { class: `card-word ${card && isRed(card.suit) ? "red" : "black"}`,
                     dir: "ltr", "aria-label": cardLabel(key), role: "img" }, key);
}

export function moveText(text, { plain = false } = {}) {
  // a move's notation reads left to right in every language ("7♣ x 4♦ 2♠")
  const out = h("span", { class: "move-text", dir: "ltr" });
  for (const word of String(text).split(/\s+/)) {
    if (!word) continue;
    if (isCardText(word) && plain) out.appendChild(cardWord(word));
    else if (isCardText(word)) out.appendChild(cardElement(word, { classes: ["mini"] }));
    else {
      const key = `move.${word.toLowerCase()}`;
      out.appendChild(h("span", { class: "word" }, hasKey(key) ? t(key) : word));
    }
  }
  return out;
}
