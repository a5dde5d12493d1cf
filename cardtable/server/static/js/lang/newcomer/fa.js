// @ts-check
// The strings of a newcomer's first steps (the computer in one tap, my games, the games
// in play, the end dialog's ways on), in Persian: lang/all/fa.js merges them into its
// table.

export default {
  "home.title": "بازی با کامپیوتر",
  "home.about.pasur": "بازی ماهیگیری ایرانی: با کارتی که بازی می‌کنید کارت‌هایی از زمین بردارید که جمعشان ۱۱ شود، و زمین را پاک کنید تا سور بزنید.",
  "home.about.durak": "بازی روسیِ خالی کردن دست: هر حمله را بزنید یا با کارتی هم‌ارزش به نفر بعد بدهید؛ هر که آخر کارت در دستش بماند دوراک، یعنی احمق، است.",
  "home.level": "سطح",
  "home.play": "بازی با کامپیوتر",
  "home.learn": "یاد گرفتن بازی",
  "home.error": "بازی شروع نشد: {reason}",
  "history.mine": "بازی‌های من",
  "history.all": "همهٔ بازی‌ها",
  "history.mineNone": "هنوز بازی تمام‌شده‌ای ندارید: یکی بازی کنید تا اینجا دیده شود.",
  "history.newer": "جدیدتر",
  "history.older": "قدیمی‌تر",
  "history.page": "بازی‌های {from} تا {to}",
  "lobby.mySeats": "بازی‌های در جریانِ شما",
  "lobby.backIn": "بازگشت به میز",
  "end.analyse": "تحلیل بازی",
  "end.replay": "بازپخش",
};
