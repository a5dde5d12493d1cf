// The school's page (/learn.html): puzzles and the analysis of a finished game, over the
// server's /api/puzzles and /api/tables/{id}/analysis: ?game=NAME&puzzle=1 or
// ?analyse=TABLE_ID, with &lang=en|ru|pt|fa.  The lessons are played on the table itself
// (the main page's /#/learn/GAME, lesson.js): a lesson link, or this page without
// ?puzzle or ?analyse, leads there in the same language.  Game names come from the query
// and GET /api/games: this module names none.

import { h, clear, announce } from "./dom.js";

const WORDS = {
  en: { daily: "The daily puzzle", nextPuzzle: "Next puzzle", right: "Right.", wrong: "Not the best. The best:", why: "Why", yours: "Your move",
        puzzle: "Puzzle", find: "One move is clearly best. Find it.", analysis: "Analysis",
        running: "Analysing: move", of: "of", loss: "loss", best: "best", label: "label",
        move: "move", seat: "seat", table: "Table", hand: "Your hand", learn: "Learn",
        puzzles: "Puzzles", waiting: "Waiting for the analysis" },
  ru: { daily: "Задача дня", nextPuzzle: "Следующая задача", right: "Верно.", wrong: "Не лучший ход. Лучший:", why: "Почему", yours: "Ваш ход",
        puzzle: "Задача", find: "Один ход явно лучший. Найдите его.", analysis: "Анализ",
        running: "Анализ: ход", of: "из", loss: "потеря", best: "лучший", label: "оценка",
        move: "ход", seat: "место", table: "Стол", hand: "Ваши карты", learn: "Учиться",
        puzzles: "Задачи", waiting: "Ждём анализ" },
  pt: { daily: "O problema do dia", nextPuzzle: "Próximo problema", right: "Certo.", wrong: "Não é a melhor. A melhor:", why: "Por quê", yours: "Sua jogada",
        puzzle: "Problema", find: "Uma jogada é claramente a melhor. Encontre-a.",
        analysis: "Análise", running: "Analisando: jogada", of: "de", loss: "perda",
        best: "melhor", label: "marca", move: "jogada", seat: "lugar", table: "Mesa",
        hand: "Sua mão", learn: "Aprender", puzzles: "Problemas", waiting: "Aguardando a análise" },
  fa: { daily: "معمای روز", nextPuzzle: "معمای بعد", right: "درست است.", wrong: "بهترین نیست. بهترین:", why: "چرا", yours: "حرکت شما",
        puzzle: "معما", find: "یک حرکت آشکارا بهترین است. آن را پیدا کنید.", analysis: "تحلیل",
        running: "در حال تحلیل: حرکت", of: "از", loss: "زیان", best: "بهترین", label: "برچسب",
        move: "حرکت", seat: "جایگاه", table: "میز", hand: "دست شما", learn: "آموزش",
        puzzles: "معماها", waiting: "در انتظار تحلیل" },
};
const DIRECTION = { en: "ltr", ru: "ltr", pt: "ltr", fa: "rtl" };

const query = new URLSearchParams(location.search);
const lang = WORDS[query.get("lang")] ? query.get("lang") : "en";
const t = WORDS[lang];
const root = document.getElementById("school");
document.documentElement.lang = lang;
document.documentElement.dir = DIRECTION[lang];

async function call(method, url, body) {
  const response = await fetch(url, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.detail || String(response.status));
  return data;
}

function cardsLine(label, cards) {
  return h("p", { class: "school-cards" }, `${label}: `, (cards || []).join(" ") || "—");
}

function position(view) {
  const table = Array.isArray(view.table)
    ? view.table.map((item) => (Array.isArray(item) ? item.filter(Boolean).join("/") : item))
    : [];
  return h("div", { class: "school-position" },
    cardsLine(t.table, table), cardsLine(t.hand, view.hand),
    view.trump ? h("p", {}, `♛ ${view.trump}`) : null);
}

function moveButtons(moves, onPick) {
  return h("div", { class: "school-moves" }, moves.map((move) =>
    h("button", { type: "button", class: "school-move", dataset: { move }, onclick: () => onPick(move) },
      move)));
}

async function puzzle(game) {
  // ?puzzle=1: the day's puzzle; ?puzzle=1&n=K: the K-th stored one (from 0)
  const n = /^\d+$/.test(query.get("n") || "") ? Number(query.get("n")) : null;
  const url = `/api/puzzles/${encodeURIComponent(game)}` + (n === null ? "?daily=true" : `?index=${n}`);
  const shown = await call("GET", url);
  const verdict = h("div", { id: "verdict", role: "status" });
  const here = n === null ? t.daily : `${shown.index + 1} ${t.of} ${shown.count}`;
  const page = (extra) => `/learn.html?game=${encodeURIComponent(game)}&puzzle=1${extra}&lang=${lang}`;
  clear(root);
  root.append(h("h1", { dataset: { puzzle: shown.id } }, `${t.puzzle}: ${here}`), h("p", {}, t.find),
    position(shown.view),
    moveButtons(shown.legal_moves, async (move) => {
      const answer = await call("POST", `/api/puzzles/${encodeURIComponent(shown.id)}/answer`, { move, lang });
      verdict.dataset.right = String(answer.right);
      clear(verdict);
      verdict.append(h("p", { class: "puzzle-verdict" }, answer.right ? `✓ ${t.right}` : `✗ ${t.wrong} ${answer.answer}`),
        h("p", { class: "puzzle-why" }, `${t.why}: ${answer.answer}: ${answer.why}`),
        answer.yours ? h("p", { class: "puzzle-yours" }, `${t.yours}: ${move}: ${answer.yours}`) : null,
        h("ul", {}, Object.entries(answer.shown).map(([m, v]) => h("li", {}, `${m}: ${v}`))));
      announce(answer.right ? t.right : `${t.wrong} ${answer.answer}`);
    }), verdict,
    h("p", { class: "puzzle-links" },
      h("a", { id: "next-puzzle", href: page(`&n=${(shown.index + 1) % shown.count}`) }, t.nextPuzzle),
      n === null ? null : [" · ", h("a", { href: page("") }, t.daily)]));
}

async function analysis(tableId) {
  clear(root);
  const status = h("p", { id: "analysis-status", role: "status" }, t.waiting);
  root.append(h("h1", {}, t.analysis), status);
  await call("POST", `/api/tables/${encodeURIComponent(tableId)}/analysis`);
  for (;;) {
    const now = await call("GET", `/api/tables/${encodeURIComponent(tableId)}/analysis`);
    if (now.status === "done") { drawAnalysis(now.analysis, status); return; }
    status.textContent = `${t.running} ${now.done ?? 0} ${t.of} ${now.total ?? "?"}`;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function drawAnalysis(data, status) {
  status.textContent = `${t.analysis}: ${data.moves.length} (${data.unit})`;
  status.dataset.done = "true";
  const rows = data.moves.filter((m) => m.choices > 1).map((m) =>
    h("tr", { dataset: { label: m.label || "" } }, h("td", {}, m.index), h("td", {}, m.seat),
      h("td", {}, m.move), h("td", {}, m.best), h("td", {}, m.loss), h("td", {}, m.label || "")));
  root.append(h("table", { id: "analysis-moves" },
    h("thead", {}, h("tr", {}, ["#", t.seat, t.move, t.best, t.loss, t.label].map((c) => h("th", {}, c)))),
    h("tbody", {}, rows)));
}

/** The lessons of a game (or all of them) on the table, in the main page. */
function lessonHref(game) { return game ? `/#/learn/${encodeURIComponent(game)}` : "/#/learn"; }

/** The main page speaks the language it remembers: the one chosen here, if it was. */
function keepLanguage() {
  if (!query.get("lang")) return;
  try { localStorage.setItem("cardtable.lang", lang); } catch { /* private mode */ }
}

async function nav() {
  const box = document.getElementById("school-nav");
  const listed = await call("GET", "/api/games");
  for (const game of listed) {
    box.append(h("a", { href: lessonHref(game.name), class: "lesson-link", onclick: keepLanguage },
      `${t.learn} ${game.title}`), " ",
      h("a", { href: `/learn.html?game=${game.name}&puzzle=1&lang=${lang}` }, `${t.puzzles} ${game.title}`), " ");
  }
  return listed;
}

async function main() {
  try {
    const listed = await nav();
    if (query.get("analyse")) return await analysis(query.get("analyse"));
    const game = query.get("game") || listed[0].name;
    if (query.get("puzzle")) return await puzzle(game);
    keepLanguage();
    return location.replace(lessonHref(query.get("game")));
  } catch (error) {
    root.append(h("p", { class: "error", role: "alert" }, error.message));
  }
}

main();
