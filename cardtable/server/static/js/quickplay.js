// @ts-check
// "Play now": the quick-play queue.  The player picks the game, its rules and the number
// of players (remembered for next time) and whether bots may fill the empty seats after a
// few seconds; the page then polls its ticket (a ticket not polled is cancelled, so
// leaving the page leaves the queue) and goes to the table once it is matched.

import { api, seats as seatStore } from "./api.js";
import { h, clear, toast, announce } from "./dom.js";
import { t, num } from "./i18n.js";
import { gameTitle, presetName } from "./names.js";
import { navigate } from "./router.js";
import { ratingText } from "./clock.js";
import { getMe } from "./players.js";

const CHOICE_KEY = "cardtable.quickPlay";
const POLL_MS = 1000;
const BOTS_AFTER = 15;
const BOTS_AFTER_CHOICES = [5, 15, 30, 60];

function remembered() {
  try { return JSON.parse(localStorage.getItem(CHOICE_KEY) || "null") || {}; } catch { return {}; }
}

export class QuickPlayPanel {
  /** ``games``: the list GET /api/games answers. */
  constructor(games) {
    this.games = games;
    const saved = remembered();
    const game = games.find((g) => g.name === saved.game) || games[0];
    this.choice = {
      game: game?.name,
      preset: saved.game === game?.name && game?.presets[saved.preset] ? saved.preset
        : game?.default_preset,
      players: saved.game === game?.name ? saved.players : game?.default_players,
      bots: saved.bots !== false,
      after: BOTS_AFTER_CHOICES.includes(saved.after) ? saved.after : BOTS_AFTER,
    };
    this.ticket = null;
    this.el = h("section", { class: "panel quick-play", "aria-labelledby": "quick-title" });
    this.render();
  }

  game() { return this.games.find((g) => g.name === this.choice.game); }

  remember() {
    try { localStorage.setItem(CHOICE_KEY, JSON.stringify(this.choice)); } catch { /* */ }
  }

  render() {
    const root = clear(this.el);
    root.appendChild(h("h2", { id: "quick-title" }, t("quick.title")));
    const game = this.game();
    if (!game) return;
    if (this.ticket) {
      root.append(
        h("p", { class: "quick-waiting", role: "status" },
          t("quick.waiting", { s: num(Math.round(this.waited || 0)) })),
        h("button", { type: "button", class: "quick-cancel", onclick: () => this.cancel() },
          t("quick.cancel")));
      return;
    }
    if (!game.player_counts.includes(this.choice.players)) this.choice.players = game.default_players;
    const select = (id, label, options, value, onchange) => h("label", { class: "field" },
      h("span", {}, label),
      h("select", { id, onchange: (e) => { onchange(e.target.value); this.remember(); this.render(); } },
        options.map(([v, text]) => h("option", { value: String(v), selected: v === value }, text))));
    root.append(
      h("div", { class: "quick-form" },
        select("quick-game", t("lobby.game"), this.games.map((g) => [g.name, gameTitle(g.name)]),
          this.choice.game, (v) => {
            const next = this.games.find((g) => g.name === v);
            this.choice = { ...this.choice, game: v, preset: next.default_preset,
                            players: next.default_players };
          }),
        select("quick-preset", t("lobby.preset"), Object.keys(game.presets).map((p) => [p, presetName(game.name, p)]),
          this.choice.preset, (v) => { this.choice.preset = v; }),
        select("quick-players", t("lobby.players"), game.player_counts.map((n) => [n, num(n)]),
          this.choice.players, (v) => { this.choice.players = Number(v); }),
        h("label", { class: "field check" },
          h("input", { type: "checkbox", id: "quick-bots", checked: this.choice.bots,
                       onchange: (e) => { this.choice.bots = e.target.checked; this.remember(); } }),
          h("span", {}, t("quick.bots", { n: this.choice.after }))),
        select("quick-after", t("quick.after"), BOTS_AFTER_CHOICES.map((n) => [n, num(n)]),
          this.choice.after, (v) => { this.choice.after = Number(v); })),
      h("button", { type: "button", class: "primary play-now", onclick: () => this.start() },
        t("quick.playNow")));
  }

  async start() {
    this.remember();
    try {
      await getMe();   // the guest exists first, so the seat is theirs (the lobby's "your games")
      const answer = await api("/api/quick-play", { method: "POST", body: {
        game: this.choice.game, preset: this.choice.preset, players: this.choice.players,
        bots_after: this.choice.bots ? this.choice.after : null } });
      this.ticket = answer.ticket;
      this.waited = 0;
      announce(t("quick.waiting", { s: num(0) }));
      this.follow(answer);
    } catch (error) {
      toast(t("quick.error", { reason: error.message }), "error");
    }
  }

  follow(answer) {
    if (answer.status === "matched") {
      seatStore.set(answer.table, answer.seat, answer.token);
      this.ticket = null;
      navigate(`/table/${answer.table}`);
      return;
    }
    if (answer.status === "cancelled") {
      this.ticket = null;
      this.render();
      return;
    }
    this.waited = answer.waited;
    this.render();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  async poll() {
    if (!this.ticket) return;
    try {
      // the ticket in the body: a URL ends up in proxies' logs, and a matched ticket
      // hands out the seat's key
      this.follow(await api("/api/quick-play/poll", { method: "POST", body: { ticket: this.ticket } }));
    } catch (error) {
      toast(t("quick.error", { reason: error.message }), "error");
      this.ticket = null;
      this.render();
    }
  }

  async cancel() {
    const ticket = this.ticket;
    this.ticket = null;
    clearTimeout(this.timer);
    this.render();
    if (ticket) {
      try { await api("/api/quick-play/cancel", { method: "POST", body: { ticket } }); }
      catch { /* an unpolled ticket is cancelled anyway */ }
    }
  }

  /** Leaving the lobby leaves the queue. */
  destroy() {
    if (this.ticket) this.cancel();
    clearTimeout(this.timer);
  }
}

/** Live games to watch (every seat taken), apart from the tables with a free seat. */
export class LiveGames {
  constructor() {
    this.el = h("section", { class: "panel live-games", "aria-labelledby": "live-title" });
    this.games = [];
    this.render();
  }

  async load() {
    try {
      this.games = (await api("/api/lobby")).live;
    } catch { /* the open tables' list shows the error */ }
    this.render();
  }

  render() {
    const root = clear(this.el);
    root.appendChild(h("h2", { id: "live-title" }, t("lobby.live")));
    if (!this.games.length) {
      root.appendChild(h("p", { class: "muted" }, t("lobby.noLive")));
      return;
    }
    root.appendChild(h("ul", { class: "live-list" }, this.games.map((g) => h("li",
      { class: "live-game", dataset: { table: g.id } },
      h("strong", {}, gameTitle(g.game)), " ",
      h("span", { class: "players" }, g.seats.map((s) => {
        const name = s.name || (s.bot ? t(`bot.${s.bot}`) : t("lobby.seat", { n: s.seat + 1 }));
        const rating = g.ratings?.[String(s.seat)];
        return rating === undefined ? name : `${name} (${ratingText(rating)})`;
      }).join(" · ")), " ",
      h("span", { class: "age muted" }, t("lobby.age", { m: num(Math.floor(g.age / 60)) })), " ",
      h("a", { href: `/table/${g.id}`, class: "button watch",
               onclick: (e) => { e.preventDefault(); navigate(`/table/${g.id}`); } },
        t("lobby.watch"))))));
  }
}
