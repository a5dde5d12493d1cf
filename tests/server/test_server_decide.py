"""Deciding, without an event loop: each path of ``decide`` answers what the command does
to the table (rows to write, changes, messages, timers) and changes nothing itself; the
dealer's ``apply`` makes a decision's changes, as it would between its writes and sends."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.server.core import protocol
from cardtable.server.core.codes import Refusal
from cardtable.server.play import commands as cmd
from cardtable.server.play import effects as e
from cardtable.server.play.bot_runner import make_bot
from cardtable.server.play.dealer import apply
from cardtable.server.play.decide import decide
from cardtable.server.play.live import (
    OVER,
    PLAYING,
    WAITING,
    Connection,
    Life,
    LiveSeat,
    LiveTable,
    Outbox,
)
from cardtable.server.play.results import movers

NOW = e.Moment(1_000.0, "2026-12-07T10:00:00.000+00:00")


def later(seconds: float) -> e.Moment:
    return e.Moment(NOW.time + seconds, NOW.stamp)


def table_of(game: str = "durak", seed: int = 1, *, people: int = 1, status: str = PLAYING,
             clock: dict[str, float] | None = None, rated: bool = False,
             takeover: str | None = None) -> LiveTable:
    """A two-seat table: ``people`` persons' seats (taken), then bots'."""
    spec = games.get(game)
    state = spec.start(spec.rules(), players=2, seed=random.Random(seed))
    seats = []
    for index in range(2):
        if index < people:
            seats.append(LiveSeat(index=index, kind="human", token_hash=f"h{index}",
                                  name=f"P{index}", player_id=f"p{index}", seen=True))
        else:
            seats.append(LiveSeat(index=index, kind="bot", bot_spec="random",
                                  bot=make_bot("random"), bot_playing="random"))
    table = LiveTable(id="t1", game=game, spec=spec, preset=None, rules=spec.rules(),
                      players=2, state=state, seats=seats, status=status,
                      created="2026-12-07T00:00:00.000+00:00", takeover=takeover,
                      decks_stored=len(spec.deals(state)))
    table.life = Life.from_dict({"clock": clock, "rated": rated}, 2)
    return table


def run(table: LiveTable, command: Any, now: e.Moment = NOW,
        outcomes: dict[type, Any] | None = None) -> list[e.Decision]:
    """Decide ``command`` and its further commands as the dealer would, making the changes
    with ``apply``; each write's outcome is ``outcomes[type(write)](write)`` (else none)."""
    decisions = []
    while command is not None:
        decision = decide(table, command, now)
        decisions.append(decision)
        further = None
        for write in decision.writes:
            make = (outcomes or {}).get(type(write))
            further = make(write) if make else further
        for change in decision.changes:
            apply(table, change)
        command = further or decision.then
    return decisions


def snapshot(table: LiveTable) -> dict[str, Any]:
    """Every field a decision could change, as plain values."""
    life = table.life
    assert life is not None
    chat = table.chat
    return {"table": (table.status, table.version, table.finished, table.summary,
                      table.last_move, table.takeovers, sorted(table.rematch_asked),
                      table.rematch, {id(c) for c in table.connections}),
            "chat": (chat.off, {id(c): sent for c, sent in chat.sent.items()},
                     dict(chat.spoken), {id(c) for c in chat.ready}),
            "seats": [(s.token_hash, s.name, s.player_id, s.bot_playing, s.connections,
                       s.seen, s.hinting) for s in table.seats],
            "life": (list(life.banks), list(life.timeouts), list(life.forfeits),
                     list(life.left), life.turn, life.started, life.timing_out),
            "moves": len(table.state.move_stack)}


def legal(table: LiveTable) -> str:
    return str(table.state.legal_moves()[0])


# -- moves ---------------------------------------------------------------------------------
def test_a_move_at_an_old_version_is_refused_with_nothing_to_do() -> None:
    table = table_of()
    seat = table.state.to_move
    decision = decide(table, cmd.Play(seat, 5, legal(table)), NOW)
    assert isinstance(decision.answer, Refusal) and decision.answer.code == "stale_version"
    assert (decision.writes, decision.changes, decision.sends, decision.timers) == ((), (), (),
                                                                                  ())


def test_a_legal_move_is_written_first_and_the_table_takes_it_once_stored() -> None:
    table = table_of(people=2)
    seat, text = table.state.to_move, legal(table)
    decision = decide(table, cmd.Play(seat, 0, text), NOW)
    assert [type(w) for w in decision.writes] == [e.StoreMove] and decision.changes == ()
    assert table.version == 0   # nothing changed before it is stored
    stored = decide(table, e.Stored(decision.writes[0].step, False, NOW.stamp), NOW)  # type: ignore[union-attr]
    for change in stored.changes:
        apply(table, change)
    assert table.version == 1
    assert table.last_move == protocol.LastMove(index=0, seat=seat, move=text)
    assert isinstance(stored.then, e.After) and stored.then.broadcast


def test_a_move_spends_the_seats_bank_past_its_move_time_and_stores_the_clock() -> None:
    table = table_of(people=2, clock={"move": 10, "bank": 60})
    run(table, e.After(), NOW)   # the first seat's clock starts
    seat = table.state.to_move
    assert table.life is not None and table.life.turn == (0, seat)
    decisions = run(table, cmd.Play(seat, 0, legal(table)), later(25),
                    {e.StoreMove: lambda w: e.Stored(w.step, False, NOW.stamp)})
    assert table.life.banks[seat] == 45.0   # 25 s: its 10 s, then 15 of its bank
    lives = [w for dec in decisions for w in dec.writes if isinstance(w, e.StoreLife)]
    assert lives and lives[0].life["banks"][seat] == 45.0
    # the other seat's clock runs now, with its move time and its whole bank
    starts = [t for dec in decisions for t in dec.timers if isinstance(t, e.StartClock)]
    assert starts == [e.StartClock((1, table.state.to_move), 70.0)]


def test_a_move_inside_its_move_time_stores_no_clock_unless_the_stored_one_differs() -> None:
    table = table_of(people=2, clock={"move": 10, "bank": 60})
    assert table.life is not None
    table.life.stored = table.life.to_dict()   # as the dealer finds the table's row
    run(table, e.After(), NOW)
    store = {e.StoreMove: lambda w: e.Stored(w.step, False, NOW.stamp)}
    quick = run(table, cmd.Play(table.state.to_move, 0, legal(table)), later(4), store)
    assert not [w for dec in quick for w in dec.writes if isinstance(w, e.StoreLife)]
    seat = table.state.to_move   # its clock started at 4 s: 16 s spend 6 of its bank
    slow = run(table, cmd.Play(seat, 1, legal(table)), later(20), store)
    lives = [w for dec in slow for w in dec.writes if isinstance(w, e.StoreLife)]
    assert lives and lives[0].life["banks"][seat] == 54.0


def test_the_last_move_ends_the_table_with_its_summary_and_stops_its_timers() -> None:
    table = table_of(people=1)
    rng = random.Random(3)
    while True:   # on to a position where a move ends the game
        ending = [move for move in table.state.legal_moves() if _ends(table, move)]
        if ending:
            break
        table.state.push(rng.choice(table.state.legal_moves()))
        table.version += 1
    seat = table.state.to_move
    decisions = run(table, cmd.Play(seat, table.version, str(ending[0]), by_bot=True), NOW,
                    {e.StoreMove: lambda w: e.Stored(w.step, False, "T")})
    assert table.status == OVER and table.finished == "T" and table.summary
    timers = [t for dec in decisions for t in dec.timers]
    assert e.StopClock(watch=True) in timers and e.Evict() in timers
    assert e.Kick() not in timers


def _ends(table: LiveTable, move: Any) -> bool:
    table.state.push(move)
    try:
        return table.state.is_over()
    finally:
        table.state.pop()


# -- seats ---------------------------------------------------------------------------------
def test_a_seat_is_taken_only_once_the_database_gave_it() -> None:
    table = table_of(people=1, status=WAITING)
    table.seats[1] = LiveSeat(index=1, kind="human")
    decision = decide(table, cmd.TakeSeat("hx", "Ann", "pa", "guest"), NOW)
    assert decision.writes == (e.StoreSeat(1, "hx", "Ann", "pa", "guest"),)
    refused = run(table, cmd.TakeSeat("hx", "Ann", "pa", "guest"), NOW,
                  {e.StoreSeat: lambda w: e.SeatStored(w, False)})
    assert refused[-1].error is not None and refused[-1].error.code == "seat_taken"
    assert table.seats[1].token_hash is None and table.status == WAITING
    taken = run(table, cmd.TakeSeat("hx", "Ann", "pa", "guest"), NOW,
                {e.StoreSeat: lambda w: e.SeatStored(w, True)})
    assert taken[-1].answer == 1 and table.seats[1].name == "Ann"
    assert table.status == PLAYING   # the last seat starts the game
    timers = [t for dec in taken for t in dec.timers]
    assert e.Hold(1, True, "hx") in timers and e.LoadRatings() in timers


def test_a_full_table_refuses_a_seat() -> None:
    decision = decide(table_of(people=2), cmd.TakeSeat("hx", None, None, None), NOW)
    assert decision.error is not None and decision.error.code == "table_full"
    assert decision.writes == ()


def test_a_watcher_past_the_limit_is_refused_and_a_seat_coming_back_is_seen() -> None:
    table = table_of(people=2)
    watcher = Connection(seat=None, outbox=Outbox(8))
    run(table, cmd.Connect(watcher, watchers=1))
    again = decide(table, cmd.Connect(Connection(seat=None, outbox=Outbox(8)), watchers=1), NOW)
    assert again.error is not None and again.error.code == "too_many_watchers"
    table.seats[1].seen = False
    player = Connection(seat=1, outbox=Outbox(8))
    decisions = run(table, cmd.Connect(player))
    assert decisions[0].writes == (e.MarkSeen(1),)
    assert table.seats[1].connections == 1 and table.seats[1].seen
    sends = [s for dec in decisions for s in dec.sends]
    assert e.Broadcast() in sends and e.SendHistory(player) in sends
    run(table, cmd.Disconnect(player))
    assert table.seats[1].connections == 0 and player not in table.connections


def test_a_seat_nobody_connected_to_is_freed_only_if_the_database_freed_it() -> None:
    table = table_of(people=2)
    timer = object()
    table.seats[1].seen, table.seats[1].claim_task = False, timer   # type: ignore[assignment]
    assert decide(table, cmd.Unclaimed(1, "other", timer), NOW).answer is True
    kept = run(table, cmd.Unclaimed(1, "h1", timer), NOW,
               {e.FreeSeat: lambda w: e.SeatFreed(w.seat, False)})
    assert kept[-1].answer is True and table.seats[1].token_hash == "h1"
    table.seats[1].claim_task = timer   # type: ignore[assignment]
    run(table, cmd.Unclaimed(1, "h1", timer), NOW,
        {e.FreeSeat: lambda w: e.SeatFreed(w.seat, True)})
    assert table.seats[1].token_hash is None and table.seats[1].name is None


def test_a_seat_freed_or_taken_anew_after_the_socket_found_it_is_not_connected_to() -> None:
    """The socket reads the seats, then asks the dealer to connect: a hold that ran out
    in between freed the seat (the race a kill during joins showed), or another player
    took it; the connection is refused (4403 ``no_seat``) and the seat stays as it is."""
    table = table_of(people=2)
    timer = object()
    table.seats[1].seen, table.seats[1].claim_task = False, timer   # type: ignore[assignment]
    found = Connection(seat=1, outbox=Outbox(8), token_hash="h1")
    run(table, cmd.Unclaimed(1, "h1", timer), NOW,
        {e.FreeSeat: lambda w: e.SeatFreed(w.seat, True)})
    before = snapshot(table)
    late = decide(table, cmd.Connect(found), NOW)
    assert late.error is not None and late.error.code == "no_seat" and late.writes == ()
    assert snapshot(table) == before
    table.seats[1].token_hash = "h2"   # taken anew by someone else
    assert decide(table, cmd.Connect(found), NOW).error is not None
    mine = Connection(seat=1, outbox=Outbox(8), token_hash="h2")
    run(table, cmd.Connect(mine))
    assert table.seats[1].connections == 1 and table.seats[1].seen
    asked = Connection(seat=0, outbox=Outbox(8), owner="someone else")
    assert decide(table, cmd.Connect(asked), NOW).error is not None
    run(table, cmd.Connect(Connection(seat=0, outbox=Outbox(8), owner="p0")))
    assert table.seats[0].connections == 1


# -- help against bots ---------------------------------------------------------------------
def test_a_hint_is_one_at_a_time_and_for_ones_own_turn() -> None:
    table = table_of(people=1)
    while table.state.to_move != 0:
        table.state.push(table.state.legal_moves()[0])
        table.version += 1
    first = run(table, cmd.StartHint(0))
    snapshot_, version = first[0].answer
    assert version == table.version and snapshot_ is not table.state
    again = decide(table, cmd.StartHint(0), NOW)
    assert isinstance(again.answer, Refusal) and again.answer.code == "hint_thinking"
    run(table, cmd.HintDone(0))
    assert not table.seats[0].hinting


def test_an_undo_takes_the_moves_back_once_written() -> None:
    table = table_of(people=1, seed=5)
    while table.state.to_move != 0:
        table.state.push(table.state.legal_moves()[0])
        table.version += 1
    table.state.push(table.state.legal_moves()[0])   # seat 0 decides
    table.version += 1
    before = snapshot(table)
    decision = decide(table, cmd.TakeBack(0), NOW)
    assert snapshot(table) == before   # deciding took nothing back
    if isinstance(decision.answer, Refusal):   # the move dealt or drew: refused as the rules say
        assert decision.answer.code == "undo_past_deal"
        return
    keep = table.version - decision.changes[0].count   # type: ignore[union-attr]
    assert decision.writes == (e.TakeBackRows(keep),)
    run(table, cmd.TakeBack(0))
    assert table.version == keep and len(table.state.move_stack) == keep


def test_a_watcher_is_given_neither_hint_nor_undo() -> None:
    table = table_of(people=1)
    for command in (cmd.StartHint(None), cmd.TakeBack(None)):
        answer = decide(table, command, NOW).answer
        assert isinstance(answer, Refusal) and answer.code == "watching"


# -- the clock -----------------------------------------------------------------------------
def test_a_turn_whose_time_ran_out_is_played_by_the_takeover_bot() -> None:
    table = table_of(people=2, clock={"move": 10, "bank": 30})
    run(table, e.After())
    assert table.life is not None
    turn = table.life.turn
    assert turn is not None
    assert decide(table, cmd.TimeUp((turn[0] + 1, turn[1])), NOW).answer is None   # over
    given_ = run(table, cmd.TimeUp(turn))[0].answer
    assert isinstance(given_, cmd.Takeover) and given_.spec == "easy"
    assert table.life.banks[turn[1]] == 0.0 and table.life.timeouts[turn[1]] == 1
    assert table.life.timing_out == turn


def test_the_third_timeout_in_a_row_forfeits_the_seat_and_stores_it() -> None:
    table = table_of(people=2, clock={"move": 10, "bank": 30})
    assert table.life is not None
    table.life.timeouts = [3, 0]
    decisions = run(table, cmd.TimedOut((0, 0)))
    assert table.life.forfeits == [0] and table.seats[0].bot_playing == "easy"
    lives = [w for w in decisions[0].writes if isinstance(w, e.StoreLife)]
    assert lives[0].life["forfeits"] == [0]
    table.life.timeouts = [1, 0]
    calm = decide(table, cmd.TimedOut((0, 1)), NOW)
    assert calm.writes == ()


def test_a_grace_ends_in_a_takeover_only_for_a_seat_still_away() -> None:
    table = table_of(people=2, takeover="easy")
    table.seats[1].connections = 1
    run(table, cmd.GraceOver(1))
    assert table.seats[1].bot_playing is None
    table.seats[1].connections = 0
    decisions = run(table, cmd.GraceOver(1))
    assert table.seats[1].bot_playing == "easy"
    assert e.Kick() in [t for dec in decisions for t in dec.timers]


# -- the end without a move ----------------------------------------------------------------
def test_a_resignation_is_stored_with_its_summary_then_told() -> None:
    table = table_of(people=2)
    decision = decide(table, cmd.ResignSeat(0), NOW)
    ends = [w for w in decision.writes if isinstance(w, e.StoreEnd)]
    assert ends[0].summary["resigned"] == 0 and ends[0].summary["losers"] == [0]
    assert ends[0].finished == NOW.stamp and table.status == PLAYING
    lost = decide(table, e.Ended("resign", NOW.stamp, None), NOW)
    assert lost.error is not None and lost.error.code == "conflict"
    done = run(table, e.Ended("resign", NOW.stamp, {"over": True, "resigned": 0}))
    assert table.status == OVER and done[0].answer == {"over": True, "resigned": 0}
    again = decide(table, cmd.ResignSeat(1), NOW)
    assert again.error is not None and again.error.code == "game_over"


def test_leaving_a_rated_game_aborts_it_before_ones_first_move_and_is_refused_after() -> None:
    table = table_of(people=2, rated=True)
    decision = decide(table, cmd.LeaveSeat(0), NOW)   # nobody has moved: aborted, unrated
    ends = [w for w in decision.writes if isinstance(w, e.StoreEnd)]
    assert ends[0].summary["aborted"] is True and ends[0].summary["rated"] is False
    while movers(table.state, 2) != {0, 1}:
        table.state.push(table.state.legal_moves()[0])
        table.version += 1
    refused = decide(table, cmd.LeaveSeat(0), NOW)
    assert refused.error is not None and refused.error.code == "rated_table"


def test_leaving_an_unrated_table_hands_the_seat_to_the_bot_for_good() -> None:
    table = table_of(people=2)
    decisions = run(table, cmd.LeaveSeat(1))
    assert table.life is not None and table.life.left == [1]
    assert table.seats[1].bot_playing == "easy"
    assert decisions[0].writes[0] == e.StoreLife(table.life.to_dict())


def test_an_abandoned_table_tries_again_while_the_database_is_away() -> None:
    table = table_of(people=2)
    assert table.life is not None
    watch = object()
    table.life.abandon = watch   # type: ignore[assignment]
    assert decide(table, cmd.Abandon(object()), NOW).answer is True   # another watch's
    decision = decide(table, cmd.Abandon(watch), NOW)
    ends = [w for w in decision.writes if isinstance(w, e.StoreEnd)]
    assert ends[0].unavailable is False and ends[0].summary["abandoned"] is True
    assert ends[0].tally is not None


# -- rematch -------------------------------------------------------------------------------
def test_a_rematch_is_made_once_every_person_asked() -> None:
    table = table_of(people=2, status=OVER)
    first = run(table, cmd.OfferRematch(0))
    assert table.rematch_asked == {0} and first[-1].answer is None
    second = decide(table, cmd.OfferRematch(1), NOW)
    assert second.writes == (e.MakeRematch(),)
    seated = Connection(seat=1, outbox=Outbox(8))
    table.connections.add(seated)
    made = run(table, e.RematchMade("t2"))
    assert table.rematch == "t2" and made[0].answer == "t2"
    assert e.SendTo(seated, protocol.RematchOffer(
        type="rematch", table="t2", seat=1)) in made[0].sends


def test_a_rematch_is_refused_before_the_end_and_a_decline_withdraws_the_offer() -> None:
    table = table_of(people=2)
    early = decide(table, cmd.OfferRematch(0), NOW)
    assert early.error is not None and early.error.code == "rematch_not_over"
    table.status = OVER
    run(table, cmd.OfferRematch(0))
    declined = run(table, cmd.RefuseRematch(1))
    assert table.rematch_asked == set()
    assert e.SendAll(protocol.RematchDeclined(
        type="rematch_declined", seat=1)) in declined[0].sends


# -- chat ----------------------------------------------------------------------------------
def say(connection: Connection, text: str = "hi", **extra: Any) -> cmd.Say:
    return cmd.Say(connection, text, None, (2, 60.0), "2/minute", **extra)


def test_chat_lines_past_the_rate_are_refused_until_the_window_passes() -> None:
    table = table_of(people=2)
    player = Connection(seat=0, outbox=Outbox(8))
    table.connections.add(player)
    for _ in range(2):
        decision = run(table, say(player))[0]
        assert [type(w) for w in decision.writes] == [e.StoreChat]
    third = run(table, say(player))[0]
    assert third.writes == () and third.sends[0].message.code == "chat_rate_limited"  # type: ignore[union-attr]
    fourth = run(table, say(player), later(61))[0]
    assert [type(w) for w in fourth.writes] == [e.StoreChat]


def test_a_line_is_refused_when_chat_is_off_muted_or_a_spectator_is_anonymous() -> None:
    table = table_of(people=2)
    player = Connection(seat=1, outbox=Outbox(8))
    anonymous = Connection(seat=None, outbox=Outbox(8))
    codes = []
    codes.append(decide(table, say(anonymous), NOW).sends[0].message.code)  # type: ignore[union-attr]
    codes.append(run(table, say(player, muted=True))[0].sends[0].message.code)  # type: ignore[union-attr]
    not_creator = decide(table, cmd.SetChatOff(player, True), NOW)
    codes.append(not_creator.sends[0].message.code)  # type: ignore[union-attr]
    creator = Connection(seat=0, outbox=Outbox(8))
    run(table, cmd.SetChatOff(creator, True))
    assert table.chat.off
    codes.append(decide(table, say(player), NOW).sends[0].message.code)  # type: ignore[union-attr]
    assert codes == ["chat_accounts_only", "muted", "not_creator", "chat_off"]


def test_a_line_goes_to_its_room_once_its_connection_has_the_history() -> None:
    table = table_of(people=2)
    watcher = Connection(seat=None, outbox=Outbox(8), speaker="acc")
    old = protocol.ChatLine(type="chat", room="spectators", seat=None, name="spectator",
                            text="old", phrase=None, at=NOW.stamp)
    history = run(table, e.HistoryRead(watcher, (old,), False))
    assert history[0].sends == (e.SendTo(watcher, old),)
    assert watcher in table.chat.ready
    line = decide(table, say(watcher, "hello"), NOW)
    rooms = [s for s in line.sends if isinstance(s, e.SendRoom)]
    assert rooms[0].room == "spectators" and rooms[0].message.text == "hello"


# -- the relay's refusals and the house's reads --------------------------------------------
def test_a_refusal_for_one_connection_keeps_its_code_and_parameters() -> None:
    table = table_of()
    connection = Connection(seat=0, outbox=Outbox(8))
    refusal = decide(table, cmd.Play(0, 9, "x"), NOW).answer
    decision = decide(table, cmd.Refuse(connection, refusal), NOW)
    assert decision.sends == (e.SendRefusal(connection, str(refusal), "stale_version",
                                            (("version", 9), ("current", 0))),)


# -- deciding changes nothing --------------------------------------------------------------
CONNECTIONS = st.builds(lambda seat, speaker: Connection(seat=seat, outbox=Outbox(8),
                                                         speaker=speaker),
                        st.sampled_from([0, 1, None]), st.sampled_from([None, "acc"]))
COMMANDS = st.one_of(
    st.builds(cmd.Connect, CONNECTIONS, st.integers(0, 2)),
    st.builds(cmd.Disconnect, CONNECTIONS),
    st.builds(cmd.Say, CONNECTIONS, st.sampled_from(["hi", None]),
              st.sampled_from([None, "good_game"]), st.just((2, 60.0)), st.just("2/minute"),
              st.booleans(), st.booleans()),
    st.builds(cmd.SetChatOff, CONNECTIONS, st.booleans()),
    st.builds(cmd.Play, st.integers(0, 1), st.integers(0, 3), st.sampled_from(["x", "7C"])),
    st.builds(cmd.ResignSeat, st.integers(0, 1)),
    st.builds(cmd.LeaveSeat, st.integers(0, 1)),
    st.builds(cmd.TakeBack, st.sampled_from([0, 1, None])),
    st.builds(cmd.StartHint, st.sampled_from([0, 1, None])),
    st.builds(cmd.OfferRematch, st.sampled_from([0, 1, None])),
    st.builds(cmd.RefuseRematch, st.sampled_from([0, 1, None])),
    st.builds(cmd.TakeSeat, st.just("h"), st.none(), st.none(), st.none()),
    st.builds(cmd.GraceOver, st.integers(0, 1)),
    st.builds(cmd.TimeUp, st.tuples(st.integers(0, 3), st.integers(0, 1))),
    st.builds(cmd.TimedOut, st.tuples(st.integers(0, 3), st.integers(0, 1))),
    st.builds(cmd.Rename, st.sampled_from(["p0", "p1", "x"]), st.just("New")),
    st.builds(cmd.SignOff, st.sampled_from(["p0", "x"]), st.just("bye")),
    st.just(cmd.BotTurn()), st.just(cmd.Begin()), st.just(cmd.Describe()),
    st.just(e.After()),
)


@settings(max_examples=200, deadline=None)
@given(game=st.sampled_from(["durak", "pasur"]), seed=st.integers(0, 1000),
       moves=st.integers(0, 6), people=st.integers(1, 2),
       status=st.sampled_from([PLAYING, OVER]), clock=st.booleans(), rated=st.booleans(),
       command=COMMANDS, joined=st.booleans())
def test_deciding_any_command_changes_nothing(game: str, seed: int, moves: int, people: int,
                                              status: str, clock: bool, rated: bool,
                                              command: Any, joined: bool) -> None:
    table = table_of(game, seed, people=people, status=status, rated=rated,
                     clock={"move": 10, "bank": 30} if clock else None, takeover="easy")
    rng = random.Random(seed)
    for _ in range(moves):
        if table.state.is_over():
            break
        table.state.push(rng.choice(table.state.legal_moves()))
        table.version += 1
    if isinstance(command, cmd.Play) and not table.state.is_over():
        command = cmd.Play(table.state.to_move or 0, table.version,
                           str(rng.choice(table.state.legal_moves())))
    connection = getattr(command, "connection", None)
    if joined and connection is not None:   # a connection the table has, sent its history
        table.connections.add(connection)
        table.chat.ready |= {connection}
    before = snapshot(table)
    decision = decide(table, command, NOW)
    after = snapshot(table)
    if decision.writes and isinstance(decision.writes[0], e.StoreMove):
        assert after["moves"] == before["moves"] + 1   # left pushed, to be stored
        table.state.pop()
        after = snapshot(table)
    assert after == before
    assert decision.error is None or not (decision.writes or decision.changes)
