// @ts-check
// The school's puzzles on the real table:
//   /#/puzzle             the first game's daily puzzle
//   /#/puzzle/GAME        the game's daily puzzle (the same for everyone on a date)
//   /#/puzzle/GAME/N      the game's N-th puzzle (from 1; past the last, it wraps round)
// A puzzle is a position from a real game where one move is clearly best (GET
// /api/puzzles/GAME?daily=true or ?index=N-1: the seat's view, without the answer).  It
// is drawn by the live table (a LessonTable, whose "socket" is the school); the move the
// player makes goes to POST /api/puzzles/ID/answer, which answers right or wrong, the
// answer, why in words (in the page's language) and every move's value.  One try: then
// the answer is marked on the table.  Game names come from the server: none here.

import { api, getGames } from "./api.js";
import { h, clear, replaceKeepingFocus, announce, toast } from "./dom.js";
import { t, language, LANGUAGES, localDigits, upperFirst } from "./i18n.js";
import { gameTitle } from "./names.js";
import { navigate } from "./router.js";
import { isCardText, cardKey } from "./cards.js";
import { sayMove } from "./games.js";
import { hintValue } from "./hintpanel.js";
import { TableView } from "./table.js";
import { LessonTable } from "./lesson.js";

const enc = encodeURIComponent;

/** The screen for the hash after "#/puzzle" ("", "/GAME" or "/GAME/N"). */
export function puzzleScreen(root, rest) {
  const [game, n] = rest.split("/").filter(Boolean).map(decodeURIComponent);
  const number = /^\d+$/.test(n ?? "") && Number(n) > 0 ? Number(n) : null;
  return new PuzzleTable(root, game ?? null, number);
}

/** The page of a game's puzzle: the daily one (``n`` null) or the n-th (from 1). */
export function puzzleHref(game, n = null) {
  return `/#/puzzle/${enc(game)}${n === null ? "" : `/${n}`}`;
}

/** A link that moves within the page (the router), not a reload. */
function pageLink(href, attrs, ...children) {
  return h("a", { href, ...attrs, onclick: (e) => { e.preventDefault(); navigate(href); } },
    ...children);
}

/** The direction of the server's words in ``lang`` (they may start with a card: "auto"
 * would read a Persian sentence that starts "Q♠ ..." left to right). */
function dirOf(lang) { return LANGUAGES[lang]?.dir ?? "auto"; }

/** A puzzle on the live table's drawing.  A lesson's table, with the puzzle for its step:
 * ``key`` (the lesson's step) holds the puzzle's number, null for the daily one. */
export class PuzzleTable extends LessonTable {
  /** The puzzle's position once; after a change of language, the answer's words again. */
  async load() {
    const lang = language();
    try {
      if (!this.game) {
        this.game = (await getGames())[0].name;
        history.replaceState(null, "", puzzleHref(this.game));
      }
      if (!this.step) {
        const which = this.key === null ? "daily=true" : `index=${this.key - 1}`;
        this.step = await api(`/api/puzzles/${enc(this.game)}?${which}`);
        if (this.key !== null && this.key !== this.step.index + 1) {
          // past the last puzzle: the address says the one shown
          this.key = this.step.index + 1;
          history.replaceState(null, "", puzzleHref(this.game, this.key));
        }
      }
      if (this.answer && this.answer.lang !== lang) {
        this.answer = await this.ask(this.answer.move, lang);
        if (this.after) this.after = this.answer.after ?? null;
      }
    } catch (error) {
      this.showError(error);
      return;
    }
    if (this.gone || lang !== language()) return;
    this.onMessage(this.stateMessage());
  }

  /** The server's judgement of a move, in ``lang``, with what was asked. */
  async ask(move, lang) {
    const answer = await api(`/api/puzzles/${enc(this.step.id)}/answer`,
      { method: "POST", body: { move, lang } });
    return { ...answer, move, lang };
  }

  async check(move) {
    const id = this.step.id;
    let answer = null;
    try {
      answer = await this.ask(move, language());
    } catch (error) {
      toast(error.message, "error");
    }
    if (this.gone || id !== this.step?.id) return;
    this.pending = null;
    if (answer) {
      this.answer = answer;
      this.solved = true;   // one try: the answer is shown, right or wrong
      this.after = null;    // the puzzle's table until the player asks for the one after
    }
    this.render();
    if (!answer) return;
    announce(answer.right ? t("puzzle.right")
      : `${t("puzzle.wrong")} ${sayMove(this.game, answer.answer)}. ${t("puzzle.why")} ${answer.why}`);
    this.root.querySelector("#next-puzzle")?.focus({ preventScroll: true });
  }

  /** Once answered, the table after the best move or the puzzle's own, in turn: the
   * answer played out (the move log and the cards show it). */
  toggleAfter() {
    if (!this.answer?.after) return;
    this.after = this.after ? null : this.answer.after;
    this.onMessage(this.stateMessage());
  }

  /** Once answered, nobody is to move: the panel says the rest. */
  turnLine() {
    return this.solved ? h("p", { class: "whose-turn over" }) : super.turnLine();
  }

  /** No hints: the puzzle is to find the move. */
  helpButtons() { return []; }

  lessonSend(msg) {
    if (msg.type === "move") this.check(msg.move);
  }

  render(options) {
    TableView.prototype.render.call(this, options);
    if (!this.state || !this.step) return;
    const title = `${gameTitle(this.game)} · ${t("puzzle.title")}`;
    this.el.title.textContent = title;
    document.title = `${title} · cardtable`;
    const data = this.el.main.dataset;
    data.puzzle = this.step.id;
    data.solved = String(!!this.solved);
    data.answer = this.answer?.answer ?? "";
    data.after = String(!!this.after);
    this.el.main.classList.add("puzzle-table");
  }

  /** The answer's words are in the puzzle's panel, not in a hint's. */
  renderHint() { clear(this.el.hintBox); }

  /** Once answered, the answer's cards are marked in the hand and on the table. */
  markHint() {
    if (!this.answer) return;
    for (const word of String(this.answer.answer).split(/\s+/)) {
      if (!isCardText(word)) continue;
      const key = CSS.escape(cardKey(word));
      for (const zone of [this.el.hand, this.el.felt, this.el.opponents]) {
        for (const card of zone.querySelectorAll(`.card[data-card="${key}"]`)) {
          card.classList.add("puzzle-answer");
          if (zone === this.el.hand) card.classList.add("hinted");
        }
      }
    }
  }

  /** Every move's value, the best first (the answer's value is the best). */
  valueList(answer) {
    const best = answer.values[answer.answer];
    const moves = Object.keys(answer.values).sort((a, b) =>
      Math.abs(answer.values[a] - best) - Math.abs(answer.values[b] - best));
    return h("ol", { id: "puzzle-values", class: "puzzle-values" }, moves.map((move) => {
      const isAnswer = move === answer.answer;
      const isPlayed = move === answer.move;
      return h("li", { class: [isAnswer ? "answer" : "", isPlayed ? "played" : ""].join(" ").trim(),
        dataset: { move, value: String(answer.values[move]) } },
      upperFirst(sayMove(this.game, move)), " ",
      h("span", { class: "puzzle-value" }, hintValue(answer.values[move], answer.unit)),
      isAnswer ? h("span", { class: "tag answer-tag" }, t("puzzle.answerTag")) : null,
      isPlayed && !isAnswer ? h("span", { class: "tag played-tag" }, t("puzzle.playedTag")) : null);
    }));
  }

  /** The puzzle's panel where the live table has its banners: which puzzle, the task,
   * then the verdict, why, every move's value; the way to the next, the daily one, the
   * lessons. */
  renderBanner() {
    const step = this.step;
    if (!step) return;
    const answer = this.answer;
    const n = step.index + 1;
    const where = this.key === null ? t("puzzle.dailyOf", { n, of: step.count })
      : t("puzzle.nOf", { n, of: step.count });
    const next = (step.index + 1) % step.count + 1;
    const words = answer ? [
      h("p", { id: "puzzle-verdict", class: answer.right ? "right" : "wrong",
        dataset: { right: String(answer.right), move: answer.move } },
      answer.right ? `✓ ${t("puzzle.right")}` : `✗ ${t("puzzle.wrong")} ${sayMove(this.game, answer.answer)}.`),
      // the move in words, then why (the server's words, in the language asked)
      h("p", { id: "puzzle-why" }, t("puzzle.bestMove", { move: sayMove(this.game, answer.answer) }), " ",
        h("strong", {}, `${t("puzzle.why")} `),
        h("span", { lang: answer.lang, dir: dirOf(answer.lang) }, localDigits(answer.why, answer.lang))),
      answer.yours ? h("p", { id: "puzzle-yours" }, t("puzzle.yourMove", { move: sayMove(this.game, answer.move) }),
        " ", h("strong", {}, `${t("puzzle.why")} `),
        h("span", { lang: answer.lang, dir: dirOf(answer.lang) }, localDigits(answer.yours, answer.lang))) : null,
      h("h3", {}, t("puzzle.values")),
      this.valueList(answer),
      h("p", { class: "muted puzzle-proof" },
        answer.proof === "exact" ? t("puzzle.proofExact") : t("puzzle.proofSearch")),
      answer.after ? h("p", {}, h("button", { type: "button", id: "puzzle-after", class: "button",
        "aria-pressed": String(!!this.after), dataset: { focusKey: "puzzle:after" },
        onclick: () => this.toggleAfter() },
      this.after ? t("puzzle.showBefore") : t("puzzle.showAfter"))) : null,
    ] : [];
    replaceKeepingFocus(this.el.banner, [h("section", {
      class: "banner lesson puzzle", id: "puzzle-panel", "aria-labelledby": "puzzle-title",
      dataset: { game: this.game, puzzle: step.id, index: String(step.index),
        daily: String(this.key === null) } },
    h("p", { class: "lesson-where" }, where),
    h("h2", { id: "puzzle-title" }, t("puzzle.find")),
    ...words,
    h("div", { class: "lesson-buttons" },
      pageLink(puzzleHref(this.game, next), { class: `button next-puzzle${answer ? " primary" : ""}`,
        id: "next-puzzle", dataset: { focusKey: "puzzle:next" } }, t("puzzle.next")),
      this.key === null ? null : pageLink(puzzleHref(this.game), { class: "button daily-puzzle",
        id: "daily-puzzle", dataset: { focusKey: "puzzle:daily" } }, t("puzzle.daily")),
      this.backLink()))]);
  }
}
