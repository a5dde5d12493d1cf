// @ts-check
// Moves said in words, in English: what a card would do ("play 7♣ and take 4♦"),
// what the player may do now ("Transfer with A♦ or take"), and the names of rule sets'
// rating pools.  The phrases start in small letters: the page puts them in sentences
// (upperFirst when one starts a sentence); lang/all/en.js merges them into its table.

export default {
  "say.again": "tap it again to play",
  "say.pasur.take": "play {card} to take {cards}",
  "say.pasur.lay": "lay {card} on the table",
  "say.durak.attack": "attack with {cards}",
  "say.durak.defend": "beat {attack} with {card}",
  "say.durak.transfer": "transfer with {cards}",
  "say.durak.transferShow": "show {cards} to transfer",
  "say.durak.take": "take the cards",
  "say.durak.pass": "pass",
  "may.durak.beat": "beat {cards}",
  "may.durak.transfer": "transfer with {cards}",
  "may.durak.transferShow": "show {cards} to transfer",
  "may.durak.lead": "attack with a card (or several of one rank)",
  "may.durak.throwIn": "throw in",
  "may.durak.take": "take",
  "may.durak.nothingBeats": "nothing in your hand beats {cards}: take the cards",
  "may.durak.done": "say done",
  "may.durak.pass": "pass",
  "may.durak.orTable": "Or tap the table to {what}.",
  "may.durak.tapTable": "Tap the table to {what}.",
  "pool.twoPlayers": "two players",
  "pool.morePlayers": "three or more players",
  "pool.custom": "own rules",
  "puzzle.bestMove": "The best move: {move}.",
  "puzzle.yourMove": "Your move: {move}.",
};
