// @ts-check
// Every word of the page in English, as one table: i18n.js looks keys up in it.
// English is in the page's first script; each other language is a bundle of its own
// (web/assets.py), fetched when a reader of it arrives or picks it.  Where two files hold
// a key, the later one wins.

import main from "../en.js";
import codes from "../codes/en.js";
import table from "../table/en.js";
import rules from "../rules/en.js";
import moves from "../moves/en.js";
import players from "../players/en.js";
import accountControl from "../accountcontrol/en.js";
import lessons from "../lessons/en.js";
import school from "../school/en.js";
import newcomer from "../newcomer/en.js";
import report from "../report/en.js";
import tournaments from "../tournaments/en.js";
import social from "../social/en.js";

export default { ...main, ...codes, ...table, ...rules, ...moves, ...players, ...accountControl,
  ...lessons, ...school, ...newcomer, ...report, ...tournaments, ...social };
