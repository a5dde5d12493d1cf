// @ts-check
// An account in its owner's hands (#account/control): change the password (other sessions
// end), sign out everywhere, an e-mail address for password reset, export my data, delete
// my account; and the password reset itself (#reset: ask for a link; #reset=TOKEN: the
// link's page, whose token leaves the address bar at once).  The account screen (#account)
// is players.js's, with this module's links under it (AccountScreen).

import { api, seats as seatStore } from "./api.js";
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { navigate } from "./router.js";
import { AccountPage, getMe, onMeChange, refreshMe } from "./players.js";

function link(href, key, id) {
  return h("a", { href, id, onclick: (e) => { e.preventDefault(); navigate(href); } }, t(key));
}

/** A form's fields by name. @returns {Object<string, any>} */
function fields(form) { return Object.fromEntries(new FormData(form).entries()); }

function passwordInput(name, autocomplete, id) {
  return h("input", { name, id, type: "password", required: true, autocomplete, maxlength: 256 });
}

/** #account: players.js's screen, and under it the way to the account's control or, for
 * who is not signed in, to a password reset. */
export class AccountScreen {
  constructor(root) {
    this.box = h("div");
    this.links = h("p", { class: "account-links" });
    root.append(this.box, this.links);
    this.page = new AccountPage(this.box);
    this.off = onMeChange(() => this.renderLinks());
    getMe().then(() => this.renderLinks());
  }
  destroy() { this.off(); this.page.destroy(); }
  render() { this.page.render(); this.renderLinks(); }
  renderLinks() {
    getMe().then((me) => {
      clear(this.links).append(me && me.kind !== "guest"
        ? link("/#account/control", "control.title", "account-control-link")
        : link("/#reset", "reset.forgot", "forgot-password"));
    });
  }
}

export class AccountControlPage {
  constructor(root) {
    this.root = root;
    this.note = null;   // [kind, text]: what the last action did, or why it failed
    this.render();
    getMe().then(() => this.render());
  }
  destroy() {}

  /** POST the form (or nothing); `after` runs once it is done (signed out: forget). */
  async act(path, form, done, after = null) {
    try {
      const answer = await api(path, { method: "POST", body: form ? fields(form) : undefined });
      this.note = ["done", done(answer)];
      if (form) form.reset();
      if (after) await after();
    } catch (error) {
      this.note = ["error", t("account.failed", { reason: error.message })];
    }
    this.render();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel account account-control" }, h("h2", {}, t("control.title")));
    root.append(panel);
    if (this.note) {
      panel.append(h("p", { class: this.note[0] === "error" ? "error" : "done", role: "status" }, this.note[1]));
    }
    getMe().then((me) => {
      if (!me || me.kind === "guest") {
        panel.append(h("p", {}, t("control.signInFirst")), h("p", {}, link("/#account", "account.signIn")));
        return;
      }
      const signedOut = async () => { seatStore.forgetAll(); await refreshMe(); };
      const form = (id, path, done, ...children) => h("form", { id, class: "control",
        onsubmit: (e) => { e.preventDefault();
          this.act(path, e.target, done, id === "delete-account" ? signedOut : null); } }, ...children);
      panel.append(
        form("change-password", "/api/account/password", (a) => t("control.passwordChanged", { n: a.ended }),
          h("h3", {}, t("control.password")),
          h("label", {}, t("control.current"), " ", passwordInput("password", "current-password", "current-password")),
          h("label", {}, t("control.new"), " ", passwordInput("new_password", "new-password", "new-password")),
          h("p", { class: "muted" }, `${t("account.passwordHint")}.`),
          h("button", { type: "submit" }, t("control.changePassword"))),
        h("section", { class: "control" }, h("h3", {}, t("control.sessions")),
          h("p", { class: "muted" }, t("control.everywhereHint")),
          h("button", { id: "sign-out-everywhere", onclick: () => this.act(
            "/api/account/sign-out-everywhere", null, (a) => t("control.signedOut", { n: a.ended }),
            signedOut) }, t("control.everywhere"))),
        form("set-email", "/api/account/email", (a) => a.email ? t("control.emailSet", { email: a.email }) : t("control.emailGone"),
          h("h3", {}, t("control.email")),
          h("p", { class: "muted" }, t("control.emailHint")),
          h("label", {}, t("control.emailAddress"), " ", h("input", { name: "email", id: "email", type: "email", maxlength: 254, dir: "ltr", autocomplete: "email" })),
          h("label", {}, t("control.current"), " ", passwordInput("password", "current-password", "email-password")),
          h("button", { type: "submit" }, t("control.saveEmail"))),
        h("section", { class: "control" }, h("h3", {}, t("control.export")),
          h("p", { class: "muted" }, t("control.exportHint")),
          h("a", { id: "export", href: "/api/account/export", download: "" }, t("control.download"))),
        form("delete-account", "/api/account/delete", () => t("control.deleted"),
          h("h3", {}, t("control.delete")),
          h("p", { class: "muted" }, t("control.deleteHint")),
          h("label", {}, t("control.current"), " ", passwordInput("password", "current-password", "delete-password")),
          h("button", { type: "submit", class: "danger" }, t("control.deleteButton"))));
    });
  }
}

/** #reset (ask for a link by username or e-mail) and #reset=TOKEN (the new password). */
export class ResetPage {
  constructor(root, token) {
    this.root = root;
    this.token = token || null;
    this.note = null;
    if (this.token) history.replaceState(null, "", "/#reset");   // out of the address bar
    this.render();
  }
  destroy() {}

  async send(path, body, done) {
    try {
      await api(path, { method: "POST", body });
      this.note = ["done", t(done)];
      if (path.endsWith("confirm")) this.token = null;
    } catch (error) {
      this.note = ["error", t("account.failed", { reason: error.message })];
    }
    this.render();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel account reset" }, h("h2", {}, t("reset.title")));
    if (this.note) panel.append(h("p", { class: this.note[0] === "error" ? "error" : "done", role: "status" }, this.note[1]));
    if (this.token) {
      panel.append(h("form", { id: "new-password", onsubmit: (e) => { e.preventDefault();
        this.send("/api/account/reset/confirm", { token: this.token, password: fields(e.target).password }, "reset.done"); } },
      h("label", {}, t("control.new"), " ", passwordInput("password", "new-password", "reset-password")),
      h("p", { class: "muted" }, `${t("account.passwordHint")}.`),
      h("button", { type: "submit" }, t("control.changePassword"))));
    } else {
      panel.append(h("form", { id: "ask-reset", onsubmit: (e) => { e.preventDefault();
        this.send("/api/account/reset", { name: fields(e.target).name }, "reset.sent"); } },
      h("p", { class: "muted" }, t("reset.hint")),
      h("label", {}, t("reset.name"), " ", h("input", { name: "name", id: "reset-name", required: true, maxlength: 254, dir: "ltr", autocomplete: "username" })),
      h("button", { type: "submit" }, t("reset.send"))));
    }
    panel.append(h("p", {}, link("/#account", "account.signIn")));
    root.append(panel);
  }
}

/** #admin: the open reports (close one, mute or ban its player), a player muted, banned
 * or renamed, an address banned, a table closed, and the audit log.  The server refuses
 * everyone but an admin (403 not_admin), which is what a non-admin sees here. */
export class AdminPage {
  constructor(root) {
    this.root = root;
    this.note = null;
    /** @type {any[] | undefined} the open reports, once loaded */
    this.reports = undefined;
    /** @type {any[] | undefined} the moderators' last actions, once loaded */
    this.audit = undefined;
    this.load();
  }
  destroy() {}

  async load() {
    try {
      [this.reports, this.audit] = await Promise.all([api("/api/admin/reports"), api("/api/admin/audit?limit=50")]);
      this.error = null;
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  async act(path, body, done) {
    try {
      await api(path, { method: "POST", body });
      this.note = ["done", t(done)];
    } catch (error) {
      this.note = ["error", t("account.failed", { reason: error.message })];
    }
    await this.load();
  }

  render() {
    const root = clear(this.root);
    const panel = h("section", { class: "panel account admin" }, h("h2", {}, t("admin.title")));
    root.append(panel);
    if (this.error) { panel.append(h("p", { class: "error", role: "alert" }, this.error)); return; }
    if (this.note) panel.append(h("p", { class: this.note[0] === "error" ? "error" : "done", role: "status" }, this.note[1]));
    if (!this.reports) return;
    panel.append(h("h3", {}, t("admin.reports")));
    if (!this.reports.length) panel.append(h("p", { class: "muted" }, t("admin.noReports")));
    panel.append(h("ul", { class: "reports" }, this.reports.map((r) => h("li", { dataset: { report: r.id } },
      h("bdi", { dir: "auto" }, r.player ?? "?"), ": ", h("bdi", { dir: "auto" }, r.reason),
      r.quoted ? h("q", { dir: "auto" }, r.quoted) : null, " ",
      h("button", { onclick: () => this.act(`/api/admin/reports/${r.id}/close`, undefined, "admin.closed") }, t("admin.closeReport")),
      r.player ? h("button", { onclick: () => this.act("/api/admin/mute", { player: r.player, minutes: 60, reason: r.reason.slice(0, 200) }, "admin.muted") }, t("admin.mute")) : null,
      r.player ? h("button", { onclick: () => this.act("/api/admin/ban", { player: r.player, reason: r.reason.slice(0, 200) }, "admin.banned") }, t("admin.ban")) : null))));
    const form = (id, label, names, path, done) => h("form", { id, class: "admin-action", onsubmit: (e) => {
      e.preventDefault();
      const body = fields(e.target);
      if (body.minutes === "") delete body.minutes; else if (body.minutes) body.minutes = Number(body.minutes);
      this.act(path.replace("{table}", encodeURIComponent(body.table ?? "")), body, done);
    } }, h("h3", {}, t(label)), names.map((name) => h("label", {}, t(`admin.field.${name}`), " ",
      h("input", { name, dir: "auto", required: name !== "minutes" && name !== "reason", type: name === "minutes" ? "number" : "text", min: name === "minutes" ? 1 : null }))),
    h("button", { type: "submit" }, t(label)));
    panel.append(
      form("admin-ban-address", "admin.banAddress", ["address", "minutes", "reason"], "/api/admin/ban", "admin.banned"),
      form("admin-rename", "admin.rename", ["player", "name"], "/api/admin/rename", "admin.renamed"),
      form("admin-close-table", "admin.closeTable", ["table", "reason"], "/api/tables/{table}/close", "admin.tableClosed"),
      h("h3", {}, t("admin.audit")),
      h("ol", { class: "audit" }, (this.audit ?? []).map((a) => h("li", {},
        `${when(a.at)} · `, h("bdi", { dir: "auto" }, a.admin), ` · ${a.action} · `, h("bdi", { dir: "auto" }, a.target)))));
  }
}

function when(text) {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? String(text) : date.toLocaleString(document.documentElement.lang || undefined);
}
