// @ts-check
// Reporting a chat line or a player to the admins (POST /api/reports): a small inline
// form asks for the reason, and the answer (sent, or the refusal in the page's words) is
// said in a status line.  The page offers it to accounts only: a guest is told to sign in.

import { api } from "./api.js";
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

const REASON_MAX = 500;

/** Whether `who` (an /api/me answer) may report from the page: a signed-in account. */
export function mayReport(who) { return !!who && who.kind !== "guest"; }

export class ReportForm {
  /** One inline form, opened for one target at a time. */
  constructor(id) {
    this.id = id;
    this.target = null;
    this.el = h("div", { class: "report-box", id });
    this.status = h("p", { class: "report-status", role: "status", "aria-live": "polite" });
  }

  /** Ask for the reason of reporting `target` (the request's body without the reason);
   * `what` names it in words; the focus goes back to `opener` when the form closes. */
  open(target, what, opener) {
    this.target = target;
    this.opener = opener;
    const reason = h("input", { name: "reason", class: "report-reason", maxlength: REASON_MAX,
      required: true, dir: "auto", "aria-label": t("report.reason") });
    const form = h("form", { class: "report-form", "aria-label": what,
      onsubmit: (e) => { e.preventDefault(); this.send(reason.value.trim()); },
      onkeydown: (e) => { if (e.key === "Escape") { e.preventDefault(); this.close(); } } },
    h("p", {}, h("bdi", { dir: "auto" }, what)),
    h("label", {}, t("report.reason"), " ", reason), " ",
    h("button", { type: "submit", class: "report-send" }, t("report.send")), " ",
    h("button", { type: "button", class: "report-cancel", onclick: () => this.close() },
      t("report.cancel")));
    clear(this.status);
    clear(this.el).append(form, this.status);
    reason.focus();
  }

  close() {
    this.target = null;
    clear(this.el).append(this.status);
    this.opener?.focus();
  }

  async send(reason) {
    if (!this.target || !reason) return;
    try {
      await api("/api/reports", { method: "POST", body: { ...this.target, reason } });
      this.close();
      this.status.className = "report-status done";
      this.status.textContent = t("report.sent");
    } catch (error) {
      this.status.className = "report-status error";
      this.status.textContent = t("report.refused", { reason: error.message });
    }
  }
}
