// @ts-check
// The server's refusals in the player's words: every error carries a stable `code` and its
// parameters (cardtable/server/core/codes.py) besides an English reason; the page says the text
// its language has for the code, and only falls back to the reason for a code it lacks.

import { t, hasKey } from "./i18n.js";

/** The text for an error message or an HTTP error body ({code, reason|detail, ...params});
 * a `seat` parameter is said as the seat's name when `seatName` is given. */
/**
 * @param {any} body
 * @param {{ seatName?: (seat: number) => string }} [options]
 * @returns {string}
 */
export function refusalText(body, { seatName } = {}) {
  if (!body || typeof body !== "object") return String(body ?? "");
  const key = `code.${body.code}`;
  if (body.code && hasKey(key)) {
    const params = { ...body };
    if (typeof params.seat === "number" && seatName) params.seat = seatName(params.seat);
    // a count the server names (seats still free) chooses the message's plural form
    if (typeof params.free === "number") params.n = params.free;
    return t(key, params);
  }
  const reason = body.reason ?? body.detail ?? body.message ?? "";
  return typeof reason === "string" ? reason : JSON.stringify(reason);
}

/** Refusals that need no word: the table had moved on, and the fresh state that follows
 * every refusal already shows it as it is; or the table is changing server processes (a
 * restart, a deploy), the socket connects again at once and the move is sent again. */
export function isQuiet(body) {
  return body?.code === "stale_version" || isMoving(body);
}

/** The table is changing server processes: the move was not played, and may be sent
 * again, at the same version, once the socket has connected again. */
export function isMoving(body) {
  return body?.code === "moved" || body?.code === "lease_lapsed";
}
