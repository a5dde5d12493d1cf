// What the page's pure modules read of a browser when they load, for node --test: no page
// (frame.js draws its words into nothing), English first, nothing remembered.
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
