// @ts-check
// The strings of a newcomer's first steps (the computer in one tap, my games, the games
// in play, the end dialog's ways on), in Russian: lang/all/ru.js merges them into its
// table.

export default {
  "home.title": "Играть с компьютером",
  "home.about.pasur": "Персидская «рыбалка»: берите со стола карты, которые вместе с вашей дают 11, и очищайте стол — это сур.",
  "home.about.durak": "Переводной дурак: отбивайте каждую атаку или переводите её картой того же достоинства; кто остался с картами, тот и дурак.",
  "home.level": "Уровень",
  "home.play": "Играть с компьютером",
  "home.learn": "Научиться играть",
  "home.error": "Не удалось начать игру: {reason}",
  "history.mine": "Мои партии",
  "history.all": "Все партии",
  "history.mineNone": "У вас ещё нет сыгранных партий: сыграйте, и она появится здесь.",
  "history.newer": "Новее",
  "history.older": "Старше",
  "history.page": "Партии с {from} по {to}",
  "lobby.mySeats": "Ваши текущие партии",
  "lobby.backIn": "Вернуться за стол",
  "end.analyse": "Разобрать партию",
  "end.replay": "Повтор",
};
