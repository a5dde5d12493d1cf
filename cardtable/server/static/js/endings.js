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

/** How the game ended for ``seat``: "won", "lost" or "draw" (null: the result names no
 * side, as for a game nobody finished).  A game's summary names its winners (Pasur and
 * most games) or its one loser (Durak's durak). */
export function outcomeFor(summary, seat) {
  if (!summary || seat === null || seat === undefined || !resultShown(summary)) return null;
  if (summary.ended === "resigned" && summary.resigned === seat) return "lost";
  if (Array.isArray(summary.winners)) {
    if (!summary.winners.length) return "draw";
    return summary.winners.includes(seat) ? "won" : "lost";
  }
  if ("loser" in summary || "draw" in summary) {
    if (summary.draw || summary.loser === null || summary.loser === undefined) return "draw";
    return summary.loser === seat ? "lost" : "won";
  }
  return null;
}

/** The end dialog's title, said to the player: "You won", "You lost", "You resigned",
 * "You forfeited; the computer finished for you and lost"; "Game over" to a watcher, or
 * where the game ended with no result (abandoned, aborted). */
export function endTitle(summary, seat) {
  const outcome = outcomeFor(summary, seat);
  if (!outcome) return t("table.gameOver");
  if (summary.ended === "resigned" && summary.resigned === seat) return t("end.you.resigned");
  if ((summary.forfeits || []).includes(seat)) return t(`end.you.forfeited.${outcome}`);
  if ((summary.left || []).includes(seat)) return t(`end.you.left.${outcome}`);
  return t(`end.you.${outcome}`);
}

/** A finished game's result for the history: how it ended when not by its own rules (a
 * resignation, a forfeit, a seat left, nobody back), then the game's own result line. */
export function historyResult(summary, seatName, resultLine) {
  if (!summary) return "";
  const parts = [];
  if (summary.ended === "resigned" && summary.resigned !== undefined) {
    parts.push(t("history.resigned", { name: seatName(summary.resigned) }));
  } else if (summary.ended === "abandoned") {
    parts.push(t("history.abandoned"));
  } else if (summary.ended === "aborted") {
    parts.push(t("history.aborted", { name: seatName(summary.aborted_by) }));
  }
  for (const seat of summary.forfeits || []) parts.push(t("history.forfeited", { name: seatName(seat) }));
  for (const seat of summary.left || []) parts.push(t("history.left", { name: seatName(seat) }));
  if (resultShown(summary)) {
    // a resigned game's points are where the play stopped, not a result: the winner alone
    const { totals, ...rest } = summary;
    const line = resultLine(summary.ended === "resigned" ? rest : summary);
    if (line) parts.push(line);
  }
  return parts.join(" · ");
}

/** Sentences for the end dialog: why the game ended, then each seat a bot finished (the
 * player's own seat not again, when ``mySeat`` is given: the dialog's title said it). */
export function endingLines(summary, seatName, mySeat = null) {
  if (!summary) return [];
  const lines = [];
  const said = (seat) => mySeat !== null && seat === mySeat && outcomeFor(summary, mySeat) !== null;
  if (summary.ended === "resigned" && summary.resigned !== undefined && said(summary.resigned)) {
    // the title says "You resigned"
  } else if (summary.ended === "resigned" && summary.resigned !== undefined) {
    lines.push(t("end.resigned", { name: seatName(summary.resigned) }));
  } else if (summary.ended === "abandoned") {
    lines.push(t("end.abandoned"));
  } else if (summary.ended === "aborted") {
    lines.push(t("end.aborted", { name: seatName(summary.aborted_by) }));
  }
  if (summary.unrated) lines.push(t(`end.unrated.${summary.unrated}`));
  for (const seat of summary.forfeits || []) {
    if (!said(seat)) lines.push(t("end.forfeited", { name: seatName(seat) }));
  }
  for (const seat of summary.left || []) if (!said(seat)) lines.push(t("end.left", { name: seatName(seat) }));
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

/** The time-outs in a row the player may still have before their seat is forfeited, when
 * their last turn timed out (null: it did not, or the game is over, or the seat is gone). */
export function timedOutLeft(state, mySeat) {
  const clock = state?.clock;
  if (!clock || state.over || mySeat === null || mySeat === undefined) return null;
  const timeouts = clock.timeouts?.[mySeat] ?? 0;
  if (!timeouts || !clock.forfeit_after || state.seats?.[mySeat]?.gone) return null;
  return Math.max(0, clock.forfeit_after - timeouts);
}

/** The note for a player whose seat a bot plays to the end (null: none). */
export function goneNote(state, mySeat) {
  const gone = mySeat === null || mySeat === undefined ? null : state?.seats?.[mySeat]?.gone;
  return gone && !state.over ? t(`life.you.${gone}`) : null;
}
