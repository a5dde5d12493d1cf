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
// it opens its page, in a window of the site already open if there is one.
self.addEventListener("push", (event) => {
  let shown = { title: "cardtable", body: "", url: "/#inbox" };
  try { shown = { ...shown, ...event.data.json() }; } catch { /* an empty or odd push */ }
  const url = typeof shown.url === "string" && shown.url.startsWith("/") ? shown.url : "/#inbox";
  event.waitUntil(self.registration.showNotification(String(shown.title), {
    body: String(shown.body), data: { url }, tag: String(shown.kind || "notice"),
    icon: "/favicon.svg" }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/#inbox", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then((open) => {
      const mine = open.find((client) => new URL(client.url).origin === self.location.origin);
      if (mine) return mine.focus().then(() => mine.navigate(url));
      return self.clients.openWindow(url);
    }));
});
