// @ts-check
// The school's old page (/learn.html) leads to the main page, in the language it was
// asked in (kept as the page's choice):
//   ?analyse=TABLE_ID            -> /#/analyse/TABLE_ID        the analysis board
//   ?game=NAME&puzzle=1[&n=K]    -> /#/puzzle/NAME[/K+1]       a puzzle on the table
//   anything else (?game=NAME)   -> /#/learn[/NAME]            the lessons on the table
// (&lang=en|ru|pt|fa).  Puzzles, the analysis board and the lessons are all drawn by the
// main page (puzzle.js, analysis.js, lesson.js); this module only forwards.

const LANGS = ["en", "ru", "pt", "fa"];
const query = new URLSearchParams(location.search);
const enc = encodeURIComponent;

/** Where this address is now, in the main page. */
export function target(params) {
  const game = params.get("game");
  if (params.get("analyse")) return `/#/analyse/${enc(params.get("analyse"))}`;
  if (params.get("puzzle")) {
    const n = /^\d+$/.test(params.get("n") || "") ? Number(params.get("n")) + 1 : null;
    if (!game) return "/#/puzzle";
    return `/#/puzzle/${enc(game)}${n === null ? "" : `/${n}`}`;
  }
  return game ? `/#/learn/${enc(game)}` : "/#/learn";
}

const lang = query.get("lang");
if (LANGS.includes(lang)) {
  try { localStorage.setItem("cardtable.lang", lang); } catch { /* private mode */ }
}
location.replace(target(query));
