// @ts-check
// Moving between the page's screens without reloading: the app registers the handler.

let handler = null;

export function setNavigator(fn) { handler = fn; }

/** Go to a path of the page ("/", "/table/ID", "/#history"). */
export function navigate(path) {
  if (handler) handler(path);
  else location.assign(path);
}
