"""Lessons on the real table (/#/learn): the step is drawn by the live table's code, a
wrong move gets the reason in words in the page's language, the right one leads on, and
the progress is the player's (ticks after a reload, the course resumes where it stopped)."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import click_durak_move, click_pasur_move, legal_moves

from cardtable.analysis import lessons

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "fa": "fa-IR"}


def click_move(page: Any, game: str, move: str) -> None:
    if game == "pasur":
        click_pasur_move(page, move, via_table=False)
    else:
        click_durak_move(page, move, via_table=False)


def panel_step(page: Any, key: str) -> Any:
    return page.wait_for_selector(f'#lesson-panel[data-step="{key}"]')


@pytest.mark.parametrize(("game", "lang"), [("pasur", "en"), ("durak", "fa"), ("pasur", "fa")])
def test_a_lesson_on_the_table_a_wrong_move_the_right_move_and_the_tick(
        open_page, game: str, lang: str) -> None:
    steps = lessons.course(game)
    first, second = steps[0], steps[1]
    page = open_page(f"/#/learn/{game}", locale=LOCALES[lang], reduced_motion=True)
    panel_step(page, first.key)   # a new player starts at the first step
    assert page.url.endswith(f"#/learn/{game}/{first.key}")
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")
    assert page.locator("#lesson-text").text_content() == first.text[lang]
    # the live table's own drawing: its root, the hand's card buttons, whose turn
    table = page.locator("#table-root")
    assert table.get_attribute("data-game") == game
    assert table.get_attribute("data-my-turn") == "true"
    assert page.locator(".hand-cards button.card").count() == len(first.position().view(
        first.position().to_move)["hand"])

    wrong = next(m for m in legal_moves(page) if m not in first.goals)
    click_move(page, game, wrong)
    page.wait_for_selector('#lesson-verdict[data-right="false"]')
    verdict = page.locator("#lesson-verdict").text_content()
    assert lessons.check(first, wrong, lang=lang).reason in verdict
    assert table.get_attribute("data-my-turn") == "true"   # another try
    assert page.locator("#next-step").count() == 0

    click_move(page, game, first.goals[0])
    page.wait_for_selector('#lesson-verdict[data-right="true"]')
    # the move is played on the table: the last move, and the step is done
    page.wait_for_selector('#table-root[data-version="2"]')
    assert page.locator(".last-move .last").get_attribute("data-move") == first.goals[0]
    assert table.get_attribute("data-my-turn") == "false"
    assert page.locator(f'.lesson-steps li[data-step="{first.key}"]').get_attribute(
        "data-done") == "true"
    page.click("#next-step")
    panel_step(page, second.key)
    assert page.locator("#lesson-text").text_content() == second.text[lang]

    # the progress is the player's (kept by the server): ticked after a reload, and the
    # course resumes at the first step not done
    page.goto(page.url.split("#")[0] + "#/learn")
    page.wait_for_selector(f'.lesson-course[data-game="{game}"]')
    course = page.locator(f'.lesson-course[data-game="{game}"]')
    assert course.locator(f'li[data-step="{first.key}"]').get_attribute("data-done") == "true"
    assert course.locator(f'li[data-step="{first.key}"] .tick').text_content() == "✓"
    assert course.locator(f'li[data-step="{second.key}"]').get_attribute("data-done") == "false"
    course.locator("a.resume").click()
    panel_step(page, second.key)
    assert page.url.endswith(f"#/learn/{game}/{second.key}")


def test_a_hint_marks_the_cards_and_explains(open_page) -> None:
    step = lessons.course("durak")[1]
    page = open_page(f"/#/learn/durak/{step.key}", reduced_motion=True)
    panel_step(page, step.key)
    page.click(".actions button.hint")
    page.wait_for_selector("#lesson-hint[data-move]")
    move = page.locator("#lesson-hint").get_attribute("data-move")
    assert move in legal_moves(page) and len(page.locator("#lesson-hint").text_content()) > 20


def test_the_header_and_the_school_page_lead_to_the_lessons(open_page) -> None:
    page = open_page("/")
    learn = page.locator('nav a[data-nav="learn"]')
    assert learn.get_attribute("href") == "/#/learn"
    learn.click()
    page.wait_for_selector(".lesson-course a.resume")
    assert page.locator('nav a[data-nav="learn"]').get_attribute("aria-current") == "page"
    # the old school page without a puzzle or an analysis leads to the lessons on the
    # table, in the school page's language
    old = open_page("/learn.html?game=durak&lang=fa")
    panel_step(old, lessons.course("durak")[0].key)
    assert old.evaluate("document.documentElement.dir") == "rtl"
    assert old.locator("#lesson-text").text_content() == lessons.course("durak")[0].text["fa"]


def test_every_lesson_word_is_in_every_language(open_page) -> None:
    page = open_page("/")
    page.wait_for_selector("#main")
    missing = page.evaluate("""async () => {
      const { ALL_STRINGS, loadLanguage } = window.cardtableModules.get("/js/i18n.js");
      await Promise.all(["pt", "fa", "ru"].map(loadLanguage));   // each from its own file
      const keys = (lang) => Object.keys(ALL_STRINGS[lang]).filter((k) => k.startsWith("lesson."));
      const english = keys("en");
      return Object.keys(ALL_STRINGS).map((lang) =>
        [lang, english.filter((k) => !keys(lang).includes(k)).join(",")]);
    }""")
    assert dict(missing) == {"en": "", "ru": "", "pt": "", "fa": ""}


def test_changing_the_language_says_the_step_again_in_it(open_page) -> None:
    step = lessons.course("durak")[2]
    page = open_page(f"/#/learn/durak/{step.key}", reduced_motion=True)
    panel_step(page, step.key)
    wrong = next(m for m in legal_moves(page) if m not in step.goals)
    click_move(page, "durak", wrong)
    page.wait_for_selector('#lesson-verdict[data-right="false"]')
    page.select_option("#language", "ru")
    page.wait_for_function("t => document.querySelector('#lesson-text')?.textContent === t",
                           arg=step.text["ru"])
    assert page.locator("#lesson-verdict").count() == 0   # the English reason went
    click_move(page, "durak", wrong)
    page.wait_for_selector('#lesson-verdict[data-right="false"]')
    assert lessons.check(step, wrong, lang="ru").reason in page.locator(
        "#lesson-verdict").text_content()
