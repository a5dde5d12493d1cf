// @ts-check
// Moves said in words, in Russian: what a card would do ("play 7♣ and take 4♦"),
// what the player may do now ("Transfer with A♦ or take"), and the names of rule sets'
// rating pools.  The phrases start in small letters: the page puts them in sentences
// (upperFirst when one starts a sentence); lang/all/ru.js merges them into its table.

export default {
  "say.again": "нажмите ещё раз, чтобы сыграть",
  "say.pasur.take": "сыграть {card} и взять {cards}",
  "say.pasur.lay": "положить {card} на стол",
  "say.durak.attack": "ходить с {cards}",
  "say.durak.defend": "побить {attack} картой {card}",
  "say.durak.transfer": "перевести картой {cards}",
  "say.durak.transferShow": "показать {cards} и перевести",
  "say.durak.take": "взять карты",
  "say.durak.pass": "пас",
  "may.durak.beat": "побить {cards}",
  "may.durak.transfer": "перевести картой {cards}",
  "may.durak.transferShow": "показать {cards} и перевести",
  "may.durak.lead": "ходить картой (или несколькими одного достоинства)",
  "may.durak.throwIn": "подкинуть",
  "may.durak.take": "взять",
  "may.durak.nothingBeats": "вам нечем побить {cards}: возьмите карты",
  "may.durak.done": "сказать «бито»",
  "may.durak.pass": "пас",
  "may.durak.orTable": "Или нажмите на стол, чтобы {what}.",
  "may.durak.tapTable": "Нажмите на стол, чтобы {what}.",
  "pool.twoPlayers": "двое игроков",
  "pool.morePlayers": "трое игроков и больше",
  "pool.custom": "свои правила",
  "puzzle.bestMove": "Лучший ход: {move}.",
  "puzzle.yourMove": "Ваш ход: {move}.",
};
