"""The judge's uncertainty on the page: the analysis board shows a label only where the
judge is sure, "unsure" with the loss's interval where it is not, and counts unsure moves
apart (on a phone too); the hint panel shows the judge's own sentence and says when it is
not sure.  The analysis is a made-up one the page is served (the judge's own figures are
tests/analysis/test_judge.py's), so every value here is known."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import PHONE

pytestmark = pytest.mark.browser

TABLE = "JudgedGame"


def judged(index: int, seat: int, loss: float, low: float, high: float, label: str | None,
           unsure: str | None, expected: float) -> dict[str, Any]:
    return {"index": index, "seat": seat, "move": "attack 6♣", "best": "attack 10♠",
            "loss": loss, "label": label, "hindsight_best": None, "hindsight_loss": None,
            "expected": expected, "best_expected": expected - loss, "choices": 3,
            "uncertainty": round(max(loss - low, high - loss), 4), "loss_low": low,
            "loss_high": high, "unsure": unsure, "deals": 40}


MOVES = [judged(1, 0, 0.15, 0.11, 0.18, "mistake", None, 0.4),      # sure: a mistake
         judged(2, 1, 0.08, 0.04, 0.12, None, "mistake", 0.5),      # unsure, no label
         judged(3, 0, 0.12, 0.06, 0.25, "inaccuracy", "blunder", 0.6),  # sure of less
         judged(4, 1, 0.01, 0.0, 0.02, None, None, 0.5)]            # nothing to say
ANALYSIS = {"unit": "chance of being the durak", "thresholds": [0.05, 0.1, 0.2],
            "moves": MOVES, "series": {"0": [0.4, 0.5, 0.6, 0.5], "1": [0.6, 0.5, 0.4, 0.5]}}


def open_board(open_page: Any, *, locale: str = "en-US", viewport: dict | None = None) -> Any:
    page = open_page("/", locale=locale, viewport=viewport)
    page.route(f"**/api/tables/{TABLE}/analysis",
               lambda route: route.fulfill(json={"status": "done", "analysis": ANALYSIS}))
    page.evaluate(f"location.hash = '#/analyse/{TABLE}'")
    page.wait_for_selector('#analysis-status[data-done="true"]')
    return page


def cell(page: Any, index: int) -> Any:
    return page.locator(f'#analysis-moves tr[data-index="{index}"] td.label')


def test_a_label_only_where_the_judge_is_sure_and_unsure_with_its_interval(open_page) -> None:
    page = open_board(open_page)
    assert cell(page, 1).inner_text() == "mistake"
    assert cell(page, 1).locator(".unsure-word").count() == 0
    assert cell(page, 2).locator(".label-word").count() == 0
    assert cell(page, 2).locator(".unsure-word").inner_text() == "unsure"
    assert cell(page, 2).locator(".loss-range").inner_text() == "loses 4%–12%"
    assert cell(page, 2).locator(".unsure-word").get_attribute(
        "title") == "the judge cannot rule out: mistake · loses 4%–12%"
    assert cell(page, 3).locator(".label-word").inner_text() == "inaccuracy"
    assert cell(page, 3).locator(".loss-range").inner_text() == "loses 6%–25%"
    assert cell(page, 4).inner_text() == ""
    # the summary counts the unsure moves apart from the labels
    captions = page.locator(".analysis-graph figcaption")
    assert captions.nth(0).inner_text().endswith(
        "inaccuracies 1 · mistakes 1 · blunders 0 · unsure 1")
    assert captions.nth(1).inner_text().endswith(
        "inaccuracies 0 · mistakes 0 · blunders 0 · unsure 1")
    # and the move shown over the table says it too
    page.click('#analysis-moves tr[data-index="2"] button.show-move')
    current = page.locator("#analysis-current")
    assert "unsure" in current.inner_text() and "loses 4%–12%" in current.inner_text()


@pytest.mark.parametrize(("locale", "unsure", "range_", "count"),
                         [("fa-IR", "نامطمئن", "زیانِ ۴٪ تا ۱۲٪", "نامطمئن ۱"),
                          ("pt-BR", "incerto", "perde 4%–12%", "incertos 1"),
                          ("ru-RU", "неясно", "теряет 4 %–12 %", "неясных 1")],
                         ids=["fa", "pt", "ru"])
def test_unsure_in_the_page_s_language_on_a_phone(open_page, locale: str, unsure: str,
                                                  range_: str, count: str) -> None:
    page = open_board(open_page, locale=locale, viewport=PHONE)
    assert cell(page, 2).locator(".unsure-word").inner_text() == unsure
    assert cell(page, 2).locator(".loss-range").inner_text().replace("\u00a0", " ") == range_
    assert page.locator(".analysis-graph figcaption").nth(1).inner_text().endswith(count)
    # the page never scrolls sideways on a phone (the moves' table scrolls in its box)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


HINT = {"move": "attack 6♣", "lang": "fa", "text": "۲ کارت", "unit": "chance of being the durak",
        "why": "بهترینِ 3 حرکت روی همان 40 پخشِ کارت‌های نادیده",
        "choices": [{"move": "attack 6♣", "value": 0.28, "text": ""},
                    {"move": "attack 10♠", "value": 0.3, "text": ""}]}


def hint_panel(page: Any, hint: dict) -> Any:
    """The hint panel the table draws for ``hint``, drawn into the page."""
    page.evaluate("""async (hint) => {
        const { hintPanel } = window.cardtableModules.get('/js/hintpanel.js');
        document.querySelector('.hint-panel')?.remove();
        document.body.append(hintPanel(hint));
    }""", hint)
    return page.locator(".hint-panel")


def test_the_hint_panel_says_the_judge_s_why_and_when_it_is_not_sure(open_page) -> None:
    page = open_page("/", locale="fa-IR")
    panel = hint_panel(page, {**HINT, "sure": False})
    assert panel.locator(".hint-ranked").inner_text() == (
        "بهترینِ ۳ حرکت روی همان ۴۰ پخشِ کارت‌های نادیده")
    assert panel.get_attribute("data-sure") == "false"
    assert panel.locator(".hint-unsure").inner_text().startswith("اختلاف کم است")
    panel = hint_panel(page, {**HINT, "sure": True})
    assert panel.get_attribute("data-sure") == "true"
    assert panel.locator(".hint-unsure").count() == 0
    # no sentence from the server: the page says the judge's ranking itself
    panel = hint_panel(page, {**HINT, "why": "", "sure": True})
    assert panel.locator(".hint-ranked").inner_text().startswith("به عدد: این حرکت")
