// @ts-check
// The strings of reporting a chat line or a player (report.js), in Portuguese:
// lang/all/pt.js merges them into its table.

export default {
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
};
