// @ts-check
// The table's life bar: the clock of the seat to move (counting down between states),
// and the Resign and Leave buttons of a seated player.  The server sends each state's
// clock as seconds left when it was sent; the page counts down from when it arrived.

import { h, clear } from "./dom.js";
import { t, num } from "./i18n.js";
import { goneNote } from "./endings.js";

const TICK_MS = 250;

/** A rating as players write it: digits of the page's language, no thousands separator. */
export function ratingText(n) {
  return num(Number(n), { useGrouping: false });
}

/** "1:05" (or "0:07"; "۱:۰۵" in Persian): minutes and seconds of a time left; from an
 * hour on, hours too ("23:59:58": a day a move). */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const two = { minimumIntegerDigits: 2 };
  if (whole >= 3600) {
    return `${num(Math.floor(whole / 3600))}:${num(Math.floor(whole / 60) % 60, two)}:${num(whole % 60, two)}`;
  }
  return `${num(Math.floor(whole / 60))}:${num(whole % 60, two)}`;
}

export class LifeBar {
  /** ``table``: the TableView (its socket sends resign and leave, seatName names seats). */
  constructor(table) {
    this.table = table;
    this.el = h("div", { class: "life-bar" });
    this.clockEl = h("span", { class: "clock", role: "timer", "aria-live": "off" });
    this.state = null;
    this.arrived = 0;
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  destroy() { clearInterval(this.ticker); }

  update(state, mySeat) {
    this.state = state;
    this.arrived = performance.now();
    const buttons = [];
    if (state && !state.over && state.status === "playing" && mySeat !== null
        && mySeat !== undefined && !state.seats?.[mySeat]?.bot_playing) {
      buttons.push(h("button", { type: "button", class: "resign", onclick: () => this.resign() },
        t("life.resign")));
      if (!state.rated) {
        buttons.push(h("button", { type: "button", class: "leave", onclick: () => this.leave() },
          t("life.leave")));
      }
    }
    const note = goneNote(state, mySeat);
    if (note) buttons.push(h("span", { class: "gone-note", role: "status" }, note));
    clear(this.el).append(this.people(state), this.clockEl, ...buttons);
    this.tick();
  }

  /** Each seat: its name, its rating (accounts) and whether its player is connected. */
  people(state) {
    const ratings = { ...(state?.ratings || {}) };
    const changes = state?.summary?.ratings || {};
    for (const [seat, change] of Object.entries(changes)) {
      // a rated game's end: the new rating, with how much it moved
      const sign = change.change > 0 ? "+" : "";
      ratings[seat] = `${ratingText(change.after)} (${sign}${ratingText(change.change)})`;
    }
    return h("ul", { class: "seat-strip", "aria-label": t("life.players") },
      (state?.seats || []).map((seat) => h("li", {
        class: `seat-chip${seat.connected && !seat.gone ? " online" : ""}${seat.gone ? " gone" : ""}`,
        dataset: { seat: String(seat.seat) } },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("bdi", {}, this.table.seatName(seat.seat)),
      ratings[String(seat.seat)] !== undefined
        ? h("span", { class: "rating", dataset: { changed: String(String(seat.seat) in changes) } },
          typeof ratings[String(seat.seat)] === "number" ? ratingText(ratings[String(seat.seat)])
            : ratings[String(seat.seat)]) : null,
      this.seatClock(state, seat.seat),
      seat.gone ? h("span", { class: "gone-mark" }, t(`life.gone.${seat.gone}`))
        : seat.kind === "human" ? h("span", { class: "sr-only" },
          seat.connected ? t("table.connectedMark") : t("life.away")) : null)));
  }

  /** A clocked table: each seat's bank by its name (the running seat's counts down). */
  seatClock(state, seat) {
    const clock = state?.clock;
    if (!clock || !Array.isArray(clock.banks) || clock.banks[seat] === undefined) return null;
    return h("span", { class: "seat-clock", dataset: { seat: String(seat) } },
      t("life.bank", { time: clockText(clock.banks[seat]) }));
  }

  tick() {
    const clock = this.state?.clock;
    if (!clock || this.state.over || clock.seat === null || clock.seat === undefined) {
      this.clockEl.hidden = true;
      return;
    }
    const spent = (performance.now() - this.arrived) / 1000;
    const moveLeft = Math.max(0, clock.move_left - spent);
    const bankLeft = Math.max(0, clock.bank_left - Math.max(0, spent - clock.move_left));
    this.clockEl.hidden = false;
    this.clockEl.dataset.seat = String(clock.seat);
    this.clockEl.classList.toggle("low", moveLeft <= 0 && bankLeft < 10);
    this.clockEl.textContent = t("life.clock", { who: this.table.seatName(clock.seat),
      move: clockText(moveLeft), bank: clockText(bankLeft) });
    const running = this.el.querySelector(`.seat-clock[data-seat="${clock.seat}"]`);
    if (running) {
      running.textContent = t("life.running", { move: clockText(moveLeft), bank: clockText(bankLeft) });
      running.classList.add("running");
    }
  }

  resign() {
    if (!window.confirm(t("life.resignSure"))) return;
    this.table.socket.send({ type: "resign" });
  }

  leave() {
    if (!window.confirm(t("life.leaveSure"))) return;
    this.table.socket.send({ type: "leave" });
  }
}
