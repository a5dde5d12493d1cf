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
