// @ts-check
// The school's lessons on the real table:
//   /#/learn              every game's course, with the steps done ticked
//   /#/learn/GAME         the first step not done yet (the course resumes there)
//   /#/learn/GAME/STEP    one step, drawn by the live table (table.js and the game's module)
// A step is a position from the server (GET /api/learn/GAME/STEP: the learner's view);
// the learner's move goes to POST /api/learn/GAME/STEP/check, which answers right (and
// keeps the step as done for this player, guest or account) or the reason in words, in
// the page's language.  Game names come from the server: this module names none.

import { api, getGames } from "./api.js";
import { h, clear, replaceKeepingFocus, announce, toast } from "./dom.js";
import { t, language, onLanguageChange, localDigits, upperFirst } from "./i18n.js";
import { gameTitle } from "./names.js";
import { navigate } from "./router.js";
import { getMe } from "./players.js";
import { TableView } from "./table.js";
import { sayMove } from "./games.js";

const enc = encodeURIComponent;

/** The screen for the hash after "#/learn/" ("", "GAME" or "GAME/STEP"). */
export function learnScreen(root, rest) {
  const [game, key] = rest.split("/").filter(Boolean).map(decodeURIComponent);
  return game ? new LessonTable(root, game, key ?? null) : new LessonList(root);
}

/** A link that moves within the page (the router), not a reload. */
function pageLink(href, attrs, ...children) {
  return h("a", { href, ...attrs, onclick: (e) => { e.preventDefault(); navigate(href); } },
    ...children);
}

/** The course's steps as links, the done ones ticked ("✓" and, for screen readers, "done"). */
function stepList(game, steps, done, current = null) {
  return h("ol", { class: "lesson-steps", dataset: { game } }, steps.map((step) => {
    const isDone = done.has(step.key);
    return h("li", { class: isDone ? "done" : "", dataset: { step: step.key, done: String(isDone) } },
      pageLink(`/#/learn/${enc(game)}/${enc(step.key)}`,
        { "aria-current": step.key === current ? "step" : null },
        h("span", { class: "tick", "aria-hidden": "true" }, isDone ? "✓" : ""),
        step.title,
        isDone ? h("span", { class: "sr-only" }, ` (${t("lesson.doneMark")})`) : null));
  }));
}

/** The first step not done (null when every step is). */
function firstUndone(steps, done) {
  return steps.find((step) => !done.has(step.key))?.key ?? null;
}

/** The player whose progress this is (a first visit makes a guest), then what they did. */
async function progressOf(game = null) {
  await getMe();
  const answer = await api(`/api/learn/progress${game ? `?game=${enc(game)}` : ""}`);
  return answer.games || {};
}

/** #/learn: each game's course, how far the player got, and where to go on. */
export class LessonList {
  constructor(root) {
    this.root = root;
    this.courses = null;
    this.render();
  }

  destroy() { this.gone = true; }

  async load() {
    const lang = this.lang = language();
    try {
      const [games, progress] = await Promise.all([getGames(), progressOf()]);
      const courses = await Promise.all(games.map((game) =>
        api(`/api/learn/${enc(game.name)}?lang=${lang}`).then((course) => ({
          game: game.name, title: game.title, steps: course.steps,
          done: new Set(progress[game.name] || []) }), () => null)));
      this.courses = courses.filter(Boolean);
      this.error = null;
    } catch (error) { this.error = error.message; }
    if (!this.gone && lang === language()) this.draw();
  }

  /** Drawn again in a new language: the courses' words come from the server in it. */
  render() {
    this.draw();
    if (this.lang !== language()) this.load();
  }

  draw() {
    const panel = h("section", { class: "panel lessons", id: "lessons" },
      h("h2", {}, t("lesson.lessons")), h("p", { class: "muted" }, t("lesson.intro")));
    clear(this.root).append(panel);
    if (this.error) { panel.append(h("p", { class: "error", role: "alert" }, this.error)); return; }
    if (!this.courses) { panel.append(h("p", { class: "muted" }, t("lobby.loading"))); return; }
    for (const course of this.courses) {
      const count = course.steps.filter((s) => course.done.has(s.key)).length;
      const all = count === course.steps.length;
      const go = all ? t("lesson.again") : count ? t("lesson.continue") : t("lesson.start");
      panel.append(h("section", { class: "lesson-course", dataset: { game: course.game } },
        h("h3", {}, gameTitle(course.game, course.title)),
        h("p", { class: "lesson-count" }, t("lesson.countDone", { n: count, of: course.steps.length }),
          all ? ` ${t("lesson.courseDone")}` : ""),
        h("p", { class: "lesson-go" },
          pageLink(all ? `/#/learn/${enc(course.game)}/${enc(course.steps[0].key)}` : `/#/learn/${enc(course.game)}`,
            { class: "button primary resume" }, go), " ",
          pageLink(`/#/puzzle/${enc(course.game)}`, { class: "button puzzle" }, t("lesson.puzzle"))),
        stepList(course.game, course.steps, course.done)));
    }
  }
}

/** One step of a course on the live table's own drawing: the same cards, clicks, drags,
 * one-click moves and keys.  Instead of a socket, the move is checked by the server. */
export class LessonTable extends TableView {
  constructor(root, game, key) {
    super(root, `lesson-${game}`);
    this.game = game;
    this.key = key;
    this.verdict = null;     // {right, text, move} of the last move tried
    this.unlistenLesson = onLanguageChange(() => this.load());
    this.load();
  }

  /** No server table: the "socket" is this lesson (moves are checked, hints asked). */
  connect() {
    this.status = { state: "open" };
    this.socket = { send: (msg) => { this.lessonSend(msg); return true; }, close() {},
      reconnect() {}, stopped: false };
  }

  /** A lesson's log is its own moves: there is no server table to rebuild it from. */
  async loadLog() { this.log.stale = false; }

  destroy() {
    this.gone = true;
    this.unlistenLesson();
    super.destroy();
  }

  buildFrame() {
    super.buildFrame();
    this.chat.el.remove();          // nobody to talk to, no clock, nothing to resign
    this.life.el.hidden = true;
    this.el.status.hidden = true;
    this.el.main.classList.add("lesson-table");
  }

  async load() {
    const lang = language();
    const game = enc(this.game);
    try {
      const [course, progress] = await Promise.all([
        api(`/api/learn/${game}?lang=${lang}`), progressOf(this.game)]);
      this.course = course.steps;
      this.done = new Set(progress[this.game] || []);
      if (!this.key || !this.course.some((s) => s.key === this.key)) {
        // the course resumes at the first step not done (or starts again when all are)
        this.key = firstUndone(this.course, this.done) ?? this.course[0].key;
        history.replaceState(null, "", `/#/learn/${game}/${enc(this.key)}`);
      }
      this.step = await api(`/api/learn/${game}/${enc(this.key)}?lang=${lang}`);
    } catch (error) {
      this.showError(error);
      return;
    }
    if (this.gone || lang !== language()) return;
    // Words from before a change of language: a right answer is said again, a wrong one
    // (in the old language) goes.
    if (this.verdict && this.verdict.lang !== lang) {
      this.verdict = this.verdict.right ? { ...this.verdict, text: t("lesson.right"), lang } : null;
    }
    if (this.hintFor && this.hintFor.lang !== lang) this.hintFor = null;
    this.onMessage(this.stateMessage());
  }

  /** The step as the live table's socket would send it: before the learner's move, or
   * once the right move is played (``after``, from the server's check).
   * @returns {WireState} */
  stateMessage() {
    const step = this.step;
    const after = this.after;
    return {
      type: "state", table: this.tableId, game: this.game, version: after ? 2 : 1,
      status: "playing", over: false, seat: step.seat, to_move: after ? after.to_move : step.seat,
      view: after ? after.view : step.view, legal_moves: after ? [] : step.legal_moves,
      last_move: after ? { index: 1, seat: after.seat, move: after.move } : null,
      seats: Array.from({ length: step.view.players ?? 2 }, (_, seat) => ({
        seat, kind: "human", bot: null, name: null, taken: true, connected: true,
        bot_playing: false, player: null, player_kind: null })),
    };
  }

  lessonSend(msg) {
    if (msg.type === "move") this.check(msg.move);
    else if (msg.type === "hint") this.askHint();
  }

  async check(move) {
    const key = this.key;
    let answer;
    try {
      answer = await api(`/api/learn/${enc(this.game)}/${enc(key)}/check`,
        { method: "POST", body: { move, lang: language() } });
    } catch (error) {
      answer = null;
      toast(error.message, "error");
    }
    if (this.gone || key !== this.key) return;
    this.pending = null;
    if (answer) {
      this.verdict = { right: answer.right, text: answer.reason, move, lang: language() };
      if (answer.right) {
        this.solved = true;
        this.after = answer.after ?? null;
        if (answer.done) this.done.add(key);
      }
    }
    // The right move is played on the table (the move log and the cards show it).
    if (answer?.right && this.after) this.onMessage(this.stateMessage());
    else this.render();
    if (!answer) return;
    announce(answer.reason);
    if (answer.right) this.root.querySelector("#next-step")?.focus({ preventScroll: true });
  }

  async askHint() {
    const key = this.key;
    const lang = language();
    try {
      const given = await api(`/api/learn/${enc(this.game)}/${enc(key)}/hint?lang=${lang}`);
      if (this.gone || key !== this.key || !this.state) return;
      this.hintFor = { move: given.move, text: given.text, lang };
      // a lesson's hint is its move alone (its words are the banner's): not the socket's
      // whole answer, which the table reads only for its panel of choices
      this.onMessage(/** @type {WireHintAnswer} */ (/** @type {unknown} */ (
        { type: "hint", move: given.move, version: this.state.version })));
      this.renderBanner();
    } catch (error) { toast(error.message, "error"); }
  }

  myTurn() { return !this.solved && super.myTurn(); }

  /** The learner finds the move: nothing is played for them, not even a lone pass. */
  autoPlay() {}

  /** A hint only (no undo: a step is one move). */
  helpButtons() {
    if (!this.myTurn()) return [];
    return [h("button", { type: "button", class: "help hint", dataset: { focusKey: "help:hint" },
      onclick: () => this.socket.send({ type: "hint" }) }, t("table.hint"))];
  }

  render(options) {
    super.render(options);
    if (!this.state || !this.step) return;
    const title = `${gameTitle(this.game)} · ${t("lesson.title")}`;
    this.el.title.textContent = `${title}: ${this.step.title}`;
    document.title = `${title} · cardtable`;
    const data = this.el.main.dataset;
    data.lesson = this.key;
    data.solved = String(!!this.solved);
  }

  /** Say in the panel that the step (or puzzle) could not be had, with the way back. */
  showError(error) {
    if (this.gone) return;
    replaceKeepingFocus(this.el.banner, [h("div", { class: "banner error", role: "alert" },
      h("p", {}, error.message), this.backLink())]);
  }

  backLink() {
    return pageLink("/#/learn", { class: "button back-to-lessons", dataset: { focusKey: "lesson:back" } },
      t("lesson.back"));
  }

  /** The lesson's panel where the live table has its banners: the step's words, the
   * verdict of the last move, the way on and back, and the course with its ticks. */
  renderBanner() {
    if (!this.step || !this.course) return;
    const steps = this.course;
    const index = steps.findIndex((s) => s.key === this.key);
    const next = steps[index + 1];
    const verdict = this.verdict;
    const hint = this.hintFor;
    const nextHref = next ? `/#/learn/${enc(this.game)}/${enc(next.key)}` : "/#/learn";
    replaceKeepingFocus(this.el.banner, [h("section", {
      class: "banner lesson", id: "lesson-panel", "aria-labelledby": "lesson-title",
      dataset: { game: this.game, step: this.key } },
    h("p", { class: "lesson-where" }, t("lesson.stepOf", { n: index + 1, of: steps.length })),
    h("h2", { id: "lesson-title" }, this.step.title),
    h("p", { id: "lesson-text" }, this.step.text),
    verdict ? h("p", { id: "lesson-verdict", class: verdict.right ? "right" : "wrong",
      dataset: { right: String(verdict.right), move: verdict.move } },
    verdict.right ? "✓ " : "✗ ", verdict.text) : null,
    // the move in words, then why (the server's words, in the language asked)
    hint ? h("p", { id: "lesson-hint", dataset: { move: hint.move } },
      `${t("table.hintIs", { move: sayMove(this.game, hint.move) })}. `,
      h("span", { lang: hint.lang }, upperFirst(localDigits(hint.text, hint.lang)))) : null,
    h("div", { class: "lesson-buttons" },
      this.solved ? pageLink(nextHref, { class: "button primary next-step", id: "next-step",
        dataset: { focusKey: "lesson:next" } }, next ? t("lesson.next") : t("lesson.finish")) : null,
      this.backLink()),
    h("details", { class: "lesson-course-steps" },
      h("summary", {}, t("lesson.countDone", { n: this.done.size, of: steps.length })),
      stepList(this.game, steps, this.done, this.key)))]);
  }
}
