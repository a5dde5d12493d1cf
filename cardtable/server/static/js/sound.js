// @ts-check
// The sound at the table (on until the player mutes it): a short soft tone when a move is
// made and a brighter one when it is the player's turn.  The mute button in the table's
// head turns it off and on (the "sound" setting, remembered).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { setting, setSetting } from "./settings.js";

let context = null;

/** Whether the page may make a sound: the player has touched it since it loaded (before
 * that a browser refuses to start an AudioContext, and says so in the console). */
function mayPlay() {
  const activation = /** @type {any} */ (navigator).userActivation;
  return !activation || activation.hasBeenActive;
}

/** A warning (the player's time ran out): two low tones and a short buzz on a phone,
 * where the sound is on. */
export function alarm() {
  if (!setting("sound") || !mayPlay()) return;
  chime("alarm");
  setTimeout(() => chime("alarm"), 300);
  try { navigator.vibrate?.([200, 100, 200]); } catch { /* no vibration here */ }
}

/** Play a short tone ("move", "turn" or "alarm") if the sound is on and the browser
 * allows it. */
export function chime(kind) {
  if (!setting("sound") || !mayPlay()) return;
  try {
    context ||= new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
    const now = context.currentTime;
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = kind === "turn" ? 880 : kind === "alarm" ? 330 : 440;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.08, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    tone.connect(gain).connect(context.destination);
    tone.start(now);
    tone.stop(now + 0.3);
  } catch { /* no audio here: the page works the same without it */ }
}

/** The mute button: pressed means the sound is on. */
export function soundButton() {
  const button = h("button", { type: "button", class: "sound-toggle" });
  const show = () => {
    const on = setting("sound");
    button.textContent = on ? "🔊" : "🔇";
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", on ? t("settings.mute") : t("settings.unmute"));
    button.title = button.getAttribute("aria-label");
  };
  button.addEventListener("click", () => { setSetting("sound", !setting("sound")); show(); });
  show();
  return button;
}
