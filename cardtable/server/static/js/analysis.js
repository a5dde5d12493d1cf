// @ts-check
// The analysis board of a finished game (/#/analyse/TABLE_ID, /#/analyse/TABLE_ID/MOVE):
// POST /api/tables/ID/analysis starts it (in the server's background bot process); GET
// says how far it got, then gives every judged move and each seat's expected result over
// the game (`series`).  The board draws a graph per seat (SVG, with a title and a
// description, the labelled moves marked), the moves with both judgements (from what the
// player knew, and in hindsight) and their labels, a filter (whose moves; only the
// labelled ones), and the game's replay below: choosing a move shows the table after it.
// A label is shown only where the judge is sure of it; where the loss's interval also
// reaches a worse label the move says "unsure" with the interval ("loses 4%–12%").
// Values are in the analysis's unit: Pasur, points ahead of the other side by the end of
// the hand; Durak, the chance of being the durak.  No game is named here.

import { api, getTableInfo, seats as seatStore } from "./api.js";
import { h, clear, replaceKeepingFocus, announce } from "./dom.js";
import { t, num, joinList } from "./i18n.js";
import { kindLabel, normalizeSeats } from "./names.js";
import { moveText } from "./cards.js";
import { getMe } from "./players.js";
import { Replay } from "./history.js";

const enc = encodeURIComponent;
const LABELS = ["inaccuracy", "mistake", "blunder"];
const POLL_MS = 1000;

/** The screen for the hash after "#/analyse/" ("ID" or "ID/MOVE"). */
export function analysisScreen(root, rest) {
  const [id, move] = rest.split("/").map(decodeURIComponent);
  return new AnalysisBoard(root, id, /^\d+$/.test(move ?? "") ? Number(move) : null);
}

/** The analysis board's address, at a move or not. */
export function analysisHref(tableId, move = null) {
  return `/#/analyse/${enc(tableId)}${move === null ? "" : `/${move}`}`;
}

function isChance(unit) { return String(unit).startsWith("chance"); }

/** A value in the analysis's unit, in the page's language: "+2.5" points, "34%". */
function valueText(value, unit, { signed = false } = {}) {
  if (typeof value !== "number") return "—";
  // rounded first, so that a tiny negative loss is "0", not "-0"
  value = isChance(unit) ? Math.round(value * 100) / 100 + 0 : Math.round(value * 10) / 10 + 0;
  if (isChance(unit)) return num(value, { style: "percent", maximumFractionDigits: 0 });
  return num(value, { minimumFractionDigits: 1, maximumFractionDigits: 1,
    signDisplay: signed ? "exceptZero" : "auto" });
}

/** Bring a row into sight inside its scrolling box, without scrolling the page. */
function scrollWithin(box, row) {
  if (!box) return;
  const outer = box.getBoundingClientRect();
  const inner = row.getBoundingClientRect();
  if (inner.top < outer.top + inner.height || inner.bottom > outer.bottom) {
    box.scrollTop += inner.top - outer.top - outer.height / 2;
  }
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element (h() makes HTML ones). */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) el.appendChild(child);
  return el;
}

/** The replay under the board: it goes to a move asked for before it has loaded, once
 * it has, and tells the board where it is (its keys and buttons step through the game). */
class BoardReplay extends Replay {
  /** @type {((step: number) => void) | undefined} told of each step shown (the board) */
  onStep;

  go(step) {
    super.go(step);
    this.onStep?.(this.step);
  }

  render() {
    super.render();
    if (this.steps && this.wanted) {
      const step = this.wanted;
      this.wanted = null;
      this.go(step);
    }
  }

  show(step, { scroll = true } = {}) {
    if (!this.steps) { this.wanted = step; return; }
    this.go(step);
    if (scroll) this.showBoard();
  }
}

export class AnalysisBoard {
  constructor(root, tableId, move = null) {
    this.root = root;
    this.tableId = tableId;
    this.selected = move;
    this.analysis = null;
    this.progress = null;
    this.seatInfo = [];
    this.mine = null;
    this.whose = null;       // the seat whose moves the list shows (null: everyone)
    this.onlyLabelled = false;
    this.el = {
      panel: h("section", { class: "panel analysis-board", id: "analysis",
        dataset: { table: tableId }, "aria-labelledby": "analysis-title" }),
      replayHead: h("div", { class: "analysis-replay-head" }),
      replay: h("div", { class: "analysis-replay" }),
    };
    clear(root).append(this.el.panel, this.el.replayHead, this.el.replay);
    this.replay = new BoardReplay(this.el.replay, tableId);
    this.replay.onStep = (step) => this.stepShown(step);
    if (move) this.replay.show(move, { scroll: false });
    this.draw();
    this.start();
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.timer);
    this.replay.destroy();
  }

  /** The seats' names, and which seat is the player's (the seat's token kept on this
   * device, or the signed-in player's seat), for the filter's default. */
  async loadSeats() {
    try {
      const info = await getTableInfo(this.tableId);
      const seats = info.seats || [];
      this.seatInfo = normalizeSeats(seats);
      const stored = seatStore.get(this.tableId);
      const me = await getMe();
      const mine = stored ? stored.seat
        : seats.find((s) => s && me?.id && s.player === me.id)?.seat;
      if (typeof mine === "number") this.mine = this.whose = mine;
    } catch { /* the names stay "Seat n" */ }
  }

  async start() {
    await this.loadSeats();
    let refused = null;
    try {
      await api(`/api/tables/${enc(this.tableId)}/analysis`, { method: "POST" });
    } catch (error) { refused = error; }   // the table may be gone and its analysis kept
    this.poll(refused);
  }

  async poll(refused = null) {
    if (this.gone) return;
    try {
      const now = await api(`/api/tables/${enc(this.tableId)}/analysis`);
      if (this.gone) return;
      if (now.status === "done") {
        this.analysis = now.analysis;
        this.draw();
        announce(t("analysis.done", { n: this.judged().length }));
        if (this.selected) this.select(this.selected, { scroll: false });
        return;
      }
      this.progress = now;
      this.renderProgress();
    } catch (error) {
      if (this.gone) return;
      this.error = (refused ?? error).message;
      this.draw();
      return;
    }
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  seatName(seat) {
    const info = this.seatInfo[seat];
    let name = info?.name || t("table.seatName", { n: seat + 1 });
    if (info?.isBot && !info.name) name = `${name} (${kindLabel(info.kind)})`;
    return seat === this.mine ? `${name} (${t("table.you")})` : name;
  }

  /** The moves with a choice: the ones judged. */
  judged() {
    return (this.analysis?.moves || []).filter((m) => m.choices > 1);
  }

  labelText(label) { return label ? t(`analysis.${label}`) : ""; }

  /** The loss's interval in words ("loses 4%–12%"), or null when the judge gave none. */
  lossRange(move) {
    const unit = this.analysis.unit;
    if (typeof move.loss_low !== "number" || typeof move.loss_high !== "number") return null;
    return t("analysis.lossRange", { low: valueText(move.loss_low, unit), high: valueText(move.loss_high, unit) });
  }

  /** A judged move's verdict: its label where the judge is sure of it, then "unsure" (the
   * worse label it cannot rule out in the tooltip) with the loss's interval in a line. */
  verdict(move) {
    const range = this.lossRange(move);
    return [
      move.label ? h("span", { class: `label-word label-${move.label}` }, this.labelText(move.label)) : null,
      move.unsure ? h("span", { class: "unsure-word", dataset: { unsure: move.unsure },
        title: [t("analysis.unsureOf", { label: this.labelText(move.unsure) }), range].filter(Boolean).join(" · ") },
      t("analysis.unsure")) : null,
      move.unsure && range ? h("small", { class: "loss-range" }, range) : null];
  }

  // -- drawing -------------------------------------------------------------------------------
  /** Drawn again in a new language (the app asks): the board and the replay. */
  render() {
    this.draw();
    if (this.replay.steps || this.replay.error) this.replay.render();
  }

  draw() {
    const parts = [h("h2", { id: "analysis-title" }, t("analysis.heading", { id: this.tableId })),
      h("p", { class: "muted analysis-intro" }, t("analysis.intro"))];
    if (this.error) parts.push(h("p", { class: "error", role: "alert" }, this.error));
    else if (!this.analysis) parts.push(this.progressBox());
    else parts.push(...this.board());
    replaceKeepingFocus(this.el.panel, parts);
    this.el.current = h("p", { id: "analysis-current", "aria-live": "polite" });
    replaceKeepingFocus(this.el.replayHead, [h("h2", { class: "analysis-replay-title" }, t("analysis.replay")),
      h("p", { class: "muted" }, t("analysis.replayHelp")), this.el.current]);
    this.markSelected();
  }

  progressBox() {
    this.el.status = h("p", { id: "analysis-status", role: "status", dataset: { done: "false" } });
    this.el.bar = h("progress", { class: "analysis-progress", max: 1, value: 0,
      "aria-labelledby": "analysis-status" });
    this.renderProgress();
    return h("div", { class: "analysis-running" }, this.el.status, this.el.bar);
  }

  renderProgress() {
    const now = this.progress;
    if (!this.el.status) return;
    if (!now || !now.total) {
      this.el.status.textContent = t("analysis.waiting");
      this.el.bar.removeAttribute("value");   // an indeterminate bar until the count is known
      return;
    }
    this.el.status.textContent = t("analysis.running", { n: now.done ?? 0, of: now.total });
    this.el.bar.max = now.total;
    this.el.bar.value = now.done ?? 0;
  }

  board() {
    const data = this.analysis;
    const unit = data.unit;
    const [a, b, c] = data.thresholds || [];
    const seats = Object.keys(data.series || {}).map(Number).sort((x, y) => x - y);
    return [
      h("p", { id: "analysis-status", role: "status", dataset: { done: "true" } },
        t("analysis.done", { n: this.judged().length })),
      a === undefined ? null : h("p", { class: "analysis-thresholds" }, t("analysis.thresholds", {
        a: valueText(a, unit), b: valueText(b, unit), c: valueText(c, unit) })),
      h("h3", {}, `${t("analysis.graphs")} (${isChance(unit) ? t("analysis.unitChance") : t("analysis.unitPoints")})`),
      h("div", { class: "analysis-graphs" }, seats.map((seat) => this.graph(seat, data.series[String(seat)]))),
      h("h3", {}, t("analysis.moves")),
      this.filters(seats),
      this.movesTable(),
    ];
  }

  /** Which judged move each value of a seat's series belongs to: with two sides, every
   * judged move (the other side's turned round); with more, the seat's own. */
  pointsOf(seat, values) {
    const valued = (this.analysis.moves || []).filter((m) => typeof m.expected === "number");
    const own = valued.filter((m) => m.seat === seat);
    const moves = values.length === valued.length ? valued : values.length === own.length ? own : null;
    return values.map((value, i) => ({ value, move: moves ? moves[i] : null, x: moves ? moves[i].index : i + 1 }));
  }

  graph(seat, values) {
    const unit = this.analysis.unit;
    const name = this.seatName(seat);
    const points = this.pointsOf(seat, values || []);
    const W = 640, H = 190, left = 52, right = 12, top = 12, bottom = 26;
    const last = Math.max(1, ...points.map((p) => p.x), (this.analysis.moves || []).length);
    let lo, hi;
    if (isChance(unit)) { lo = 0; hi = 1; } else {
      lo = Math.min(0, ...points.map((p) => p.value));
      hi = Math.max(0, ...points.map((p) => p.value));
      if (hi - lo < 2) { hi += 1; lo -= 1; }
    }
    // a right-to-left page reads the game from the right: the first move at the right,
    // the values' scale on the right too (the drawing mirrored, its words not)
    const rtl = document.documentElement.dir === "rtl";
    const across = (px) => (rtl ? W - px : px);
    const start = rtl ? "end" : "start", end = rtl ? "start" : "end";
    const x = (v) => across(left + (W - left - right) * (last <= 1 ? 0.5 : (v - 1) / (last - 1)));
    const y = (v) => top + (H - top - bottom) * (1 - (v - lo) / (hi - lo));
    const ticks = isChance(unit) ? [0, 0.5, 1] : [lo, 0, hi];
    const marked = points.filter((p) => p.move && p.move.seat === seat && p.move.label);
    const marks = marked.map((p) => `${num(p.x)} (${this.labelText(p.move.label)})`);
    const titleId = `analysis-graph-title-${seat}`;
    const descId = `analysis-graph-desc-${seat}`;
    // a group, not an image: its marks are buttons (an image's insides are not there for
    // a screen reader, and a button in one cannot be reached)
    const chart = svg("svg", { class: "analysis-graph-svg", viewBox: `0 0 ${W} ${H}`, role: "group",
      "aria-labelledby": `${titleId} ${descId}`, dir: "ltr", preserveAspectRatio: "none",
      "data-direction": rtl ? "rtl" : "ltr" },
    svg("title", { id: titleId, text: t("analysis.graphTitle", { name }) }),
    svg("desc", { id: descId, text: t("analysis.graphDesc", {
      unit: isChance(unit) ? t("analysis.unitChance") : t("analysis.unitPoints"),
      from: 1, to: last, low: valueText(lo, unit), high: valueText(hi, unit), name,
      marks: marks.length ? joinList(marks) : t("analysis.noMarks") }) }),
    ticks.map((v) => svg("g", { class: v === 0 && !isChance(unit) ? "tick zero" : "tick" },
      svg("line", { x1: across(left), x2: across(W - right), y1: y(v), y2: y(v) }),
      svg("text", { x: across(left - 6), y: y(v) + 4, "text-anchor": end, text: valueText(v, unit, { signed: !isChance(unit) }) }))),
    svg("text", { class: "axis-note first", x: across(left), y: H - 6, "text-anchor": start, text: num(1) }),
    svg("text", { class: "axis-note last", x: across(W - right), y: H - 6, "text-anchor": end, text: num(last) }),
    svg("line", { class: "cursor", x1: -10, x2: -10, y1: top, y2: H - bottom }),
    svg("polyline", { class: "series", fill: "none",
      points: points.map((p) => `${x(p.x).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ") }),
    marked.map((p) => {
      const label = p.move.label;
      const go = () => this.select(p.x);
      return svg("g", { class: `mark mark-${label}`, tabindex: 0, role: "button",
        "data-index": p.x, "data-label": label,
        "aria-label": `${t("analysis.showMove", { n: p.x })}: ${this.labelText(label)}`,
        onclick: go, onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } } },
      svg("title", { text: `${num(p.x)}. ${p.move.move}: ${this.labelText(label)}` }),
      svg("circle", { cx: x(p.x), cy: y(p.value), r: 3 + LABELS.indexOf(label) * 1.5 }));
    }));
    this.cursorX = this.cursorX || {};
    this.cursorX[seat] = x;
    const counts = Object.fromEntries(LABELS.map((l) => [l,
      this.judged().filter((m) => m.seat === seat && m.label === l).length]));
    const unsure = this.judged().filter((m) => m.seat === seat && m.unsure).length;
    return h("figure", { class: "analysis-graph", dataset: { seat: String(seat), points: String(points.length) } },
      chart,
      h("figcaption", { dataset: { unsure: String(unsure) } },
        t("analysis.count", { name, i: counts.inaccuracy, m: counts.mistake, b: counts.blunder }),
        ` · ${t("analysis.countUnsure", { u: unsure })}`));
  }

  filters(seats) {
    const whose = h("select", { id: "analysis-whose",
      onchange: (e) => { this.whose = e.target.value === "" ? null : Number(e.target.value); this.applyFilter(); } },
    h("option", { value: "", selected: this.whose === null }, t("analysis.everyone")),
    seats.map((seat) => h("option", { value: String(seat), selected: this.whose === seat }, this.seatName(seat))));
    const only = h("input", { type: "checkbox", id: "analysis-only-labelled", checked: this.onlyLabelled,
      onchange: (e) => { this.onlyLabelled = e.target.checked; this.applyFilter(); } });
    return h("div", { class: "analysis-filters", role: "group" },
      h("label", {}, `${t("analysis.whose")} `, whose),
      h("label", {}, only, ` ${t("analysis.onlyLabelled")}`));
  }

  movesTable() {
    const unit = this.analysis.unit;
    const dash = (v) => (v === null || v === undefined ? "—" : v);
    const rows = this.judged().map((m) => h("tr", { class: m.label ? `labelled label-${m.label}` : "",
      dataset: { index: String(m.index), seat: String(m.seat), label: m.label || "", unsure: m.unsure || "" } },
    h("td", {}, h("button", { type: "button", class: "show-move", "aria-label": t("analysis.showMove", { n: m.index }),
      onclick: () => this.select(m.index) }, num(m.index))),
    h("td", {}, this.seatName(m.seat)),
    h("td", { class: "played" }, moveText(m.move, { plain: true })),
    h("td", { class: "best" }, m.best === m.move ? "=" : moveText(m.best, { plain: true })),
    h("td", { class: "loss", title: this.lossRange(m) }, valueText(m.loss, unit)),
    h("td", { class: "label" }, this.verdict(m)),
    h("td", { class: "hindsight-best" }, m.hindsight_best ? moveText(m.hindsight_best, { plain: true }) : "—"),
    h("td", { class: "hindsight-loss" }, dash(m.hindsight_loss === null || m.hindsight_loss === undefined
      ? null : valueText(m.hindsight_loss, unit)))));
    this.el.empty = h("p", { class: "muted analysis-empty", hidden: true }, t("analysis.noneShown"));
    const heads = [t("analysis.moveNo"), t("analysis.player"), t("analysis.played"),
      t("analysis.best"), t("analysis.loss"), t("analysis.label"), t("analysis.hindsightBest"),
      t("analysis.hindsightLoss")];
    // each value names its column: a phone shows every row as a small block (style.css)
    for (const row of rows) [...row.cells].forEach((cell, i) => { cell.dataset.head = heads[i]; });
    this.el.table = h("table", { id: "analysis-moves", class: "analysis-moves" },
      h("thead", {}, h("tr", {}, heads.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows));
    const box = h("div", { class: "analysis-moves-box" }, this.el.table, this.el.empty);
    this.applyFilter();
    return box;
  }

  applyFilter() {
    if (!this.el.table) return;
    let shown = 0;
    for (const row of this.el.table.tBodies[0].rows) {
      const seatOk = this.whose === null || Number(row.dataset.seat) === this.whose;
      const labelOk = !this.onlyLabelled || row.dataset.label !== "";
      row.hidden = !(seatOk && labelOk);
      if (!row.hidden) shown += 1;
    }
    this.el.empty.hidden = shown > 0;
  }

  /** Show a move: the replay at the table after it (which says so: stepShown). */
  select(index, { scroll = true } = {}) {
    this.selected = index;
    this.replay.show(index, { scroll });
    this.markSelected();
  }

  /** The replay shows the table after move ``step``: the row and the graphs marked, the
   * move's judgements said above the table, and the address says it (a link to it). */
  stepShown(step) {
    if (this.gone) return;
    this.selected = step || null;
    if (location.hash.startsWith("#/analyse/")) {
      history.replaceState(null, "", analysisHref(this.tableId, this.selected));
    }
    this.markSelected();
  }

  /** What the analysis says of the move shown, over the replay. */
  renderCurrent() {
    const box = this.el.current;
    if (!box) return;
    const move = (this.analysis?.moves || []).find((m) => m.index === this.selected);
    if (!move || !(move.choices > 1)) { clear(box); box.hidden = true; return; }
    const unit = this.analysis.unit;
    box.hidden = false;
    box.dataset.index = String(move.index);
    replaceKeepingFocus(box, [
      h("strong", {}, `${t("analysis.moveNo")} ${num(move.index)} · ${this.seatName(move.seat)}: `),
      moveText(move.move, { plain: true }),
      move.label || move.unsure ? [" ", this.verdict(move)] : null,
      ` · ${t("analysis.best")}: `, moveText(move.best, { plain: true }),
      ` · ${t("analysis.loss")}: ${valueText(move.loss, unit)}`,
      move.hindsight_best ? [` · ${t("analysis.hindsightBest")}: `, moveText(move.hindsight_best, { plain: true }),
        ` · ${t("analysis.hindsightLoss")}: ${valueText(move.hindsight_loss, unit)}`] : null]);
  }

  markSelected() {
    const index = this.selected;
    this.renderCurrent();
    for (const row of this.el.panel.querySelectorAll("#analysis-moves tbody tr")) {
      const on = Number(row.dataset.index) === index;
      row.classList.toggle("selected", on);
      if (on) row.setAttribute("aria-current", "true"); else row.removeAttribute("aria-current");
      if (on && !row.hidden) scrollWithin(row.closest(".analysis-moves-box"), row);
    }
    for (const figure of this.el.panel.querySelectorAll(".analysis-graph")) {
      const x = this.cursorX?.[Number(figure.dataset.seat)];
      const cursor = figure.querySelector(".cursor");
      if (!x || !cursor) continue;
      const at = index ? x(index) : -10;
      cursor.setAttribute("x1", at);
      cursor.setAttribute("x2", at);
      for (const mark of figure.querySelectorAll(".mark")) {
        mark.classList.toggle("selected", Number(mark.dataset.index) === index);
      }
    }
  }
}
