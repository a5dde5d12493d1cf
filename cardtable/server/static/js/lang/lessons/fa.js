// @ts-check
// The strings of the lessons on the table (lesson.js), in Persian: lang/all/fa.js merges
// them into its table.  The steps' own words come from the server.

export default {
  "lesson.lessons": "درس‌ها",
  "lesson.intro": "برای هر بازی یک دورهٔ کوتاه، روی میز واقعی: هر گام یک وضعیت است، چند کلمه توضیح و حرکتی که باید پیدا کنید. برای حرکت نادرست، دلیلش را با کلمات می‌گوییم.",
  "lesson.title": "درس",
  "lesson.stepOf": "گام {n} از {of}",
  "lesson.countDone": "گام‌های انجام‌شده: {n} از {of}",
  "lesson.courseDone": "دوره تمام شد.",
  "lesson.start": "شروع",
  "lesson.continue": "ادامه",
  "lesson.again": "دوباره از اول",
  "lesson.next": "گام بعد",
  "lesson.finish": "پایان دوره",
  "lesson.back": "همهٔ درس‌ها",
  "lesson.doneMark": "انجام شد",
  "lesson.right": "درست است.",
  "lesson.puzzle": "معمای روز",
};
