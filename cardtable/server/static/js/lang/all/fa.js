// @ts-check
// Every word of the page in Persian, as one table: i18n.js looks keys up in it.
// English is in the page's first script; each other language is a bundle of its own
// (web/assets.py), fetched when a reader of it arrives or picks it.  Where two files hold
// a key, the later one wins.

import main from "../fa.js";
import codes from "../codes/fa.js";
import table from "../table/fa.js";
import rules from "../rules/fa.js";
import moves from "../moves/fa.js";
import players from "../players/fa.js";
import accountControl from "../accountcontrol/fa.js";
import lessons from "../lessons/fa.js";
import school from "../school/fa.js";
import newcomer from "../newcomer/fa.js";
import report from "../report/fa.js";
import tournaments from "../tournaments/fa.js";
import social from "../social/fa.js";

export default { ...main, ...codes, ...table, ...rules, ...moves, ...players, ...accountControl,
  ...lessons, ...school, ...newcomer, ...report, ...tournaments, ...social };
