// @ts-check
// Players among themselves: the inbox (/#inbox: the games waiting for your move, your
// challenges in and out, a form to challenge a player, the players you follow, the
// notices and who may challenge you), an open challenge's page (/#challenge/ID), and the
// notices shown at once on any page: the page keeps one question to /api/inbox open (the
// server holds it until a notice comes, at most 25 s), and a new challenge appears as a
// panel with Accept and Decline wherever the player is.

import { api, getGames } from "./api.js";
import { h, clear, toast, announce } from "./dom.js";
import { t, language } from "./i18n.js";
import { navigate } from "./router.js";
import { gameTitle } from "./names.js";

/** Who is asking (players.js's getMe, given by app.js: players.js draws this module's
 * buttons on a profile, so this module does not import it). */
let whoAmI = async () => null;
export function setWhoAmI(fn) { whoAmI = fn; }

const WAIT_S = 25;
const AFTER_ERROR_MS = 30000;
export const DAYS = [1, 2, 3, 5, 7, 14];

/** "3 days a move" in the page's language (one key per offered count: every language
 * says each of them right). */
export function daysText(days) { return t(`social.days.${days}`); }

function clockWords(clock) {
  if (!clock) return t("lobby.clockNone");
  if (clock.days) return daysText(clock.days);
  return t("lobby.clockPreset", { move: clock.move, bank: Math.round(clock.bank / 60) });
}

// -- the notices, on any page ------------------------------------------------------------------
let last = 0;
let unread = 0;
let started = false;
let badge = null;
let prefill = "";
const badgeListeners = new Set();

/** The header's link to the inbox, with the unread count (drawn again on a language change). */
export function inboxLink() {
  badge = h("a", { id: "inbox-link", class: "inbox-link", href: "/#inbox",
    onclick: (e) => { e.preventDefault(); navigate("/#inbox"); } });
  fillBadge();
  watchNotices();
  return badge;
}

function fillBadge() {
  if (!badge) return;
  clear(badge).append(t("social.inbox"));
  if (unread) badge.append(" ", h("span", { class: "unread", "aria-label": t("social.unread", { n: unread }) }, String(unread)));
  for (const fn of badgeListeners) fn();
}

/** Ask the server for new notices for ever, one question at a time. */
async function watchNotices() {
  if (started) return;
  started = true;
  let first = true;
  for (;;) {
    try {
      const box = await api(`/api/inbox?after=${last}&wait=${first ? 0 : WAIT_S}`);
      unread = box.unread;
      const fresh = box.notices.filter((n) => n.id > last);
      if (fresh.length) last = Math.max(...fresh.map((n) => n.id));
      if (!first) for (const notice of fresh.slice().reverse()) showNotice(notice);
      first = false;
      fillBadge();
    } catch {
      await new Promise((done) => setTimeout(done, AFTER_ERROR_MS));
    }
  }
}

/** A notice as a sentence (and where it leads). */
export function noticeText(notice) {
  const d = notice.data || {};
  switch (notice.kind) {
    case "challenge": return t("social.notice.challenge", { from: d.from, game: gameTitle(d.game) });
    case "challenge_answer":
      return t(d.status === "accepted" ? "social.notice.accepted" : "social.notice.declined",
        { by: d.by || "" });
    case "your_move": return t("social.notice.yourMove", { game: gameTitle(d.game) });
    case "friend_game": return t("social.notice.friendGame", { name: d.name || "" });
    case "tournament": return t("social.notice.tournament", { name: d.name || "" });
    case "invite": return t("social.notice.invite", { from: d.from || "", game: gameTitle(d.game) });
    default: return notice.kind;
  }
}

function noticeUrl(notice) {
  const d = notice.data || {};
  if (notice.kind === "challenge") return `/#challenge/${encodeURIComponent(d.challenge)}`;
  // a tournament's notice leads to its table (paired) or to its standings (the page's route)
  if (notice.kind === "tournament" && !d.table && d.tournament) {
    return `/#tournaments/${encodeURIComponent(d.tournament)}`;
  }
  if (d.url && d.url.startsWith("/table/")) return d.url;
  if (d.table) return `/table/${encodeURIComponent(d.table)}`;
  if (d.tournament) return `/#tournaments/${encodeURIComponent(d.tournament)}`;
  return "/#inbox";
}

/** A notice that came while the page is open: a challenge waits for an answer in a panel
 * of its own; the others are a short message with a link. */
function showNotice(notice) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const text = noticeText(notice);
  announce(text);
  const panel = h("div", { class: "toast notice", role: "status", dataset: { kind: notice.kind } });
  const close = () => panel.remove();
  const go = h("button", { type: "button", class: "go", onclick: () => { close(); navigate(noticeUrl(notice)); } },
    notice.kind === "challenge" ? t("social.view") : t("social.open"));
  const buttons = [go];
  if (notice.kind === "challenge") {
    const id = notice.data.challenge;
    buttons.unshift(h("button", { type: "button", class: "primary accept", onclick: async () => {
      close();
      await acceptChallenge(id);
    } }, t("social.accept")), h("button", { type: "button", class: "decline", onclick: async () => {
      close();
      try { await api(`/api/challenges/${encodeURIComponent(id)}/decline`, { method: "POST" }); }
      catch (error) { toast(error.message, "error"); }
    } }, t("social.decline")));
  }
  panel.append(h("p", {}, text), h("div", { class: "actions" }, buttons,
    h("button", { type: "button", class: "dismiss", "aria-label": t("social.dismiss"), onclick: close }, "×")));
  box.append(panel);
  if (notice.kind !== "challenge") setTimeout(close, 15000);
}

export async function acceptChallenge(id) {
  try {
    const answer = await api(`/api/challenges/${encodeURIComponent(id)}/accept`, { method: "POST" });
    toast(t("social.accepted"));
    navigate(answer.url);
  } catch (error) { toast(error.message, "error"); }
}

// -- the inbox ----------------------------------------------------------------------------------
export class InboxPage {
  constructor(root) {
    this.root = root;
    this.data = null;
    this.form = { to: prefill, game: "", clock: "none", rated: false };
    prefill = "";
    this.off = () => {};
    this.render();
    this.load();
    const redraw = () => { if (!this.destroyed) this.load(); };
    badgeListeners.add(redraw);
    this.off = () => badgeListeners.delete(redraw);
  }
  destroy() { this.destroyed = true; this.off(); }

  async load() {
    const me = await whoAmI();
    this.account = !!me && me.kind !== "guest";
    const ask = (path) => api(path).catch(() => null);
    const [inbox, yours, challenges, friends, settings, mine, push] = await Promise.all([
      ask("/api/inbox?limit=50"), ask("/api/your-move"),
      this.account ? ask("/api/challenges") : null, this.account ? ask("/api/friends") : null,
      this.account ? ask("/api/social/settings") : null, ask("/api/me"),
      this.account && pushable() ? ask("/api/push/key") : null]);
    this.pushKey = push?.key || null;
    if (this.pushKey && Notification.permission === "granted"
        && Object.values(settings?.routes || {}).some((ways) => ways.includes("push"))) {
      pushWords().catch(() => null);   // the page's language may have changed since
    }
    // a table of mine waiting for players: the one a friend may be invited to
    this.waiting = (mine?.seats || []).find((s) => s.status === "waiting") || null;
    this.data = { inbox, yours, challenges, friends, settings };
    if (!this.destroyed) this.render();
  }

  render() {
    const root = clear(this.root);
    const page = h("div", { class: "inbox-page" }, h("h1", { id: "inbox-title" }, t("social.title")));
    root.append(page);
    const d = this.data;
    if (!d) { page.append(h("p", { class: "muted" }, t("lobby.loading"))); return; }
    page.append(this.yourMove(d.yours || []));
    if (this.account) {
      page.append(this.challenges(d.challenges || []), this.challengeForm(), this.friends(d.friends || []));
    } else {
      page.append(h("p", { class: "muted sign-in-note" }, t("social.signIn")));
    }
    page.append(this.notices(d.inbox));
    if (this.account && d.settings) page.append(this.settings(d.settings));
  }

  section(id, title, ...children) {
    return h("section", { class: "panel", id, "aria-labelledby": `${id}-title` },
      h("h2", { id: `${id}-title` }, title), ...children);
  }

  yourMove(games) {
    return this.section("your-move", t("social.yourMove"), games.length
      ? h("ul", { class: "your-move-list" }, games.map((g) => h("li", {},
        h("a", { href: g.url, onclick: (e) => { e.preventDefault(); navigate(g.url); } },
          gameTitle(g.game)), g.clock ? ` · ${clockWords(g.clock)}` : "")))
      : h("p", { class: "muted" }, t("social.noYourMove")));
  }

  challenges(list) {
    const items = list.filter((c) => c.status === "open").map((c) => {
      const title = c.direction === "in" ? t("social.challengeFrom", { name: c.from, game: gameTitle(c.game) })
        : c.to ? t("social.challengeTo", { name: c.to, game: gameTitle(c.game) })
          : t("social.challengeOpen", { game: gameTitle(c.game) });
      const act = (action) => async () => {
        try { await api(`/api/challenges/${encodeURIComponent(c.id)}/${action}`, { method: "POST" }); }
        catch (error) { toast(error.message, "error"); }
        this.load();
      };
      const buttons = c.direction === "in"
        ? [h("button", { type: "button", class: "primary accept", onclick: () => acceptChallenge(c.id) }, t("social.accept")),
          h("button", { type: "button", class: "decline", onclick: act("decline") }, t("social.decline"))]
        : [h("button", { type: "button", class: "cancel", onclick: act("cancel") }, t("social.cancel"))];
      const link = !c.to && c.direction === "out"
        ? h("p", { class: "share" }, t("social.share"), " ", h("code", {}, `${location.origin}/#challenge/${c.id}`)) : null;
      return h("li", { class: "challenge", dataset: { challenge: c.id, direction: c.direction } },
        h("span", {}, title, ` · ${clockWords(c.clock)}`, c.rated ? ` · ${t("social.rated")}` : ""),
        h("span", { class: "actions" }, buttons), link);
    });
    return this.section("challenges", t("social.challenges"), items.length
      ? h("ul", { class: "challenge-list" }, items) : h("p", { class: "muted" }, t("social.noChallenges")));
  }

  challengeForm() {
    const f = this.form;
    const games = /** @type {any[]} */ (JSON.parse(document.getElementById("games-data")?.textContent || "[]"));
    if (!f.game && games.length) f.game = games[games.length - 1].name;
    const submit = async (e) => {
      e.preventDefault();
      const body = { game: f.game, rated: f.rated };
      if (f.to.trim()) body.to = f.to.trim();
      if (f.clock !== "none") body.clock = { days: Number(f.clock) };
      try {
        await api("/api/challenges", { method: "POST", body });
        toast(t("social.sent"));
        f.to = "";
        this.load();
      } catch (error) { toast(error.message, "error"); }
    };
    return this.section("challenge-new", t("social.newChallenge"), h("form", { class: "challenge-form", onsubmit: submit },
      h("div", { class: "form-row" }, h("label", { for: "challenge-to" }, t("social.to")),
        h("input", { id: "challenge-to", name: "to", value: f.to, maxlength: "40", autocomplete: "off",
          oninput: (e) => { f.to = e.target.value; } })),
      h("div", { class: "form-row" }, h("label", { for: "challenge-game" }, t("social.game")),
        h("select", { id: "challenge-game", onchange: (e) => { f.game = e.target.value; } },
          games.map((g) => h("option", { value: g.name, selected: g.name === f.game }, gameTitle(g.name))))),
      h("div", { class: "form-row" }, h("label", { for: "challenge-clock" }, t("lobby.clock")),
        h("select", { id: "challenge-clock", onchange: (e) => { f.clock = e.target.value; } },
          h("option", { value: "none", selected: f.clock === "none" }, t("lobby.clockNone")),
          DAYS.map((n) => h("option", { value: String(n), selected: f.clock === String(n) }, daysText(n))))),
      h("div", { class: "form-row" }, h("label", {}, h("input", { type: "checkbox", id: "challenge-rated",
        checked: f.rated, onchange: (e) => { f.rated = e.target.checked; } }), " ", t("social.rated"))),
      h("button", { type: "submit", class: "primary", id: "challenge-send" }, t("social.send"))));
  }

  friends(list) {
    return this.section("friends", t("social.friends"), list.length
      ? h("ul", { class: "friend-list" }, list.map((f) => h("li", { dataset: { friend: f.username || f.name } },
        h("a", { href: `/#players/${encodeURIComponent(f.username || f.name)}` }, h("bdi", {}, f.name)), " · ",
        f.playing ? t("social.playing") : f.online ? t("social.online") : t("social.away"),
        f.watch ? [" ", h("a", { class: "watch", href: f.watch, onclick: (e) => { e.preventDefault(); navigate(f.watch); } },
          t("social.watch"))] : null,
        this.waiting && f.username ? [" ", h("button", { type: "button", class: "invite", onclick: async () => {
          try {
            await api(`/api/players/${encodeURIComponent(f.username)}/invite`, { method: "POST",
              body: { table: this.waiting.table } });
            toast(t("social.invited"));
          } catch (error) { toast(error.message, "error"); }
        } }, t("social.invite"))] : null)))
      : h("p", { class: "muted" }, t("social.noFriends")));
  }

  notices(box) {
    const list = box?.notices || [];
    const read = async () => {
      await api("/api/inbox/read", { method: "POST" }).catch(() => null);
      unread = 0; fillBadge(); this.load();
    };
    return this.section("notices", t("social.notices"),
      list.length ? h("ul", { class: "notice-list" }, list.map((n) => h("li", { class: n.read ? "read" : "unread" },
        h("a", { href: noticeUrl(n), onclick: (e) => { e.preventDefault(); navigate(noticeUrl(n)); } }, noticeText(n)))))
        : h("p", { class: "muted" }, t("social.noNotices")),
      list.some((n) => !n.read) ? h("button", { type: "button", id: "mark-read", onclick: read }, t("social.markRead")) : null);
  }

  settings(settings) {
    const choose = async (e) => {
      try {
        await api("/api/social/settings", { method: "POST", body: { challenges: e.target.value } });
        toast(t("social.saved"));
      } catch (error) { toast(error.message, "error"); }
    };
    const routed = (way) => Object.values(settings.routes || {}).some((ways) => ways.includes(way));
    const mailed = routed("email");
    // every kind goes to the inbox, and to e-mail and to this browser as the boxes say
    const route = async () => {
      const ways = ["inbox", ...(this.root.querySelector("#digest")?.checked ? ["email"] : []),
        ...(this.root.querySelector("#push")?.checked ? ["push"] : [])];
      const routes = Object.fromEntries(Object.keys(settings.routes || {}).map((kind) => [kind, ways]));
      const saved = await api("/api/social/settings", { method: "POST", body: { routes } });
      settings.routes = saved.routes;
    };
    const digest = async () => {
      try { await route(); toast(t("social.saved")); } catch (error) { toast(error.message, "error"); }
    };
    const push = async (e) => {
      const box = e.target;
      try {
        await (box.checked ? subscribePush(this.pushKey) : unsubscribePush());
        await route();
        if (box.checked) await pushWords();
        toast(t("social.saved"));
      } catch (error) {
        box.checked = !box.checked;
        toast(error.message || t("social.pushRefused"), "error");
      }
    };
    return this.section("who-challenges", t("social.settings"),
      h("div", { class: "form-row" }, h("label", { for: "who-may" }, t("social.whoMay")),
        h("select", { id: "who-may", onchange: choose }, ["everyone", "followed", "nobody"].map((who) =>
          h("option", { value: who, selected: settings.challenges === who }, t(`social.who.${who}`))))),
      h("div", { class: "form-row" }, h("label", {}, h("input", { type: "checkbox", id: "digest",
        checked: mailed, onchange: digest }), " ", t("social.digest"))),
      this.pushKey ? h("div", { class: "form-row" }, h("label", {}, h("input", { type: "checkbox", id: "push",
        checked: routed("push"), onchange: push }), " ", t("social.push"))) : null);
  }
}

// -- Web Push ------------------------------------------------------------------------------------
/** Whether this browser can take pushes (a service worker and the Push API). */
function pushable() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The server's key (base64url) as the bytes PushManager.subscribe takes. */
function keyBytes(key) {
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - key.length % 4) % 4));
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

/** Ask the player's leave, subscribe this browser, and give the server its subscription. */
async function subscribePush(key) {
  if (await Notification.requestPermission() !== "granted") throw new Error(t("social.pushRefused"));
  const worker = await navigator.serviceWorker.ready;
  const bytes = keyBytes(key);
  let subscription = await worker.pushManager.getSubscription();
  const made = subscription?.options?.applicationServerKey;
  if (subscription && made && !sameBytes(new Uint8Array(made), bytes)) {
    await subscription.unsubscribe();   // made with the server's old key: no push reaches it
    subscription = null;
  }
  subscription ||= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
  await api("/api/push/subscriptions", { method: "POST", body: subscription.toJSON() });
}

function sameBytes(a, b) {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The words of each kind of notice in the page's language, given to the service worker
 * (sw.js), which shows a push in them: a worker cannot read the page's language files. */
async function pushWords() {
  const worker = (await navigator.serviceWorker.ready).active;
  if (!worker) return;
  const holes = { from: "{from}", game: "{game}", by: "{by}", name: "{name}" };
  const games = await getGames().catch(() => []);
  worker.postMessage({ type: "push-words", words: {
    lang: language(), dir: document.documentElement.dir === "rtl" ? "rtl" : "ltr",
    games: Object.fromEntries((games || []).map((g) => [g.name, gameTitle(g.name)])),
    kinds: {
      challenge: t("social.notice.challenge", holes),
      "challenge_answer.accepted": t("social.notice.accepted", holes),
      challenge_answer: t("social.notice.declined", holes),
      your_move: t("social.notice.yourMove", holes),
      friend_game: t("social.notice.friendGame", holes),
      tournament: t("social.notice.tournament", holes),
      invite: t("social.notice.invite", holes),
    } } });
}

/** Tell the server to forget this browser, and end its subscription. */
async function unsubscribePush() {
  const worker = await navigator.serviceWorker.ready;
  const subscription = await worker.pushManager.getSubscription();
  if (!subscription) return;
  await api("/api/push/subscriptions", { method: "DELETE", body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}

// -- in the lobby ---------------------------------------------------------------------------------
/** The lobby's way to the inbox: challenge a player, see your friends and your challenges. */
export function socialPanel() {
  const go = (e) => { e.preventDefault(); navigate("/#inbox"); };
  return h("section", { class: "panel social-entry", "aria-labelledby": "social-entry-title" },
    h("h2", { id: "social-entry-title" }, t("social.lobbyTitle")),
    h("p", { class: "muted" }, t("social.lobbyText")),
    h("a", { class: "button", id: "lobby-inbox", href: "/#inbox", onclick: go }, t("social.openInbox")));
}

// -- one challenge (an open challenge's link) ----------------------------------------------------
export class ChallengePage {
  constructor(root, id) {
    this.root = root; this.id = id;
    this.render(); this.load();
  }
  destroy() {}

  async load() {
    try { this.challenge = await api(`/api/challenges/${encodeURIComponent(this.id)}`); }
    catch (error) { this.error = error; }
    this.render();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel challenge-page", "aria-labelledby": "challenge-title" },
      h("h1", { id: "challenge-title" }, t("social.challenge")));
    root.append(panel);
    if (this.error) { panel.append(h("p", { class: "error" }, this.error.message)); return; }
    const c = this.challenge;
    if (!c) { panel.append(h("p", { class: "muted" }, t("lobby.loading"))); return; }
    panel.append(h("p", { id: "challenge-what" }, t("social.challengeFrom", { name: c.from, game: gameTitle(c.game) }),
      ` · ${clockWords(c.clock)}`, c.rated ? ` · ${t("social.rated")}` : ""),
    h("p", { class: "muted" }, t(`social.status.${c.status}`)));
    if (c.status === "open" && c.direction === "in") {
      panel.append(h("div", { class: "actions" },
        h("button", { type: "button", class: "primary accept", onclick: () => acceptChallenge(c.id) }, t("social.accept")),
        c.to ? h("button", { type: "button", class: "decline", onclick: async () => {
          try { await api(`/api/challenges/${encodeURIComponent(c.id)}/decline`, { method: "POST" }); }
          catch (error) { toast(error.message, "error"); }
          this.load();
        } }, t("social.decline")) : null));
    } else if (c.table) {
      panel.append(h("a", { href: `/table/${c.table}`, onclick: (e) => { e.preventDefault(); navigate(`/table/${c.table}`); } },
        t("social.open")));
    }
  }
}

/** #unsubscribe=TOKEN, the daily digest's link: asks before it stops the mails (opening
 * the link changes nothing, since mail scanners open links unasked); its button sends the
 * one-click POST that the mail readers' own button sends. */
export class UnsubscribePage {
  constructor(root, token) {
    this.root = root;
    this.token = token;
    this.note = null;
    if (token) history.replaceState(null, "", "/#unsubscribe");   // out of the address bar
    this.render();
  }
  destroy() {}

  async confirm() {
    try {
      await api(`/api/social/unsubscribe?token=${encodeURIComponent(this.token)}`, { method: "POST" });
      this.note = ["done", t("social.unsubscribed")];
      this.token = "";
    } catch (error) {
      this.note = ["error", error.message];
    }
    this.render();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel unsubscribe", "aria-labelledby": "unsubscribe-title" },
      h("h1", { id: "unsubscribe-title" }, t("social.unsubscribeTitle")));
    if (this.note) panel.append(h("p", { class: this.note[0] === "error" ? "error" : "done", role: "status" }, this.note[1]));
    if (this.token) {
      panel.append(h("p", {}, t("social.unsubscribeAsk")),
        h("button", { type: "button", class: "primary", id: "unsubscribe-confirm", onclick: () => this.confirm() },
          t("social.unsubscribeButton")));
    } else if (!this.note) {
      panel.append(h("p", { class: "muted" }, t("social.unsubscribeNoLink")));
    }
    root.append(panel);
  }
}

// -- on a profile: follow, block, challenge ------------------------------------------------------
/** Follow, block and challenge buttons for an account looking at another account's
 * profile (``username``: theirs). */
export function profileActions(username) {
  const box = h("div", { class: "social-actions" });
  const act = (method, what, done) => async () => {
    try {
      await api(`/api/players/${encodeURIComponent(username)}/${what}`, { method });
      toast(t(done));
    } catch (error) { toast(error.message, "error"); }
  };
  box.append(
    h("button", { type: "button", id: "follow", onclick: act("POST", "follow", "social.followed") }, t("social.follow")),
    h("button", { type: "button", id: "unfollow", onclick: act("DELETE", "follow", "social.unfollowed") }, t("social.unfollow")),
    h("button", { type: "button", id: "challenge", onclick: () => {
      prefill = username;   // the inbox's form, with their name filled in
      navigate("/#inbox");
    } }, t("social.challengeThem")),
    h("button", { type: "button", id: "block", onclick: act("POST", "block", "social.blocked") }, t("social.block")),
    h("button", { type: "button", id: "unblock", onclick: act("DELETE", "block", "social.unblocked") }, t("social.unblock")));
  return box;
}
