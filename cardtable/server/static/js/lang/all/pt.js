// @ts-check
// Every word of the page in Portuguese, as one table: i18n.js looks keys up in it.
// English is in the page's first script; each other language is a bundle of its own
// (web/assets.py), fetched when a reader of it arrives or picks it.  Where two files hold
// a key, the later one wins.

import main from "../pt.js";
import codes from "../codes/pt.js";
import table from "../table/pt.js";
import rules from "../rules/pt.js";
import moves from "../moves/pt.js";
import players from "../players/pt.js";
import accountControl from "../accountcontrol/pt.js";
import lessons from "../lessons/pt.js";
import school from "../school/pt.js";
import newcomer from "../newcomer/pt.js";
import report from "../report/pt.js";
import tournaments from "../tournaments/pt.js";
import social from "../social/pt.js";

export default { ...main, ...codes, ...table, ...rules, ...moves, ...players, ...accountControl,
  ...lessons, ...school, ...newcomer, ...report, ...tournaments, ...social };
