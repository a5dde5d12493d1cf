// @ts-check
// The screens neither the lobby nor a table shows: finished games and their replays, the
// analysis board, lessons and puzzles, the account's own pages.  app.js opens them through
// this module when one is first asked for, so a first visit's script is smaller (the
// server bundles them apart: web/assets.py, the page's <meta name="cardtable-later">).

import { History, Replay } from "./history.js";
import { AccountScreen, AccountControlPage, AdminPage, ResetPage } from "./accountcontrol.js";
import { learnScreen } from "./lesson.js";
import { puzzleScreen } from "./puzzle.js";
import { analysisScreen } from "./analysis.js";

export { History, Replay, AccountScreen, AccountControlPage, AdminPage, ResetPage, learnScreen,
  puzzleScreen, analysisScreen };
