// Finished games, and a step-by-step replay of one.  The record holds the rules, the
// decks and every move as text; the replay steps through the moves (with the seat that
// played each one when the server says so) and shows the result at the end.

import { getHistory, getRecord } from "./api.js";
import { h, clear, replaceKeepingFocus } from "./dom.js";
import { t, num, joinList } from "./i18n.js";
import { gameTitle, kindLabel } from "./names.js";
import { moveText } from "./table.js";
import { navigate } from "./router.js";
import * as pasur from "./pasur.js";
import * as durak from "./durak.js";

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

function resultLine(game, summary, seatName) {
  if (!summary) return "";
  if (game === "durak") {
    if (summary.loser === null || summary.loser === undefined || summary.draw) return t("durak.noDurak");
    return t("durak.durak", { name: seatName(summary.loser) });
  }
  const winners = summary.winners || [];
  const totals = (summary.totals || []).map((x) => num(x)).join(" : ");
  const who = winners.length ? t("table.winner", { names: joinList(winners.map(seatName), { and: true }) })
    : t("table.draw");
  return totals ? `${who} (${totals})` : who;
}

/**
 * Who played each move of a Pasur record.  Every hand deals 48 cards to the hands and
 * each turn plays one of them, seat after seat from the hand's leader (seat order is
 * turn order), so the leaders in the result's hands give every move's seat.
 */
export function pasurMovers(record) {
  const hands = record.result?.hands;
  const players = record.players;
  if (!Array.isArray(hands) || !players) return null;
  const perHand = 48;
  if (record.moves.length > hands.length * perHand) return null;
  return record.moves.map((_, i) => {
    const hand = hands[Math.floor(i / perHand)];
    return hand && typeof hand.leader === "number" ? (hand.leader + (i % perHand)) % players : null;
  });
}

export class History {
  constructor(root) {
    this.root = root;
    this.render();
    this.load();
  }

  destroy() {}

  async load() {
    try {
      this.items = await getHistory();
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel history" }, h("h2", {}, t("history.title")));
    if (this.error) panel.appendChild(h("p", { class: "error" }, t("lobby.loadError", { reason: this.error })));
    else if (!this.items) panel.appendChild(h("p", { class: "muted" }, t("lobby.loading")));
    else if (!this.items.length) panel.appendChild(h("p", { class: "muted" }, t("history.none")));
    else {
      const list = h("ul", { class: "history-list" });
      for (const item of this.items) {
        const seats = item.seats || [];
        const name = (seat) => seatLabel(seats[seat], seat);
        list.appendChild(h("li", { class: "history-item", dataset: { table: item.id } },
          h("div", {},
            h("strong", {}, gameTitle(item.game)),
            item.preset ? h("span", { class: "muted" }, ` · ${item.preset}`) : null,
            h("div", {}, `${t("history.players")}: `, joinList(seats.map((s, i) => seatLabel(s, i)))),
            h("div", {}, `${t("history.result")}: `, resultLine(item.game, item.summary, name)),
            h("div", { class: "muted" }, `${t("history.finished")}: ${when(item.finished)}`)),
          h("button", { type: "button", class: "primary replay",
                        onclick: () => navigate(`/#replay/${item.id}`) }, t("history.replay"))));
      }
      panel.appendChild(list);
    }
    root.appendChild(panel);
  }
}

export class Replay {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.step = 0;
    this.onKey = (event) => {
      if (!this.record || ["INPUT", "SELECT", "TEXTAREA"].includes(event.target?.tagName)) return;
      const rtl = document.documentElement.dir === "rtl";
      if (event.key === (rtl ? "ArrowLeft" : "ArrowRight")) this.go(this.step + 1);
      else if (event.key === (rtl ? "ArrowRight" : "ArrowLeft")) this.go(this.step - 1);
      else if (event.key === "Home") this.go(0);
      else if (event.key === "End") this.go(this.record.moves.length);
    };
    document.addEventListener("keydown", this.onKey);
    this.render();
    this.load();
  }

  destroy() { document.removeEventListener("keydown", this.onKey); }

  async load() {
    try {
      this.record = await getRecord(this.tableId);
    } catch (error) {
      this.error = error.message;
      this.render();
      return;
    }
    // Who played each move: the record may carry it; else ask the table's own summary.
    this.movers = this.record.move_seats || null;
    if (!this.movers && Array.isArray(this.record.moves) && this.record.moves.some((m) => typeof m === "object")) {
      this.movers = this.record.moves.map((m) => m.seat ?? null);
      this.record.moves = this.record.moves.map((m) => m.move ?? String(m));
    }
    if (!this.movers && this.record.game === "pasur") this.movers = pasurMovers(this.record);
    this.render();
  }

  go(step) {
    const max = this.record ? this.record.moves.length : 0;
    this.step = Math.max(0, Math.min(max, step));
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
    if (!this.record) { panel.appendChild(h("p", { class: "muted" }, t("lobby.loading"))); return; }
    const record = this.record;
    const rules = Object.entries(record.rules || {})
      .map(([k, v]) => `${k.replace(/_/g, " ")}: ${Array.isArray(v) ? v.join(",") : v}`).join(" · ");
    this.stepBox = h("div", { class: "replay-step", "aria-live": "polite" });
    this.list = h("ol", { class: "move-list", "aria-label": t("replay.moves") });
    record.moves.forEach((move, i) => {
      const who = this.movers ? this.movers[i] : null;
      this.list.appendChild(h("li", { dataset: { step: i + 1 } },
        h("button", { type: "button", class: "move-step", onclick: () => this.go(i + 1) },
          h("span", { class: "step-no" }, `${num(i + 1)}.`),
          who !== null && who !== undefined ? h("span", { class: "who" }, `${this.seatName(who)}: `) : null,
          moveText(typeof move === "string" ? move : move.move))));
    });
    const parts = [
      h("p", {}, h("strong", {}, gameTitle(record.game)), record.preset ? ` · ${record.preset}` : "", " · ",
        `${t("history.players")}: `, joinList((record.seats || []).map((s, i) => seatLabel(s, i)))),
      h("details", { class: "rules" }, h("summary", {}, t("replay.rules")), h("p", { class: "muted" }, rules)),
      h("div", { class: "replay-controls", role: "toolbar" },
        h("button", { type: "button", class: "to-start", onclick: () => this.go(0) }, `⏮ ${t("replay.start")}`),
        h("button", { type: "button", class: "back", onclick: () => this.go(this.step - 1) }, `◀ ${t("replay.back")}`),
        h("button", { type: "button", class: "next primary", onclick: () => this.go(this.step + 1) }, `${t("replay.next")} ▶`),
        h("button", { type: "button", class: "to-end", onclick: () => this.go(record.moves.length) }, `${t("replay.end")} ⏭`)),
      this.stepBox,
      this.movers ? null : h("p", { class: "muted small" }, t("replay.noViews")),
      h("h3", {}, t("replay.moves")),
      this.list];
    panel.append(...parts.filter(Boolean));
    this.renderStep();
  }

  renderStep() {
    if (!this.stepBox) return;
    const record = this.record;
    const total = record.moves.length;
    const parts = [h("p", { class: "step-count" }, t("replay.step", { n: this.step, of: total }))];
    if (this.step === 0) parts.push(h("p", {}, t("replay.startPosition")));
    else {
      const move = record.moves[this.step - 1];
      const who = this.movers ? this.movers[this.step - 1] : null;
      parts.push(h("p", { class: "current-move" },
        who !== null && who !== undefined ? h("strong", {}, `${this.seatName(who)}: `) : null,
        moveText(move)));
    }
    if (this.step === total && record.result) {
      const module = record.game === "durak" ? durak : pasur;
      const line = resultLine(record.game, record.result, (s) => this.seatName(s));
      parts.push(h("p", { class: "result-line" }, line));
      if (module === pasur && record.result.hands) {
        const body = pasur.summary({ over: true, summary: record.result,
          view: { players: record.players, sides: record.result.sides } },
        { seatName: (s) => this.seatName(s) });
        if (body) {
          body.querySelector(".result-line")?.remove(); // said just above, with the totals
          parts.push(body);
        }
      }
    }
    replaceKeepingFocus(this.stepBox, parts);
    for (const li of this.list.children) {
      const on = Number(li.dataset.step) === this.step;
      li.classList.toggle("current", on);
      if (on) {
        // Keep the current move in sight inside the list, without scrolling the page.
        const list = this.list;
        const top = li.offsetTop;
        if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = Math.max(0, top - list.clientHeight / 2);
        }
      }
      li.querySelector("button").setAttribute("aria-current", on ? "step" : "false");
    }
  }
}
