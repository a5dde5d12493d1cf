// @ts-check
// A tiny element builder: h("button", {class: "x", onclick: fn}, "text", child).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }

/** Replace an element's children, keeping focus on the "same" element if it survives. */
export function replaceKeepingFocus(container, children) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focusKey = active && container.contains(active) ? active.dataset.focusKey : null;
  clear(container);
  append(container, children);
  if (focusKey) {
    const again = container.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

/** Say something to screen readers through the page's live region. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 30);
}

/** A short message that fades away (errors, "copied"). */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const el = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.appendChild(el);
  setTimeout(() => el.classList.add("leaving"), 4000);
  setTimeout(() => el.remove(), 4600);
  return el;
}
