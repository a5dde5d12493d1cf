// @ts-check
// The table's chat panel: the players' room for seated players, the spectators' room for
// watchers (the server keeps them apart), quick phrases shown in the viewer's language,
// a per-viewer mute (kept in this browser), and the creator's switch.  Every message is
// text: it is put in the page with textContent, never as HTML.  A signed-in account may
// report a line said from another seat to the admins (report.js).

import { h, clear } from "./dom.js";
import { t, onLanguageChange } from "./i18n.js";
import { getMe, onMeChange } from "./players.js";
import { ReportForm, mayReport } from "./report.js";

const PHRASES = ["hello", "good_luck", "good_game", "well_played", "thanks", "oops", "thinking", "rematch"];
const MAX = 200;
const MUTE_KEY = "cardtable.muted";

function loadMuted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]")); } catch { return new Set(); }
}

export class ChatPanel {
  /** send(msg) sends on the table's socket; view() gives {seat, creator} of this viewer;
   * `table` is the table's id, for reports. */
  constructor(send, view, table) {
    this.send = send;
    this.view = view;
    this.table = table;
    this.reporting = false;   // a signed-in account: the lines of others may be reported
    this.report = new ReportForm("chat-report");
    this.messages = [];
    this.off = false;
    this.muted = loadMuted();
    this.el = h("aside", { class: "chat", id: "chat", "aria-label": t("chat.title") });
    this.unlisten = onLanguageChange(() => this.render());
    const account = (who) => { this.reporting = mayReport(who); this.renderLog(); };
    this.unme = onMeChange(account);
    getMe().then(account);
    this.render();
  }

  destroy() { this.unlisten(); this.unme(); }

  /** The report control of a line said from another seat (spectators' lines have none). */
  reportButton(msg, name, body) {
    const seat = this.view().seat;
    if (!this.reporting || typeof msg.seat !== "number" || msg.seat === seat || !msg.at) return null;
    const button = h("button", { type: "button", class: "chat-report", title: t("report.line", { name }),
      "aria-label": t("report.line", { name }), onclick: () => this.report.open(
        { table: this.table, seat: msg.seat, at: msg.at }, t("report.aboutLine", { name, text: body }), button) }, "⚑");
    return button;
  }

  receive(msg) {
    if (msg.type === "chat_setting") { this.off = !!msg.off; this.render(); return; }
    this.messages.push(msg);
    if (this.messages.length > 100) this.messages.shift();
    this.renderLog();
  }

  /** Who sent a message, as the mute list knows them: a seat, or the spectators. */
  senderKey(msg) { return msg.seat === null || msg.seat === undefined ? "spectators" : `seat:${msg.seat}`; }

  toggleMute(key) {
    if (this.muted.has(key)) this.muted.delete(key); else this.muted.add(key);
    try { localStorage.setItem(MUTE_KEY, JSON.stringify([...this.muted])); } catch { /* private mode */ }
    this.renderLog();
  }

  render() {
    const { seat, creator } = this.view();
    const room = seat === null || seat === undefined ? "spectators" : "players";
    this.log = h("ol", { class: "chat-log", "aria-live": "polite" });
    const input = h("input", { id: "chat-input", maxlength: MAX, dir: "auto", placeholder: t("chat.placeholder"),
      "aria-label": t("chat.placeholder"), disabled: room === "players" && this.off });
    const form = h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text && this.send({ type: "chat", text: text.slice(0, MAX) })) input.value = "";
    } }, input, h("button", { type: "submit", disabled: room === "players" && this.off }, t("chat.send")));
    const phrases = h("div", { class: "chat-phrases", role: "group" }, PHRASES.map((key) =>
      h("button", { type: "button", dataset: { phrase: key }, disabled: room === "players" && this.off,
        onclick: () => this.send({ type: "chat", phrase: key }) }, t(`chat.phrase.${key}`))));
    const parts = [
      h("h2", {}, t(room === "players" ? "chat.players" : "chat.spectators")),
      this.off && room === "players" ? h("p", { class: "muted chat-off" }, t("chat.off")) : null,
      this.log, this.report.el, form, phrases,
      creator ? h("button", { type: "button", id: "chat-switch",
        onclick: () => this.send({ type: "chat_off", off: !this.off }) },
      t(this.off ? "chat.turnOn" : "chat.turnOff")) : null];
    clear(this.el).append(...parts.filter(Boolean));
    this.renderLog();
  }

  renderLog() {
    if (!this.log) return;
    clear(this.log);
    for (const msg of this.messages) {
      const key = this.senderKey(msg);
      if (this.muted.has(key)) continue;
      const name = msg.seat === null || msg.seat === undefined ? t("chat.spectator") : msg.name;
      const body = msg.phrase ? t(`chat.phrase.${msg.phrase}`) : msg.text;
      this.log.append(h("li", { class: "chat-message" },
        h("bdi", { class: "chat-name", dir: "auto" }, name), ": ",
        h("bdi", { class: "chat-text", dir: "auto" }, body), " ",
        h("button", { type: "button", class: "chat-mute", title: t("chat.mute", { name }),
          "aria-label": t("chat.mute", { name }), onclick: () => this.toggleMute(key) }, "🔇"),
        this.reportButton(msg, name, body)));
    }
    for (const key of this.muted) {
      const who = key === "spectators" ? t("chat.spectator")
        : this.messages.find((m) => this.senderKey(m) === key)?.name;
      if (!who) continue;
      this.log.append(h("li", { class: "chat-muted muted" }, h("button", { type: "button",
        onclick: () => this.toggleMute(key) }, t("chat.unmute", { name: who }))));
    }
    this.showNewest();
  }

  /** Scroll the log to its newest line at the next frame (once however often it is asked),
   * and only when it has lines: reading its height at once made the browser lay out the
   * whole table in the middle of its drawing, twice while a table opens (a phone's pause). */
  showNewest() {
    if (this.scrolling || !this.log?.firstChild) return;
    this.scrolling = requestAnimationFrame(() => {
      this.scrolling = 0;
      this.log.scrollTop = this.log.scrollHeight;
    });
  }
}
