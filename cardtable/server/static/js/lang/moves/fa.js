// @ts-check
// Moves said in words, in Persian: what a card would do ("play 7♣ and take 4♦"),
// what the player may do now ("Transfer with A♦ or take"), and the names of rule sets'
// rating pools.  The phrases start in small letters: the page puts them in sentences
// (upperFirst when one starts a sentence); lang/all/fa.js merges them into its table.

export default {
  "say.again": "برای بازی دوباره بزنید",
  "say.pasur.take": "{card} را بازی کنید و {cards} را بردارید",
  "say.pasur.lay": "{card} را روی میز بگذارید",
  "say.durak.attack": "با {cards} حمله کنید",
  "say.durak.defend": "{attack} را با {card} بزنید",
  "say.durak.transfer": "با {cards} حمله را منتقل کنید",
  "say.durak.transferShow": "با نشان دادن {cards} حمله را منتقل کنید",
  "say.durak.take": "کارت‌ها را بردارید",
  "say.durak.pass": "پاس بدهید",
  "may.durak.beat": "{cards} را بزنید",
  "may.durak.transfer": "با {cards} منتقل کنید",
  "may.durak.transferShow": "با نشان دادن {cards} منتقل کنید",
  "may.durak.lead": "با یک کارت (یا چند کارت هم‌ارزش) حمله کنید",
  "may.durak.throwIn": "کارت اضافه کنید",
  "may.durak.take": "بردارید",
  "may.durak.nothingBeats": "هیچ کارتی در دست شما {cards} را نمی‌زند: کارت‌ها را بردارید",
  "may.durak.done": "بگویید تمام",
  "may.durak.pass": "پاس بدهید",
  "may.durak.orTable": "یا برای این کار روی میز بزنید: {what}.",
  "may.durak.tapTable": "برای این کار روی میز بزنید: {what}.",
  "pool.twoPlayers": "دو نفره",
  "pool.morePlayers": "سه نفره یا بیشتر",
  "pool.custom": "قواعد دلخواه",
  "puzzle.bestMove": "بهترین حرکت: {move}.",
  "puzzle.yourMove": "حرکت شما: {move}.",
};
