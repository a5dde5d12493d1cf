// @ts-check
// The strings of the lessons on the table (lesson.js), in Russian: lang/all/ru.js merges
// them into its table.  The steps' own words come from the server.

export default {
  "lesson.lessons": "Уроки",
  "lesson.intro": "Короткий курс по каждой игре, на настоящем столе: в каждом шаге позиция, пара слов и ход, который нужно найти. На неверный ход вы получите объяснение словами.",
  "lesson.title": "Урок",
  "lesson.stepOf": "Шаг {n} из {of}",
  "lesson.countDone": "Пройдено шагов: {n} из {of}",
  "lesson.courseDone": "Курс пройден.",
  "lesson.start": "Начать",
  "lesson.continue": "Продолжить",
  "lesson.again": "Пройти снова",
  "lesson.next": "Дальше",
  "lesson.finish": "Завершить курс",
  "lesson.back": "Все уроки",
  "lesson.doneMark": "пройден",
  "lesson.right": "Верно.",
  "lesson.puzzle": "Задача дня",
};
