// @ts-check
// The live table: the socket, whose turn, seats, the last move, the end summary and
// rematch.  What lies on the felt is drawn by the game's own module, found in games.js
// by the game the server names in every state.

import { TableSocket, joinTable, getTableInfo, getLog, seats as seatStore } from "./api.js";
import { h, clear, replaceKeepingFocus, announce, toast } from "./dom.js";
import { t, onLanguageChange, language } from "./i18n.js";
import { kindLabel, gameTitle, normalizeSeats } from "./names.js";
import { moveText, isCardText, cardKey } from "./cards.js";
import { gameModule } from "./games.js";
import { navigate } from "./router.js";
import { LifeBar } from "./clock.js";
import { refusalText, isQuiet, isMoving } from "./refusals.js";
import { setting, settingsPanel, onSettingChange } from "./settings.js";
import { MoveLog } from "./movelog.js";
import { alarm, chime, soundButton } from "./sound.js";
import { ChatPanel } from "./chat.js";
import { modal, dialogKey } from "./dialog.js";
import { getMe, ratingChanges } from "./players.js";
import { rulesCard } from "./rulescard.js";
import { hintPanel, hintMoveText } from "./hintpanel.js";
import { afterGameLinks, endTitle, endingLines, outcomeFor, lifeEvents, resultShown, timedOutLeft } from "./endings.js";

/** The last move as {seat, text}, whatever shape the server uses. */
export function lastMoveOf(state) {
  const last = state.last_move;
  if (last === null || last === undefined) return null;
  if (typeof last === "string") return { seat: null, text: last };
  return { seat: last.seat ?? last.player ?? null, text: last.move ?? last.text ?? String(last) };
}

/** "Last move: Seat 2: 7♣ takes 4♦" (or "No move yet"), for the info panel. */
export function lastMoveParts(last, seatName) {
  const parts = [h("h2", {}, t("table.lastMove"))];
  if (!last) parts.push(h("p", { class: "muted" }, t("table.noMoveYet")));
  else {
    const who = last.seat === null || last.seat === undefined ? "" : seatName(last.seat);
    parts.push(h("p", { class: "last", dataset: { move: last.text } },
      who ? h("strong", {}, `${who}: `) : null, moveText(last.text)));
  }
  return parts;
}

export class TableView {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.state = null;
    this.previous = null;
    this.selection = {};
    this.seen = {};
    this.status = { state: "connecting" };
    this.rematchAsked = false;
    this.summaryClosedFor = null;
    this.pending = null;   // the version a move was sent at, until the server answers
    this.sent = null;      // that move ({version, move}), to send again after a restart
    this.resend = null;    // a move the server never answered, sent again on reconnecting
    this.log = new MoveLog();
    this.nameOf = (seat) => this.seatName(seat);   // seatName, passed around
    const stored = seatStore.get(tableId);
    this.mySeat = stored ? stored.seat : null;
    this.token = stored ? stored.token : null;
    this.life = new LifeBar(this);
    this.chat = new ChatPanel((msg) => this.socket.send(msg), () => ({ seat: this.mySeat,
      creator: this.mySeat !== null && this.mySeat === (this.state?.seats || []).find((s) => s.kind === "human")?.seat }), tableId);
    this.build();
    this.connect();
    this.unlisten = onLanguageChange(() => { this.buildFrame(); this.render(); });
    this.unsetting = onSettingChange(() => this.render());
    this.onKey = (event) => this.keydown(event);
    document.addEventListener("keydown", this.onKey);
  }

  /** The live table's links to the server: its socket (and a seat held on another device)
   * and the rules it plays.  A lesson's table (lesson.js) puts a position of its own here. */
  connect() {
    const tableId = this.tableId;
    this.socket = new TableSocket(tableId, this.token, {
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status) => {
        if (status.state === "closed" && status.code === 4403 && this.socket.seat !== undefined) {
          this.socket.seat = undefined;   // not our seat after all: watch
          this.mySeat = null;
          this.socket.reconnect(null);
          return;
        }
        if (status.state === "closed" && status.code === 4403 && this.token) {
          // This token holds no seat here (any more): forget it and watch.
          seatStore.forget(tableId);
          this.token = null;
          this.mySeat = null;
          this.socket.reconnect(null);
          return;
        }
        this.status = status;
        // A move sent on a socket that closed may never be answered: the fresh state
        // after reconnecting says where the table is, and the move goes again if the
        // table has not moved on (the version makes a second play of it impossible).
        if (status.state !== "open" && this.pending !== null) {
          this.resend = this.sent;
          this.pending = null;
        }
        this.renderStatus();
      },
    });
    if (!this.token) this.comeBack();
    // The rules this table plays, for the rules card (not in the socket's states).
    // (only the card is drawn when they come: the rest of the table has not changed)
    getTableInfo(tableId).then((info) => { this.rules = info.rules; this.renderRules(); })
      .catch(() => { /* no card: the table plays on without it */ });
  }

  /** No token here, but the signed-in player may hold a seat (taken on another device). */
  async comeBack() {
    let me = await getMe();
    // No answer (a dropped link, a busy server) is not "signed out": ask again a few
    // times, or a player come back to their own seat would only watch it.
    for (let wait = 500; !me && wait <= 4000 && !this.socket.stopped; wait *= 2) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      me = await getMe();
    }
    const mine = (me?.seats || []).find((s) => s.table === this.tableId);
    this.invited = !mine && !new URLSearchParams(location.search).has("watch");
    this.joinIfInvited();
    if (!mine || this.token || this.socket.stopped) return;
    this.socket.seat = mine.seat;
    this.socket.reconnect(null);
  }

  destroy() {
    this.life.destroy();
    this.socket.close();
    this.chat.destroy();
    this.unlisten();
    this.unsetting();
    document.removeEventListener("keydown", this.onKey);
  }

  // -- frame ---------------------------------------------------------------------------------
  build() {
    this.el = {};
    this.buildFrame();
  }

  buildFrame() {
    const el = this.el;
    el.title = h("h1", { class: "table-title" });
    el.status = h("span", { class: "conn", role: "status" });
    el.banner = h("div", { class: "banner-area" });
    el.opponents = h("section", { class: "opponents", "aria-label": t("history.players") });
    el.felt = h("section", { class: "felt", "aria-label": t("table.table") });
    el.info = h("aside", { class: "info" });
    el.turn = h("p", { class: "turn", "aria-live": "polite" });
    el.last = h("div", { class: "last-move" });
    el.prompt = h("p", { class: "prompt" });
    el.choices = h("div", { class: "choices", role: "group" });
    el.hand = h("section", { class: "my-hand", "aria-label": t("table.hand") });
    el.actions = h("div", { class: "actions", role: "toolbar" });
    el.hintBox = h("div", { class: "hint-area" });
    el.summary = h("div", { class: "summary-area" });
    el.rules = h("div", { class: "rules-area" });
    el.help = h("div", { class: "table-help" },
      h("p", { class: "keys-help" }, t("table.keysHelp")), settingsPanel(), el.rules);
    el.main = h("div", { class: this.mySeat === null ? "table-view spectating" : "table-view",
      id: "table-root", dataset: { table: this.tableId } },
      h("div", { class: "table-head" }, el.title, el.status, this.life.el, soundButton()),
      el.banner,
      h("div", { class: "board" },
        el.opponents,
        el.felt),
      el.mine = h("div", { class: "mine" }, el.turn, el.prompt, el.choices, el.hand, el.actions, el.hintBox),
      el.info,
      el.help,
      el.summary);
    clear(this.root).append(el.main, this.chat.el);
  }

  // -- messages ------------------------------------------------------------------------------
  /** One message from the table's socket (its shapes: /api/protocol.json).
   * @param {WireServerMessage} msg */
  onMessage(msg) {
    if (msg.type === "state") {
      const versionChanged = !this.state || this.state.version !== msg.version;
      this.previous = this.state;
      this.state = msg;
      // Our move was answered once the table has moved on (a refusal clears it below).
      if (this.pending !== null && msg.version !== this.pending) this.pending = null;
      if (typeof msg.seat === "number") this.mySeat = msg.seat;
      const again = this.resend;
      this.resend = null;
      if (!this.previous || this.previous.seat !== msg.seat) this.chat.render();
      if (versionChanged) {
        this.selection = {};
        delete this.el.main.dataset.hint;
        if (!msg.over) { this.rematchAsked = false; }
      }
      let said = "";
      if (!this.previous) this.log.stale = !!msg.last_move;   // loaded: the log is on the server
      else if (versionChanged) {
        said = this.log.note(gameModule(msg.game), this.previous, msg, this.mySeat,
          this.nameOf);
      } else this.log.follow(msg);   // the same state again (a reconnect)
      this.log.events(lifeEvents(msg, this.nameOf));
      if (this.log.stale) this.loadLog();
      this.render({ animate: versionChanged });
      this.joinIfInvited();
      // Opponents' moves and then whose turn, said to screen readers in one breath.
      const spoken = [said, versionChanged && this.myTurn() ? t("table.yourTurn") : ""];
      if (spoken.some(Boolean)) announce(spoken.filter(Boolean).join(". "));
      // A tone on every move (the player's own too), a brighter one at the player's turn.
      const moved = versionChanged && !!this.previous && !!msg.last_move
        && msg.last_move.index !== this.previous.last_move?.index;
      if (spoken[1]) chime("turn"); else if (said || moved) chime("move");
      // the player's time ran out (once for each time-out): the banner says it, and a
      // tone and a buzz where the player has the sound on
      const left = timedOutLeft(msg, this.mySeat);
      if (left !== null && left !== timedOutLeft(this.previous, this.mySeat)) {
        announce(t("life.timedOut", { n: left }));
        alarm();
      }
      // the move a restart left unanswered, if the table still waits for it
      if (again && !versionChanged && again.version === msg.version && this.myTurn()
          && msg.legal_moves.includes(again.move)) this.play(again.move);
    } else if (msg.type === "chat" || msg.type === "chat_setting") {
      this.chat.receive(msg);
    } else if (msg.type === "error") {
      if (isMoving(msg) && this.pending !== null) this.resend = this.sent;
      this.pending = null;   // refused: a fresh state follows, and the controls unlock
      this.hintAsked = false;
      if (msg.code === "no_seat" && !this.state) {
        // A stale token (the server forgot the table): watch instead.
        seatStore.forget(this.tableId);
        this.mySeat = null;
      }
      if (isQuiet(msg)) return;   // the fresh state that follows says it all
      const text = refusalText(msg, { seatName: this.nameOf });
      const el = toast(text, "error");
      if (el) el.dataset.code = msg.code ?? "";
      announce(text);
    } else if (msg.type === "hint") {
      this.hintAsked = false;
      if (!this.state || msg.version !== this.state.version) { this.render(); return; }
      this.hint = msg;
      this.el.main.dataset.hint = msg.move;
      this.render();   // the button back, the cards marked, the hint's panel
      const text = t("table.hintIs", { move: hintMoveText(msg.move) });
      toast(text, "info");
      announce(msg.text ? `${text}. ${msg.text}` : text);
    } else if (msg.type === "rematch_declined") {
      this.rematchAsked = false;
      const text = t("table.rematchDeclined", { name: this.seatName(msg.seat) });
      toast(text, "info");
      announce(text);
      this.render();
    } else if (msg.type === "rematch" && msg.table) {
      // The same token holds the same seat at the new table.
      if (this.token && typeof msg.seat === "number") {
        seatStore.set(msg.table, msg.seat, this.token);
        navigate(`/table/${msg.table}`);
      }
    }
  }

  /** The move log rebuilt from the table's moves on the server, when the page cannot
   * know them (loaded, reconnected after moves it missed, a move taken back and replaced);
   * asked again while moves keep coming in meanwhile, a few times at most. */
  async loadLog(tries = 3) {
    if (this.logLoading) return;
    this.logLoading = true;
    try {
      const log = await getLog(this.tableId);
      if (this.socket.stopped) return;
      this.log.rebuild(gameModule(log.game), log, this.mySeat, this.nameOf);
      if (this.state) this.log.events(lifeEvents(this.state, this.nameOf));
      const last = this.state?.last_move;
      if (last) {
        this.log.follow(this.state);
        if (this.log.lastIndex === null || last.index > this.log.lastIndex) this.log.stale = true;
      }
    } catch {
      this.log.stale = false;   // the live log goes on; a later gap asks again
    } finally {
      this.logLoading = false;
    }
    if (this.log.stale && tries > 1) this.loadLog(tries - 1);
  }

  myTurn() {
    const s = this.state;
    return !!s && !s.over && this.mySeat !== null && s.to_move === this.mySeat
      && Array.isArray(s.legal_moves) && s.legal_moves.length > 0;
  }

  /** Send a move once: until the server answers, the controls are locked and a second
   * click (a double click, say) sends nothing. */
  play(text) {
    if (!this.state || this.pending !== null) return false;
    const sent = this.socket.send({ type: "move", version: this.state.version, move: text });
    if (!sent) {
      // the link is down: the move goes once it is back, if the table has not moved on
      this.resend = { version: this.state.version, move: text };
      toast(t("table.reconnecting", { s: "…" }), "error");
      return false;
    }
    this.pending = this.state.version;
    this.sent = { version: this.state.version, move: text };
    this.selection = {};
    this.lockControls();
    return true;
  }

  lockControls() {
    const main = this.el.main;
    const locked = this.pending !== null;
    main.classList.toggle("sent", locked);
    if (locked) main.setAttribute("aria-busy", "true");
    else main.removeAttribute("aria-busy");
  }

  /** Hint and undo, only where every other seat is a bot (never against a person), and
   * while the seat is the player's (not after a forfeit or leaving); undo where the
   * server says it would work (`undo`: a decision made, and no cards dealt or drawn
   * since: after a new deal the button would only be refused). */
  helpButtons() {
    const s = this.state;
    if (this.mySeat === null || s.over || s.status !== "playing") return [];
    if (!this.seats().every((x) => x.seat === this.mySeat || x.isBot)) return [];
    if (s.seats?.[this.mySeat]?.gone) return [];
    const ask = (type) => () => {
      // a hint is worded in the page's language; the button waits for it
      if (type === "hint" && this.socket.send({ type, lang: language() })) { this.hintAsked = true; this.render(); }
      else if (type !== "hint") this.socket.send({ type });
    };
    const buttons = s.undo ? [h("button", { type: "button", class: "help undo",
      dataset: { focusKey: "help:undo" }, onclick: ask("undo") }, t("table.undo"))] : [];
    if (this.myTurn()) {
      buttons.unshift(h("button", { type: "button", class: "help hint", dataset: { focusKey: "help:hint" },
        disabled: !!this.hintAsked, "aria-busy": this.hintAsked ? "true" : null,
        onclick: ask("hint") }, this.hintAsked ? t("table.hintThinking") : t("table.hint")));
    }
    return buttons;
  }

  /** A rematch is an offer: the first to ask waits for the others (bots accept at
   * once); the others accept it or decline it. */
  rematchButtons() {
    const s = this.state;
    if (this.mySeat === null || s.rematch) return [];
    const asked = Array.isArray(s.rematch_asked) ? s.rematch_asked : [];
    const mine = asked.includes(this.mySeat) || this.rematchAsked;
    if (mine) {
      const waiting = this.seats().filter((x) => !x.isBot && !asked.includes(x.seat))
        .map((x) => this.seatName(x.seat)).join(", ");
      return [h("button", { type: "button", class: "primary rematch", disabled: true },
        waiting ? t("table.rematchWaiting", { names: waiting }) : t("table.rematchAsked"))];
    }
    if (asked.length) {
      const by = asked.map(this.nameOf).join(", ");
      return [h("p", { class: "rematch-offer", role: "status" }, t("table.rematchOffered", { name: by })),
        h("button", { type: "button", class: "primary rematch accept", onclick: () => this.askRematch() },
          t("table.rematchAccept")),
        h("button", { type: "button", class: "decline-rematch",
          onclick: () => this.socket.send({ type: "decline_rematch" }) }, t("table.rematchDecline"))];
    }
    return [h("button", { type: "button", class: "primary rematch", onclick: () => this.askRematch() },
      t("table.rematch"))];
  }

  askRematch() {
    if (this.socket.send({ type: "rematch" })) {
      this.rematchAsked = true;
      this.render();
    }
  }

  /** Opened by its link (not the lobby's Watch) holding no seat: sit in a free seat of a
   * table still waiting for players, as a friend following an invite means to. */
  joinIfInvited() {
    const s = this.state;
    if (!this.invited || !s || s.over || s.status !== "waiting" || this.mySeat !== null
        || this.token || !this.seats().some((x) => !x.isBot && !x.taken)) return;
    this.invited = false;
    this.join();
  }

  async join() {
    try {
      const answer = await joinTable(this.tableId);
      seatStore.set(this.tableId, answer.seat, answer.token);
      this.mySeat = answer.seat;
      this.token = answer.token;
      this.socket.reconnect(answer.token);
    } catch (error) {
      toast(t("table.joinError", { reason: error.message }), "error");
    }
  }

  // -- names ---------------------------------------------------------------------------------
  seats() { return normalizeSeats(this.state?.seats); }

  seatName(seat) {
    if (seat === null || seat === undefined) return "";
    if (seat === this.mySeat) return t("table.you");
    const info = this.seats()[seat];
    const base = t("table.seatName", { n: seat + 1 });
    if (info?.name) return info.name;
    if (info?.isBot) return `${base} (${kindLabel(info.kind)})`;
    if (info && !info.taken) return `${base} (${t("seat.open")})`;
    if (info?.botPlaying) return `${base} (${t("seat.botPlaying")})`;
    return base;
  }

  // -- rendering -----------------------------------------------------------------------------
  renderStatus() {
    const s = this.status;
    const el = this.el.status;
    el.className = `conn ${s.state}`;
    if (s.state === "open") el.textContent = t("table.connected");
    else if (s.state === "waiting") {
      el.textContent = t("table.reconnecting", { s: Math.max(1, Math.round(s.delay / 1000)) });
    } else if (s.state === "closed") {
      el.textContent = t("table.notFound");
      this.renderClosed(s);
    } else el.textContent = t("table.connecting");
    this.el.main.dataset.connection = s.state;
  }

  renderClosed(status) {
    clear(this.el.banner).appendChild(h("div", { class: "banner error", role: "alert" },
      h("p", {}, status.reason || t("table.notFound")),
      h("a", { href: "/", class: "button" }, t("table.backToLobby"))));
  }

  render({ animate = false } = {}) {
    const had = document.activeElement;   // a card or a button of the play, perhaps
    const playing = !!had && (this.el.mine.contains(had) || this.el.felt.contains(had));
    this.renderStatus();
    const s = this.state;
    const main = this.el.main;
    this.lockControls();
    if (!s) return;
    const game = s.game;
    const module = gameModule(game);
    main.dataset.game = game;
    main.dataset.version = String(s.version);
    main.dataset.over = String(!!s.over);
    main.dataset.toMove = s.to_move === null || s.to_move === undefined ? "" : String(s.to_move);
    main.dataset.seat = this.mySeat === null ? "" : String(this.mySeat);
    main.dataset.myTurn = String(this.myTurn());
    main.dataset.legal = JSON.stringify(this.myTurn() ? s.legal_moves : []);
    main.classList.toggle("spectating", this.mySeat === null);
    main.classList.toggle("my-turn", this.myTurn());
    this.el.title.textContent = `${gameTitle(game)} · ${t("lobby.table", { id: this.tableId })}`;
    document.title = `${gameTitle(game)} · cardtable`;

    this.renderBanner();

    const seen = {};
    const ctx = {
      state: s,
      view: s.view || {},
      previousView: this.previous?.view || null,
      mySeat: this.mySeat,
      myTurn: this.myTurn(),
      legal: this.myTurn() ? s.legal_moves.map(String) : [],
      players: s.view?.players ?? (s.seats ? s.seats.length : 2),
      selection: this.selection,
      seatName: this.nameOf,
      seats: this.seats(),
      play: (text) => this.play(text),
      confirm: setting("confirm"),
      rerender: () => this.render(),
      animate: animate && this.seenReady,
      isNew: (zone, key) => {
        (seen[zone] ||= new Set()).add(key);
        return animate && this.seenReady && !(this.seen[zone]?.has(key));
      },
    };
    const parts = module.render(ctx);
    replaceKeepingFocus(this.el.opponents, parts.opponents || []);
    replaceKeepingFocus(this.el.felt, parts.felt || []);
    replaceKeepingFocus(this.el.info, [this.turnLine(), ...(parts.info || [])]);
    replaceKeepingFocus(this.el.hand, parts.hand || []);
    replaceKeepingFocus(this.el.choices, parts.choices || []);
    replaceKeepingFocus(this.el.actions, [...(parts.actions || []), ...this.helpButtons()]);
    this.el.prompt.textContent = parts.prompt || "";
    this.el.hand.hidden = this.mySeat === null;
    this.el.mine.hidden = !!s.over || this.mySeat === null;
    this.el.turn.textContent = this.myTurn() ? t("table.yourTurn") : "";
    this.renderLastMove();
    this.renderRules();
    this.renderSummary(module);
    this.life.update(s, this.mySeat);
    if (animate || !this.seenReady) { this.seen = seen; this.seenReady = true; }
    if (parts.focus) {
      const target = this.root.querySelector(parts.focus);
      if (target) target.focus({ preventScroll: true });
    }
    if (playing && !had.isConnected) this.keepFocusInHand();
    this.markHint();
    this.renderHint();
    this.autoPlay(parts);
  }

  /** The rules card (the rules this table plays), once both they and the table's game are known. */
  renderRules() {
    if (!this.rules || !this.state || this.el.rules.firstChild) return;
    const card = rulesCard(gameModule(this.state.game), this.rules);
    if (card) this.el.rules.appendChild(card);
  }

  /** The hint's panel (why, and the best moves with their values) until the table moves on. */
  renderHint() {
    const hint = this.hint;
    const current = !!hint && !!this.state && hint.version === this.state.version;
    if (!current) { clear(this.el.hintBox); return; }
    if (this.el.hintBox.firstChild?.dataset.move === hint.move) return;
    clear(this.el.hintBox).append(hintPanel(hint));
  }

  /** The cards of the hinted move, marked in the hand until the table moves on. */
  markHint() {
    const hint = this.hint;
    if (!hint || !this.state || hint.version !== this.state.version) return;
    for (const word of String(hint.move).split(/\s+/)) {
      if (!isCardText(word)) continue;
      const card = this.el.hand.querySelector(`button.card[data-card="${CSS.escape(cardKey(word))}"]`);
      if (card) card.classList.add("hinted");
    }
  }

  /** A move the game's module says needs no choosing (a lone pass): played by the page
   * when the player's setting allows it, once per state. */
  autoPlay(parts) {
    const s = this.state;
    if (!parts.auto || !this.myTurn() || this.pending !== null || !setting("autoPass")) return;
    if (this.autoPlayedAt === s.version) return;
    this.autoPlayedAt = s.version;
    const text = parts.auto;
    const version = s.version;
    setTimeout(() => {
      // The same table still (a state of the same version may have come meanwhile, say
      // when someone connects); a move that could not go is tried at the next render.
      const now = this.state;
      if (!now || now.version !== version || !this.myTurn()
          || !(now.legal_moves || []).includes(text)) return;
      if (!this.play(text)) { this.autoPlayedAt = null; return; }
      // Said to screen readers; on screen the move log shows "You pass".
      if (parts.autoNote) announce(parts.autoNote);
    }, 0);
  }

  turnLine() {
    const s = this.state;
    if (s.over) return h("p", { class: "whose-turn over" }, t("table.gameOver"));
    if (s.status === "waiting") return h("p", { class: "whose-turn waiting" }, t("table.waiting"));
    if (s.to_move === null || s.to_move === undefined) return h("p", { class: "whose-turn" });
    const text = s.to_move === this.mySeat ? t("table.yourTurn")
      : t("table.turnOf", { name: this.seatName(s.to_move) });
    return h("p", { class: "whose-turn", dataset: { seat: s.to_move } }, text);
  }

  renderBanner() {
    const s = this.state;
    const parts = [];
    const seats = this.seats();
    const open = seats.filter((x) => !x.isBot && !x.taken);
    if (open.length > 0 && !s.over) {
      const link = `${location.origin}/table/${this.tableId}`;
      parts.push(h("div", { class: "banner invite" },
        h("p", {}, open.length && this.mySeat !== null ? t("table.waiting") : ""),
        inviteBox(link)));
    }
    const left = timedOutLeft(s, this.mySeat);
    if (left !== null) {
      parts.push(h("div", { class: "banner timed-out", role: "status", dataset: { left: String(left) } },
        h("p", {}, t("life.timedOut", { n: left }))));
    }
    if (this.mySeat === null) {
      parts.push(h("div", { class: "banner spectator" },
        h("p", {}, t("table.spectator")),
        open.length > 0 && !s.over
          ? h("button", { type: "button", class: "primary join", onclick: () => this.join() },
            t("table.joinButton"))
          : null));
    }
    replaceKeepingFocus(this.el.banner, parts);
  }

  renderLastMove() {
    const box = this.el.last;
    replaceKeepingFocus(box, lastMoveParts(lastMoveOf(this.state), this.nameOf));
    // The last move and the move log sit with the game's info panel.
    this.el.info.appendChild(box);
    this.log.render();
    this.el.info.appendChild(this.log.el);
    this.log.showNewest();
  }

  renderSummary(module) {
    const s = this.state;
    const area = this.el.summary;
    const content = module.summary && resultShown(s.summary) ? module.summary(this.state, {
      mySeat: this.mySeat, seatName: this.nameOf }) : null;
    const ending = s.over ? endingLines(s.summary, this.nameOf, this.mySeat) : [];
    if (!s.over && !content) { clear(area); return; }
    if (!s.over) { replaceKeepingFocus(area, [content]); return; }
    const buttons = h("div", { class: "summary-buttons" }, ...this.rematchButtons(),
      ...afterGameLinks(this.tableId),
      s.rematch ? h("button", { type: "button", class: "go-rematch",
        onclick: () => {
          if (this.token && this.mySeat !== null) seatStore.set(s.rematch, this.mySeat, this.token);
          navigate(`/table/${s.rematch}`);
        } }, t("table.toRematch")) : null,
      h("a", { href: "/", class: "button", onclick: (e) => { e.preventDefault(); navigate("/"); } },
        t("table.backToLobby")));
    const wasShown = area.querySelector(".summary.final");
    const closed = this.summaryClosedFor === s.version;
    buttons.appendChild(h("button", { type: "button", class: "close-summary",
      dataset: { focusKey: "end-close" }, onclick: () => this.closeSummary() },
    t("table.showTable")));
    const panel = modal(h("section", { class: "summary final", role: "dialog",
                                       "aria-labelledby": "summary-title" },
      h("h2", { id: "summary-title", dataset: { outcome: outcomeFor(s.summary, this.mySeat) ?? "" } },
        endTitle(s.summary, this.mySeat)),
      ending.length ? h("div", { class: "ending" }, ending.map((line) => h("p", {}, line))) : null,
      content,
      ratingChanges(s.summary, this.nameOf),
      buttons));
    if (closed) {
      replaceKeepingFocus(area, [h("div", { class: "summary-reopen" },
        h("button", { type: "button", class: "primary open-summary",
          onclick: () => { this.summaryClosedFor = null; this.render(); } }, t("table.result")),
        buttons.querySelector(".rematch"))]);
      return;
    }
    if (wasShown) {
      // The dialog already open: its contents change in place, so that it does not pop up
      // again (the animation restarts with a new element) and move under the pointer.
      replaceKeepingFocus(wasShown, [...panel.childNodes]);
      return;
    }
    replaceKeepingFocus(area, [h("div", { class: "overlay" }, panel)]);
    panel.querySelector("button")?.focus({ preventScroll: true });
  }

  // -- keyboard ------------------------------------------------------------------------------
  /** The card or button that had the focus is gone (played, or its choice made): the focus
   * goes back to the hand, so that a keyboard player is not sent back to the page's top. */
  keepFocusInHand() {
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected) return;
    const cards = this.el.hand.querySelectorAll("button.card");
    const card = [...cards].find((el) => !el.hasAttribute("aria-disabled")) ?? cards[0];
    card?.focus({ preventScroll: true });
  }

  /** The end dialog closed (Escape, or its button): the table shows, and the focus goes
   * to the button that opens the dialog again. */
  closeSummary() {
    this.summaryClosedFor = this.state.version;
    this.render();
    this.el.summary.querySelector(".open-summary")?.focus();
  }

  keydown(event) {
    const dialog = this.el.summary.querySelector(".summary.final");
    if (dialogKey(dialog, event, () => this.closeSummary())) return;
    const target = event.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      this.selection = {};
      this.render();
      return;
    }
    const digit = /^[1-9]$/.test(event.key) ? Number(event.key)
      : "۱۲۳۴۵۶۷۸۹".indexOf(event.key) + 1;
    if (digit > 0) {
      const cards = this.el.hand.querySelectorAll("button.card");
      const card = cards[digit - 1];
      if (card) {
        event.preventDefault();
        card.focus();
        card.click();
      }
    }
  }
}

/** The invite link with a copy button. */
export function inviteBox(link) {
  const input = h("input", { type: "text", readonly: true, value: link, class: "invite-link",
                             "aria-label": t("lobby.invite"), onfocus: (e) => e.target.select() });
  const button = h("button", { type: "button", class: "copy" }, t("lobby.copy"));
  button.addEventListener("click", async () => {
    let ok = false;
    try { await navigator.clipboard.writeText(link); ok = true; } catch { /* not allowed */ }
    if (!ok) {
      input.select();
      try { ok = document.execCommand("copy"); } catch { ok = false; }
    }
    button.textContent = t("lobby.copied");
    setTimeout(() => { button.textContent = t("lobby.copy"); }, 2000);
  });
  return h("div", { class: "invite-box" },
    h("label", {}, t("table.invite")),
    h("div", { class: "invite-row" }, input, button));
}

