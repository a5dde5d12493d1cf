// @ts-check
// The players' screens: who you are (the header's badge and #account: register, sign in,
// sign out, your name), a player's profile (#players/NAME: ratings with a small chart of
// their history, games, recent games with replays, the record against bots) and the
// leaderboard (#leaderboard).  Names are always text (never HTML), in <bdi> so that a
// right-to-left name shows correctly beside left-to-right words.

import { api, seats as seatStore } from "./api.js";
import { h, clear } from "./dom.js";
import { t, num } from "./i18n.js";
import { navigate } from "./router.js";
import { gameTitle, presetName } from "./names.js";
import { ReportForm, mayReport } from "./report.js";
import { profileActions } from "./social.js";

let me = null;
let asking = null;   // the /api/me under way: two callers at once make one guest, not two
const listeners = new Set();

/** Who this browser is (a first visit makes a guest); cached, refreshed by `refreshMe`. */
export async function getMe() {
  if (!me) await (asking ||= refreshMe().finally(() => { asking = null; }));
  return me;
}

export async function refreshMe() {
  try { me = await api("/api/me"); } catch { me = null; }
  for (const fn of listeners) fn(me);
  return me;
}

export function onMeChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** A display name as text, isolated for bidirectional text. */
export function nameEl(name, kind) {
  return h("span", { class: "player-name" }, h("bdi", { dir: "auto" }, String(name ?? "")),
    kind === "bot" ? h("span", { class: "bot-mark" }, ` (${t("account.bot")})`) : null);
}

function link(href, ...children) {
  return h("a", { href, onclick: (e) => { e.preventDefault(); navigate(href); } }, ...children);
}

function when(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return String(text ?? "");
  try { return date.toLocaleDateString(document.documentElement.lang || undefined); } catch { return text; }
}

/** The header's badge: your name, linked to #account. */
export function accountBadge() {
  const badge = h("a", { class: "account-badge", id: "account-badge", href: "/#account",
    onclick: (e) => { e.preventDefault(); navigate("/#account"); } });
  const fill = (who) => {
    clear(badge);
    if (who) badge.append(nameEl(who.name, who.kind), who.kind === "guest" ? ` · ${t("account.guest")}` : "");
    else badge.append(t("account.signIn"));
  };
  fill(me);
  badgeFill = fill;   // the header is drawn again on a change of language: the newest badge
  getMe();
  return badge;
}

let badgeFill = null;
onMeChange((who) => badgeFill?.(who));

export class AccountPage {
  constructor(root) {
    this.root = root;
    this.error = null;
    this.ready = false;   // the forms appear once we know who you are (not redrawn under your typing)
    this.render();
    getMe().then(() => { this.ready = true; this.render(); });
  }
  destroy() {}

  async submit(path, form) {
    const body = Object.fromEntries(new FormData(form).entries());
    try {
      await api(path, { method: "POST", body });
      this.error = null;
      await refreshMe();
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel account" }, h("h2", {}, t("account.title")));
    if (!this.ready) { root.append(panel); return; }
    if (this.error) panel.append(h("p", { class: "error", role: "alert" }, t("account.failed", { reason: this.error })));
    if (me) {
      panel.append(h("p", { class: "me" }, nameEl(me.name, me.kind),
        me.username ? h("span", { class: "muted" }, ` @${me.username}`) : null));
      const rename = h("form", { class: "rename", onsubmit: (e) => { e.preventDefault(); this.submit("/api/me/name", e.target); } },
        h("label", {}, t("account.name"), " ", h("input", { name: "name", id: "display-name", maxlength: 24, required: true, dir: "auto", value: me.name })),
        h("button", { type: "submit" }, t("account.rename")));
      panel.append(rename);
      if (me.kind !== "guest") {
        panel.append(h("p", {}, link(`/#players/${encodeURIComponent(me.username || me.id)}`, t("account.profile"))),
          h("button", { id: "sign-out", onclick: async () => {
            await api("/api/account/logout", { method: "POST" }).catch(() => {});
            seatStore.forgetAll();
            await refreshMe();
            this.render();
          } }, t("account.signOut")));
      } else {
        panel.append(h("p", { class: "muted" }, t("account.guestNote")));
      }
    }
    if (!me || me.kind === "guest") {
      const form = (id, path, label, hint) => h("form", { id, class: "credentials",
        onsubmit: (e) => { e.preventDefault(); this.submit(path, e.target); } },
      h("h3", {}, label),
      h("label", {}, t("account.username"), " ", h("input", { name: "username", autocomplete: "username", required: true, maxlength: 20 })),
      h("label", {}, t("account.password"), " ", h("input", { name: "password", type: "password", required: true,
        autocomplete: id === "register" ? "new-password" : "current-password", minlength: hint ? 8 : null })),
      hint ? h("p", { class: "muted" }, `${t("account.usernameHint")}. ${t("account.passwordHint")}.`) : null,
      h("button", { type: "submit" }, label));
      panel.append(form("sign-in", "/api/account/login", t("account.signIn"), false),
        form("register", "/api/account/register", t("account.register"), true));
    }
    root.append(panel);
  }
}

/** A small SVG line chart of a rating's history (no library: a polyline). */
export function ratingChart(points, label) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const width = 240, height = 60, pad = 4;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const values = points.map((p) => p.rating);
  if (values.length) {
    const low = Math.min(...values) - 10, high = Math.max(...values) + 10;
    const x = (i) => pad + (values.length === 1 ? (width - 2 * pad) / 2 : i * (width - 2 * pad) / (values.length - 1));
    const y = (v) => height - pad - (v - low) * (height - 2 * pad) / (high - low);
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "currentColor");
    line.setAttribute("stroke-width", "2");
    svg.appendChild(line);
    values.forEach((v, i) => {
      const dot = document.createElementNS(ns, "circle");
      dot.setAttribute("cx", x(i).toFixed(1));
      dot.setAttribute("cy", y(v).toFixed(1));
      dot.setAttribute("r", "2.5");
      svg.appendChild(dot);
    });
  }
  return svg;
}

/** A rating as lichess shows one: no thousands separator, "?" while provisional. */
function ratingText(entry) {
  return `${num(entry.rating, { useGrouping: false })}${entry.provisional ? "?" : ""}`;
}

/** A rating pool by its name, not its id: "durak/transfer/2p" -> "Transfer Durak · two
 * players" (the game named when the rule set's name does not say it). */
export function poolName(pool) {
  const [game, preset, size] = String(pool ?? "").split("/");
  if (!size) return String(pool ?? "");
  const rules = preset === "custom" ? t("pool.custom") : presetName(game, preset);
  const title = gameTitle(game);
  const bare = (text) => text.normalize("NFD").replace(/[\u0300-\u036f\u064b-\u0652]/g, "").toLowerCase();
  const named = bare(rules).includes(bare(title)) ? rules : `${title} · ${rules}`;
  return `${named} · ${t(size === "2p" ? "pool.twoPlayers" : "pool.morePlayers")}`;
}

/** A rated game's rating changes, for the end of the game (null when it was unrated). */
export function ratingChanges(summary, seatName) {
  const changes = summary?.ratings;
  if (!changes || typeof changes !== "object") return null;
  const list = h("ul", { class: "rating-changes" }, Object.entries(changes).map(([seat, c]) =>
    h("li", { class: "rating-change", dataset: { seat } },
      h("bdi", { dir: "auto" }, seatName(Number(seat))), ": ",
      t("profile.change", { before: ratingText({ rating: c.before }),
        after: ratingText({ rating: c.after, provisional: c.provisional }),
        change: `${c.change >= 0 ? "+" : "−"}${ratingText({ rating: Math.abs(c.change) })}` }))));
  // a "?" shown is a "?" said: what a provisional rating is, beside it
  const provisional = Object.values(changes).some((c) => c?.provisional);
  return provisional ? h("div", {}, list, h("p", { class: "muted provisional-note" },
    t("board.provisionalNote"))) : list;
}

export class ProfilePage {
  constructor(root, name) {
    this.root = root; this.name = name; this.report = new ReportForm("profile-report");
    this.render(); this.load();
  }
  destroy() {}

  async load() {
    try { this.profile = await api(`/api/players/${encodeURIComponent(this.name)}`); } catch (error) { this.error = error; }
    this.me = await getMe();
    if (this.profile) {
      try { this.tournaments = await api(`/api/players/${encodeURIComponent(this.profile.id)}/tournaments`); } catch { this.tournaments = []; }
    }
    this.render();
  }

  /** "Report this player" for an account looking at another human's profile; a guest is
   * told to sign in (the page reports from accounts only). */
  reportPart(p) {
    if (p.kind === "bot" || (this.me && this.me.id === p.id)) return null;
    if (!mayReport(this.me)) return h("p", { class: "muted report-sign-in" }, t("report.signIn"));
    const button = h("button", { type: "button", id: "report-player", onclick: () => this.report.open(
      { player: p.id }, t("report.aboutPlayer", { name: p.name }), button) }, t("report.player"));
    return h("div", { class: "report-player" }, button, this.report.el);
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel profile" });
    root.append(panel);
    if (this.error) { panel.append(h("p", { class: "error" }, this.error.status === 404 ? t("profile.notFound") : this.error.message)); return; }
    const p = this.profile;
    if (!p) return;
    const mine = this.me && this.me.id === p.id;
    panel.append(h("h2", { id: "profile-name" }, nameEl(p.name, p.kind)), this.reportPart(p) || "",
      !mine && p.username && p.kind === "account" && this.me && this.me.kind !== "guest"
        ? profileActions(p.username) : "",
      h("p", { class: "games-count" }, t("profile.games", { played: p.games.played, won: p.games.won })),
      h("h3", {}, t("profile.ratings")));
    if (!p.ratings.length) panel.append(h("p", { class: "muted" }, t("profile.noRatings")));
    const list = h("ul", { class: "ratings" });
    for (const r of p.ratings) {
      list.append(h("li", { class: "rating", dataset: { pool: r.pool } },
        h("span", { class: "pool" }, poolName(r.pool)), " ",
        h("strong", { class: "rating-value" }, ratingText(r)),
        r.provisional ? h("span", { class: "muted" }, ` (${t("profile.provisional")})`) : null,
        ratingChart(r.history, t("profile.chart", { pool: poolName(r.pool) }))));
    }
    panel.append(list, h("h3", {}, t("profile.recent")));
    if (!p.recent.length) panel.append(h("p", { class: "muted" }, t("profile.noGames")));
    const games = h("ul", { class: "recent" });
    for (const g of p.recent) {
      games.append(h("li", {}, `${when(g.at)} · ${poolName(g.pool)} · ${t(`profile.result.${g.result}`)}`,
        g.rated ? ` · ${t("profile.rated")}` : "", " ",
        link(`/#replay/${encodeURIComponent(g.table)}`, t("profile.replay"))));
    }
    panel.append(games);
    if (p.bots.length) {
      panel.append(h("h3", {}, t("profile.bots")), h("ul", { class: "bot-records" },
        p.bots.map((b) => h("li", {}, t("profile.botRecord", b)))));
    }
    if (this.tournaments && this.tournaments.length) {   // the tournaments entered
      panel.append(h("h3", {}, t("tour.history")), h("ul", { class: "profile-tournaments" },
        this.tournaments.map((r) => h("li", {}, link(`/#tournaments/${encodeURIComponent(r.tournament.id)}`,
          r.tournament.name), " ", h("span", { class: "muted" }, t("tour.historyLine", r))))));
    }
  }
}

export class LeaderboardPage {
  constructor(root, pool) { this.root = root; this.pool = pool || null; this.render(); this.load(); }
  destroy() {}

  async load() {
    const query = this.pool ? `?pool=${encodeURIComponent(this.pool)}` : "";
    try { this.board = await api(`/api/leaderboard${query}`); this.error = null; } catch (error) { this.error = error.message; }
    this.render();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel leaderboard" }, h("h2", {}, t("board.title")));
    root.append(panel);
    if (this.error) { panel.append(h("p", { class: "error" }, this.error)); return; }
    const b = this.board;
    if (!b) return;
    if (b.pools.length) {
      panel.append(h("label", {}, t("board.pool"), " ", h("select", { id: "pool", onchange: (e) => { this.pool = e.target.value; this.load(); } },
        b.pools.map((pool) => h("option", { value: pool, selected: pool === b.pool }, poolName(pool))))));
    }
    if (!b.entries.length) { panel.append(h("p", { class: "muted" }, t("board.none"))); return; }
    panel.append(h("table", { class: "board" },
      h("thead", {}, h("tr", {}, ["board.rank", "board.player", "board.rating", "board.games"].map((k) => h("th", {}, t(k))))),
      h("tbody", {}, b.entries.map((e) => h("tr", {},
        h("td", {}, num(e.rank)),
        h("td", {}, link(`/#players/${encodeURIComponent(e.username || e.id)}`, nameEl(e.name))),
        h("td", { class: "rating-value" }, ratingText(e)),
        h("td", {}, num(e.games)))))));
    // the "?" said in words where it is shown
    if (b.entries.some((e) => e.provisional)) {
      panel.append(h("p", { class: "muted provisional-note" }, t("board.provisionalNote")));
    }
  }
}
