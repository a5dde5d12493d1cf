// @ts-check
// The words of the hint's figures (hintpanel.js), in every language: the move a hint
// names is the one the analysis's judge ranks first, and this sentence gives its figure and
// the next best's, in the player's words (no "judge", no "ranked"). The move's own reasons come from the server, in the page's language.

export default {
  en: {
    "hint.unsure": "A close call: the next best move does about as well; either is good.",
    "hint.whyRanked": "In figures: this move, {value}; the next best, {second}, {other}.",
    "hint.whyOnly": "It is the only move weighed here.",
  },
  pt: {
    "hint.unsure": "Por pouco: o segundo melhor lance vai quase tão bem; ambos são bons.",
    "hint.whyRanked": "Em números: este lance, {value}; o segundo melhor, {second}, {other}.",
    "hint.whyOnly": "É o único lance avaliado aqui.",
  },
  fa: {
    "hint.unsure": "اختلاف کم است: حرکتِ بعدی تقریباً همان‌قدر خوب است؛ هر دو خوب‌اند.",
    "hint.whyRanked": "به عدد: این حرکت، {value}؛ بهترینِ بعدی، {second}، {other}.",
    "hint.whyOnly": "این تنها حرکتی است که این‌جا سنجیده شد.",
  },
  ru: {
    "hint.unsure": "Почти поровну: следующий ход почти так же хорош; годится любой.",
    "hint.whyRanked": "В цифрах: этот ход — {value}; следующий, {second}, — {other}.",
    "hint.whyOnly": "Здесь взвешен только этот ход.",
  },
};
