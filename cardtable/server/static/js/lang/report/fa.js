// @ts-check
// The strings of reporting a chat line or a player (report.js), in Persian:
// lang/all/fa.js merges them into its table.

export default {
  "report.line": "گزارش پیام {name}",
  "report.player": "گزارش این بازیکن",
  "report.aboutLine": "گزارش پیام {name}: «{text}»",
  "report.aboutPlayer": "گزارش {name}",
  "report.reason": "دلیل",
  "report.send": "فرستادن گزارش",
  "report.cancel": "انصراف",
  "report.sent": "سپاس: گزارش برای مدیران فرستاده شد.",
  "report.refused": "گزارش فرستاده نشد: {reason}",
  "report.signIn": "برای گزارش این بازیکن وارد حساب خود شوید.",
};
