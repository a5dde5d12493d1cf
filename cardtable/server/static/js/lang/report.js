// @ts-check
// The strings of reporting a chat line or a player (report.js), in every language:
// i18n.js merges them into each language's own table.

export default {
  en: {
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
  },
  pt: {
    "report.line": "Denunciar a mensagem de {name}",
    "report.player": "Denunciar este jogador",
    "report.aboutLine": "Denunciar a mensagem de {name}: “{text}”",
    "report.aboutPlayer": "Denunciar {name}",
    "report.reason": "Motivo",
    "report.send": "Enviar a denúncia",
    "report.cancel": "Cancelar",
    "report.sent": "Obrigado: a denúncia foi enviada aos administradores.",
    "report.refused": "A denúncia não foi enviada: {reason}",
    "report.signIn": "Entre na sua conta para denunciar este jogador.",
  },
  fa: {
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
  },
  ru: {
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
  },
};
