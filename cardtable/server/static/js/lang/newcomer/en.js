// @ts-check
// The strings of a newcomer's first steps (the computer in one tap, my games, the games
// in play, the end dialog's ways on), in English: lang/all/en.js merges them into its
// table.

export default {
  "home.title": "Play the computer",
  "home.about.pasur": "The Persian fishing game: take the table cards that make 11 with the card you play, and clear the table for a sur.",
  "home.about.durak": "The Russian shedding game: beat each attack or pass it on with a card of its rank; whoever is left holding cards is the durak, the fool.",
  "home.level": "Level",
  "home.play": "Play the computer",
  "home.learn": "Learn to play",
  "home.error": "The game could not start: {reason}",
  "history.mine": "My games",
  "history.all": "All games",
  "history.mineNone": "You have no finished games yet: play one and it shows here.",
  "history.newer": "Newer",
  "history.older": "Older",
  "history.page": "Games {from} to {to}",
  "lobby.mySeats": "Your games in play",
  "lobby.backIn": "Back to the table",
  "end.analyse": "Analyse the game",
  "end.replay": "Replay",
};
