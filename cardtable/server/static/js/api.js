// @ts-check
// Talking to the server: JSON over HTTP, the table's WebSocket (with reconnects), and the
// seat tokens kept in localStorage so that a reload takes the same seat again.

import { refusalText } from "./refusals.js";

export class ApiError extends Error {
  /** The message is in the player's language when the server sent a code the page knows;
   * `code` and `body` keep what the server said. */
  constructor(message, status, body = null) {
    super(message);
    this.status = status;
    this.body = body;
    this.code = body && typeof body === "object" ? body.code ?? null : null;
  }
}

/** Read the reason out of an error answer (FastAPI puts it in "detail"). */
function reasonOf(body, status) {
  if (body && typeof body === "object") {
    const detail = body.detail ?? body.reason ?? body.error ?? body.message;
    if (typeof detail === "string") return detail;
    if (Array.isArray(detail)) {
      return detail.map((d) => (d && d.msg) ? `${(d.loc || []).slice(1).join(".")}: ${d.msg}`
                                           : String(d)).join("; ");
    }
    if (detail) return JSON.stringify(detail);
  }
  return `HTTP ${status}`;
}

/**
 * A call of the server's HTTP API: the answer's JSON, or an ApiError saying the refusal.
 * @param {string} path
 * @param {{ method?: string, body?: any }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, { method = "GET", body } = {}) {
  // the page's language, which a first visit's guest is named in
  const init = { method, headers: { Accept: "application/json",
    "Accept-Language": globalThis.document?.documentElement?.lang || "en" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(error.message || String(error), 0);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = text; }
  }
  if (!response.ok) {
    const known = data && typeof data === "object" && typeof data.code === "string";
    const text = known ? refusalText(data) : "";
    throw new ApiError(text && text !== data.detail ? text : reasonOf(data, response.status),
                       response.status, data);
  }
  return data;
}

/** The games the page itself carries (the server writes them in a data block), or null:
 * read at once, so that the lobby's first drawing is its whole one. */
export function carriedGames() {
  const carried = document.getElementById("games-data");
  if (!carried) return null;
  try { return JSON.parse(carried.textContent); } catch { return null; }
}

/** The games the server offers: carried by the page itself (the lobby draws without a
 * round trip), else asked for. */
export const getGames = () => {
  const carried = carriedGames();
  return carried ? Promise.resolve(carried) : api("/api/games");
};
export const getTables = () => api("/api/tables");
export const getHistory = () => api("/api/history");
export const getTableInfo = (id) => api(`/api/tables/${encodeURIComponent(id)}`);
export const getRecord = (id) => api(`/api/tables/${encodeURIComponent(id)}/record`);
export const getLog = (id) => api(`/api/tables/${encodeURIComponent(id)}/log`);
export const getReplay = (id) => api(`/api/tables/${encodeURIComponent(id)}/replay`);
export const createTable = (request) => api("/api/tables", { method: "POST", body: request });
export const joinTable = (id) =>
  api(`/api/tables/${encodeURIComponent(id)}/join`, { method: "POST", body: {} });

// -- seat tokens ---------------------------------------------------------------------------
const TOKEN_KEY = (id) => `cardtable.seat.${id}`;

export const seats = {
  get(id) {
    try {
      const raw = localStorage.getItem(TOKEN_KEY(id));
      const data = raw ? JSON.parse(raw) : null;
      return data && typeof data.token === "string" ? data : null;
    } catch { return null; }
  },
  set(id, seat, token) {
    try { localStorage.setItem(TOKEN_KEY(id), JSON.stringify({ seat, token })); } catch { /* */ }
  },
  forget(id) {
    try { localStorage.removeItem(TOKEN_KEY(id)); } catch { /* */ }
  },
  /** Every seat key this browser holds, gone (signing out: on a shared computer the
   * next person must not sit in your seats; signed in again, your seats come back). */
  forgetAll() {
    try {
      const keys = [];
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (key && key.startsWith(TOKEN_KEY(""))) keys.push(key);
      }
      for (const key of keys) localStorage.removeItem(key);
    } catch { /* */ }
  },
};

// -- the table's socket --------------------------------------------------------------------

const PING_MS = 20000;
const SILENT_MS = 45000;

/** Close codes after which trying again cannot help (the server said no). */
const FINAL_CLOSE = (code) => code >= 4000 && code < 5000;

/**
 * One table's WebSocket.  It reconnects after a drop with exponential backoff (0.5 s,
 * 1 s, 2 s … at most 15 s, with jitter) until `close()` is called or the server closes
 * with a 4xxx code (unknown table, bad token).
 *
 * handlers: onMessage(msg), onStatus({state: "connecting"|"open"|"waiting"|"closed",
 * delay?, code?, reason?}).
 */
export class TableSocket {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.attempt = 0;
    this.timer = null;
    this.ws = null;
    this.stopped = false;
    /** @type {number | undefined} a signed-in player's own seat, when it has no token */
    this.seat = undefined;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // a signed-in player's own seat, taken by number from another device (players.md)
    const query = !this.token && Number.isInteger(this.seat) ? `?seat=${this.seat}` : "";
    return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  /** The seat's key rides in the Sec-WebSocket-Protocol header, never the URL (which
   * proxies and logs keep); the server answers with "cardtable". */
  protocols() {
    return this.token ? ["cardtable", `cardtable.key.${this.token}`] : ["cardtable"];
  }

  connect() {
    if (this.stopped) return;
    this.handlers.onStatus?.({ state: "connecting" });
    let ws;
    try {
      ws = new WebSocket(this.url(), this.protocols());
    } catch (error) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      // the backoff starts again only once the table is heard (a state), not at every
      // open: a server that accepts and closes at once must not be asked twice a second
      this.heard = Date.now();
      this.handlers.onStatus?.({ state: "open" });
      // Keep the line warm; a socket silent for too long is dead: drop it and reconnect.
      clearInterval(this.pinger);
      const pinger = setInterval(() => {
        if (this.ws !== ws) { clearInterval(pinger); return; }
        if (Date.now() - this.heard > SILENT_MS) { clearInterval(pinger); this.reconnect(); return; }
        this.send({ type: "ping" });
      }, PING_MS);
      this.pinger = pinger;
    };
    ws.onmessage = (event) => {
      this.heard = Date.now();
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg && msg.type === "state") this.attempt = 0;
      this.handlers.onMessage?.(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      if (this.stopped) return;
      if (FINAL_CLOSE(event.code)) {
        this.stopped = true;
        this.handlers.onStatus?.({ state: "closed", code: event.code, reason: event.reason });
        return;
      }
      this.retry();
    };
  }

  retry() {
    if (this.stopped) return;
    const base = Math.min(15000, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.handlers.onStatus?.({ state: "waiting", delay });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Send a message now if the socket is open; say whether it went.
   * @param {WireClientMessage} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Reconnect at once (after taking a seat, say) with a new token. */
  reconnect(token = this.token) {
    this.token = token;
    this.attempt = 0;
    this.stopped = false;
    clearTimeout(this.timer);
    const old = this.ws;
    this.ws = null;
    if (old) { old.onclose = null; old.close(); }
    this.connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); this.ws = null; }
  }
}
