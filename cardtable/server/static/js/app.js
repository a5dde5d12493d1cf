// @ts-check
// The page's entry: the header (navigation, language), and which screen to show:
//   /                the lobby          /#history        finished games
//   /table/ID        a live table       /#replay/ID      one game's replay
//   /#/learn[/GAME[/STEP]]              the lessons, on the live table's drawing (lesson.js)
//   /#/puzzle[/GAME[/N]]                a puzzle, on the live table's drawing (puzzle.js)
//   /#/analyse/ID[/MOVE]                a finished game's analysis board (analysis.js)
//   /#tournaments[/ID]                  tournaments, one tournament's standings (tournaments.js)
//   /#inbox          challenges, friends, notices, games waiting for your move (social.js)
//   /#challenge/ID   one challenge (an open challenge's link)
//   /#unsubscribe=T  the daily digest's link: stop its mails, once confirmed

import { LANGUAGES, initialLanguage, setLanguage, language, t, onLanguageChange } from "./i18n.js";
import { installCardDefs } from "./cards.js";
import { setNavigator } from "./router.js";
import { h, clear } from "./dom.js";
import { Lobby } from "./lobby.js";
import { TableView } from "./table.js";
import { ProfilePage, LeaderboardPage, accountBadge, getMe } from "./players.js";
import { TournamentsPage, TournamentPage } from "./tournaments.js";
import { InboxPage, ChallengePage, UnsubscribePage, inboxLink, setWhoAmI } from "./social.js";

const main = document.getElementById("main");
let screen = null;
let routed = 0;

/** @typedef {typeof import("./later.js")} Later */
/** @type {Promise<Later> | null} */
let laterScreens = null;

/** The screens of later.js (history, replay, analysis, lessons, puzzles, the account's
 * pages): fetched the first time one is opened, not with the lobby's and the table's
 * script.  The server names their bundle in the page (<meta name="cardtable-later">);
 * served unbundled, the page imports the module itself. */
function later() {
  if (!laterScreens) {
    const meta = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="cardtable-later"]'));
    laterScreens = import(meta?.content ?? "/js/later.js")
      .then((own) => /** @type {any} */ (globalThis).cardtableModules?.get("/js/later.js") ?? own);
    laterScreens.catch(() => { laterScreens = null; });   // asked again next time
  }
  return laterScreens;
}

/** Show the screen ``make`` draws from later.js, once it has arrived (unless the reader
 * has gone elsewhere meanwhile). */
function openLater(make) {
  const turn = routed;
  main.append(h("p", { class: "loading muted" }, t("frame.loading")));
  later().then((screens) => {
    if (turn !== routed) return;
    clear(main);
    screen = make(screens);
    /** @type {any} */ (window).cardtableScreen = screen;
  }, () => {
    if (turn !== routed) return;
    clear(main).append(h("p", { role: "alert" }, t("net.screenFailed")),
      h("button", { type: "button", onclick: route }, t("net.tryAgain")));
  });
  return null;
}

function route() {
  const path = location.pathname;
  const hash = location.hash.replace(/^#\/?/, "");
  if (screen) { screen.destroy(); screen = null; }
  routed += 1;
  clear(main);
  const table = /^\/table\/([^/]+)\/?$/.exec(path);
  let name;
  if (table) {
    name = "table";
    screen = new TableView(main, decodeURIComponent(table[1]));
  } else if (hash.startsWith("replay/")) {
    name = "replay";
    const id = decodeURIComponent(hash.slice("replay/".length));
    screen = openLater((later) => new later.Replay(main, id));
  } else if (hash === "learn" || hash.startsWith("learn/")) {
    name = "learn";
    screen = openLater((later) => later.learnScreen(main, hash.slice("learn".length)));
  } else if (hash === "puzzle" || hash.startsWith("puzzle/")) {
    name = "puzzle";
    screen = openLater((later) => later.puzzleScreen(main, hash.slice("puzzle".length)));
  } else if (hash.startsWith("analyse/")) {
    name = "analysis";
    screen = openLater((later) => later.analysisScreen(main, hash.slice("analyse/".length)));
  } else if (hash === "tournaments" || hash.startsWith("tournaments/")) {
    name = "tournaments";
    const id = hash.slice("tournaments/".length);
    screen = hash === "tournaments" ? new TournamentsPage(main) : new TournamentPage(main, decodeURIComponent(id));
  } else if (hash === "inbox") {
    name = "inbox";
    screen = new InboxPage(main);
  } else if (hash.startsWith("challenge/")) {
    name = "challenge";
    screen = new ChallengePage(main, decodeURIComponent(hash.slice("challenge/".length)));
  } else if (hash === "unsubscribe" || hash.startsWith("unsubscribe=")) {
    name = "unsubscribe";
    screen = new UnsubscribePage(main, decodeURIComponent(hash.slice("unsubscribe=".length)));
  } else if (hash === "history") {
    name = "history";
    screen = openLater((later) => new later.History(main));
  } else if (hash === "account/control") {
    name = "control";
    screen = openLater((later) => new later.AccountControlPage(main));
  } else if (hash === "admin") {
    name = "admin";
    screen = openLater((later) => new later.AdminPage(main));
  } else if (hash === "reset" || hash.startsWith("reset=")) {
    name = "reset";
    screen = openLater((later) => new later.ResetPage(main, hash.slice("reset=".length)));
  } else if (hash === "account" || hash.startsWith("players/") || hash.startsWith("leaderboard")) {
    name = hash === "account" ? "account" : hash.startsWith("players/") ? "profile" : "leaderboard";
    screen = name === "account" ? openLater((later) => new later.AccountScreen(main))
      : name === "profile" ? new ProfilePage(main, decodeURIComponent(hash.slice("players/".length)))
        : new LeaderboardPage(main, decodeURIComponent(hash.slice("leaderboard/".length)));
  } else {
    name = "lobby";
    screen = new Lobby(main);
  }
  document.body.dataset.screen = name;
  /** @type {any} */ (window).cardtableScreen = screen; // for people (and tests) poking at the page in devtools
  markNav(name);
  setTitle(name);
}

function markNav(name) {
  for (const link of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("nav a[data-nav]"))) {
    const on = link.dataset.nav === name || (name === "puzzle" && link.dataset.nav === "learn")
      || ((name === "replay" || name === "analysis") && link.dataset.nav === "history");
    if (on) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
}

function setTitle(name) {
  const key = { lobby: "nav.lobby", account: "account.title", profile: "profile.title",
    leaderboard: "nav.leaderboard", learn: "nav.learn", puzzle: "puzzle.title",
    control: "control.title", reset: "reset.title", admin: "admin.title",
    analysis: "analysis.title", tournaments: "nav.tournaments", inbox: "social.title",
    challenge: "social.challenge", unsubscribe: "social.unsubscribeTitle" }[name] ?? "nav.history";
  if (name !== "table" && name !== "puzzle") document.title = `${t(key)} · cardtable`;
}

function navigate(path) {
  const url = new URL(path, location.origin);
  if (url.pathname + url.hash === location.pathname + location.hash) { route(); return; }
  history.pushState(null, "", url.pathname + url.search + url.hash);
  route();
  main.focus({ preventScroll: true });
}

function header() {
  const select = h("select", { id: "language", "aria-label": t("nav.language"),
    onchange: (e) => setLanguage(e.target.value) },
  Object.entries(LANGUAGES).map(([code, info]) =>
    h("option", { value: code, lang: code, selected: code === language() }, info.name)));
  const link = (href, key, nav) => h("a", { href, dataset: { nav },
    onclick: (e) => { e.preventDefault(); navigate(href); } }, t(key));
  const bar = document.getElementById("header");
  clear(bar).append(
    h("a", { class: "skip", href: "#main",
      onclick: (e) => { e.preventDefault(); main.focus(); } }, t("nav.skip")),
    h("a", { class: "brand", href: "/", onclick: (e) => { e.preventDefault(); navigate("/"); } },
      h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠♥"), t("app.title")),
    h("span", { class: "tagline" }, t("app.tagline")),
    h("nav", { "aria-label": t("nav.main") }, link("/", "nav.lobby", "lobby"),
      link("/#history", "nav.history", "history"),
      link("/#leaderboard", "nav.leaderboard", "leaderboard"),
      // lessons (#/learn), puzzles (#/puzzle) and analysis (#/analyse) on the table
      link("/#/learn", "nav.learn", "learn")),
    inboxLink(),
    accountBadge(),
    h("label", { class: "lang" }, h("span", { class: "sr-only" }, t("nav.language")), select));
}

/** Say it in words while the device has no network (the table's socket comes back by
 * itself when it does; a move made meanwhile is refused, not kept). */
function linkBanner() {
  let banner = document.getElementById("offline");
  if (navigator.onLine) { banner?.remove(); return; }
  if (!banner) {
    banner = h("p", { id: "offline", class: "offline-banner", role: "status" });
    document.getElementById("header").after(banner);
  }
  banner.textContent = t("net.offline");
}

/** The page kept on the device (sw.js), so it opens, and says so, without a network. */
function keepOffline() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => { /* not kept: still works */ });
  rememberScript();
}

/** A first visit's page carries its script inside (one round trip on a slow link, not
 * two: web/assets.py).  Once the service worker keeps that script on the device, a cookie
 * says so, and the next visit gets the short page that names the script. */
async function rememberScript(tries = 20) {
  const name = /** @type {HTMLElement | null} */ (document.querySelector("script[data-script]"))
    ?.dataset.script;
  if (!name || !("caches" in window)) return;
  try {
    await navigator.serviceWorker.ready;
    for (let i = 0; i < tries; i += 1) {
      if (await caches.match(`/assets/${name}`)) {
        const secure = location.protocol === "https:" ? "; secure" : "";
        document.cookie = `cardtable_assets=${name}; max-age=31536000; path=/; samesite=lax${secure}`;
        return;
      }
      await new Promise((done) => { setTimeout(done, 3000); });
    }
  } catch { /* not kept: the next visit gets the script inside again */ }
}

// The reader's words: here already in English, else on their way (frame.js asked for them
// with the page); the screen is drawn once they are here.
const speaking = setLanguage(initialLanguage(), { remember: false });
installCardDefs();
setNavigator(navigate);
setWhoAmI(getMe);
window.addEventListener("popstate", route);
window.addEventListener("hashchange", () => {
  // Only the hashes that name a screen change the screen.
  if (/^#\/?(inbox|challenge\/.+|history|replay\/.+|account(\/control)?|admin|reset(=.+)?|leaderboard(\/.*)?|players\/.+|tournaments(\/.+)?|learn(\/.*)?|puzzle(\/.*)?|analyse\/.+)?$/.test(location.hash)
      || location.hash === "") route();
});
// The screen, then the header, each in a task of its own after the modules' own: the
// frame already shows the header in the reader's words (frame.js), and one long task of
// all three kept a phone from answering a tap for a quarter of a second (Lighthouse's
// blocking time on a table).
speaking.finally(() => setTimeout(() => { route(); setTimeout(drawHeader, 0); }, 0));

function drawHeader() {
  header();
  markNav(document.body.dataset.screen);
  onLanguageChange(() => {
    const chooserHadFocus = document.activeElement?.id === "language";
    header();
    if (chooserHadFocus) document.getElementById("language").focus();
    // The table redraws itself; the other screens draw themselves again, keeping their state.
    if (screen && !(screen instanceof TableView)) screen.render();
    markNav(document.body.dataset.screen);
    setTitle(document.body.dataset.screen);
    linkBanner();
  });
  window.addEventListener("offline", linkBanner);
  window.addEventListener("online", linkBanner);
  linkBanner();
  if (document.readyState === "complete") keepOffline();
  else window.addEventListener("load", keepOffline);
}
