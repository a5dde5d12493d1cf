// @ts-check
// The live move log at the table: every move in words, with what it caused (a sur, the
// end of a hand or of a round, who leads next), newest last.  The words come from the
// game's module (logLines(previous, state, names)); opponents' moves are also said to
// screen readers through the page's live region.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const LIMIT = 400;

export class MoveLog {
  constructor() {
    this.entries = [];    // {index, seat, move, say: () => text, kind}
    this.lastIndex = null;
    this.stale = false;   // moves are missing or wrong: rebuild from the server's log
    this.said = new Set();   // the keys of the events said
    this.scrolling = 0;   // the frame that will scroll the log to its newest line
    // a box that scrolls: reachable from the keyboard, to scroll it with the arrows
    this.list = h("ol", { class: "log-lines", tabindex: 0, "aria-labelledby": "move-log-title" });
    this.el = h("section", { class: "move-log", "aria-labelledby": "move-log-title" },
      h("h2", { id: "move-log-title" }, t("log.title")), this.list);
  }

  /** Note the move that led from `previous` to `state` (once per move index), and return
   * what to say aloud: the other seats' moves (the player knows their own).  Lines are
   * thunks, so a change of language rewrites them.  Moves taken back leave the log; when
   * the log cannot know what came before (moves it never saw, or one taken back and
   * replaced) it says so in `stale`, and the table rebuilds it from the server's log. */
  note(module, previous, state, mySeat, seatName) {
    if (!module.logLines || !this.follow(state)) return "";
    const last = state.last_move;
    if (this.lastIndex !== null && last.index <= this.lastIndex) return "";
    if (last.index !== (this.lastIndex ?? -1) + 1) this.stale = true;
    this.lastIndex = last.index;
    const lines = moveLines(module, previous, state, seatName);
    this.add(lines, last);
    this.render();
    return last.seat !== mySeat || last.takeover ? lines.map((line) => line.say()).join(". ") : "";
  }

  /** Keep the log true to `state`'s last move: lines of moves taken back leave, and a
   * move the log holds no line of (or another one at its place) makes it stale.
   * Returns whether `state` has a last move to note. */
  follow(state) {
    const last = state.last_move;
    if (!last || typeof last !== "object" || last.index === undefined) {
      if (this.entries.length || this.lastIndex !== null) {   // every move taken back
        this.entries = [];
        this.lastIndex = null;
        this.render();
      }
      return false;
    }
    if (this.lastIndex === null || last.index > this.lastIndex) return true;
    if (last.index < this.lastIndex) {
      this.entries = this.entries.filter((entry) => entry.index <= last.index);
      this.lastIndex = last.index;
      this.render();
    }
    const held = this.entries.filter((entry) => entry.index === last.index && !entry.event);
    if (held.length && held.some((entry) => entry.move !== last.move)) this.stale = true;
    if (!held.length && this.entries.length < LIMIT) this.stale = true;
    return true;
  }

  add(lines, last) {
    for (const line of lines) {
      this.entries.push({ index: last.index, seat: last.seat, move: last.move, say: line.say,
        kind: line.kind || "" });
    }
    if (this.entries.length > LIMIT) this.entries.splice(0, this.entries.length - LIMIT);
  }

  /** Lines beyond the moves ({key, say, kind}: a seat gone, an end no move made), each
   * said once, after the move they came with. */
  events(events) {
    const fresh = events.filter((event) => !this.said.has(event.key));
    if (!fresh.length) return;
    for (const event of fresh) {
      this.said.add(event.key);
      this.entries.push({ index: this.lastIndex ?? -1, seat: null, move: null, event: true,
        say: event.say, kind: event.kind });
    }
    this.render();
  }

  /** The whole log again from the table's moves (GET /api/tables/ID/log: the deal and
   * every move with the public table after it), worded as the live log words them. */
  rebuild(module, log, mySeat, seatName) {
    this.entries = [];
    this.lastIndex = null;
    this.stale = false;
    this.said = new Set();
    if (module.logLines) {
      let previous = { view: log.deal, over: false, seat: mySeat };
      for (const step of log.steps) {
        const last = { index: step.index, seat: step.seat, move: step.move,
          takeover: step.takeover === true };
        const state = { last_move: last, view: step.view, over: step.over, seat: mySeat };
        this.add(moveLines(module, previous, state, seatName), last);
        this.lastIndex = step.index;
        previous = state;
      }
    }
    this.render();
  }

  render() {
    this.el.querySelector("h2").textContent = t("log.title");
    this.list.replaceChildren(...(this.entries.length ? this.entries.map((entry) =>
      h("li", { class: `log-line ${entry.kind}`, dataset: { index: entry.index, seat: entry.seat ?? "" } },
        entry.say()))
      // no number before it (it is no move), in the log's own colour on the felt
      : [h("li", { class: "log-empty" }, t("log.empty"))]));
    this.showNewest();
  }

  /** Scroll the log (not the page) to its newest line, once it is in the page: at the
   * next frame, once however often it is asked, so that reading its height does not make
   * the browser lay out the page in the middle of a drawing (a long pause on a phone). */
  showNewest() {
    if (this.scrolling) return;
    this.scrolling = requestAnimationFrame(() => {
      this.scrolling = 0;
      this.list.scrollTop = this.list.scrollHeight;
    });
  }
}

/** The log's lines for `state`'s last move.  One a bot made for the seat's player (out
 * of time, away, gone: `last_move.takeover`, a log step's `takeover`) is not theirs, so it
 * reads "Bot for NAME", not "You". */
function moveLines(module, previous, state, seatName) {
  const last = state.last_move;
  const mover = last.takeover
    ? (seat) => (seat === last.seat ? t("log.botFor", { name: seatName(seat) }) : seatName(seat))
    : seatName;
  return module.logLines(previous, last.takeover ? { ...state, seat: null } : state, mover) || [];
}
