// @ts-check
// How a game ended, and what happened to its seats, in words: a resignation, a rated
// game aborted before a seat's first move, a table nobody came back to, a player who forfeited (out of time, or away too long) or left.
// The end dialog says it above the score, the move log says it where it happened, and a
// player whose seat a bot now plays is told so.  The server's summary and each seat's
// `gone` carry the facts; the words are the page's, in the page's language.  Every end
// dialog offers the ways on from the game: its analysis board and its replay.

import { t } from "./i18n.js";
import { h } from "./dom.js";
import { navigate } from "./router.js";

/** The end dialog's ways on from a finished game: its analysis (every move judged) and
 * its replay (every hand face up), as links the page follows without reloading. */
export function afterGameLinks(tableId) {
  const id = encodeURIComponent(tableId);
  const link = (kind, href, key) => h("a", { class: `button ${kind}`, href,
    dataset: { focusKey: `end-${kind}` },
    onclick: (e) => { e.preventDefault(); navigate(href); } }, t(key));
  return [link("analyse", `/#/analyse/${id}`, "end.analyse"),
    link("replay", `/#replay/${id}`, "end.replay")];
}

/** Sentences for the end dialog: why the game ended, then each seat a bot finished. */
export function endingLines(summary, seatName) {
  if (!summary) return [];
  const lines = [];
  if (summary.ended === "resigned" && summary.resigned !== undefined) {
    lines.push(t("end.resigned", { name: seatName(summary.resigned) }));
  } else if (summary.ended === "abandoned") {
    lines.push(t("end.abandoned"));
  } else if (summary.ended === "aborted") {
    lines.push(t("end.aborted", { name: seatName(summary.aborted_by) }));
  }
  if (summary.unrated) lines.push(t(`end.unrated.${summary.unrated}`));
  for (const seat of summary.forfeits || []) lines.push(t("end.forfeited", { name: seatName(seat) }));
  for (const seat of summary.left || []) lines.push(t("end.left", { name: seatName(seat) }));
  return lines;
}

/** Whether the game's own result (scores, a winner) means anything: not for a table
 * nobody came back to, which ended unfinished ("A draw 0 : 0" would be a lie). */
export function resultShown(summary) {
  return !summary || (summary.ended !== "abandoned" && summary.ended !== "aborted");
}

/** What the move log should say of `state` beyond its moves: each seat gone (forfeited
 * or left), and an end that no move made.  Each is {key, say, kind}; the log says a key
 * once however often the state comes. */
export function lifeEvents(state, seatName) {
  const events = [];
  for (const seat of state.seats || []) {
    if (seat.gone) {
      events.push({ key: `gone:${seat.seat}`, kind: "gone",
        say: () => t(`log.${seat.gone}`, { name: seatName(seat.seat) }) });
    }
  }
  const summary = state.over ? state.summary : null;
  if (summary?.ended === "resigned" && summary.resigned !== undefined) {
    events.push({ key: "ended", kind: "end",
      say: () => t("log.resigned", { name: seatName(summary.resigned) }) });
  } else if (summary?.ended === "abandoned") {
    events.push({ key: "ended", kind: "end", say: () => t("log.abandoned") });
  } else if (summary?.ended === "aborted") {
    events.push({ key: "ended", kind: "end",
      say: () => t("log.aborted", { name: seatName(summary.aborted_by) }) });
  }
  return events;
}

/** The note for a player whose seat a bot plays to the end (null: none). */
export function goneNote(state, mySeat) {
  const gone = mySeat === null || mySeat === undefined ? null : state?.seats?.[mySeat]?.gone;
  return gone && !state.over ? t(`life.you.${gone}`) : null;
}
