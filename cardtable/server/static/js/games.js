// The page's one table of games: a game's name (the server's `game` in every state and
// record) to the module that draws it.  A module exports render(ctx), summary(state,
// {mySeat, seatName}) and resultLine(summary, seatName).  A game the server knows but
// this table does not is drawn by generic.js from what every view holds.

import * as pasur from "./pasur.js";
import * as durak from "./durak.js";
import * as generic from "./generic.js";

const MODULES = { pasur, durak };

/** The module that draws a game's table, by the game's name. */
export function gameModule(name) { return MODULES[name] ?? generic; }
