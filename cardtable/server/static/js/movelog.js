// The live move log at the table: every move in words, with what it caused (a sur, the
// end of a hand or of a round, who leads next), newest last.  The words come from the
// game's module (logLines(previous, state, names)); opponents' moves are also said to
// screen readers through the page's live region.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const LIMIT = 400;

export class MoveLog {
  constructor() {
    this.entries = [];    // {index, seat, say: () => text, kind}
    this.lastIndex = null;
    this.list = h("ol", { class: "log-lines" });
    this.el = h("section", { class: "move-log", "aria-labelledby": "move-log-title" },
      h("h2", { id: "move-log-title" }, t("log.title")), this.list);
  }

  /** Note the move that led from `previous` to `state` (once per move index), and return
   * what to say aloud: the other seats' moves (the player knows their own).  Lines are
   * thunks, so a change of language rewrites them. */
  note(module, previous, state, mySeat, seatName) {
    const last = state.last_move;
    if (!module.logLines || !last || typeof last !== "object" || last.index === undefined) return "";
    if (this.lastIndex !== null && last.index <= this.lastIndex) return "";
    this.lastIndex = last.index;
    const lines = module.logLines(previous, state, seatName) || [];
    for (const line of lines) {
      this.entries.push({ index: last.index, seat: last.seat, say: line.say, kind: line.kind || "" });
    }
    if (this.entries.length > LIMIT) this.entries.splice(0, this.entries.length - LIMIT);
    this.render();
    return last.seat !== mySeat ? lines.map((line) => line.say()).join(". ") : "";
  }

  render() {
    this.el.querySelector("h2").textContent = t("log.title");
    this.list.replaceChildren(...(this.entries.length ? this.entries.map((entry) =>
      h("li", { class: `log-line ${entry.kind}`, dataset: { index: entry.index, seat: entry.seat ?? "" } },
        entry.say()))
      : [h("li", { class: "muted" }, t("log.empty"))]));
    this.showNewest();
  }

  /** Scroll the log (not the page) to its newest line; works once it is in the page. */
  showNewest() { this.list.scrollTop = this.list.scrollHeight; }
}
