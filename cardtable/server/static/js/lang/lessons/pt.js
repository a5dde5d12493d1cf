// @ts-check
// The strings of the lessons on the table (lesson.js), in Portuguese: lang/all/pt.js merges
// them into its table.  The steps' own words come from the server.

export default {
  "lesson.lessons": "Lições",
  "lesson.intro": "Um curso curto para cada jogo, na mesa de verdade: cada passo é uma posição, umas palavras e a jogada a encontrar. Uma jogada errada recebe o motivo em palavras.",
  "lesson.title": "Lição",
  "lesson.stepOf": "Passo {n} de {of}",
  "lesson.countDone": "Passos feitos: {n} de {of}",
  "lesson.courseDone": "Curso concluído.",
  "lesson.start": "Começar",
  "lesson.continue": "Continuar",
  "lesson.again": "Fazer de novo",
  "lesson.next": "Próximo passo",
  "lesson.finish": "Concluir o curso",
  "lesson.back": "Todas as lições",
  "lesson.doneMark": "feito",
  "lesson.right": "Certo.",
  "lesson.puzzle": "Problema do dia",
};
