"""The page in the player's language beyond its words: a guest named in that language's own
words, rule sets by their names in the history and the replay (not their ids), and a
provisional rating's "?" said in words wherever it is shown.

(The order of a move's cards on screen in every language: test_browser_bidi.py; every
count message at 0, 1, 2, 5 and 21 in every language: tests/page/i18n.test.mjs.)
"""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.server.store.players import GUEST_WORDS

pytestmark = pytest.mark.browser



@pytest.mark.parametrize(("browser_locale", "chosen", "lang"), [
    ("ru-RU", None, "ru"), ("en-US", "fa", "fa"), ("fa-IR", "pt", "pt")])
def test_a_first_visits_guest_is_named_in_the_language_the_page_speaks(
        browser: Any, server_url: str, browser_locale: str, chosen: str | None,
        lang: str) -> None:
    """The page's own language, not only the browser's: an English browser whose player
    picked Persian gets a Persian name."""
    context = browser.new_context(locale=browser_locale)
    try:
        if chosen:
            context.add_init_script(f"localStorage.setItem('cardtable.lang', '{chosen}')")
        page = context.new_page()
        page.goto(server_url + "/")
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        page.wait_for_selector("#quick-preset")
        name = page.evaluate("""async () =>
          (await window.cardtableModules.get('/js/api.js').api('/api/me')).name""")
        adjectives, animals, _ = GUEST_WORDS[lang]
        assert set(name.split()[:2]) & set(adjectives), name
        assert set(name.split()[:2]) & set(animals), name
    finally:
        context.close()


def finished_durak(page: Any, server_url: str) -> str:
    answer = page.request.post(f"{server_url}/api/tables", data={
        "game": "durak", "preset": "transfer", "seats": ["bot:random", "bot:random"]})
    assert answer.ok, answer.text()
    table = answer.json()["table"]
    for _ in range(600):
        if page.request.get(f"{server_url}/api/tables/{table}").json()["over"]:
            return str(table)
        page.wait_for_timeout(100)
    raise AssertionError("two random bots did not finish a game of Durak")


def test_history_and_replay_name_the_rule_set_and_its_rules_in_words(
        open_page: Any, server_url: str) -> None:
    page = open_page("/", locale="ru-RU")
    page.wait_for_selector("#quick-preset")
    table = finished_durak(page, server_url)
    page.goto(f"{server_url}/#history")
    page.click(".history-tabs .tab.all")
    item = page.locator(f'.history-item[data-table="{table}"]')
    item.wait_for()
    assert item.locator(".preset").inner_text() == " · Переводной дурак"
    assert "transfer" not in item.inner_text()

    page.goto(f"{server_url}/#replay/{table}")
    page.wait_for_selector("#replay-table")
    heading = page.locator(".panel.replay > p").nth(1).inner_text()
    assert "Переводной дурак" in heading and "transfer" not in heading, heading
    rules = page.locator(".panel.replay details.rules p").text_content()
    assert rules and "_" not in rules, rules
    said = page.evaluate("""() => {
      const { t } = window.cardtableModules.get('/js/i18n.js');
      return t('rules.durak.pack_size');
    }""")
    assert said != "rules.durak.pack_size" and said in rules, (said, rules)


def test_a_provisional_rating_at_the_end_of_a_game_says_what_its_question_mark_is(
        open_page: Any) -> None:
    page = open_page("/", locale="pt-BR")
    page.wait_for_selector("#quick-preset")
    shown = page.evaluate("""() => {
      const { ratingChanges } = window.cardtableModules.get('/js/players.js');
      const at = (provisional) => ratingChanges({ ratings: { 0: { before: 1500, after: 1553,
        change: 53, provisional } } }, () => 'Ana').textContent;
      return [at(true), at(false)];
    }""")
    provisional, settled = shown
    assert "1553?" in provisional and "provisória" in provisional, provisional
    assert "?" not in settled, settled
