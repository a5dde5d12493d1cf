// @ts-check
// The strings of a newcomer's first steps (the computer in one tap, my games, the games
// in play, the end dialog's ways on), in Portuguese: lang/all/pt.js merges them into its
// table.

export default {
  "home.title": "Jogar contra o computador",
  "home.about.pasur": "O jogo de pesca persa: leve as cartas da mesa que somam 11 com a carta que você joga, e limpe a mesa para fazer um sur.",
  "home.about.durak": "O jogo russo de se livrar das cartas: rebata cada ataque ou passe-o adiante com uma carta do mesmo valor; quem fica com cartas na mão é o durak, o bobo.",
  "home.level": "Nível",
  "home.play": "Jogar contra o computador",
  "home.learn": "Aprender a jogar",
  "home.error": "Não foi possível começar o jogo: {reason}",
  "history.mine": "Meus jogos",
  "history.all": "Todos os jogos",
  "history.mineNone": "Você ainda não terminou nenhum jogo: jogue um e ele aparece aqui.",
  "history.newer": "Mais recentes",
  "history.older": "Mais antigos",
  "history.page": "Jogos {from} a {to}",
  "lobby.mySeats": "Seus jogos em andamento",
  "lobby.backIn": "Voltar à mesa",
  "end.analyse": "Analisar o jogo",
  "end.replay": "Rever",
};
