// @ts-check
// Names shown for seats, bots and games, shared by the lobby, the table and the history.

import { t, hasKey, num } from "./i18n.js";

export const BOT_LEVELS = ["beginner", "easy", "medium", "hard", "expert"];

/** "bot:medium" -> "Bot: medium" in the page's language; "human" -> "Person". */
export function kindLabel(kind) {
  if (!kind || kind === "human") return t("seat.human");
  const [head, rest] = String(kind).split(/:(.*)/s);
  if (head === "bot") {
    const level = (rest || "").split(":")[0];
    return hasKey(`bot.${level}`) ? t(`bot.${level}`) : t("bot.generic", { name: rest });
  }
  return hasKey(`bot.${head}`) ? t(`bot.${head}`) : t("bot.generic", { name: kind });
}

export function gameTitle(name, fallback) {
  return hasKey(`game.${name}`) ? t(`game.${name}`) : (fallback || name);
}

/** A rule set's name in the page's language ("standard" -> "Standard (two players, to
 * 62)"), its id when the page has no name for it. */
export function presetName(game, preset) {
  const key = `preset.${game}.${preset}`;
  return hasKey(key) ? t(key) : String(preset);
}

/** A rule option's name in the page's language ("sur_points" -> "Points for a sur"). */
export function ruleLabel(game, option) {
  const key = `rules.${game}.${option}`;
  return hasKey(key) ? t(key) : String(option).replace(/_/g, " ");
}

/** A rule option's value in the page's language: its choice's words, yes or no, numbers
 * in the language's digits. */
export function ruleValue(game, option, value) {
  if (Array.isArray(value)) return value.map((v) => ruleValue(game, option, v)).join(", ");
  if (typeof value === "boolean") return t(value ? "option.yes" : "option.no");
  if (typeof value === "number") return num(value);
  if (value === null || value === undefined) return "—";
  const key = `rules.${game}.${option}.${value}`;
  return hasKey(key) ? t(key) : String(value);
}

/** Seats as objects whatever the server sends: strings, or objects with a kind. */
export function normalizeSeats(seats) {
  if (!Array.isArray(seats)) return [];
  return seats.map((s, i) => {
    if (typeof s === "string") return { seat: i, kind: s, name: null, taken: s !== "human" };
    let kind = s.kind ?? s.spec ?? s.type ?? (s.bot ? "bot" : "human");
    if (kind === "bot" && s.bot) kind = `bot:${s.bot}`;
    const isBot = String(kind).startsWith("bot");
    return {
      seat: s.seat ?? i,
      kind,
      name: s.name ?? null,
      taken: s.taken ?? s.occupied ?? s.joined ?? (isBot || !!s.name),
      connected: s.connected ?? null,
      botPlaying: !!s.bot_playing,
      isBot,
    };
  });
}
