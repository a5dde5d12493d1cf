// @ts-check
// Every string the page shows, in English, Portuguese, Persian and Russian.
// The language comes from the browser (navigator.languages) unless the player picked one;
// the pick is remembered in localStorage.  The server's refusals are said by their code
// (refusals.js); only a code the page does not know shows the server's English reason.
// The strings of each language are in lang/ (one module per language and subject, the same
// keys), gathered into one table per language by lang/all/.

import en from "./lang/all/en.js";
import frame from "./lang/frame.js";
import { LANGUAGES, STORE_KEY, detectLanguage, initialLanguage, wordsUrl } from "./frame.js";

// Each language's words are one table (lang/all/).  English is part of this script (a key
// a language lacks is said in English, and hasKey asks English); each other language
// arrives when a reader of it comes or picks it (loadLanguage), as a bundle of its own:
// a Persian reader does not download and compile the Russian words.  The frame's words
// (lang/frame.js: header, navigation) are laid over each table as it arrives.
const STRINGS = /** @type {Record<string, Record<string, any>>} */ ({});
addWords("en", en);

/** Take ``table`` as the words of ``lang`` (what loadLanguage fetches; node's tests hand
 * them over directly). */
export function addWords(lang, table) {
  STRINGS[lang] = { ...table, ...frame[lang] };
}

const loading = new Map();

/** The words of ``lang``, fetched once (nothing to fetch for English or a language already
 * here).  A first visit's page may hold them (the server read the browser's languages);
 * else the page names each language's bundle (<meta name="cardtable-words">, the server's
 * hashed file; frame.js has started its download already); without one, the module itself.
 * @param {string} lang
 * @returns {Promise<void>} */
export function loadLanguage(lang) {
  if (STRINGS[lang] || !(lang in LANGUAGES)) return Promise.resolve();
  const module = `/js/lang/all/${lang}.js`;
  const modules = /** @type {any} */ (globalThis).cardtableModules;
  if (modules?.has(module)) {
    // run already: inside a first visit's page, beside its script
    addWords(lang, modules.get(module).default);
    return Promise.resolve();
  }
  let fetching = loading.get(lang);
  if (!fetching) {
    fetching = import(wordsUrl(lang)).then((own) => {
      // a bundle files its modules in cardtableModules (web/jsbundle.py); a module is itself
      const kept = /** @type {any} */ (globalThis).cardtableModules?.get(module);
      addWords(lang, (kept ?? own).default);
    });
    loading.set(lang, fetching);
    fetching.catch(() => { loading.delete(lang); });   // asked again next time
  }
  return fetching;
}

// Card names for screen readers: "7 of clubs", "ás de espadas", "هفت خاج", "дама пик".
const RANKS = {
  en: { 1: "ace", 11: "jack", 12: "queen", 13: "king" },
  pt: { 1: "ás", 11: "valete", 12: "dama", 13: "rei" },
  fa: { 1: "آس", 11: "سرباز", 12: "بی‌بی", 13: "شاه" },
  ru: { 1: "туз", 11: "валет", 12: "дама", 13: "король" },
};
const SUITS = {
  en: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
  pt: { C: "paus", D: "ouros", H: "copas", S: "espadas" },
  fa: { C: "خاج", D: "خشت", H: "دل", S: "پیک" },
  ru: { C: "треф", D: "бубен", H: "червей", S: "пик" },
};
const SUIT_NOUNS = {
  en: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
  pt: { C: "paus", D: "ouros", H: "copas", S: "espadas" },
  fa: { C: "خاج", D: "خشت", H: "دل", S: "پیک" },
  ru: { C: "трефы", D: "бубны", H: "черви", S: "пики" },
};

export { LANGUAGES, detectLanguage, initialLanguage };

let current = "en";
const listeners = new Set();

export function language() { return current; }

let wanted = "en";

/** Switch the page's language (and direction) once its words are here; remember it when
 * asked to.  The promise settles when the page speaks it (or, if its words could not be
 * fetched, still speaks the language before, and the listeners are told so).
 * @param {string} lang
 * @returns {Promise<void>} */
export function setLanguage(lang, { remember = true } = {}) {
  if (!(lang in LANGUAGES)) lang = "en";
  wanted = lang;
  if (!STRINGS[lang]) {
    return loadLanguage(lang).then(() => {
      if (wanted === lang) setLanguage(lang, { remember });
    }, () => {
      // the frame may have turned the page to the words' direction already: turn it back
      if (wanted === lang) setLanguage(current, { remember: false });
    });
  }
  current = lang;
  const root = document.documentElement;
  root.lang = lang;
  root.dir = LANGUAGES[lang].dir;
  document.querySelector('link[rel="manifest"]')?.setAttribute("href",
    `/manifest.webmanifest?lang=${lang}`);
  if (remember) {
    try { localStorage.setItem(STORE_KEY, lang); } catch { /* private mode */ }
  }
  for (const fn of listeners) fn(lang);
  return Promise.resolve();
}

export function onLanguageChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** A number in the page's language (Persian digits in Persian): the page's one way to
 * write a number (scores, clocks, counts, ratings), with Intl.NumberFormat's options
 * ({minimumIntegerDigits: 2} for a clock's seconds, {useGrouping: false} for a rating). */
const formats = new Map();   // one Intl.NumberFormat per language and options: making one is slow

/** Persian's digits, for the counts written without Intl (below). */
const PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹";

export function num(n, options = null) {
  if (typeof n !== "number") return String(n ?? "");
  // A whole count under a thousand is its digits in every language here (the page's own
  // test holds this to Intl for 0..999): a table's first drawing then makes no
  // Intl.NumberFormat, whose first making costs a phone tens of milliseconds.
  if (!options && Number.isInteger(n) && n >= 0 && n < 1000) {
    return current === "fa" ? String(n).replace(/\d/g, (d) => PERSIAN_DIGITS[Number(d)]) : String(n);
  }
  const key = options ? `${current} ${JSON.stringify(options)}` : current;
  try {
    let format = formats.get(key);
    if (!format) {
      formats.set(key, format = new Intl.NumberFormat(current === "fa" ? "fa-IR" : current,
        options || undefined));
    }
    // a real minus sign (U+2212), as Persian's own format writes it, in every language
    return format.format(n).replace(/-/g, "\u2212");
  } catch { return String(n); }
}

/** A share (0..1) as a percentage in the page's language: "34%", "34 %", "۳۴٪". */
export function percent(share) {
  return num(share, { style: "percent", maximumFractionDigits: 0 });
}

/** Words the server wrote in ``lang`` with their numbers as that language writes them:
 * its digits, decimal separator and minus sign ("0.47" -> "0,47" in Portuguese, "-0.3" ->
 * "−۰٫۳" in Persian), so that they match the numbers the page writes itself.  A card's rank
 * ("10♠", "2♣") is a card's name, not a number, and stays as the cards are shown.
 * @param {string} text
 * @param {string} [lang] */
export function localDigits(text, lang = current) {
  const locale = lang === "fa" ? "fa-IR" : lang in LANGUAGES ? lang : "en";
  return String(text ?? "").replace(/(^|[^\w.,])([+\-\u2212]?)(\d+)(?:\.(\d+))?(?![\d♣♦♥♠]|[.,]\d)/g,
    (all, before, sign, whole, fraction) => {
      const places = fraction ? fraction.length : 0;
      const value = Number(`${whole}.${fraction || 0}`) * (sign && sign !== "+" ? -1 : 1);
      try {
        const written = new Intl.NumberFormat(locale, { minimumFractionDigits: places,
          maximumFractionDigits: places, useGrouping: false,
          signDisplay: sign ? "always" : "auto" }).format(value);
        return before + written.replace(/-/g, "\u2212");
      } catch { return all; }
    });
}

/** The first letter in capitals, as a sentence starts ("play 7♣" -> "Play 7♣"). */
export function upperFirst(text) {
  const s = String(text ?? "");
  return s.charAt(0).toLocaleUpperCase(current) + s.slice(1);
}

/** A card ("K♦", "10♠") and a run of them ("A♠ 10♠"), as they appear in words. */
const CARD_RUN = /(?:10|[2-9AJQK])[♣♦♥♠](?:[ \u00a0]+(?:10|[2-9AJQK])[♣♦♥♠])*/g;

/** ``text`` with each card or run of cards set apart from the words' direction (Unicode's
 * left-to-right isolate), so that a right-to-left sentence keeps "K♦ K♥" as it is rather
 * than "♥K♦ K".
 * @param {string} text */
export function isolateCards(text) {
  return String(text).replace(CARD_RUN, (run) => `\u2066${run}\u2069`);
}

/** The string for a key, with {name} placeholders filled (numbers localised; cards set
 * apart from a right-to-left language's direction).  A count message has a form for each
 * of its language's plural categories ({one, few, many, other}: lang/ holds every one the
 * language has); the count is ``n``, written with ``nOptions`` (Intl.NumberFormat's, which
 * choose the form too: "1.0 points" is plural in English).
 * @param {string} key
 * @param {Object<string, any>} [params] */
export function t(key, params = {}) {
  const table = STRINGS[current] || STRINGS.en;
  let text = table[key] ?? STRINGS.en[key] ?? key;
  const nOptions = params.nOptions || null;
  if (typeof text === "object") {
    text = text[pluralForm(Number(params.n ?? 0), nOptions)] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = params[name];
    if (value === undefined || value === null) return "";
    if (typeof value === "number") return num(value, name === "n" ? nOptions : null);
    return LANGUAGES[current]?.dir === "rtl" ? isolateCards(String(value)) : String(value);
  });
}

const pluralRules = new Map();   // one Intl.PluralRules per language and options

/** The plural category of ``n`` in the page's language ("one", "few", "many", "other"). */
export function pluralForm(n, options = null) {
  const key = options ? `${current} ${JSON.stringify(options)}` : current;
  try {
    let rules = pluralRules.get(key);
    if (!rules) {
      const { minimumFractionDigits, maximumFractionDigits } = options || {};
      pluralRules.set(key, rules = new Intl.PluralRules(current,
        { minimumFractionDigits, maximumFractionDigits }));
    }
    return rules.select(Math.abs(n));
  } catch { return "other"; }
}

export function hasKey(key) { return key in STRINGS.en; }

/** Several names as one phrase in the page's language: "a, b and c" (and = conjunction),
 * "a, b or c" (or = disjunction), or "a, b, c" (a plain list). */
export function joinList(items, { and = false, or = false } = {}) {
  const list = items.map(String);
  // A plain list is comma-separated in every language ("unit" lists in Russian have no
  // separator at all: "Вы Место 2 Место 3" read as one name).
  if (!and && !or) return list.join(current === "fa" ? "، " : ", ");
  // one name is itself (as Intl.ListFormat says it), without making a list format
  if (list.length < 2) return list[0] ?? "";
  try {
    return new Intl.ListFormat(current, { style: "long", type: or ? "disjunction" : "conjunction" })
      .format(list);
  } catch {
    return list.join(current === "fa" ? "، " : ", ");
  }
}

/** The spoken name of a card given its rank (1..13) and suit letter (C D H S). */
export function cardName(rank, suit) {
  const ranks = RANKS[current] || RANKS.en;
  const suits = SUITS[current] || SUITS.en;
  const rankWord = ranks[rank] ?? num(rank);
  switch (current) {
    case "pt": return `${rankWord} de ${suits[suit]}`;
    case "fa": return `${rankWord} ${suits[suit]}`;
    case "ru": return `${rankWord} ${suits[suit]}`;
    default: return `${rankWord} of ${suits[suit]}`;
  }
}

/** The name of a suit on its own ("trump: hearts"). */
export function suitName(suit) {
  return (SUIT_NOUNS[current] || SUIT_NOUNS.en)[suit] ?? suit;
}

/** Every key of every language here (English, and those loaded), for tests and translators. */
export const ALL_STRINGS = STRINGS;
