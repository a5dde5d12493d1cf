// @ts-check
// Finished games (the player's own, paged, or every game on the server), and a
// step-by-step replay of one: the server sends the table as it was
// after the deal and after every move (every hand face up, since the game is over), and
// the replay draws each step as the live table would, with the result at the end.

import { api, getReplay } from "./api.js";
import { h, clear, replaceKeepingFocus } from "./dom.js";
import { t, num, joinList } from "./i18n.js";
import { gameTitle, kindLabel, presetName, ruleLabel, ruleValue } from "./names.js";
import { moveText } from "./cards.js";
import { gameModule } from "./games.js";
import { lastMoveParts } from "./table.js";
import { navigate } from "./router.js";
import { historyResult } from "./endings.js";

function seatLabel(seat, index) {
  if (!seat) return t("table.seatName", { n: index + 1 });
  if (seat.name) return seat.name;
  if (seat.kind === "bot") return `${t("table.seatName", { n: index + 1 })} (${kindLabel(`bot:${seat.bot}`)})`;
  return t("table.seatName", { n: index + 1 });
}

function when(text) {
  if (!text) return "";
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return text;
  try { return date.toLocaleString(document.documentElement.lang || undefined); } catch { return text; }
}

/** One line of a finished game's result: how it ended (a resignation, a forfeit...) and
 * the result in the words of its game's module. */
function resultLine(game, summary, seatName) {
  return historyResult(summary, seatName, (s) => gameModule(game).resultLine(s, seatName));
}

/** Games on a page of the history. */
export const PAGE = 20;

export class History {
  /** `which`: "mine" (the player's own games, the first shown) or "all". */
  constructor(root, which = "mine") {
    this.root = root;
    this.which = which === "all" ? "all" : "mine";
    this.offset = 0;
    this.render();
    this.load();
  }

  destroy() { this.destroyed = true; }

  async load() {
    const asked = `${this.which}:${this.offset}`;
    this.asked = asked;
    let items = null;
    try {
      // one more than a page: whether an older page exists
      items = await api(`/api/history?limit=${PAGE + 1}&offset=${this.offset}`
        + (this.which === "mine" ? "&mine=true" : ""));
      this.error = null;
    } catch (error) {
      this.error = error.message;
    }
    if (this.destroyed || this.asked !== asked) return;
    this.more = !!items && items.length > PAGE;
    this.items = items ? items.slice(0, PAGE) : null;
    this.render();
  }

  show(which, offset) {
    this.which = which;
    this.offset = Math.max(0, offset);
    this.load();   // the page shown stays until the next comes (the focus stays on its button)
  }

  tabs() {
    const tab = (which, key) => h("button", { type: "button", class: `seg tab ${which}`,
      "aria-pressed": String(this.which === which), dataset: { focusKey: `tab-${which}` },
      onclick: () => { if (this.which !== which) this.show(which, 0); } }, t(key));
    return h("div", { class: "history-tabs", role: "group", "aria-label": t("history.title") },
      tab("mine", "history.mine"), tab("all", "history.all"));
  }

  pager() {
    if (!this.items || (!this.offset && !this.more)) return null;
    const from = this.offset + 1, to = this.offset + this.items.length;
    return h("nav", { class: "pager", "aria-label": t("history.page", { from, to }) },
      h("button", { type: "button", class: "newer", disabled: !this.offset,
        dataset: { focusKey: "newer" },
        onclick: () => this.show(this.which, this.offset - PAGE) }, t("history.newer")),
      h("span", { class: "muted" }, t("history.page", { from, to })),
      h("button", { type: "button", class: "older", disabled: !this.more,
        dataset: { focusKey: "older" },
        onclick: () => this.show(this.which, this.offset + PAGE) }, t("history.older")));
  }

  render() {
    const panel = h("section", { class: "panel history", dataset: { which: this.which } },
      h("h2", {}, t("history.title")), this.tabs());
    const none = this.which === "mine" ? "history.mineNone" : "history.none";
    if (this.error) panel.appendChild(h("p", { class: "error" }, t("lobby.loadError", { reason: this.error })));
    else if (!this.items) panel.appendChild(h("p", { class: "muted" }, t("lobby.loading")));
    else if (!this.items.length && !this.offset) panel.appendChild(h("p", { class: "muted" }, t(none)));
    else {
      const list = h("ul", { class: "history-list" });
      for (const item of this.items) {
        const seats = item.seats || [];
        const name = (seat) => seatLabel(seats[seat], seat);
        list.appendChild(h("li", { class: "history-item", dataset: { table: item.id } },
          h("div", {},
            h("strong", {}, gameTitle(item.game)),
            item.preset ? h("span", { class: "muted preset" }, ` · ${presetName(item.game, item.preset)}`) : null,
            h("div", {}, `${t("history.players")}: `, joinList(seats.map((s, i) => seatLabel(s, i)))),
            h("div", {}, `${t("history.result")}: `, resultLine(item.game, item.summary, name)),
            h("div", { class: "muted" }, `${t("history.finished")}: ${when(item.finished)}`)),
          h("div", { class: "history-actions" },
            h("button", { type: "button", class: "primary replay",
                          onclick: () => navigate(`/#replay/${item.id}`) }, t("history.replay")),
            analyseLink(item.id))));
      }
      panel.appendChild(list);
      const pager = this.pager();
      if (pager) panel.appendChild(pager);
    }
    replaceKeepingFocus(this.root, [panel]);   // a tab or a page button keeps the focus
  }
}

/**
 * One finished game, step by step: the server replays the record and sends, after the deal
 * and after every move, the watcher's view and every hand; the page draws each step with
 * the live table's own drawing code (its game's module in games.js), every hand face up.
 */
/** The analysis board of a finished game: every move judged (analysis.js). */
function analyseLink(tableId) {
  return h("a", { class: "analyse", href: `/#/analyse/${encodeURIComponent(tableId)}` },
    t("history.analyse"));
}

/** A direction glyph of the replay's buttons; right to left, the page mirrors it. */
function arrow(glyph) { return h("span", { class: "arrow", "aria-hidden": "true" }, glyph); }

export class Replay {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.step = 0;
    this.onKey = (event) => {
      if (!this.steps || ["INPUT", "SELECT", "TEXTAREA"].includes(event.target?.tagName)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const rtl = document.documentElement.dir === "rtl";
      let to = null;
      if (event.key === (rtl ? "ArrowLeft" : "ArrowRight")) to = this.step + 1;
      else if (event.key === (rtl ? "ArrowRight" : "ArrowLeft")) to = this.step - 1;
      else if (event.key === "Home") to = 0;
      else if (event.key === "End") to = this.last();
      if (to === null) return;
      event.preventDefault();
      this.go(to);
    };
    document.addEventListener("keydown", this.onKey);
    this.render();
    this.load();
  }

  destroy() { document.removeEventListener("keydown", this.onKey); }

  async load() {
    try {
      const replay = await getReplay(this.tableId);
      this.record = replay.record;
      this.steps = replay.steps;
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  last() { return this.steps ? this.steps.length - 1 : 0; }

  go(step) {
    this.step = Math.max(0, Math.min(this.last(), step));
    this.renderStep();
  }

  seatName(seat) {
    return seatLabel((this.record.seats || [])[seat], seat);
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel replay" },
      h("h2", {}, t("replay.title", { id: this.tableId })));
    root.appendChild(panel);
    if (this.error) { panel.appendChild(h("p", { class: "error" }, this.error)); return; }
    if (!this.steps) { panel.appendChild(h("p", { class: "muted" }, t("lobby.loading"))); return; }
    const record = this.record;
    const rules = Object.entries(record.rules || {})
      .map(([k, v]) => `${ruleLabel(record.game, k)}: ${ruleValue(record.game, k, v)}`).join(" · ");
    this.el = {
      count: h("span", { class: "step-count", "aria-live": "polite" }),
      opponents: h("section", { class: "opponents", "aria-label": t("history.players") }),
      felt: h("section", { class: "felt", "aria-label": t("table.table") }),
      info: h("aside", { class: "info" }),
      result: h("div", { class: "replay-result" }),
      list: h("ol", { class: "move-list", "aria-label": t("replay.moves") }),
    };
    this.el.board = h("div", { class: "table-view spectating replaying", id: "replay-table",
                               dataset: { game: record.game, table: this.tableId } },
      h("div", { class: "board" }, this.el.opponents, this.el.felt),
      this.el.info,
      this.el.result);
    this.steps.slice(1).forEach((step) => {
      this.el.list.appendChild(h("li", { dataset: { step: step.index } },
        h("button", { type: "button", class: "move-step", onclick: () => { this.go(step.index); this.showBoard(); } },
          h("span", { class: "step-no" }, `${num(step.index)}.`),
          step.seat !== null ? h("span", { class: "who" }, `${this.seatName(step.seat)}: `) : null,
          moveText(step.move, { plain: true }))));
    });
    panel.append(
      h("p", {}, analyseLink(this.tableId)),
      h("p", {}, h("strong", {}, gameTitle(record.game)), record.preset ? ` · ${presetName(record.game, record.preset)}` : "", " · ",
        `${t("history.players")}: `, joinList((record.seats || []).map((s, i) => seatLabel(s, i)))),
      h("details", { class: "rules" }, h("summary", {}, t("replay.rules")), h("p", { class: "muted" }, rules)),
      this.el.controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay.moves") },
        h("button", { type: "button", class: "to-start", onclick: () => this.go(0) }, arrow("⏮"), ` ${t("replay.start")}`),
        h("button", { type: "button", class: "back", onclick: () => this.go(this.step - 1) }, arrow("◀"), ` ${t("replay.back")}`),
        h("button", { type: "button", class: "next primary", onclick: () => this.go(this.step + 1) }, `${t("replay.next")} `, arrow("▶")),
        h("button", { type: "button", class: "to-end", onclick: () => this.go(this.last()) }, `${t("replay.end")} `, arrow("⏭")),
        this.el.count),
      this.el.board,
      h("p", { class: "keys-help replay-keys" }, t("replay.keys")),
      h("h3", {}, t("replay.moves")),
      this.el.list);
    this.renderStep();
  }

  /** After a click in the move list: bring the table (and its buttons) into sight. */
  showBoard() {
    const box = this.el.board.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      this.el.controls.scrollIntoView({ block: "start" });
    }
  }

  /** Draw the table as it was at this step, with the live table's own drawing code. */
  renderStep() {
    if (!this.el) return;
    const record = this.record;
    const step = this.steps[this.step];
    const module = gameModule(record.game);
    const seatName = (seat) => this.seatName(seat);
    const over = step.result !== null && step.result !== undefined;
    const state = {
      game: record.game, table: this.tableId, version: step.index, status: over ? "over" : "playing",
      over, to_move: step.to_move, view: step.view, summary: step.result,
      last_move: step.index ? { index: step.index, seat: step.seat, move: step.move } : null,
    };
    const parts = module.render({
      state, view: step.view, previousView: null, mySeat: null, myTurn: false, legal: [],
      players: record.players, selection: {}, seatName, seats: [], play: () => {},
      rerender: () => this.renderStep(), animate: false, isNew: () => false,
      hands: step.hands, replaying: true,
    });
    for (const box of parts.opponents || []) {
      if (step.seat === null || Number(box.dataset.seat) !== step.seat) continue;
      box.classList.add("just-moved");
      box.querySelector(".seat-name")?.appendChild(h("span", { class: "tag moved" }, t("replay.played")));
    }
    const whoseTurn = over ? h("p", { class: "whose-turn over" }, t("table.gameOver"))
      : step.to_move === null || step.to_move === undefined ? null
        : h("p", { class: "whose-turn", dataset: { seat: step.to_move } },
          t("table.turnOf", { name: seatName(step.to_move) }));
    const moveBox = h("div", { class: "last-move" },
      step.index ? lastMoveParts({ seat: step.seat, text: step.move }, seatName)
        : [h("h2", {}, t("table.lastMove")), h("p", { class: "start-position" }, t("replay.startPosition"))]);
    replaceKeepingFocus(this.el.opponents, parts.opponents || []);
    replaceKeepingFocus(this.el.felt, parts.felt || []);
    replaceKeepingFocus(this.el.info, [whoseTurn, moveBox, ...(parts.info || [])].filter(Boolean));
    const summary = over && module.summary ? module.summary(state, { mySeat: null, seatName }) : null;
    replaceKeepingFocus(this.el.result, summary
      ? [h("section", { class: "summary" }, h("h2", {}, t("table.result")), summary)] : []);
    this.el.count.textContent = t("replay.step", { n: step.index, of: this.last() });
    const board = this.el.board.dataset;
    board.step = String(step.index);
    board.over = String(over);
    board.mover = step.seat === null ? "" : String(step.seat);
    // Only the old and the new current move change (a long game has hundreds).
    const list = this.el.list;
    const li = list.children[this.step - 1] || null;   // step n is the list's nth item
    if (this.currentLi && this.currentLi !== li) {
      this.currentLi.classList.remove("current");
      this.currentLi.querySelector("button").setAttribute("aria-current", "false");
    }
    this.currentLi = li;
    if (!li) return;
    li.classList.add("current");
    li.querySelector("button").setAttribute("aria-current", "step");
    // Keep the current move in sight inside the list, without scrolling the page; read the
    // layout once the frame is drawn, not in the middle of drawing it.
    cancelAnimationFrame(this.scrollFrame);
    this.scrollFrame = requestAnimationFrame(() => {
      if (this.currentLi !== li) return;
      const top = li.offsetTop;
      if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    });
  }
}
