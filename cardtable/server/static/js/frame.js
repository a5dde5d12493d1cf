// @ts-check
// The page's frame before the page: index.html holds the header and its navigation as
// HTML, so that a slow network shows them at once, and this module (asked for first, with
// its words only) puts them in the reader's language and direction.  The rest of the page
// (app.js and the modules it imports, about fifty files) draws the header again when it
// has arrived.  The page's languages and how one is chosen live here, for i18n.js.

import WORDS from "./lang/frame.js";

export const LANGUAGES = {
  en: { name: "English", dir: "ltr" },
  pt: { name: "Português", dir: "ltr" },
  fa: { name: "فارسی", dir: "rtl" },
  ru: { name: "Русский", dir: "ltr" },
};

export const STORE_KEY = "cardtable.lang";

/** The first of the browser's languages that we speak, else English. */
export function detectLanguage(languages = navigator.languages || [navigator.language]) {
  for (const tag of languages || []) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

/** The remembered choice, else the browser's. */
export function initialLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(STORE_KEY); } catch { /* private mode */ }
  return saved && saved in LANGUAGES ? saved : detectLanguage();
}

/** Where the words of ``lang`` are: the bundle the page names (the server's hashed file,
 * <meta name="cardtable-words" data-lang>), else the module itself.  English has none: it
 * is part of the page's first script (i18n.js).
 * @param {string} lang */
export function wordsUrl(lang) {
  const named = /** @type {HTMLMetaElement | null} */ (
    document.querySelector(`meta[name="cardtable-words"][data-lang="${lang}"]`));
  return named?.content || `/js/lang/all/${lang}.js`;
}

/** Start the download of ``lang``'s words, beside the page's script's (which waits for them
 * before it draws): a Persian reader's words arrive in the same round trip as the script. */
function fetchWords(lang) {
  if (lang === "en" || !document.head || !document.createElement) return;
  // a first visit's page may hold them already (the server read the browser's languages)
  if (document.querySelector(`script[data-words="${lang}"]`)) return;
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = wordsUrl(lang);
  document.head.append(link);
}

/** The frame's words ([data-word] in index.html) in `lang`, and the page's direction. */
export function drawFrame(lang = initialLanguage()) {
  const root = document.documentElement;
  root.lang = lang;
  root.dir = LANGUAGES[lang].dir;
  // the app's name and description, when installed, in the reader's language
  document.querySelector('link[rel="manifest"]')?.setAttribute("href",
    `/manifest.webmanifest?lang=${lang}`);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-word]"))) {
    const text = WORDS[lang]?.[el.dataset.word] ?? WORDS.en[el.dataset.word];
    if (!text) continue;
    if (el.dataset.wordIn === "label") el.setAttribute("aria-label", text);
    else el.textContent = text;
  }
}

const reader = initialLanguage();
fetchWords(reader);
drawFrame(reader);
