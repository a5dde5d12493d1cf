// What the page's pure modules read of a browser when they load, for node --test: no page
// (frame.js draws its words into nothing), English first, nothing remembered; and every
// language's words.
const stored = new Map();
globalThis.document ??= /** @type {any} */ ({ documentElement: {}, querySelectorAll: () => [],
  querySelector: () => null,
  getElementById: () => null });
if (!globalThis.navigator) {
  Object.defineProperty(globalThis, "navigator", { value: { languages: ["en-GB"], language: "en-GB" } });
}
globalThis.localStorage ??= /** @type {any} */ ({
  getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => stored.set(key, String(value)),
  removeItem: (key) => stored.delete(key) });

// Every language's words at hand, as a browser has them once fetched (i18n.loadLanguage): the
// tests switch languages and read the words at once.
const i18n = await import("../../cardtable/server/static/js/i18n.js");
for (const lang of ["pt", "fa", "ru"]) {
  i18n.addWords(lang, (await import(`../../cardtable/server/static/js/lang/all/${lang}.js`)).default);
}
