// @ts-check
// The page's one table of games: a game's name (the server's `game` in every state and
// record) to the module that draws it.  A module exports render(ctx), summary(state,
// {mySeat, seatName}) and resultLine(summary, seatName), and may say a move in words
// (sayMove(text): "play 7♣ and take 4♦").  A game the server knows but
// this table does not is drawn by generic.js from what every view holds.

import * as pasur from "./pasur.js";
import * as durak from "./durak.js";
import * as generic from "./generic.js";

const MODULES = { pasur, durak };

/** The module that draws a game's table, by the game's name. */
export function gameModule(name) { return MODULES[name] ?? generic; }

/** A move in words ("play 7♣ and take 4♦"), by its game's module (the move's own text
 * where the module cannot say it), to be put in a sentence. */
export function sayMove(game, move) {
  const module = gameModule(game);
  return module.sayMove ? module.sayMove(move) : String(move);
}
