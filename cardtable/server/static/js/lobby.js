// @ts-check
// The lobby: the computer in one tap (computer.js), the player's own games in play with a
// way back in, open tables to join or watch, and the form that creates a table (game,
// rules preset, options with their one-line meaning, players, and who sits in each seat).

import { api, carriedGames, getGames, getTables, createTable, joinTable, seats as seatStore } from "./api.js";
import { h, clear, toast, replaceKeepingFocus } from "./dom.js";
import { t, num, joinList, hasKey } from "./i18n.js";
import { BOT_LEVELS, kindLabel, gameTitle } from "./names.js";
import { inviteBox } from "./table.js";
import { navigate } from "./router.js";
import { QuickPlayPanel, LiveGames } from "./quickplay.js";
import { ComputerPanel } from "./computer.js";
import { getMe } from "./players.js";
import { LobbyTournaments } from "./tournaments.js";
import { daysText, socialPanel } from "./social.js";

const FORM_KEY = "cardtable.lastForm";

/** The time controls a table can be made with: seconds for each move, then a bank of
 * seconds that slow moves spend (the server's TimeControl).  A card game's move takes
 * seconds, not minutes, so the presets are a few seconds a move and minutes in reserve. */
export const CLOCKS = {
  none: null,
  fast: { move: 10, bank: 60 },
  normal: { move: 20, bank: 180 },
  slow: { move: 45, bank: 600 },
  // days a move: a game that waits for each player (the server's DaysControl)
  days1: { days: 1 },
  days3: { days: 3 },
  days7: { days: 7 },
};

/** Bots in the order a person expects: the levels first, then the rest. */
function orderBots(names) {
  const levels = BOT_LEVELS.filter((b) => names.includes(b));
  return [...levels, ...names.filter((b) => !levels.includes(b))];
}

function humanize(name) { return name.replace(/_/g, " "); }

/** Bots for people who work on bots: offered under "advanced", after the levels. */
const ADVANCED_BOTS = ["random", "basic", "ismcts", "openspiel-ismcts"];

/** Options that only mean something with these numbers of players. */
const NEEDS_PLAYERS = { teams_of_four: [4], partners: [4, 6] };

/** A rule option's words in the page's language (the server's English if it has none). */
function optionWords(game, option) {
  const key = `rules.${game}.${option.name}`;
  return {
    label: hasKey(key) ? t(key) : humanize(option.name),
    doc: hasKey(`${key}.doc`) ? t(`${key}.doc`) : option.doc,
    choice: (value) => (hasKey(`${key}.${value}`) ? t(`${key}.${value}`) : String(value)),
  };
}

function presetName(game, preset) {
  const key = `preset.${game}.${preset}`;
  return hasKey(key) ? t(key) : preset;
}

function isTupleType(type) { return /^(tuple|list)/.test(type); }
function isOptionalInt(type) { return /int\s*\|\s*None/.test(type); }

export class Lobby {
  constructor(root) {
    this.root = root;
    this.games = [];
    this.form = null;
    this.created = null;
    /** @type {LiveGames | null} the games being played, to watch */
    this.live = null;
    /** @type {LobbyTournaments | null} the tournaments running and upcoming */
    this.tournaments = null;
    /** whether the person is signed in to an account (only then is "Rated" offered) */
    this.account = false;
    // the games the page carries, read at once: the first drawing has them (not an empty
    // lobby drawn again a moment later in the same task: a phone's longest pause on load)
    const carried = carriedGames();
    if (carried) {
      this.games = carried;
      this.initForm();
    }
    this.render({ first: true });
    // what the lobby asks the server (its tables, the player's games, the tournaments), in
    // a task of its own after the drawing's: each request costs the page a little work
    setTimeout(() => { if (!this.destroyed) this.load(); }, 0);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.poll);
    if (this.quick) this.quick.destroy();
  }

  async load() {
    if (!this.games.length) {
      try {
        this.games = await getGames();
      } catch (error) {
        this.error = error.message;
      }
      if (this.destroyed) return;
      this.initForm();
      this.render();
    }
    this.tournaments?.load();
    await this.loadTables();
    if (!this.destroyed) this.poll = setInterval(() => this.loadTables(), 5000);
  }

  async loadTables() {
    this.loadMine();
    try {
      // tables with a free seat; the games to watch are listed apart (LiveGames)
      this.tables = (await getTables()).filter((table) => table.free_seats > 0);
      this.error = null;
    } catch (error) {
      this.error = error.message;
    }
    this.renderTables();
    if (this.live) this.live.load();
  }

  /** The player's seats at tables still in play (``GET /api/me``, asked afresh once the
   * page's one shared first ask is answered: a first visit makes one guest, not two). */
  async loadMine() {
    try {
      await getMe();
      const me = await api("/api/me");
      this.mine = me?.seats || [];
      const waiting = await api("/api/your-move").catch(() => []);
      this.yourMove = new Set(waiting.map((g) => `${g.table}/${g.seat}`));
      const account = !!me && me.kind !== "guest";
      if (account !== this.account && !this.destroyed) {
        this.account = account;
        this.render();   // the form offers "Rated" now
      }
    } catch { this.mine ||= []; }
    if (!this.destroyed) this.renderMine();
  }

  renderMine() {
    const box = this.mineBox;
    if (!box) return;
    const seats = (this.mine || []).filter((seat) => seat.status !== "over");
    box.hidden = !seats.length;
    if (!seats.length) { clear(box); return; }
    const go = (seat) => navigate(seat.url || `/table/${seat.table}`);
    replaceKeepingFocus(box, [h("h2", { id: "mine-title" }, t("lobby.mySeats")),
      h("ul", { class: "tables my-seats" }, seats.map((seat) => h("li", { class: "table-item",
        dataset: { table: seat.table } },
      h("div", { class: "table-what" }, h("strong", {}, gameTitle(seat.game)),
        h("span", { class: "muted" }, ` · ${t("lobby.seat", { n: seat.seat + 1 })} · `
          + t(seat.status === "waiting" ? "lobby.waiting" : "lobby.playing")),
        this.yourMove?.has(`${seat.table}/${seat.seat}`)
          ? h("strong", { class: "your-move" }, ` · ${t("social.yourMove")}`) : null),
      h("div", { class: "table-buttons" },
        h("a", { class: "button primary back-in", href: `/table/${seat.table}`,
          dataset: { focusKey: `back-${seat.table}` },
          onclick: (e) => { e.preventDefault(); go(seat); } }, t("lobby.backIn"))))))]);
  }

  // -- the form's state ---------------------------------------------------------------------
  initForm() {
    if (!this.games.length) return;
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(FORM_KEY) || "null"); } catch { saved = null; }
    const game = this.games.find((g) => g.name === saved?.game) || this.games[0];
    this.setGame(game.name, saved && saved.game === game.name ? saved : null);
  }

  game() { return this.games.find((g) => g.name === this.form.game); }

  setGame(name, saved = null) {
    const game = this.games.find((g) => g.name === name);
    const preset = saved?.preset && game.presets[saved.preset] ? saved.preset : game.default_preset;
    const clock = saved?.clock in CLOCKS ? saved.clock : (this.form?.clock ?? "none");
    this.form = { game: name, preset, values: { ...game.presets[preset] }, players: null, seats: [],
      clock };
    this.fitPlayers(saved?.players);
    if (saved?.seats) {
      saved.seats.forEach((s, i) => { if (i < this.form.seats.length) this.form.seats[i] = s; });
    }
  }

  setPreset(preset) {
    const game = this.game();
    this.form.preset = preset;
    this.form.values = { ...game.presets[preset] };
    this.fitPlayers(this.form.players);
  }

  /** The player counts the chosen rules allow. */
  allowedPlayers() {
    const game = this.game();
    const counts = this.form.values.player_counts;
    if (Array.isArray(counts) && counts.length) {
      return game.player_counts.filter((n) => counts.includes(n));
    }
    return game.player_counts;
  }

  fitPlayers(wanted) {
    const game = this.game();
    const allowed = this.allowedPlayers();
    let players = wanted ?? game.default_players;
    if (!allowed.includes(players)) players = allowed.includes(game.default_players)
      ? game.default_players : allowed[0];
    this.form.players = players;
    const bots = orderBots(game.bots || []);
    const bot = bots.includes("medium") ? "bot:medium" : bots.length ? `bot:${bots[0]}` : "human";
    const seats = this.form.seats.slice(0, players);
    while (seats.length < players) seats.push(seats.length === 0 ? "human" : bot);
    this.form.seats = seats;
  }

  changedOptions() {
    const game = this.game();
    const base = game.presets[this.form.preset] || {};
    const out = {};
    for (const [name, value] of Object.entries(this.form.values)) {
      if (JSON.stringify(value) !== JSON.stringify(base[name])) out[name] = value;
    }
    return out;
  }

  async submit(event) {
    event.preventDefault();
    const request = {
      game: this.form.game,
      preset: this.form.preset,
      options: this.changedOptions(),
      players: this.form.players,
      seats: this.form.seats,
    };
    if (CLOCKS[this.form.clock]) request.clock = CLOCKS[this.form.clock];
    if (this.account && this.form.rated && this.form.seats.every((s) => s === "human")) {
      request.rated = true;
    }
    try { localStorage.setItem(FORM_KEY, JSON.stringify(this.form)); } catch { /* */ }
    const button = this.root.querySelector("button.create");
    if (button) button.disabled = true;
    try {
      await getMe();   // the guest exists first, so the seat is theirs (the lobby's "your games")
      const answer = await createTable(request);
      if (answer.seat !== null && answer.seat !== undefined && answer.token) {
        seatStore.set(answer.table, answer.seat, answer.token);
      }
      this.created = answer;
      this.render();
      const open = this.root.querySelector(".created .open-table");
      if (open) open.focus();
    } catch (error) {
      toast(error.message, "error");
      const box = this.root.querySelector(".form-error");
      if (box) box.textContent = error.message;
    } finally {
      if (button) button.disabled = false;
    }
  }

  // -- rendering -----------------------------------------------------------------------------
  /** The whole lobby; the ``first`` drawing puts the panels of a phone's first screen (the
   * computer's, the player's games, quick play) in the page at once, and the others in a
   * task of their own just after: two short pauses for a phone rather than one long one. */
  render({ first = false } = {}) {
    const root = clear(this.root);
    const drawing = this.drawing = (this.drawing || 0) + 1;
    this.tablesBox = h("div", { class: "table-list", "aria-live": "polite" });
    if (this.games.length && !this.quick) this.quick = new QuickPlayPanel(this.games);
    else if (this.quick) this.quick.render();
    if (this.games.length && !this.computer) this.computer = new ComputerPanel(this.games);
    else if (this.computer) this.computer.render();
    this.mineBox = h("section", { class: "panel my-games", "aria-labelledby": "mine-title",
                                  hidden: true });
    this.live ||= new LiveGames();
    this.live.render();
    this.tournaments ||= new LobbyTournaments();
    const lobby = h("div", { class: "lobby" },
      this.computer ? this.computer.el : null,
      this.mineBox,
      this.quick ? this.quick.el : null);
    root.appendChild(lobby);
    const below = () => [
      h("section", { class: "panel open-tables", "aria-labelledby": "open-title" },
        h("div", { class: "panel-head" },
          h("h2", { id: "open-title" }, t("lobby.open")),
          h("button", { type: "button", class: "refresh", onclick: () => this.loadTables() },
            t("lobby.refresh"))),
        this.tablesBox),
      this.live.el,
      this.tournaments.el,
      socialPanel(),
      h("section", { class: "panel create-table", "aria-labelledby": "create-title" },
        h("h2", { id: "create-title" }, t("lobby.create")),
        this.created ? this.createdPanel() : null,
        this.games.length ? this.formElement()
          : h("p", { class: "muted" }, this.error ? t("lobby.loadError", { reason: this.error })
            : t("lobby.loading")))];
    if (first) {
      setTimeout(() => {
        // not if the lobby was drawn again meanwhile (that drawing was whole) or left
        if (!this.destroyed && this.drawing === drawing) lobby.append(...below());
      }, 0);
    } else lobby.append(...below());
    this.renderTables();
    this.renderMine();
  }

  createdPanel() {
    const id = this.created.table;
    const link = `${location.origin}/table/${id}`;
    return h("div", { class: "created", role: "status" },
      h("h3", {}, t("lobby.created")),
      inviteBox(link),
      h("button", { type: "button", class: "primary open-table",
                    onclick: () => navigate(`/table/${id}`) }, t("lobby.openTable")));
  }

  renderTables() {
    const box = this.tablesBox;
    if (!box) return;
    clear(box);
    if (this.error && !this.tables) {
      box.appendChild(h("p", { class: "error" }, t("lobby.loadError", { reason: this.error })));
      return;
    }
    if (!this.tables) { box.appendChild(h("p", { class: "muted" }, t("lobby.loading"))); return; }
    const tables = this.tables.filter((x) => x.status !== "over");
    if (!tables.length) { box.appendChild(h("p", { class: "muted" }, t("lobby.none"))); return; }
    const list = h("ul", { class: "tables" });
    for (const table of tables) {
      const free = table.free_seats ?? 0;
      const mine = seatStore.get(table.id);
      const seatsText = (table.seats || []).map((s) => s.kind === "bot"
        ? kindLabel(`bot:${s.bot}`) : (s.name || (s.taken ? t("seat.human") : t("seat.open"))));
      list.appendChild(h("li", { class: "table-item", dataset: { table: table.id } },
        h("div", { class: "table-what" },
          h("strong", {}, gameTitle(table.game, table.title)),
          h("span", { class: "muted" },
            `${table.preset ? ` · ${presetName(table.game, table.preset)}` : ""} · ${t("lobby.players")}: ${num(table.players)}`),
          h("div", { class: "seat-list" }, joinList(seatsText)),
          h("div", { class: "muted" }, free ? t("lobby.seatsFree", { n: free })
            : t(table.status === "waiting" ? "lobby.waiting" : "lobby.playing"))),
        h("div", { class: "table-buttons" },
          mine ? h("button", { type: "button", class: "primary", onclick: () => navigate(`/table/${table.id}`) },
            t("lobby.openTable")) : null,
          !mine && free ? h("button", { type: "button", class: "primary join",
            onclick: () => this.join(table.id) }, t("lobby.join")) : null,
          h("button", { type: "button", class: "watch",   // to watch, not to sit (table.js)
            onclick: () => navigate(`/table/${table.id}?watch`) }, t("lobby.watch")))));
    }
    box.appendChild(list);
  }

  async join(id) {
    try {
      const answer = await joinTable(id);
      seatStore.set(id, answer.seat, answer.token);
      navigate(`/table/${id}`);
    } catch (error) {
      toast(t("table.joinError", { reason: error.message }), "error");
      this.loadTables();
    }
  }

  formElement() {
    const game = this.game();
    const form = this.form;
    const rerender = () => {
      const focused = document.activeElement?.id;
      this.render();
      if (focused) document.getElementById(focused)?.focus();
    };

    const gameChoice = h("fieldset", { class: "game-choice" },
      h("legend", {}, t("lobby.game")),
      this.games.map((g) => h("label", { class: `seg${g.name === form.game ? " on" : ""}` },
        h("input", { type: "radio", name: "game", value: g.name, id: `game-${g.name}`,
          checked: g.name === form.game,
          onchange: () => { this.setGame(g.name); rerender(); } }),
        gameTitle(g.name, g.title))));

    const presetSelect = h("select", { id: "preset", name: "preset",
      onchange: (e) => { this.setPreset(e.target.value); rerender(); } },
      Object.keys(game.presets).map((p) => h("option", { value: p, selected: p === form.preset },
        presetName(game.name, p))));

    const playersSelect = h("select", { id: "players", name: "players",
      onchange: (e) => { this.fitPlayers(Number(e.target.value)); rerender(); } },
      this.allowedPlayers().map((n) => h("option", { value: n, selected: n === form.players }, num(n))));

    const clockSelect = h("select", { id: "clock", name: "clock",
      onchange: (e) => { form.clock = e.target.value; } },
      Object.entries(CLOCKS).map(([name, clock]) => h("option", { value: name, selected: name === form.clock },
        clock?.days ? daysText(clock.days)
          : clock ? t("lobby.clockPreset", { move: num(clock.move), bank: num(clock.bank / 60) })
            : t("lobby.clockNone"))));

    const bots = orderBots(game.bots || []);
    const everyday = bots.filter((b) => !ADVANCED_BOTS.includes(b));
    const advanced = bots.filter((b) => ADVANCED_BOTS.includes(b));
    const botOption = (b, seat) => h("option", { value: `bot:${b}`, selected: seat === `bot:${b}` },
      kindLabel(`bot:${b}`));
    const seatRows = form.seats.map((seat, i) => h("div", { class: "seat-row" },
      h("label", { for: `seat-${i}` }, t("lobby.seat", { n: i + 1 }),
        i === form.seats.indexOf("human") ? h("span", { class: "muted" }, ` (${t("lobby.you")})`) : null),
      h("select", { id: `seat-${i}`, name: `seat-${i}`, class: "seat-kind",
        onchange: (e) => { form.seats[i] = e.target.value; rerender(); } },
      h("option", { value: "human", selected: seat === "human" }, t("seat.human")),
      everyday.map((b) => botOption(b, seat)),
      advanced.length ? h("optgroup", { label: t("lobby.advancedBots") },
        advanced.map((b) => botOption(b, seat))) : null)));

    const allowed = this.allowedPlayers();
    // The rule options' rows (a control and a sentence each, most of the form) are made when
    // their <details> first opens: the summary's click comes before it opens, so they are
    // there to read and tab to at once, and a lobby that is only looked at never makes them.
    const optionList = h("div", { class: "option-list" });
    const fillOptions = () => {
      if (optionList.firstChild) return;
      optionList.append(...game.options
        .filter((option) => !NEEDS_PLAYERS[option.name]
          || NEEDS_PLAYERS[option.name].some((n) => allowed.includes(n)))
        .map((option) => this.optionRow(option, rerender)));
    };
    if (this.optionsOpen) fillOptions();

    return h("form", { class: "create-form", onsubmit: (e) => this.submit(e) },
      gameChoice,
      h("div", { class: "form-row" }, h("label", { for: "preset" }, t("lobby.preset")), presetSelect),
      h("div", { class: "form-row" }, h("label", { for: "players" }, t("lobby.players")), playersSelect),
      h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.seats")), seatRows),
      h("div", { class: "form-row" }, h("label", { for: "clock" }, t("lobby.clock")), clockSelect),
      // rated: for an account's tables of people only (a guest's would be refused)
      this.account && form.seats.every((s) => s === "human") ? h("div", { class: "form-row" },
        h("label", { for: "rated" }, t("lobby.rated")),
        h("span", {}, h("input", { type: "checkbox", id: "rated", name: "rated", checked: !!form.rated,
          "aria-describedby": "rated-doc", onchange: (e) => { form.rated = e.target.checked; } }),
        " ", h("span", { id: "rated-doc", class: "muted" }, t("lobby.ratedHint")))) : null,
      h("details", { class: "options", open: this.optionsOpen || undefined,
                     ontoggle: (e) => { this.optionsOpen = e.target.open; fillOptions(); } },
        h("summary", { onclick: fillOptions }, t("lobby.options"),
          Object.keys(this.changedOptions()).length
            ? h("span", { class: "badge" }, num(Object.keys(this.changedOptions()).length)) : null),
        h("p", { class: "muted" }, t("lobby.optionsHint")),
        optionList),
      h("p", { class: "form-error", role: "alert" }),
      h("button", { type: "submit", class: "primary create" }, t("lobby.createButton")));
  }

  optionRow(option, rerender) {
    const form = this.form;
    const id = `opt-${option.name}`;
    const value = form.values[option.name];
    const words = optionWords(form.game, option);
    const docId = `${id}-doc`;
    let control;
    const set = (v) => { form.values[option.name] = v; };
    if (option.choices && option.choices.length) {
      control = h("select", { id, "aria-describedby": docId,
        onchange: (e) => { set(option.choices[e.target.selectedIndex]); rerender(); } },
        option.choices.map((c) => h("option", { value: String(c), selected: c === value }, words.choice(c))));
    } else if (option.type === "bool") {
      control = h("input", { type: "checkbox", id, checked: !!value, "aria-describedby": docId,
        onchange: (e) => { set(e.target.checked); rerender(); } });
    } else if (isTupleType(option.type)) {
      control = h("input", { type: "text", id, value: Array.isArray(value) ? value.join(", ") : "",
        inputmode: "numeric", "aria-describedby": docId,
        onchange: (e) => {
          const list = e.target.value.split(/[\s,،]+/).filter(Boolean).map(Number)
            .filter((n) => Number.isInteger(n));
          set(list);
          this.fitPlayers(form.players);
          rerender();
        } });
    } else if (option.type === "int" || isOptionalInt(option.type)) {
      // the server's bounds, as GET /api/games gives them (a value past them is refused)
      control = h("input", { type: "number", id, min: option.minimum ?? 0,
        max: option.maximum ?? undefined, step: 1, inputmode: "numeric",
        value: value === null || value === undefined ? "" : String(value),
        placeholder: isOptionalInt(option.type) ? "—" : undefined, "aria-describedby": docId,
        onchange: (e) => {
          const text = e.target.value.trim();
          set(text === "" && isOptionalInt(option.type) ? null : Number(text));
          rerender();
        } });
    } else {
      control = h("input", { type: "text", id, value: value ?? "", "aria-describedby": docId,
        onchange: (e) => { set(e.target.value); rerender(); } });
    }
    const changed = JSON.stringify(value) !== JSON.stringify(this.game().presets[form.preset]?.[option.name]);
    return h("div", { class: `option-row${changed ? " changed" : ""}`, dataset: { option: option.name } },
      h("label", { for: id }, words.label),
      control,
      h("p", { class: "doc", id: docId }, words.doc));
  }
}
