// @ts-check
// The strings of the lessons on the table (lesson.js), in English: lang/all/en.js merges
// them into its table.  The steps' own words come from the server.

export default {
  "lesson.lessons": "Lessons",
  "lesson.intro": "A short course for each game, on the real table: each step is a position, a few words and the move to find. A wrong move gets the reason in words.",
  "lesson.title": "Lesson",
  "lesson.stepOf": "Step {n} of {of}",
  "lesson.countDone": "Steps done: {n} of {of}",
  "lesson.courseDone": "Course done.",
  "lesson.start": "Start",
  "lesson.continue": "Continue",
  "lesson.again": "Take it again",
  "lesson.next": "Next step",
  "lesson.finish": "Finish the course",
  "lesson.back": "All lessons",
  "lesson.doneMark": "done",
  "lesson.right": "Right.",
  "lesson.puzzle": "Daily puzzle",
};
