// @ts-check
// The computer in one tap: on the landing page, for each game, one line saying what it
// is, "Play the computer" with a level, which makes a table against bots and goes
// straight to it (no "Open the table" to click after), and a link to the game's course.

import { createTable, seats as seatStore } from "./api.js";
import { h, toast } from "./dom.js";
import { t, hasKey } from "./i18n.js";
import { BOT_LEVELS, kindLabel, gameTitle } from "./names.js";
import { navigate } from "./router.js";
import { getMe } from "./players.js";

const LEVEL_KEY = "cardtable.computerLevel";
/** The level a newcomer meets first: one that plays sensibly without crushing them. */
const FIRST_LEVEL = "easy";

function savedLevels() {
  try { return JSON.parse(localStorage.getItem(LEVEL_KEY) || "{}") || {}; } catch { return {}; }
}

export class ComputerPanel {
  constructor(games) {
    this.games = games;
    this.levels = savedLevels();
    this.el = h("section", { class: "panel computer", "aria-labelledby": "computer-title" });
    this.render();
  }

  /** The bot levels a game offers, weakest first. */
  offered(game) { return BOT_LEVELS.filter((level) => (game.bots || []).includes(level)); }

  level(game) {
    const offered = this.offered(game);
    const saved = this.levels[game.name];
    if (offered.includes(saved)) return saved;
    return offered.includes(FIRST_LEVEL) ? FIRST_LEVEL : offered[0];
  }

  render() {
    const playable = this.games.filter((game) => this.offered(game).length);
    this.el.replaceChildren(h("h2", { id: "computer-title" }, t("home.title")),
      h("ul", { class: "tables computer-games" }, playable.map((game) => this.row(game))));
  }

  row(game) {
    const name = game.name;
    const about = `home.about.${name}`;
    const level = this.level(game);
    const select = h("select", { id: `level-${name}`, class: "level",
      onchange: (e) => {
        this.levels[name] = e.target.value;
        try { localStorage.setItem(LEVEL_KEY, JSON.stringify(this.levels)); } catch { /* */ }
      } },
    this.offered(game).map((b) => h("option", { value: b, selected: b === level },
      kindLabel(`bot:${b}`))));
    return h("li", { class: "table-item computer-game", dataset: { game: name } },
      h("div", { class: "table-what" },
        h("h3", { id: `about-${name}` }, gameTitle(name, game.title)),
        hasKey(about) ? h("p", { class: "about" }, t(about)) : null),
      h("div", { class: "table-buttons computer-row" },
        h("label", { for: `level-${name}` }, t("home.level")), select,
        h("button", { type: "button", class: "primary play-computer",
          "aria-describedby": `about-${name}`,
          onclick: (e) => this.play(game, e.currentTarget) }, t("home.play")),
        h("a", { class: "learn", href: `/#/learn/${encodeURIComponent(name)}`,
          "aria-describedby": `about-${name}`,
          onclick: (e) => { e.preventDefault(); navigate(`/#/learn/${encodeURIComponent(name)}`); } },
        t("home.learn"))));
  }

  /** A table of this person against bots of the chosen level, and straight to it. */
  async play(game, button) {
    const level = this.el.querySelector(`#level-${game.name}`)?.value || this.level(game);
    const players = game.default_players;
    button.disabled = true;
    try {
      await getMe();   // the guest exists first, so the seat is theirs (the lobby's "your games")
      const answer = await createTable({ game: game.name, players,
        seats: ["human", ...Array(players - 1).fill(`bot:${level}`)] });
      seatStore.set(answer.table, answer.seat, answer.token);
      navigate(`/table/${answer.table}`);
    } catch (error) {
      toast(t("home.error", { reason: error.message }), "error");
      button.disabled = false;
    }
  }
}
