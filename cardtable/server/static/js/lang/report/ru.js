// @ts-check
// The strings of reporting a chat line or a player (report.js), in Russian:
// lang/all/ru.js merges them into its table.

export default {
  "report.line": "Пожаловаться на сообщение {name}",
  "report.player": "Пожаловаться на игрока",
  "report.aboutLine": "Жалоба на сообщение {name}: «{text}»",
  "report.aboutPlayer": "Жалоба на {name}",
  "report.reason": "Причина",
  "report.send": "Отправить жалобу",
  "report.cancel": "Отмена",
  "report.sent": "Спасибо: жалоба отправлена администраторам.",
  "report.refused": "Жалоба не отправлена: {reason}",
  "report.signIn": "Войдите в аккаунт, чтобы пожаловаться на игрока.",
};
