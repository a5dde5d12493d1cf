"""A game the page has no drawing of its own for: games.js hands it to generic.js, which
draws the hand, the table and every legal move as a button from the view's own texts."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# What the page gets for an unknown game, and what a click on it plays: a view with a
# hand, a table and one plain fact; two legal moves name the 7♣ and one the K♦.
RENDER = """async () => {
    const { gameModule } = window.cardtableModules.get("/js/games.js");
    const generic = window.cardtableModules.get("/js/generic.js");
    const played = [];
    const view = { game: "third", players: 2, hand: ["7♣", "K♦", "2♠"], hand_sizes: [3, 4],
                   table: ["5♥", ["9♠", null]], stock_size: 11 };
    const state = { game: "third", version: 3, over: false, to_move: 0, view };
    const ctx = { state, view, previousView: null, mySeat: 0, myTurn: true,
                  legal: ["play 7♣", "play 7♣ low", "play K♦"], players: 2, selection: {},
                  seatName: (seat) => `Seat ${seat + 1}`, seats: [], play: (t) => played.push(t),
                  rerender: () => {}, animate: false, isNew: () => false };
    const box = document.createElement("div");
    document.body.appendChild(box);
    const parts = generic.render(ctx);
    for (const key of ["opponents", "felt", "hand", "choices", "info"]) box.append(...parts[key]);
    const cards = (selector) => [...box.querySelectorAll(selector)].map((el) => el.dataset.card);
    const before = [...box.querySelectorAll("button.generic-move")].map((b) => b.dataset.move);
    box.querySelector('.hand-cards button.card[data-card="K♦"]').click();
    box.querySelector('.hand-cards button.card[data-card="7♣"]').click();
    const narrowed = generic.render(ctx).choices.map((b) => b.dataset.move);
    box.querySelector('button.generic-move[data-move="play 7♣ low"]').click();
    return {
        module: gameModule("third") === generic,
        known: gameModule("pasur") !== generic && gameModule("durak") !== generic,
        table: cards(".table-cards .card"),
        hand: cards(".hand-cards .card"),
        buttons: cards(".hand-cards button.card"),
        backs: box.querySelectorAll(".seat-box .card.face-down").length,
        moves: before,
        narrowed,
        played,
        facts: [...box.querySelectorAll(".generic-facts li")].map((li) => li.textContent),
        prompt: parts.prompt,
    };
}"""


def test_a_game_without_a_module_is_drawn_from_its_view_and_played_by_its_move_texts(
        open_page) -> None:
    page = open_page("/")
    drawn = page.evaluate(RENDER)
    assert drawn["module"] and drawn["known"]
    assert drawn["table"] == ["5♥", "9♠"]
    assert drawn["hand"] == ["7♣", "K♦", "2♠"]
    assert drawn["buttons"] == ["7♣", "K♦"], "only cards that some move names are buttons"
    assert drawn["backs"] == 4
    assert drawn["moves"] == ["play 7♣", "play 7♣ low", "play K♦"]
    assert drawn["narrowed"] == ["play 7♣", "play 7♣ low"]
    assert drawn["played"] == ["play K♦", "play 7♣ low"]
    assert drawn["facts"] == ["stock size: 11"]
    assert drawn["prompt"] == "Choose a move"


def test_a_finished_game_without_a_module_names_its_winners(open_page) -> None:
    page = open_page("/")
    lines = page.evaluate("""async () => {
        const generic = window.cardtableModules.get("/js/generic.js");
        const name = (seat) => `Seat ${seat + 1}`;
        const body = generic.summary({ over: true, summary: { over: true, winners: [1],
                                                             totals: [3, 9] } },
                                     { mySeat: 0, seatName: name });
        return [generic.resultLine({ winners: [] }, name), generic.resultLine({}, name),
                body.textContent];
    }""")
    assert lines == ["A draw", "", "Winner: Seat 2totals: 3 · 9"]
