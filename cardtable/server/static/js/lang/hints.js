// @ts-check
// The words of the hint's "why" sentence (hintpanel.js), in every language: the move a
// hint names is the one the analysis's judge ranks first, and this sentence says so with
// the figures beside it. The move's own reasons come from the server, in the page's language.

export default {
  en: {
    "hint.unsure": "Not sure: the judge cannot tell this move from the next best; either is good.",
    "hint.whyRanked": "Why: the analysis's judge ranks it first ({value}); the next best, {second}, comes to {other}.",
    "hint.whyOnly": "Why: it is the only move the judge weighed here.",
  },
  pt: {
    "hint.unsure": "Sem certeza: o juiz não distingue este lance do segundo melhor; ambos são bons.",
    "hint.whyRanked": "Por quê: o juiz da análise a põe em primeiro ({value}); a segunda melhor, {second}, dá {other}.",
    "hint.whyOnly": "Por quê: é o único lance que o juiz avaliou aqui.",
  },
  fa: {
    "hint.unsure": "مطمئن نیست: داور این حرکت را از بهترینِ بعدی جدا نمی‌تواند کرد؛ هر دو خوب‌اند.",
    "hint.whyRanked": "چرا: داورِ تحلیل این حرکت را اول می‌داند ({value})؛ بهترینِ بعدی، {second}، به {other} می‌رسد.",
    "hint.whyOnly": "چرا: این تنها حرکتی است که داور این‌جا سنجید.",
  },
  ru: {
    "hint.unsure": "Не уверен: судья не может отличить этот ход от следующего; оба хороши.",
    "hint.whyRanked": "Почему: судья анализа ставит этот ход первым ({value}); следующий, {second}, даёт {other}.",
    "hint.whyOnly": "Почему: это единственный ход, который судья здесь взвесил.",
  },
};
