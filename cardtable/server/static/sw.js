// The page's service worker: the page and its files kept on the device, so that it opens
// without the network and says so.  The server writes the two lines below (web/assets.py):
// the page's version and its files, all named by their content.  The page is asked of the
// network first (a new version shows at once); without a network the kept one is shown.
// Files under /assets/ never change, so a kept one is used as it is.  Nothing else (the
// API, the table's socket) passes through here: a move is never kept to be sent later.

const VERSION = "unbundled";
const SHELL = ["/"];
const CACHE = `cardtable-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("cardtable-") && name !== CACHE)
    .map((name) => caches.delete(name)))));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  } else if (request.mode === "navigate"
             && (url.pathname === "/" || url.pathname.startsWith("/table/"))) {
    event.respondWith(fetch(request).catch(() => caches.match("/", { ignoreSearch: true })
      .then((kept) => kept || Response.error())));
  }
});

// Web Push (people/push.py): a notice the player routed to "push" is shown, and a tap on
// it opens its page, in a window of the site already open if there is one.  The server's
// words are English; the page gives this worker its own words for each kind (social.js's
// pushWords, kept in a cache of their own that a new version of the page leaves alone),
// and a push is shown in them, filled with the notice's data.
const WORDS_CACHE = "cardtable.push-words";
const WORDS_KEY = "/push-words";   // a name in that cache, never asked of the server

self.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || message.type !== "push-words" || typeof message.words !== "object") return;
  event.waitUntil(caches.open(WORDS_CACHE).then((cache) => cache.put(WORDS_KEY,
    new Response(JSON.stringify(message.words), { headers: { "Content-Type": "application/json" } }))));
});

function pushWords() {
  return caches.open(WORDS_CACHE).then((cache) => cache.match(WORDS_KEY))
    .then((kept) => (kept ? kept.json() : null)).catch(() => null);
}

/** A path on this site, else the inbox (never another site's //host). */
function pushUrl(url) {
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/#inbox";
}

/** The push in the page's words, or null (no words kept, or none for its kind). */
function pushText(shown, words) {
  const data = shown.data && typeof shown.data === "object" ? shown.data : null;
  if (!words || !words.kinds || !data) return null;
  const key = shown.kind === "challenge_answer" && data.status === "accepted"
    ? "challenge_answer.accepted" : shown.kind;
  const text = words.kinds[key];
  if (typeof text !== "string") return null;
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = typeof data[name] === "string" ? data[name] : "";
    return name === "game" ? (words.games || {})[value] || value : value;
  });
}

self.addEventListener("push", (event) => {
  let shown = { title: "cardtable", body: "", url: "/#inbox" };
  try { shown = { ...shown, ...event.data.json() }; } catch { /* an empty or odd push */ }
  event.waitUntil(pushWords().then((words) => self.registration.showNotification(
    String(shown.title), {
      body: pushText(shown, words) ?? String(shown.body),
      lang: words?.lang || "en", dir: words?.dir === "rtl" ? "rtl" : "ltr",
      data: { url: pushUrl(shown.url) }, tag: String(shown.kind || "notice"),
      icon: "/favicon.svg" })));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(pushUrl(event.notification.data?.url), self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then((open) => {
      const mine = open.find((client) => new URL(client.url).origin === self.location.origin);
      if (!mine) return self.clients.openWindow(url);
      // a window the worker does not control cannot be navigated from here: a new one
      return mine.focus().then(() => mine.navigate(url)).catch(() => self.clients.openWindow(url));
    }));
});
