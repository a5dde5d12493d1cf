// @ts-check
// The player's table settings, kept in localStorage: whether the first tap on a card
// shows what it would do before the second plays it ("look before you play", on for a
// newcomer), whether a lone pass is played by the page, and the sound on moves (on; its
// button in the table's head is sound.js's).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "cardtable.settings";
const DEFAULTS = { confirm: true, autoPass: true, sound: true };
const listeners = new Set();

function read() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch { return {}; }
}

/** One setting's value (its default when never set). */
export function setting(name) {
  const value = read()[name];
  return typeof value === typeof DEFAULTS[name] ? value : DEFAULTS[name];
}

export function setSetting(name, value) {
  const data = read();
  data[name] = value;
  try { localStorage.setItem(KEY, JSON.stringify(data)); } catch { /* private mode */ }
  for (const fn of listeners) fn(name, value);
}

export function onSettingChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** The settings as a small folded panel of checkboxes. */
export function settingsPanel() {
  const box = (name, label) => h("label", { class: "setting" },
    h("input", { type: "checkbox", id: `setting-${name}`, checked: setting(name),
                 onchange: (event) => setSetting(name, event.target.checked) }),
    " ", t(label));
  return h("details", { class: "table-settings" },
    h("summary", {}, t("settings.title")),
    box("confirm", "settings.confirm"),
    box("autoPass", "settings.autoPass"));
}
