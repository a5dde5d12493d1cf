// @ts-check
// The words of the page's frame (the header and its navigation), in every language.  They
// are asked for first, with frame.js, so that a slow network shows the frame in the
// reader's language before the rest of the page's modules arrive; i18n.js merges them
// into each language's own table.

export default {
  en: {
    "app.title": "cardtable",
    "app.tagline": "Pasur and Transfer Durak with friends and bots",
    "nav.main": "Main",
    "nav.lobby": "Lobby",
    "nav.history": "History",
    "nav.leaderboard": "Leaderboard",
    "nav.learn": "Learn",
    "nav.tournaments": "Tournaments",
    "nav.language": "Language",
    "nav.skip": "Skip to the content",
    "frame.loading": "Loading…",
  },
  pt: {
    "app.title": "cardtable",
    "app.tagline": "Pasur e Durak de transferência com amigos e bots",
    "nav.main": "Principal",
    "nav.lobby": "Salão",
    "nav.history": "Histórico",
    "nav.leaderboard": "Classificação",
    "nav.learn": "Aprender",
    "nav.tournaments": "Torneios",
    "nav.language": "Idioma",
    "nav.skip": "Ir para o conteúdo",
    "frame.loading": "A carregar…",
  },
  fa: {
    "app.title": "cardtable",
    "app.tagline": "پاسور و دوراکِ انتقالی با دوستان و ربات‌ها",
    "nav.main": "اصلی",
    "nav.lobby": "سالن",
    "nav.history": "تاریخچه",
    "nav.leaderboard": "جدول رده‌بندی",
    "nav.learn": "آموزش",
    "nav.tournaments": "مسابقه‌ها",
    "nav.language": "زبان",
    "nav.skip": "رفتن به محتوا",
    "frame.loading": "در حال بارگذاری…",
  },
  ru: {
    "app.title": "cardtable",
    "app.tagline": "Пасур и переводной дурак с друзьями и ботами",
    "nav.main": "Главное",
    "nav.lobby": "Лобби",
    "nav.history": "История",
    "nav.leaderboard": "Рейтинг",
    "nav.learn": "Учиться",
    "nav.tournaments": "Турниры",
    "nav.language": "Язык",
    "nav.skip": "Перейти к содержимому",
    "frame.loading": "Загрузка…",
  },
};
