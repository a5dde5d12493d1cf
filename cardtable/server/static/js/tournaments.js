// @ts-check
// Tournaments: the list and a form to organise one (/#tournaments), one tournament's live
// standings, tables and results (/#tournaments/ID, read again every few seconds while it
// runs) and the lobby's short list (a profile's tournaments are players.js's).

import { api } from "./api.js";
import { h, clear, announce } from "./dom.js";
import { t, num } from "./i18n.js";
import { navigate } from "./router.js";
import { gameTitle, presetName } from "./names.js";
import { getMe } from "./players.js";

const REFRESH_MS = 3000;

function link(href, ...children) {
  return h("a", { href, onclick: (e) => { e.preventDefault(); navigate(href); } }, ...children);
}

function when(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return String(text ?? "");
  try { return date.toLocaleString(document.documentElement.lang || undefined); } catch { return text; }
}

/** "Durak · arena · 30 min · 2 a table" */
function describe(tour) {
  const length = tour.kind === "arena" ? t("tour.minutes", { n: tour.minutes })
    : t("tour.rounds", { n: tour.rounds });
  return [gameTitle(tour.game), presetName(tour.game, tour.preset), t(`tour.kind.${tour.kind}`),
    length, t("tour.perTable", { n: tour.players }),
    tour.rated ? t("tour.rated") : t("tour.casual")].join(" · ");
}

function item(tour) {
  return h("li", { class: "tournament-item", dataset: { id: tour.id } },
    link(`/#tournaments/${encodeURIComponent(tour.id)}`, tour.name), " ",
    h("span", { class: "muted" }, `${describe(tour)} · ${t("tour.entrants", { n: tour.entrants })}`));
}

/** The lobby's section: tournaments running and upcoming, and a link to all. */
export class LobbyTournaments {
  /** Empty until ``load()`` (the lobby asks once its first screen is drawn). */
  constructor() {
    this.el = h("section", { class: "panel lobby-tournaments", "aria-labelledby": "lobby-tour-title" });
    this.list = null;
  }

  async load() {
    try { this.list = await api("/api/tournaments?limit=5"); } catch { this.list = null; }
    this.render();
  }

  render() {
    const l = this.list;
    const shown = l ? [...l.running, ...l.upcoming] : [];
    clear(this.el).append(h("div", { class: "panel-head" },
      h("h2", { id: "lobby-tour-title" }, t("tour.title")),
      link("/#tournaments", t("tour.all"))),
    shown.length ? h("ul", { class: "tournament-list" }, shown.map(item))
      : h("p", { class: "muted" }, t("tour.none")));
  }
}

/** Every tournament, and the form to organise one (accounts only). */
export class TournamentsPage {
  constructor(root) {
    this.root = root; this.list = null; this.error = null; this.games = [];
    /** @type {any} who is looking (``GET /api/me``): only an account may organise */
    this.me = null;
    this.render(); this.load();
  }
  destroy() {}

  async load() {
    try {
      [this.list, this.games, this.me] = await Promise.all([
        api("/api/tournaments"), api("/api/games"), getMe()]);
      this.error = null;
    } catch (error) { this.error = error.message; }
    this.render();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel tournaments", "aria-labelledby": "tour-title" },
      h("h2", { id: "tour-title" }, t("tour.title")));
    root.append(panel);
    if (this.error) { panel.append(h("p", { class: "error" }, this.error)); return; }
    if (!this.list) { panel.append(h("p", { class: "muted" }, t("tour.loading"))); return; }
    for (const status of ["running", "upcoming", "finished"]) {
      const found = this.list[status];
      panel.append(h("h3", {}, t(`tour.status.${status}`)),
        found.length ? h("ul", { class: "tournament-list", dataset: { status } }, found.map(item))
          : h("p", { class: "muted" }, t("tour.none")));
    }
    root.append(this.form());
  }

  form() {
    const box = h("section", { class: "panel create-tournament", "aria-labelledby": "tour-new-title" },
      h("h2", { id: "tour-new-title" }, t("tour.create")));
    if (!this.me || this.me.kind !== "account") {
      box.append(h("p", { class: "muted" }, t("tour.signIn")));
      return box;
    }
    const field = (label, input) => h("label", { class: "field" }, h("span", {}, label), " ", input);
    const game = h("select", { id: "tour-game" }, this.games.map((g) =>
      h("option", { value: g.name }, gameTitle(g.name, g.title))));
    const kind = h("select", { id: "tour-kind" },
      ["arena", "swiss"].map((k) => h("option", { value: k }, t(`tour.kind.${k}`))));
    const length = h("input", { id: "tour-length", type: "number", min: 1, max: 1440, value: 30 });
    const players = h("input", { id: "tour-players", type: "number", min: 2, max: 6, value: 2 });
    const name = h("input", { id: "tour-new-name", type: "text", maxlength: 60 });
    const rated = h("input", { id: "tour-rated", type: "checkbox", checked: true });
    const bots = h("input", { id: "tour-bots", type: "checkbox" });
    const status = h("p", { class: "form-status", role: "status" });
    const submit = async (e) => {
      e.preventDefault();
      const arena = kind.value === "arena";
      const body = { game: game.value, kind: kind.value, players: Number(players.value),
        rated: rated.checked, bots: arena && bots.checked, starts: null,
        [arena ? "minutes" : "rounds"]: Number(length.value) };
      if (name.value.trim()) body.name = name.value.trim();
      try {
        const made = await api("/api/tournaments", { method: "POST", body });
        navigate(`/#tournaments/${encodeURIComponent(made.id)}`);
      } catch (error) { status.textContent = error.message; }
    };
    box.append(h("form", { id: "tour-form", onsubmit: submit },
      field(t("tour.name"), name), field(t("tour.game"), game), field(t("tour.kindLabel"), kind),
      field(t("tour.length"), length), field(t("tour.playersLabel"), players),
      h("label", { class: "field" }, rated, " ", t("tour.ratedLabel")),
      h("label", { class: "field" }, bots, " ", t("tour.botsLabel")),
      h("button", { type: "submit", id: "tour-create" }, t("tour.createButton")), status));
    return box;
  }
}

/** One tournament: what it plays, your buttons, its live standings, tables and games. */
export class TournamentPage {
  constructor(root, id) {
    this.root = root; this.id = id; this.tour = null; this.error = null; this.destroyed = false;
    this.status = h("p", { class: "tour-status", role: "status", "aria-live": "polite" });
    this.render(); this.load();
    this.poll = setInterval(() => { if (!this.tour || this.tour.status !== "finished") this.load(); },
      REFRESH_MS);
  }
  destroy() { this.destroyed = true; clearInterval(this.poll); }

  async load() {
    try {
      const [tour, me] = await Promise.all([api(`/api/tournaments/${encodeURIComponent(this.id)}`), getMe()]);
      this.tour = tour; this.me = me; this.error = null;
    } catch (error) { this.error = error; }
    if (!this.destroyed) this.render();
  }

  async act(action) {
    try {
      this.tour = await api(`/api/tournaments/${encodeURIComponent(this.id)}/${action}`, { method: "POST" });
      announce(t(`tour.done.${action}`));
    } catch (error) { this.status.textContent = error.message; }
    this.render();
  }

  buttons(tour, mine) {
    if (tour.status === "finished" || !this.me || this.me.kind !== "account") return null;
    const button = (action, key) => h("button", { type: "button", id: `tour-${action}`,
      onclick: () => this.act(action) }, t(key));
    const out = [];
    if (!mine || mine.paused || mine.withdrawn) {
      if (!(tour.kind === "swiss" && tour.status === "running" && !mine)) out.push(button("join", mine ? "tour.back" : "tour.join"));
    } else {
      if (tour.kind === "arena") out.push(button("pause", "tour.pause"));
      out.push(button("withdraw", "tour.withdraw"));
    }
    if (tour.status === "upcoming" && tour.organiser === this.me.id) out.push(button("start", "tour.start"));
    return h("div", { class: "tour-buttons" }, out);
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel tournament", "aria-labelledby": "tour-heading" });
    root.append(panel);
    if (this.error) {
      panel.append(h("p", { class: "error" }, this.error.status === 404 ? t("tour.notFound") : this.error.message));
      return;
    }
    const tour = this.tour;
    if (!tour) { panel.append(h("p", { class: "muted" }, t("tour.loading"))); return; }
    const mine = this.me ? tour.standings.find((line) => line.player === this.me.id) : null;
    panel.append(h("h2", { id: "tour-heading" }, tour.name),
      h("p", { class: "muted" }, describe(tour)),
      h("p", { id: "tour-state" }, t(`tour.status.${tour.status}`),
        tour.kind === "swiss" && tour.round ? ` · ${t("tour.round", { n: tour.round, of: tour.rounds })}` : "",
        tour.ends && tour.status === "running" ? ` · ${t("tour.ends", { at: when(tour.ends) })}` : "",
        tour.closed ? ` · ${tour.closed}` : ""),
      this.buttons(tour, mine) || "", this.status);
    if (mine && mine.table) {
      panel.append(h("p", { class: "your-table" }, link(`/table/${encodeURIComponent(mine.table)}`, t("tour.yourTable"))));
    }
    panel.append(h("h3", { id: "standings-title" }, t("tour.standings")), this.standings(tour));
    if (tour.pairings.length) {
      panel.append(h("h3", {}, t("tour.playing")), h("ul", { class: "tour-tables" },
        tour.pairings.map((g) => h("li", {}, g.players.map((p) => p ?? t("tour.bot")).join(" · "), " ",
          link(`/table/${encodeURIComponent(g.table)}`, t("tour.watch"))))));
    }
    const done = tour.games.filter((g) => g.status === "scored");
    if (done.length) {
      panel.append(h("h3", {}, t("tour.results")), h("ul", { class: "tour-results" },
        done.slice(-30).reverse().map((g) => h("li", {}, g.players.map((p) => p ?? t("tour.bot")).join(" · "), " ",
          link(`/#replay/${encodeURIComponent(g.table)}`, t("tour.replay"))))));
    }
  }

  standings(tour) {
    if (!tour.standings.length) return h("p", { class: "muted" }, t("tour.noEntrants"));
    const heads = ["tour.rank", "tour.player", "tour.points", "tour.games", "tour.wins", "tour.tiebreak"];
    return h("table", { class: "board standings", "aria-labelledby": "standings-title" },
      h("thead", {}, h("tr", {}, heads.map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, tour.standings.map((line) => h("tr", { dataset: { player: line.player } },
        h("td", {}, num(line.rank)),
        h("td", {}, line.name, line.streak >= 2 && tour.kind === "arena" ? ` (${t("tour.onFire")})` : "",
          line.paused ? ` (${t("tour.paused")})` : "", line.withdrawn ? ` (${t("tour.withdrawn")})` : ""),
        h("td", { class: "points" }, num(line.points)), h("td", {}, num(line.games)),
        h("td", {}, num(line.wins)), h("td", {}, num(line.tiebreak))))));
  }
}
