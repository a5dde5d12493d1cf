// @ts-check
// Every word of the page in Russian, as one table: i18n.js looks keys up in it.
// English is in the page's first script; each other language is a bundle of its own
// (web/assets.py), fetched when a reader of it arrives or picks it.  Where two files hold
// a key, the later one wins.

import main from "../ru.js";
import codes from "../codes/ru.js";
import table from "../table/ru.js";
import rules from "../rules/ru.js";
import moves from "../moves/ru.js";
import players from "../players/ru.js";
import accountControl from "../accountcontrol/ru.js";
import lessons from "../lessons/ru.js";
import school from "../school/ru.js";
import newcomer from "../newcomer/ru.js";
import report from "../report/ru.js";
import tournaments from "../tournaments/ru.js";
import social from "../social/ru.js";

export default { ...main, ...codes, ...table, ...rules, ...moves, ...players, ...accountControl,
  ...lessons, ...school, ...newcomer, ...report, ...tournaments, ...social };
