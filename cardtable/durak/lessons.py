"""The Transfer Durak course: attack, beat, trumps, transfer, throw-in, take, drawing, the
end.  Each step is an explicit position (``Game.from_position`` and the moves before the
learner's turn) whose goal move is the best there (``tests/analysis/test_lessons.py``
checks it with the exact solver or the search); ``cardtable.analysis.lessons`` runs them.
Plain data: texts per language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .engine import Game

__all__ = ["steps"]


def _position(hands: list[str], trump: str, stock: str = "",
              attacker: int = 0) -> Callable[[], Game]:
    def build() -> Game:
        return Game.from_position(hands=hands, trump=trump, stock=stock, attacker=attacker)
    return build


def _t(en: str, ru: str, pt: str, fa: str) -> dict[str, str]:
    return {"en": en, "ru": ru, "pt": pt, "fa": fa}


def steps() -> list[dict[str, Any]]:
    """The course, in order (each a ``cardtable.analysis.lessons.Step``'s fields)."""
    return [
        {"key": "attack",
         "title": _t("The attack", "Атака", "O ataque", "حمله"),
         "text": _t("You lead: attack with one card, or several of one rank. Trumps are ♥. "
                    "Attack with both tens at once: the defender must beat both.",
                    "Вы ходите: атакуйте одной картой или несколькими одного ранга. Козыри "
                    "♥. Ходите сразу двумя десятками: защитнику придётся побить обе.",
                    "Você começa: ataque com uma carta, ou várias do mesmo valor. Trunfo é "
                    "♥. Ataque com os dois dez de uma vez: o defensor tem de bater os dois.",
                    "شما شروع می‌کنید: با یک کارت یا چند کارت هم‌ارزش حمله کنید. حکم ♥ است. "
                    "با هر دو ده با هم حمله کنید: مدافع باید هر دو را بزند."),
         "build": _position(["10♠ 10♦ 8♥", "Q♥ 10♣ 7♣"], "♥"),
         "goals": ("attack 10♦ 10♠",),
         "miss": _t("Both tens at once: a single ten could be transferred back to you.",
                    "Обе десятки сразу: одну десятку могут перевести обратно на вас.",
                    "Os dois dez juntos: um dez sozinho pode ser transferido de volta.",
                    "هر دو ده با هم: یک ده تنها را می‌شود به شما برگرداند.")},
        {"key": "beat",
         "title": _t("Beating", "Защита", "Bater", "زدن"),
         "text": _t("Beat an attack card with a higher card of its suit. Beat the 9♠ as "
                    "cheaply as you can.",
                    "Бейте карту атаки старшей картой той же масти. Побейте 9♠ как можно "
                    "дешевле.",
                    "Bata uma carta de ataque com uma maior do mesmo naipe. Bata o 9♠ o "
                    "mais barato possível.",
                    "کارت حمله را با کارت بزرگ‌تر از همان خال بزنید. ۹♠ را با ارزان‌ترین "
                    "کارت ممکن بزنید."),
         "build": _position(["9♠ 8♦", "10♠ K♠ 7♦"], "♥"),
         "before": ("attack 9♠",),
         "goals": ("defend 9♠ with 10♠",),
         "miss": _t("The 10♠ beats the 9♠ and keeps the K♠ for later.",
                    "10♠ бьёт 9♠, а K♠ остаётся на потом.",
                    "O 10♠ bate o 9♠ e guarda o K♠ para depois.",
                    "۱۰♠ ، ۹♠ را می‌زند و K♠ برای بعد می‌ماند.")},
        {"key": "trump",
         "title": _t("Trumps", "Козыри", "Trunfos", "حکم"),
         "text": _t("A trump beats any card of another suit. You have no spade: beat the "
                    "A♠ with a trump (♥).",
                    "Козырь бьёт любую карту другой масти. Пик у вас нет: побейте A♠ "
                    "козырем (♥).",
                    "Um trunfo bate qualquer carta de outro naipe. Você não tem espadas: "
                    "bata o A♠ com um trunfo (♥).",
                    "حکم هر کارت از خال دیگر را می‌زند. پیک ندارید: A♠ را با حکم (♥) "
                    "بزنید."),
         "build": _position(["A♠ 8♦", "6♥ 7♣"], "♥"),
         "before": ("attack A♠",),
         "goals": ("defend A♠ with 6♥",),
         "miss": _t("Only the 6♥, a trump, beats the A♠.", "Только козырь 6♥ бьёт A♠.",
                    "Só o 6♥, um trunfo, bate o A♠.", "فقط ۶♥ که حکم است A♠ را می‌زند.")},
        {"key": "transfer",
         "title": _t("Transfer", "Перевод", "Transferir", "انتقال"),
         "text": _t("Before beating anything, the defender may add a card of the attacked "
                    "rank: the attack passes on to the next player. Transfer the 8♣ with "
                    "your 8♠.",
                    "Пока ничего не побито, защитник может подкинуть карту того же ранга: "
                    "атака переходит к следующему игроку. Переведите 8♣ картой 8♠.",
                    "Antes de bater qualquer carta, o defensor pode juntar uma do mesmo "
                    "valor: o ataque passa ao próximo jogador. Transfira o 8♣ com o 8♠.",
                    "پیش از زدن هر کارتی، مدافع می‌تواند کارتی هم‌ارزش بگذارد: حمله به "
                    "نفر بعد می‌رود. ۸♣ را با ۸♠ منتقل کنید."),
         "build": _position(["8♣ K♦ J♠", "6♠ 8♠ 10♣ Q♥"], "♥"),
         "before": ("attack 8♣",),
         "goals": ("transfer 8♠",),
         "miss": _t("The 8♠ passes the attack back: now the other player must beat two "
                    "eights.",
                    "8♠ переводит атаку обратно: теперь сопернику бить две восьмёрки.",
                    "O 8♠ devolve o ataque: agora o outro tem de bater dois oitos.",
                    "۸♠ حمله را برمی‌گرداند: حالا حریف باید دو هشت را بزند.")},
        {"key": "throw_in",
         "title": _t("Throwing in", "Подкидывание", "Jogar mais cartas", "اضافه کردن"),
         "text": _t("After a beat, the attackers may throw in cards of any rank already on "
                    "the table. Throw in the 10♦.",
                    "После защиты атакующие могут подкинуть карты рангов, уже лежащих на "
                    "столе. Подкиньте 10♦.",
                    "Depois de uma defesa, os atacantes podem jogar cartas de valores que "
                    "já estão na mesa. Jogue o 10♦.",
                    "پس از دفاع، مهاجمان می‌توانند کارت‌هایی هم‌ارزش با کارت‌های روی میز "
                    "اضافه کنند. ۱۰♦ را اضافه کنید."),
         "build": _position(["9♠ 10♦ 6♣", "10♠ 7♦"], "♥"),
         "before": ("attack 9♠", "defend 9♠ with 10♠"),
         "goals": ("attack 10♦",),
         "miss": _t("A ten is on the table: the 10♦ can be thrown in, and the 7♦ cannot "
                    "beat it.",
                    "На столе есть десятка: 10♦ можно подкинуть, и 7♦ её не побьёт.",
                    "Há um dez na mesa: o 10♦ pode entrar, e o 7♦ não o bate.",
                    "یک ده روی میز است: ۱۰♦ را می‌شود اضافه کرد و ۷♦ آن را نمی‌زند.")},
        {"key": "take",
         "title": _t("Taking", "Взять", "Pegar", "برداشتن"),
         "text": _t("A defender who cannot or will not beat takes every card on the table, "
                    "and the attack goes on past them. Nothing you hold beats the K♦: take.",
                    "Если защитник не может или не хочет отбиться, он берёт все карты со "
                    "стола. Вам нечем побить K♦: берите.",
                    "O defensor que não pode ou não quer bater pega todas as cartas da "
                    "mesa. Nada na sua mão bate o K♦: pegue.",
                    "مدافعی که نمی‌تواند یا نمی‌خواهد بزند همهٔ کارت‌های میز را برمی‌دارد. "
                    "چیزی برای زدن K♦ ندارید: بردارید."),
         "build": _position(["K♦ 6♠", "Q♦ 7♣ 8♠"], "♥"),
         "before": ("attack K♦",),
         "goals": ("take",),
         "miss": _t("No card of yours beats the K♦: only taking is left.",
                    "Ни одна ваша карта не бьёт K♦: остаётся только взять.",
                    "Nenhuma carta sua bate o K♦: só resta pegar.",
                    "هیچ کارت شما K♦ را نمی‌زند: فقط برداشتن می‌ماند.")},
        {"key": "drawing",
         "title": _t("Drawing", "Добор", "Comprar", "کشیدن کارت"),
         "text": _t("When a round ends, everyone draws back up to six from the stock, the "
                    "attacker first. Your attack was beaten: end it with pass, and draw.",
                    "Когда ход окончен, все добирают до шести из колоды, атакующий первым. "
                    "Вашу атаку отбили: скажите «бито» и доберите.",
                    "Quando a rodada termina, todos compram até seis do monte, o atacante "
                    "primeiro. O seu ataque foi batido: passe e compre.",
                    "وقتی دور تمام شد، همه از دسته تا شش کارت می‌کشند، اول مهاجم. حملهٔ "
                    "شما زده شد: پاس بدهید و کارت بکشید."),
         "build": _position(["6♠ 9♣ J♦ Q♠ K♣ A♦", "7♠ 8♦ 10♣ J♣ Q♦ K♠"], "♥",
                            stock="6♦ 7♣ 8♣ 9♦ 10♠ 6♥"),
         "before": ("attack 6♠", "defend 6♠ with 7♠"),
         "goals": ("pass",),
         "miss": _t("Nothing of yours matches the 6 or the 7 on the table: pass.",
                    "Ничего не подходит к 6 и 7 на столе: бито.",
                    "Nada seu combina com o 6 ou o 7 da mesa: passe.",
                    "هیچ کارتی با ۶ و ۷ روی میز جور نیست: پاس بدهید.")},
        {"key": "end",
         "title": _t("The end", "Конец игры", "O fim", "پایان"),
         "text": _t("With the stock empty, whoever runs out of cards is out; the last "
                    "player left holding cards is the durak. Beat the 9♣ with your last "
                    "card and you are out.",
                    "Когда колода пуста, избавившийся от карт выходит; последний с картами "
                    "— дурак. Побейте 9♣ последней картой, и вы вышли.",
                    "Com o monte vazio, quem fica sem cartas sai; o último com cartas é o "
                    "durak. Bata o 9♣ com a sua última carta e você sai.",
                    "وقتی دسته خالی است، هر که کارتش تمام شود بیرون می‌رود؛ آخرین کسی که "
                    "کارت دارد دوراک است. ۹♣ را با آخرین کارت بزنید و بیرون بروید."),
         "build": _position(["9♣ 6♦ 7♦", "Q♣"], "♥"),
         "before": ("attack 9♣",),
         "goals": ("defend 9♣ with Q♣",),
         "miss": _t("The Q♣ beats the 9♣: with no cards left, you cannot be the durak.",
                    "Q♣ бьёт 9♣: без карт вы не можете стать дураком.",
                    "A Q♣ bate o 9♣: sem cartas, você não pode ser o durak.",
                    "Q♣ ، ۹♣ را می‌زند: بی‌کارت دیگر دوراک نمی‌شوید.")},
    ]
