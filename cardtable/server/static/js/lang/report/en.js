// @ts-check
// The strings of reporting a chat line or a player (report.js), in English:
// lang/all/en.js merges them into its table.

export default {
  "report.line": "Report {name}'s line",
  "report.player": "Report this player",
  "report.aboutLine": "Report {name}'s line: “{text}”",
  "report.aboutPlayer": "Report {name}",
  "report.reason": "Reason",
  "report.send": "Send the report",
  "report.cancel": "Cancel",
  "report.sent": "Thank you: the report was sent to the admins.",
  "report.refused": "The report was not sent: {reason}",
  "report.signIn": "Sign in to report this player.",
};
