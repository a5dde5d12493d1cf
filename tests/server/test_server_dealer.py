"""The dealer, a live table's one owner: its commands run one at a time in the order they
came, its steps decide without changing the table, and an undo never goes back past cards
the player has seen since."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.server.core.clock import FakeClock
from cardtable.server.core.codes import Refusal
from cardtable.server.core.metrics import Metrics
from cardtable.server.play import steps
from cardtable.server.play.bot_runner import make_bot
from cardtable.server.play.commands import Close, Settle
from cardtable.server.play.dealer import Dealer
from cardtable.server.play.live import PLAYING, LiveSeat, LiveTable


def run(main: Any) -> Any:
    """``asyncio.run`` in a thread of its own: after the browser tests, Playwright leaves a
    loop marked running in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main).result()


class House:
    """As much of ``Tables`` as a dealer that only reads needs."""

    def __init__(self) -> None:
        self.clock = FakeClock()
        self.metrics = Metrics()

    def spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        return asyncio.get_running_loop().create_task(coroutine)


def table_of(game: str, seed: int) -> LiveTable:
    """A table of a person (seat 0) against a random bot, its dealer made."""
    spec = games.get(game)
    state = spec.start(spec.rules(), players=2, seed=random.Random(seed))
    seats = [LiveSeat(index=0, kind="human", token_hash="h"),
             LiveSeat(index=1, kind="bot", bot_spec="random", bot=make_bot("random"),
                      bot_playing="random")]
    table = LiveTable(id="t1", game=game, spec=spec, preset=None, rules=spec.rules(),
                      players=2, state=state, seats=seats, status=PLAYING,
                      created="2026-12-03T00:00:00.000+00:00",
                      decks_stored=len(spec.deals(state)))
    Dealer(House(), table)   # type: ignore[arg-type]
    return table


def test_commands_asked_while_one_is_handled_wait_and_run_in_order() -> None:
    table = table_of("durak", 1)
    order: list[str] = []

    async def main() -> None:
        gate = asyncio.Event()

        async def slow(command: Any) -> str:
            order.append(f"start {command.reason}")
            if command.reason == "first":
                await gate.wait()
            order.append(f"end {command.reason}")
            return str(command.reason)

        table.dealer._handle = slow   # type: ignore[attr-defined]  # waits, to see the mailbox
        first = asyncio.ensure_future(table.dealer.ask(Close("first")))
        await asyncio.sleep(0.01)
        later = [asyncio.ensure_future(table.dealer.ask(Close(name)))
                 for name in ("second", "third")]
        await asyncio.sleep(0.01)
        assert order == ["start first"]   # the others wait in the mailbox
        gate.set()
        assert await asyncio.gather(first, *later) == ["first", "second", "third"]

    run(main())
    assert order == ["start first", "end first", "start second", "end second",
                     "start third", "end third"]


def test_an_asker_that_gives_up_does_not_stop_its_command_half_way() -> None:
    table = table_of("durak", 4)
    order: list[str] = []

    async def main() -> None:
        gate = asyncio.Event()

        async def slow(command: Any) -> None:
            if not isinstance(command, Close):
                return
            order.append("start")
            await gate.wait()
            order.append("end")

        table.dealer._handle = slow   # type: ignore[attr-defined]
        asker = asyncio.ensure_future(table.dealer.ask(Close("x")))
        await asyncio.sleep(0.01)
        asker.cancel()   # a socket that closed, a request whose client went away
        await asyncio.sleep(0.01)
        assert asker.cancelled() and order == ["start"]
        gate.set()
        await table.dealer.ask(Settle())   # after the one under way: it was finished

    run(main())
    assert order == ["start", "end"]


def test_a_command_that_asks_its_own_dealer_is_refused_rather_than_stuck() -> None:
    table = table_of("durak", 2)

    async def main() -> None:
        async def again(command: Any) -> Any:
            return await table.dealer.ask(Settle())

        table.dealer._handle = again   # type: ignore[attr-defined]
        with pytest.raises(RuntimeError, match="its own dealer"):
            await table.dealer.ask(Settle())

    run(main())


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(["pasur", "durak"]), seed=st.integers(0, 10_000),
       moves=st.integers(0, 60))
def test_a_decided_move_is_pushed_and_taking_it_back_leaves_the_table_as_it_was(
        game: str, seed: int, moves: int) -> None:
    table = table_of(game, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if table.state.is_over():
            break
        table.state.push(rng.choice(table.state.legal_moves()))
    if table.state.is_over():
        return
    before = [table.state.view(seat) for seat in range(2)]
    stack, version = list(table.state.move_stack), table.version
    move = rng.choice(table.state.legal_moves())
    played = steps.move(table, table.state.to_move, table.version, str(move))
    assert isinstance(played, steps.Played) and played.text == str(move)
    assert list(table.state.move_stack) == [*stack, played.move]   # left pushed
    assert played.over == table.state.is_over()   # what it decided is what the move does
    assert played.decks == len(table.spec.deals(table.state))
    assert table.version == version   # no field of the table changed
    table.state.pop()   # what the dealer does when the move cannot be stored
    assert [table.state.view(seat) for seat in range(2)] == before
    assert list(table.state.move_stack) == stack


def test_an_illegal_move_is_refused_by_the_step_and_changes_nothing() -> None:
    table = table_of("durak", 3)
    before = table.state.view(0)
    refusal = steps.move(table, 0, 0, "no such card")
    assert isinstance(refusal, Refusal) and refusal.code == "not_a_move"
    assert table.state.view(0) == before


def _durak_until(table: LiveTable, rng: random.Random, drew: bool) -> int:
    """Play on until seat 0 is to move again after a decision of its own, having drawn
    from the stock since (``drew``) or not; the moves since that decision."""
    while not table.state.is_over():
        if table.state.to_move == 0:
            stock = table.state.view(0)["stock"]
            table.state.push(rng.choice(table.state.legal_moves()))
            since = 1
            while not table.state.is_over() and table.state.to_move != 0:
                table.state.push(rng.choice(table.state.legal_moves()))
                since += 1
            if table.state.is_over():
                break
            hand_grew = table.state.view(0)["stock"] < stock
            if hand_grew == drew:
                table.version = len(table.state.move_stack)
                return since
        else:
            table.state.push(rng.choice(table.state.legal_moves()))
    pytest.fail("the game ended first")


def test_undo_takes_back_my_last_decision_within_a_bout() -> None:
    table = table_of("durak", 5)
    since = _durak_until(table, random.Random(5), drew=False)
    assert steps.undo(table, 0) == since


def test_the_state_offers_undo_within_a_bout_and_not_after_a_draw() -> None:
    table = table_of("durak", 5)
    assert table.state_message(0).undo is False or table.state.to_move != 0
    _durak_until(table, random.Random(5), drew=False)
    assert table.state_message(0).undo is True
    assert table.state_message(None).undo is None   # a watcher has nothing to take back
    for seed in range(3):
        table = table_of("durak", seed)
        _durak_until(table, random.Random(seed), drew=True)
        assert table.state_message(0).undo is False


def test_the_state_offers_undo_at_pasur_only_until_the_next_deal() -> None:
    """Whenever seat 0 is to move: undo is offered once it has decided, unless cards were
    dealt to it since its last decision (a deal round's four, or a new hand)."""
    table = table_of("pasur", 3)
    spec, rng = table.spec, random.Random(3)
    decided: tuple[int, set[str]] | None = None   # the deals and the hand at its decision
    seen = {True: 0, False: 0}
    while not table.state.is_over():
        if table.state.to_move == 0:
            dealt, hand = len(spec.deals(table.state)), set(table.state.view(0)["hand"])
            offered = table.state_message(0).undo
            expected = decided is not None and decided[0] == dealt and hand <= decided[1]
            assert offered is expected, (table.version, decided, dealt, hand)
            seen[expected] += 1
            decided = (dealt, hand)
        table.state.push(rng.choice(table.state.legal_moves()))
        table.version = len(table.state.move_stack)
    assert seen[True] and seen[False], seen


def test_undo_never_goes_back_past_cards_i_drew_from_the_stock() -> None:
    for seed in range(5):
        table = table_of("durak", seed)
        _durak_until(table, random.Random(seed), drew=True)
        hand = table.state.view(0)["hand"]
        refusal = steps.undo(table, 0)
        assert isinstance(refusal, Refusal), (seed, hand)
        assert refusal.code == "undo_past_deal"
