// @ts-check
// A modal dialog for the keyboard (the end of a game): Tab and Shift+Tab go round its
// controls and never leave it, and Escape closes it.  The page below it is hidden from
// screen readers by aria-modal; the one who opened the dialog puts the focus back.

const STOPS = "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), "
  + "[tabindex]:not([tabindex='-1'])";

/** Mark `panel` (role=dialog) as modal. */
export function modal(panel) {
  panel.setAttribute("aria-modal", "true");
  return panel;
}

/**
 * Handle a key pressed while `panel` is open: Escape calls `close` and Tab keeps the
 * focus inside.  Returns whether the key was the dialog's.
 */
export function dialogKey(panel, event, close) {
  if (!panel || !panel.isConnected) return false;
  if (event.key === "Escape") {
    event.preventDefault();
    close();
    return true;
  }
  if (event.key !== "Tab") return false;
  const stops = [...panel.querySelectorAll(STOPS)].filter((el) => el.getClientRects().length);
  if (!stops.length) return false;
  const first = stops[0];
  const last = stops[stops.length - 1];
  const at = document.activeElement;
  const inside = panel.contains(at);
  if (event.shiftKey && (at === first || !inside)) {
    event.preventDefault();
    last.focus();
    return true;
  }
  if (!event.shiftKey && (at === last || !inside)) {
    event.preventDefault();
    first.focus();
    return true;
  }
  return false;
}
