"""The Pasur course: making 11, jacks, kings and queens, surs, the clubs race, scoring,
the end of a hand.  Each step is an explicit position (``Hand.from_position``) whose goal
move is the best there (``tests/analysis/test_lessons.py`` checks it with the exact solver
or the search); ``cardtable.analysis.lessons`` runs them.  Plain data: texts per language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import pack, parse_cards
from .engine import Hand

__all__ = ["steps"]


def _last_deal(hands: list[str], table: str, *, clubs: tuple[int, int] | None = None,
               last_capturer: int = 1) -> Callable[[], Hand]:
    """A 2-player hand in its last deal: nothing is hidden.  The other cards are in the
    two sides' captures, shared alternately, or with ``clubs`` of them to each side."""
    def build() -> Hand:
        used = set(parse_cards(" ".join([*hands, table])))
        rest = [c for c in pack(52) if c not in used]
        piles: list[list[Any]] = [rest[0::2], rest[1::2]]
        if clubs is not None:
            club = [c for c in rest if c.suit.symbol == "♣"]
            other = [c for c in rest if c.suit.symbol != "♣"]
            piles = [club[:clubs[0]] + other[0::2], club[clubs[0]:clubs[0] + clubs[1]]
                     + other[1::2]]
        return Hand.from_position(hands=hands, table=table, deal_round=6,
                                  last_capturer=last_capturer, captured=piles)
    return build


def _with_stock(hands: list[str], table: str, stock: str) -> Callable[[], Hand]:
    """A 2-player hand with one more deal to come (surs still count)."""
    def build() -> Hand:
        return Hand.from_position(hands=hands, table=table, stock=stock, deal_round=5)
    return build


def _t(en: str, ru: str, pt: str, fa: str) -> dict[str, str]:
    return {"en": en, "ru": ru, "pt": pt, "fa": fa}


def steps() -> list[dict[str, Any]]:
    """The course, in order (each a ``cardtable.analysis.lessons.Step``'s fields)."""
    return [
        {"key": "eleven",
         "title": _t("Making 11", "Сумма 11", "Fazer 11", "ساختن ۱۱"),
         "text": _t("A number card takes table cards that add up to 11 with it. "
                    "Take the 4♣ with your 7♦ before the other 7 does.",
                    "Числовая карта берёт со стола карты, которые вместе с ней дают 11. "
                    "Возьмите 4♣ семёркой 7♦, пока этого не сделала другая семёрка.",
                    "Uma carta numérica leva cartas da mesa que somam 11 com ela. "
                    "Leve o 4♣ com o seu 7♦ antes do outro 7.",
                    "کارت عددی کارت‌هایی از میز را می‌برد که با آن ۱۱ شوند. "
                    "پیش از ۷ دیگر، با ۷♦ خود ۴♣ را بردارید."),
         "build": _last_deal(["7♦ K♠", "7♥ Q♦"], "4♣ 9♥", clubs=(6, 6)),
         "goals": ("7♦ x 4♣",),
         "miss": _t("7 and 4 make 11: the 7♦ takes the 4♣.", "7 и 4 дают 11: 7♦ берёт 4♣.",
                    "7 e 4 fazem 11: o 7♦ leva o 4♣.", "۷ و ۴ می‌شود ۱۱: ۷♦ ، ۴♣ را می‌برد.")},
        {"key": "several",
         "title": _t("Several cards at once", "Несколько карт сразу", "Várias cartas de uma vez",
                     "چند کارت با هم"),
         "text": _t("Several table cards can make 11 together with yours. The 5♠ can take "
                    "the 6♥, or the 2♣ and the 4♦ together: the 2♣ is worth 2 points.",
                    "Несколько карт стола могут вместе с вашей дать 11. 5♠ может взять 6♥ "
                    "или 2♣ и 4♦ вместе: 2♣ стоит 2 очка.",
                    "Várias cartas da mesa podem somar 11 com a sua. O 5♠ pode levar o 6♥, "
                    "ou o 2♣ e o 4♦ juntos: o 2♣ vale 2 pontos.",
                    "چند کارت میز با هم می‌توانند با کارت شما ۱۱ شوند. ۵♠ می‌تواند ۶♥ را "
                    "ببرد، یا ۲♣ و ۴♦ را با هم: ۲♣ دو امتیاز دارد."),
         "build": _last_deal(["5♠ K♥", "9♦ Q♠"], "2♣ 4♦ 6♥"),
         "goals": ("5♠ x 2♣ 4♦",),
         "miss": _t("5 + 2 + 4 = 11 takes the 2♣, worth 2 points.",
                    "5 + 2 + 4 = 11 берёт 2♣, это 2 очка.",
                    "5 + 2 + 4 = 11 leva o 2♣, que vale 2 pontos.",
                    "۵ + ۲ + ۴ = ۱۱ و ۲♣ را می‌برد که دو امتیاز دارد.")},
        {"key": "jack",
         "title": _t("The jack", "Валет", "O valete", "سرباز"),
         "text": _t("A jack takes every number card and jack on the table, but no king or "
                    "queen. Sweep the table with your J♦.",
                    "Валет берёт со стола все числовые карты и валетов, но не королей и "
                    "дам. Заберите стол валетом J♦.",
                    "Um valete leva todas as cartas numéricas e valetes da mesa, mas não "
                    "reis nem damas. Limpe a mesa com o seu J♦.",
                    "سرباز همهٔ کارت‌های عددی و سربازهای میز را می‌برد، ولی شاه و بی‌بی را نه. "
                    "با J♦ میز را جمع کنید."),
         "build": _last_deal(["J♦ 2♥", "J♣ 6♠"], "3♣ 8♦ Q♥ 9♠"),
         "goals": ("J♦ x 3♣ 8♦ 9♠",),
         "miss": _t("The jack takes the 3♣, 8♦ and 9♠ at once (the Q♥ stays).",
                    "Валет сразу берёт 3♣, 8♦ и 9♠ (Q♥ остаётся).",
                    "O valete leva 3♣, 8♦ e 9♠ de uma vez (a Q♥ fica).",
                    "سرباز ۳♣، ۸♦ و ۹♠ را یکجا می‌برد (Q♥ می‌ماند).")},
        {"key": "king",
         "title": _t("Kings", "Короли", "Reis", "شاه‌ها"),
         "text": _t("A king takes one king and nothing else. Take the K♣ with your K♥: a "
                    "club, and the seventh.",
                    "Король берёт только одного короля. Возьмите K♣ королём K♥: это "
                    "трефа, и седьмая.",
                    "Um rei leva um rei e nada mais. Leve o K♣ com o seu K♥: é paus, e o sétimo.",
                    "شاه فقط یک شاه را می‌برد. با K♥ شاه K♣ را بردارید: خاج است، و هفتمین."),
         "build": _last_deal(["K♥ 9♠", "K♦ 4♥"], "K♣ 5♦", clubs=(6, 6)),
         "goals": ("K♥ x K♣",),
         "miss": _t("Only a king takes a king: take it before the other player's K♦ does.",
                    "Короля берёт только король: возьмите его раньше, чем K♦ соперника.",
                    "Só um rei leva um rei: leve-o antes do K♦ do outro jogador.",
                    "شاه را فقط شاه می‌برد: پیش از K♦ حریف آن را بردارید.")},
        {"key": "queen",
         "title": _t("Queens", "Дамы", "Damas", "بی‌بی‌ها"),
         "text": _t("A queen takes one queen. Your Q♠ takes the Q♣: your seventh club.",
                    "Дама берёт одну даму. Ваша Q♠ берёт Q♣: ваша седьмая трефа.",
                    "Uma dama leva uma dama. A sua Q♠ leva a Q♣: o seu sétimo paus.",
                    "بی‌بی یک بی‌بی را می‌برد. Q♠ شما Q♣ را می‌برد: هفتمین خاج شما."),
         "build": _last_deal(["Q♠ 6♥", "Q♦ 3♠"], "Q♣ 7♦", clubs=(6, 6)),
         "goals": ("Q♠ x Q♣",),
         "miss": _t("The Q♠ takes the Q♣ before the other queen can.",
                    "Q♠ берёт Q♣, пока этого не сделала другая дама.",
                    "A Q♠ leva a Q♣ antes que a outra dama o faça.",
                    "Q♠ پیش از بی‌بی دیگر Q♣ را می‌برد.")},
        {"key": "sur",
         "title": _t("A sur", "Сур", "Um sur", "سور"),
         "text": _t("Clearing the whole table with a number card is a sur: 5 points. Surs "
                    "count in every deal but the last, and one side's surs cancel the "
                    "other's one for one.",
                    "Забрать весь стол числовой картой — сур: 5 очков. Суры считаются во "
                    "всех сдачах, кроме последней, и суры сторон взаимно сокращаются.",
                    "Limpar a mesa inteira com uma carta numérica é um sur: 5 pontos. Os "
                    "surs contam em todas as rodadas menos a última, e os de um lado "
                    "anulam os do outro um a um.",
                    "جمع کردن همهٔ میز با کارت عددی سور است: ۵ امتیاز. سورها در همهٔ دورها "
                    "جز دور آخر حساب می‌شوند و سورهای دو طرف یکی‌یکی هم را خنثی می‌کنند."),
         "build": _with_stock(["5♣ 9♥ K♠", "2♠ 3♠ Q♦"], "2♦ 4♠",
                              "A♣ A♦ A♥ A♠ 3♣ 3♦ 3♥ 4♣"),
         "goals": ("5♣ x 2♦ 4♠",),
         "miss": _t("5 + 2 + 4 = 11 takes every card on the table: a sur.",
                    "5 + 2 + 4 = 11 забирает весь стол: сур.",
                    "5 + 2 + 4 = 11 leva todas as cartas da mesa: um sur.",
                    "۵ + ۲ + ۴ = ۱۱ همهٔ میز را می‌برد: سور.")},
        {"key": "clubs",
         "title": _t("The clubs race", "Гонка треф", "A corrida de paus", "مسابقهٔ خاج"),
         "text": _t("The side with 7 clubs or more wins 7 points. You have 6, and so "
                    "does the other side: take the 4♣.",
                    "Сторона, у которой 7 треф или больше, получает 7 очков. У вас 6, "
                    "как и у соперника: возьмите 4♣.",
                    "O lado com 7 paus ou mais ganha 7 pontos. Vocês têm 6 cada: leve o 4♣.",
                    "طرفی که ۷ خاج یا بیشتر دارد ۷ امتیاز می‌گیرد. هر طرف ۶ تا دارد: ۴♣ را "
                    "بردارید."),
         "build": _last_deal(["7♦ 6♠", "7♠ Q♥"], "4♣ 5♦", clubs=(6, 6)),
         "goals": ("7♦ x 4♣",),
         "miss": _t("The 4♣ is your seventh club: 7 points.",
                    "4♣ — ваша седьмая трефа: 7 очков.",
                    "O 4♣ é o seu sétimo paus: 7 pontos.",
                    "۴♣ هفتمین خاج شماست: ۷ امتیاز.")},
        {"key": "points",
         "title": _t("Counting cards", "Очковые карты", "Cartas que contam", "کارت‌های امتیازدار"),
         "text": _t("Aces and jacks are 1 point, the 2♣ 2, the 10♦ 3. Take the 10♦.",
                    "Тузы и валеты — по 1 очку, 2♣ — 2, 10♦ — 3. Возьмите 10♦.",
                    "Ases e valetes valem 1 ponto, o 2♣ 2, o 10♦ 3. Leve o 10♦.",
                    "آس و سرباز ۱ امتیاز، ۲♣ دو و ۱۰♦ سه امتیاز دارد. ۱۰♦ را بردارید."),
         "build": _last_deal(["A♠ 2♥", "A♥ 5♦"], "10♦ 9♠"),
         "goals": ("A♠ x 10♦",),
         "miss": _t("The ace takes the 10♦: 4 points with the ace itself.",
                    "Туз берёт 10♦: 4 очка вместе с самим тузом.",
                    "O ás leva o 10♦: 4 pontos com o próprio ás.",
                    "آس ۱۰♦ را می‌برد: با خود آس ۴ امتیاز.")},
        {"key": "end",
         "title": _t("The end of a hand", "Конец сдачи", "O fim da mão", "پایان دست"),
         "text": _t("The cards left on the table at the end go to the last player who "
                    "captured. Keep your capture for last: lay the 8♥ now.",
                    "Карты, оставшиеся на столе в конце, забирает тот, кто брал последним. "
                    "Сохраните взятку на конец: сейчас положите 8♥.",
                    "As cartas que sobram na mesa no fim vão para o último que capturou. "
                    "Guarde a sua captura para o fim: ponha o 8♥ agora.",
                    "کارت‌های باقی‌مانده روی میز در پایان به آخرین کسی می‌رسد که برداشته. "
                    "برداشتن را برای آخر نگه دارید: اکنون ۸♥ را بگذارید."),
         "build": _last_deal(["6♦ 8♥", "2♠"], "5♠ Q♣ 7♣ 9♣", clubs=(5, 5)),
         "goals": ("8♥",),
         "miss": _t("Capture with your last card, after the 2♠ has taken: the rest is yours.",
                    "Берите последней картой, после хода 2♠: остаток стола будет ваш.",
                    "Capture com a última carta, depois do 2♠: o resto é seu.",
                    "با آخرین کارت، پس از ۲♠ بردارید: باقی میز مال شماست.")},
    ]
