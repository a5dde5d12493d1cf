// @ts-check
// Moves said in words, in Portuguese: what a card would do ("play 7♣ and take 4♦"),
// what the player may do now ("Transfer with A♦ or take"), and the names of rule sets'
// rating pools.  The phrases start in small letters: the page puts them in sentences
// (upperFirst when one starts a sentence); lang/all/pt.js merges them into its table.

export default {
  "say.again": "toque de novo para jogar",
  "say.pasur.take": "jogar {card} para levar {cards}",
  "say.pasur.lay": "pôr {card} na mesa",
  "say.durak.attack": "atacar com {cards}",
  "say.durak.defend": "bater {attack} com {card}",
  "say.durak.transfer": "transferir com {cards}",
  "say.durak.transferShow": "mostrar {cards} para transferir",
  "say.durak.take": "pegar as cartas",
  "say.durak.pass": "passar",
  "may.durak.beat": "bater {cards}",
  "may.durak.transfer": "transferir com {cards}",
  "may.durak.transferShow": "mostrar {cards} para transferir",
  "may.durak.lead": "atacar com uma carta (ou várias do mesmo valor)",
  "may.durak.throwIn": "juntar cartas",
  "may.durak.take": "pegar",
  "may.durak.nothingBeats": "nenhuma carta sua bate {cards}: pegue as cartas",
  "may.durak.done": "dizer basta",
  "may.durak.pass": "passar",
  "may.durak.orTable": "Ou toque na mesa para {what}.",
  "may.durak.tapTable": "Toque na mesa para {what}.",
  "pool.twoPlayers": "dois jogadores",
  "pool.morePlayers": "três ou mais jogadores",
  "pool.custom": "regras próprias",
  "puzzle.bestMove": "A melhor jogada: {move}.",
  "puzzle.yourMove": "A sua jogada: {move}.",
};
