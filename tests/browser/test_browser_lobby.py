"""The lobby, invite links, watching, the keyboard and languages (replays: test_browser_replay)."""

from __future__ import annotations

import re

import pytest
from browserkit import (
    PHONE,
    click_durak_move,
    create_table,
    legal_moves,
    screenshot,
    table_root,
    wait_for_next_version,
    wait_for_turn_or_end,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def hand_cards(page) -> list[str]:
    return page.locator(".hand-cards button.card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")


def test_a_table_made_in_the_lobby_is_joined_from_its_invite_link(open_page, server_url) -> None:
    host = open_page("/")
    table = create_table(host, "durak", seats=["human", "human"])
    link = host.locator(".created input.invite-link").input_value()
    assert link == f"{server_url}/table/{table}"
    assert host.locator(".created button.copy").is_visible()
    screenshot(host, "lobby-en-desktop-created")

    # Someone else sees the open table in the lobby, with a free seat to join.
    other = open_page("/", viewport=PHONE)
    item = other.locator(f'.table-item[data-table="{table}"]')
    item.wait_for()
    assert item.locator("button.join").is_visible()
    screenshot(other, "lobby-en-phone")

    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    host.click(".created .open-table")
    table_root(host).wait_for()
    host.wait_for_selector(".banner.invite")
    assert host.locator(".banner.invite input.invite-link").input_value() == link
    assert table_root(host).get_attribute("data-seat") == "0"
    host.click(".banner.invite button.copy")
    host.wait_for_selector(".banner.invite button.copy:text('Copied')")
    assert host.evaluate("navigator.clipboard.readText()") == link
    screenshot(host, "durak-en-desktop-waiting")

    # The friend follows the link (a second browser context: its own storage) and is
    # seated on opening it (test_browser_newcomer: the lobby's Watch only watches).
    friend = open_page(f"/table/{table}")
    friend.wait_for_selector('#table-root[data-seat="1"]')
    host.wait_for_selector(".banner.invite", state="detached")
    for page in (host, friend):
        page.wait_for_selector(".hand-cards button.card")
        assert len(hand_cards(page)) == 6
    assert set(hand_cards(host)).isdisjoint(hand_cards(friend))

    # Whoever leads attacks with a card; the other page sees it on the table.
    first = wait_for_first_turn(host, friend)
    leader, defender = (host, friend) if first is host else (friend, host)
    move = next(m for m in legal_moves(leader) if m.startswith("attack ") and len(m.split()) == 2)
    card = move.split()[1]
    version = table_root(leader).get_attribute("data-version")
    leader.click(f'.hand-cards button.card[data-card="{card}"]')
    leader.click('.actions button[data-action="attack"]')
    wait_for_next_version(defender, version)
    defender.wait_for_selector(f'.battle .card[data-card="{card}"]')
    assert card not in hand_cards(leader)


def wait_for_first_turn(*pages):
    """The page whose turn it is, once one of them has its turn."""
    pages[0].wait_for_function(
        "() => document.querySelector('#table-root')?.dataset.toMove !== ''")
    to_move = table_root(pages[0]).get_attribute("data-to-move")
    for page in pages:
        if table_root(page).get_attribute("data-seat") == to_move:
            page.wait_for_selector('#table-root[data-my-turn="true"]')
            return page
    raise AssertionError(f"no page holds seat {to_move}")


def test_an_unknown_table_says_so(open_page) -> None:
    page = open_page("/table/NoSuchTable")
    page.wait_for_selector(".banner.error")
    assert "no table" in page.locator(".banner.error").inner_text()
    assert table_root(page).get_attribute("data-connection") == "closed"


def test_a_spectator_sees_the_table_but_no_hand(open_page) -> None:
    player = open_page("/")
    table = create_table(player, "pasur", seats=["human", "bot:random"])
    player.click(".created .open-table")
    assert wait_for_turn_or_end(player)
    held = hand_cards(player)
    assert len(held) == 4

    watcher = open_page(f"/table/{table}")
    watcher.wait_for_selector(".banner.spectator")
    root = table_root(watcher)
    assert root.get_attribute("data-seat") == ""
    assert root.get_attribute("data-legal") == "[]"
    assert watcher.locator(".hand-cards").count() == 0
    # Both players appear as backs only, four cards each, and no held card is anywhere.
    assert watcher.locator(".opponents .seat-box").count() == 2
    assert watcher.locator(".opponents .card.face-down").count() == 8
    shown = watcher.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert shown and set(shown).isdisjoint(held)
    # Nobody seated is free, so there is no seat to take.
    assert watcher.locator(".banner.spectator button.join").count() == 0
    screenshot(watcher, "pasur-en-desktop-spectator")


def test_a_move_played_with_the_keyboard_alone(open_page) -> None:
    page = open_page("/")
    create_table(page, "pasur", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    before = hand_cards(page)

    # Tab from the top of the page to the first card of the hand.
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.hand-cards') !== null"):
            break
    else:
        raise AssertionError("Tab never reached the hand")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert re.match(r"^(ace|[2-9]|10|jack|queen|king) of (clubs|diamonds|hearts|spades)", focused)
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"

    # Enter on a card brings focus to its first choice (a card with one move too: the page
    # looks before it plays, unless the move is forced), and Enter plays that.
    version = table_root(page).get_attribute("data-version")
    card = page.evaluate("document.activeElement.dataset.card")
    forced = len(legal_moves(page)) == 1
    page.keyboard.press("Enter")
    if not forced:
        page.wait_for_function("document.activeElement.classList.contains('choice')")
        move = page.evaluate("document.activeElement.dataset.move")
        assert move in legal_moves(page) and move.split(" x ")[0] == card
        page.keyboard.press("Enter")
    wait_for_next_version(page, version)
    assert card not in hand_cards(page)
    assert len(hand_cards(page)) == len(before) - 1

    # A number key picks the card at that place in the hand.
    assert wait_for_turn_or_end(page)
    version = table_root(page).get_attribute("data-version")
    first = hand_cards(page)[0]
    forced = len(legal_moves(page)) == 1
    page.keyboard.press("1")
    if not forced:
        page.wait_for_function("document.activeElement.classList.contains('choice')")
        assert page.evaluate("document.activeElement.dataset.move").startswith(first)
        page.keyboard.press("Space")
    wait_for_next_version(page, version)
    assert first not in hand_cards(page)

    # A reload takes the same seat again (the token is kept in this browser).
    page.reload()
    page.wait_for_selector('#table-root[data-seat="0"]')
    page.wait_for_selector(".hand-cards button.card")
    assert len(hand_cards(page)) == len(before) - 2


def test_a_dropped_connection_comes_back_by_itself(open_page) -> None:
    page = open_page("/")
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    held = sorted(hand_cards(page))
    version = table_root(page).get_attribute("data-version")

    page.evaluate("window.cardtableScreen.socket.ws.close()")
    page.wait_for_selector('#table-root[data-connection="waiting"]')
    page.wait_for_selector('#table-root[data-connection="open"]')
    assert wait_for_turn_or_end(page)
    assert table_root(page).get_attribute("data-version") == version
    assert sorted(hand_cards(page)) == held
    # The seat still plays after the reconnection.
    click_durak_move(page, legal_moves(page)[0], via_table=False)
    wait_for_next_version(page, version)


def test_a_move_made_while_the_connection_is_down_goes_once_it_is_back(open_page) -> None:
    page = open_page("/")
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    version = table_root(page).get_attribute("data-version")
    page.evaluate("window.cardtableScreen.socket.ws.close()")
    page.wait_for_selector('#table-root[data-connection="waiting"]')
    click_durak_move(page, legal_moves(page)[0], via_table=False)   # nothing can go now
    wait_for_next_version(page, version)   # it went on reconnecting, without a second tap


def test_the_language_follows_the_browser_and_can_be_changed(open_page) -> None:
    page = open_page("/", locale="pt-BR")
    page.wait_for_selector("form.create-form")
    assert page.locator("html").get_attribute("lang") == "pt"
    assert page.locator("nav a[data-nav=lobby]").inner_text() == "Salão"
    # another language's words are fetched when it is picked: the page speaks it once here
    # (a loaded machine showed the button still empty just after the attribute: each
    # word is awaited, never read once)
    page.select_option("#language", "ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("nav a[data-nav=lobby]")).to_have_text("Лобби")
    expect(page.locator("button.create")).to_have_text("Создать стол")
    page.reload()
    page.wait_for_selector("form.create-form")
    assert page.locator("html").get_attribute("lang") == "ru"
    expect(page.locator("button.create")).to_have_text("Создать стол")
    page.select_option("#language", "fa")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("button.create")).to_have_text("ساختن میز")
    screenshot(page, "lobby-fa-desktop")


def test_every_string_is_translated_into_every_language(open_page) -> None:
    page = open_page("/")
    missing = page.evaluate("""async () => {
        const { ALL_STRINGS, loadLanguage } = window.cardtableModules.get("/js/i18n.js");
        await Promise.all(["pt", "fa", "ru"].map(loadLanguage));   // each from its own file
        const keys = Object.keys(ALL_STRINGS.en);
        const out = {};
        for (const [lang, table] of Object.entries(ALL_STRINGS)) {
            out[lang] = keys.filter((k) => !(k in table));
            out[lang].push(...Object.keys(table).filter((k) => !(k in ALL_STRINGS.en)));
        }
        return out;
    }""")
    assert missing == {"en": [], "pt": [], "fa": [], "ru": []}


def test_every_card_has_its_own_name_in_every_language(open_page) -> None:
    page = open_page("/")
    names = page.evaluate("""async () => {
        const i18n = window.cardtableModules.get("/js/i18n.js");
        const cards = window.cardtableModules.get("/js/cards.js");
        const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
        const out = {};
        for (const lang of ["en", "pt", "fa", "ru"]) {
            await i18n.setLanguage(lang, { remember: false });
            out[lang] = ranks.flatMap((r) => "♣♦♥♠".split("").map((s) => cards.cardLabel(r + s)));
        }
        await i18n.setLanguage("en", { remember: false });
        out.parsed = ["TD", "qh", "10♦", "A♠", "9c"].map((t) => cards.cardKey(t));
        return out;
    }""")
    for lang in ("en", "pt", "fa", "ru"):
        assert len(set(names[lang])) == 52, lang
    assert names["en"][:4] == ["ace of clubs", "ace of diamonds", "ace of hearts", "ace of spades"]
    assert names["pt"][-1] == "rei de espadas"
    assert names["ru"][-4] == "король треф"
    assert names["fa"][0] == "آس خاج"
    assert names["parsed"] == ["10♦", "Q♥", "10♦", "A♠", "9♣"]


def test_a_table_made_with_a_clock_shows_both_players_time_by_their_seats(
        open_page, server_url) -> None:
    page = open_page("/", reduced_motion=True)
    page.click("#game-durak")
    labels = page.locator("#clock option").all_inner_texts()
    assert labels[0] == "No clock" and "10 s a move + 1 min in reserve" in labels
    page.select_option("#clock", "fast")
    table = create_table(page, "durak", seats=["human", "human"])
    info = page.request.get(f"{server_url}/api/tables/{table}").json()
    assert info["clock"] == {"move": 10, "bank": 60}
    friend = open_page(f"/table/{table}", reduced_motion=True)   # seated by opening it
    friend.wait_for_selector('#table-root[data-seat="1"]')
    page.click(".created .open-table")
    clocks = page.locator(".life-bar .seat-clock")
    clocks.nth(1).wait_for()
    assert clocks.count() == 2
    page.locator(".life-bar .seat-clock.running").wait_for()
    texts = clocks.all_inner_texts()
    assert any("in reserve" in text for text in texts)   # the seat that waits: its bank
    assert any("+" in text for text in texts)            # the seat to move: move + bank
    screenshot(page, "durak-clock-desktop")
    # the lobby remembers the clock chosen for the next table
    page.goto(f"{server_url}/")
    page.click("#game-durak")
    assert page.locator("#clock").input_value() == "fast"
