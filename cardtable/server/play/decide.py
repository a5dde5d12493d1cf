"""Deciding what a command does to a live table: ``decide(table, command, now)``.

``decide`` is a plain function: no I/O, no await, no clock but the ``now`` it is given, no
global.  It answers a ``Decision``: the answer (or the refusal raised), then what to do, in
the order the dealer does it: the rows to write, the changes to the table, the messages
to send and the timers to start or stop.  ``dealer.Dealer`` interprets it, in its own
task.  What a write comes to that the decision needs (a seat the database gave or not, the
summary as stored with its results counted) comes back as a further command (``Stored``,
``Ended``, ...), decided at once on the table as it is then; so does ``After``, the part of
a decision that reads the table once its changes are made (the clock of whoever is to move
now, the state everyone is sent).

One thing is done in place, for speed: a move that may be played is pushed on the game's
state as it is decided (``steps.move``), and the dealer pops it if it cannot be stored;
pushing a move twice a move cost a tenth of the server's time a move.
"""

from __future__ import annotations

import dataclasses
from typing import assert_never

from ..core import protocol
from ..core.codes import Refusal
from ..core.errors import Refused
from . import chat, steps
from . import commands as cmd
from .bot_runner import make_bot
from .lifecycle import DEFAULT_TAKEOVER, TIMEOUTS_TO_FORFEIT
from .live import OVER, PLAYING, WAITING, LiveTable
from .results import tally_of

__all__ = ["Decision", "Moment", "decide", "stop_graces"]


from .effects import (
    After,
    Broadcast,
    CloseSockets,
    Decision,
    Ended,
    Evict,
    FreeSeat,
    Further,
    Grace,
    HistoryRead,
    Hold,
    Join,
    Kick,
    LoadRatings,
    MakeRematch,
    MarkSeen,
    Moment,
    Note,
    Part,
    Plan,
    PopMoves,
    Reload,
    RematchMade,
    Seated,
    SeatFreed,
    SeatStored,
    SendAll,
    SendHistory,
    SendRefusal,
    SendState,
    SendTo,
    Set,
    StartClock,
    StopBots,
    StopClock,
    Stored,
    StoreEnd,
    StoreMove,
    StoreSeat,
    TakeBackRows,
    Timer,
    Watch,
)


def _refuse(error: Refused) -> Decision:
    return Decision(error=error)


# -- the decisions -------------------------------------------------------------------------
def decide(table: LiveTable, command: cmd.AnyCommand | Further, now: Moment) -> Decision:
    """What ``command`` does to ``table`` at ``now``; changes nothing (but a move it
    decides may be played, left pushed on the game's state)."""
    match command:
        case cmd.Play():
            return _play(table, command)
        case Stored():
            return _stored(table, command, now)
        case cmd.ResignSeat():
            try:
                return _end(table, steps.resigned(table, command.seat), "resign", now)
            except Refused as error:
                return _refuse(error)
        case cmd.LeaveSeat():
            return _leave(table, command, now)
        case cmd.Abandon():
            return _abandon(table, command, now)
        case Ended():
            return _ended(table, command)
        case cmd.TimeUp():
            return _time_up(table, command)
        case cmd.Checkpoint():
            plan = Plan(table)
            plan.store_life = (table.life is not None and table.life.correspondence
                               and not table.over)
            return plan.decision()
        case cmd.TimedOut():
            return _timed_out(table, command)
        case cmd.GraceOver():
            return _grace_over(table, command)
        case cmd.TakeBack():
            return _take_back(table, command)
        case cmd.StartHint():
            reason = steps.check_hint(table, command.seat)
            if reason is not None or command.seat is None:
                return Decision(answer=reason)
            plan = Plan(table)
            plan.set(command.seat, hinting=True)
            return plan.decision((table.state.copy(), table.version))
        case cmd.HintDone():
            return Decision(changes=(Set(command.seat, (("hinting", False),)),))
        case cmd.OfferRematch():
            return _offer_rematch(table, command)
        case RematchMade():
            return _rematch_made(table, command)
        case cmd.RefuseRematch():
            return _refuse_rematch(table, command)
        case cmd.Connect():
            return _connect(table, command)
        case cmd.Disconnect():
            return _disconnect(table, command)
        case HistoryRead():
            return chat.history_read(table, command)
        case cmd.TakeSeat():
            return _take_seat(table, command)
        case SeatStored():
            return _seat_stored(table, command)
        case Seated():
            return _seated(table, command)
        case cmd.SeatsRead():
            return _seats_read(table, command)
        case cmd.Unclaimed():
            return _unclaimed(table, command)
        case SeatFreed():
            return _seat_freed(table, command)
        case cmd.Rename():
            plan = Plan(table)
            for seat in steps.renamed_seats(table, command.player_id, command.becomes):
                plan.set(seat.index, name=command.name,
                         player_id=command.becomes or seat.player_id)
            return plan.decision(then=After(clock=False, kick=False))
        case cmd.SignOff():
            closing = table.closing(command.player_id)
            return Decision(answer=len(closing),
                            sends=(CloseSockets(command.reason, command.player_id),))
        case cmd.BotTurn():
            mover = table.bot_to_move()
            bot = None if mover is None else table.seats[mover].bot
            if mover is None or bot is None or steps.unattended(table):
                return Decision()   # a connection kicks them again
            return Decision(answer=cmd.BotPosition(
                mover, bot, table.seats[mover].bot_playing,
                table.state.copy(), table.version))
        case cmd.Say() | cmd.SetChatOff():
            return chat.decide(table, command, now)
        case cmd.Describe():
            return Decision(answer=table.describe())
        case cmd.RecordOf(why=why):
            if not table.over:
                return _refuse(Refused(f"the game is not over yet: {why}", 409, "not_over"))
            return Decision(answer=table.record())
        case cmd.Position():
            return Decision(answer=(table.version, table.state.copy(), table.takeovers))
        case cmd.Settle():
            return Decision()
        case cmd.Begin():
            if table.over:
                return Decision()
            return Decision(then=After(presence=True, broadcast=False, hold=True,
                                       graces=True, ratings=True))
        case cmd.Close():
            plan = Plan(table)
            if table.life is not None:
                plan.set("life", turn=None)
            plan.sends.append(CloseSockets(command.reason))
            plan.timers.extend((StopBots(), *stop_graces(table), StopClock(watch=True)))
            return plan.decision()
        case cmd.RatingsRead():
            return _ratings_read(table, command)
        case cmd.Counted():
            return Decision(changes=(Set("table", (("summary", {
                **(table.summary or {}), **dict(command.added)}),)),), sends=(Broadcast(),))
        case cmd.Refuse():
            said = command.reason
            code, params = command.code, dict(command.params)
            if isinstance(said, Refusal):
                code = code or said.code
                params = {**said.params, **params}
            return Decision(sends=(SendRefusal(command.connection, str(said), code,
                                               tuple(params.items())),))
        case After():
            return _after(table, command, now)
        case _:
            assert_never(command)


# -- moves ---------------------------------------------------------------------------------
def _play(table: LiveTable, command: cmd.Play) -> Decision:
    reason = table.refusal(command.seat, command.version, command.by_bot)
    if reason:
        return Decision(answer=reason)
    try:
        step = steps.move(table, command.seat, table.version, command.text)
    except steps.EngineFailed as failed:
        return Decision(answer=failed.refusal, writes=(Reload(),), sends=(Note(
            f"table {table.id}: the engine failed on {command.text!r}: "
            f"{failed.__cause__!r}", "error"),))
    if not isinstance(step, steps.Played):
        return Decision(answer=step)
    takeover = ((command.by_bot or command.timed_out)
                and table.seats[step.seat].kind == "human")
    return Decision(writes=(StoreMove(step, takeover, command.by_bot),))


def _stored(table: LiveTable, command: Stored, now: Moment) -> Decision:
    """The move is stored: the table takes it, the seat's clock stops and the next one
    starts, everyone is sent the state."""
    step, plan = command.step, Plan(table)
    values: dict[str, object] = {
        "last_move": steps.played(step.version, step.seat, step.text, command.takeover),
        "takeovers": steps.takeovers_to(table.takeovers, step.version, command.takeover),
        "version": table.version + 1, "decks_stored": step.decks}
    if step.over:
        added = step.tally.added if step.tally else {}
        values.update(status=OVER, finished=command.at,
                      summary={**(step.summary or {}), **added})
        plan.timers.extend(stop_graces(table))
    plan.set("table", **values)
    life = table.life
    if life is not None:
        bank = steps.spent(life, step.seat, step.version, now.time)
        if bank is not None:
            banks = list(life.banks)
            banks[step.seat] = bank
            plan.set("life", banks=banks)
            plan.store_life = True
        if life.timing_out == (step.version, step.seat):
            plan.set("life", timing_out=None)
        elif (life.clocked and life.timeouts[step.seat]
              and not table.seats[step.seat].played_by_bot):
            timeouts = list(life.timeouts)
            timeouts[step.seat] = 0   # the player moved in time: the run of timeouts ends
            plan.set("life", timeouts=timeouts)
            plan.store_life = True
        plan.set("life", turn=None)
        plan.timers.append(StopClock(watch=step.over))
    return plan.decision(then=After(clock=not step.over, kick=not step.over,
                                    evict=step.over))


def _take_back(table: LiveTable, command: cmd.TakeBack) -> Decision:
    count = steps.undo(table, command.seat)
    if isinstance(count, Refusal):
        return Decision(answer=count)
    keep = table.version - count
    takeovers = steps.takeovers_to(table.takeovers, keep)
    trial = table.state.copy()
    for _ in range(count):
        trial.pop()
    last = None
    if keep:
        move = trial.pop()
        last = steps.played(keep - 1, trial.to_move, str(move), keep - 1 in takeovers)
    plan = Plan(table)
    plan.writes.append(TakeBackRows(keep))
    plan.changes.append(PopMoves(count))
    plan.set("table", version=keep, takeovers=takeovers, last_move=last)
    return plan.decision(then=After(clock=False, kick=False))


# -- the end without a move ----------------------------------------------------------------
def _end(table: LiveTable, summary: dict[str, object], why: str, now: Moment,
         unavailable: bool | None = None) -> Decision:
    """End the game now, without a move: stored with its results counted (one
    transaction), then told (``Ended``)."""
    plan = Plan(table)
    plan.store_life = table.life is not None
    plan.writes.append(StoreEnd(why, table.status, now.stamp, summary,
                                tally_of(table, summary), unavailable))
    return plan.decision()


def _ended(table: LiveTable, command: Ended) -> Decision:
    if command.stored is None:
        if command.why == "abandon":
            return Decision(answer=True)
        return _refuse(Refused("the table changed meanwhile; look again", 409,
                                  "conflict"))
    plan = Plan(table)
    plan.set("table", status=OVER, finished=command.finished, summary=command.stored)
    if table.life is not None:
        plan.set("life", turn=None)
    plan.timers.extend((StopClock(watch=True), *stop_graces(table), StopBots()))
    plan.sends.append(Broadcast())
    if command.why == "abandon":   # counted with its end, unrated
        plan.sends.append(Note(f"table {table.id}: nobody came back; it ends as abandoned"))
        plan.timers.append(Evict())
        return plan.decision(True)
    return plan.decision(command.stored)


def _leave(table: LiveTable, command: cmd.LeaveSeat, now: Moment) -> Decision:
    try:
        steps.check_leave(table, command.seat)
    except Refused as error:
        return _refuse(error)
    if steps.aborts(table, command.seat):   # a rated game's abort window
        return _end(table, steps.aborted(table, command.seat), "leave", now)
    assert table.life is not None
    plan = Plan(table)
    plan.set("life", left=[*table.life.left, command.seat])
    plan.set(command.seat, **_bot_for_good(table))
    plan.store_life = True
    return plan.decision(then=After())


def _abandon(table: LiveTable, command: cmd.Abandon, now: Moment) -> Decision:
    life = table.life
    if life is None or life.abandon is not command.timer or table.over:
        return Decision(answer=True)
    ending = _end(table, steps.abandoned(table), "abandon", now, unavailable=False)
    # this watch ends here once the end is stored (the database away: it tries again)
    return dataclasses.replace(ending, changes=(*ending.changes,
                                                Set("life", (("abandon", None),))))


def _bot_for_good(table: LiveTable) -> dict[str, object]:
    spec = table.takeover or DEFAULT_TAKEOVER
    return {"bot": make_bot(spec), "bot_playing": spec}


def _forfeit(plan: Plan, table: LiveTable, seat: int, why: str) -> bool:
    """The seat is lost for ratings and the takeover bot plays it to the end."""
    life = table.life
    assert life is not None
    if table.over or life.gone(seat):
        return False
    plan.set("life", forfeits=[*plan.forfeits_now(), seat])
    plan.set(seat, **_bot_for_good(table))
    plan.sends.append(Note(f"table {table.id}: seat {seat} forfeits: {why}"))
    plan.store_life = True
    return True


# -- the clock -----------------------------------------------------------------------------
def _time_up(table: LiveTable, command: cmd.TimeUp) -> Decision:
    life = table.life
    version, seat = command.turn
    if (life is None or life.turn != command.turn or table.version != version
            or table.status != PLAYING or table.seats[seat].played_by_bot):
        return Decision()
    banks, timeouts = list(life.banks), list(life.timeouts)
    banks[seat] = 0.0
    timeouts[seat] += 1
    plan = Plan(table)
    plan.set("life", timer=None, banks=banks, timeouts=timeouts, timing_out=command.turn)
    spec = table.takeover or DEFAULT_TAKEOVER
    plan.sends.append(Note(f"table {table.id}: seat {seat} ran out of time "
                           f"({timeouts[seat]} in a row); {spec} plays for it"))
    return plan.decision(cmd.Takeover(make_bot(spec), spec, table.state.copy()))


def _timed_out(table: LiveTable, command: cmd.TimedOut) -> Decision:
    life = table.life
    assert life is not None
    seat = command.turn[1]
    plan = Plan(table)
    if life.timing_out == command.turn:
        plan.set("life", timing_out=None)
    forfeited = (life.timeouts[seat] >= TIMEOUTS_TO_FORFEIT and not life.gone(seat)
                 and _forfeit(plan, table, seat,
                              f"ran out of time {TIMEOUTS_TO_FORFEIT} times in a row"))
    return plan.decision(then=After(clock=forfeited, broadcast=forfeited))


def _grace_over(table: LiveTable, command: cmd.GraceOver) -> Decision:
    seat = table.seats[command.seat]
    plan = Plan(table)
    plan.set(seat.index, grace_task=None)
    if seat.connections or table.over or not table.takeover or seat.bot is not None:
        return plan.decision()
    plan.set(seat.index, bot=make_bot(table.takeover), bot_playing=table.takeover)
    plan.sends.append(Note(f"table {table.id}: {table.takeover} takes over seat {seat.index}"))
    life = table.life
    forfeited = (life is not None and life.clocked and seat.kind == "human"
                 and _forfeit(plan, table, seat.index, "stayed away past the grace period"))
    return plan.decision(then=After(clock=forfeited))


def _after(table: LiveTable, command: After, now: Moment) -> Decision:
    plan = Plan(table)
    if command.clock:
        _arm(plan, table, now)
    if command.presence:
        _presence(plan, table)
    if command.graces:
        plan.timers.extend(_start_graces(table))
    if command.hold and not table.over:
        plan.timers.extend(Hold(seat.index, True, seat.token_hash) for seat in table.seats
                           if seat.kind == "human" and seat.token_hash is not None
                           and not seat.seen and seat.claim_task is None)
    if command.ratings:
        plan.timers.append(LoadRatings())
    if command.broadcast:
        plan.sends.append(Broadcast())
    if command.history is not None:
        plan.sends.append(SendHistory(command.history))
    if command.kick:
        plan.timers.append(Kick())
    if command.evict:
        plan.timers.append(Evict())
    return plan.decision(command.answer)


def _arm(plan: Plan, table: LiveTable, now: Moment) -> None:
    """Start the clock of the seat to move if it is a person's turn (a bot's turn has
    no clock)."""
    life = table.life
    if life is None or not life.clocked:
        return
    seat = table.state.to_move
    running = (table.status == PLAYING and seat is not None
               and not table.seats[seat].played_by_bot)
    turn = (table.version, seat) if running and seat is not None else None
    if turn == life.turn and (turn is None or life.timer is not None):
        return
    plan.timers.append(StopClock())
    plan.set("life", turn=turn)
    if turn is None:
        return
    spent = 0.0
    if life.carried is not None:   # a correspondence turn a process before this one ran
        if life.carried[0] == turn:
            spent = life.carried[1]
        plan.set("life", carried=None)
    plan.set("life", started=now.time - spent)
    assert life.move is not None
    plan.timers.append(StartClock(turn, max(0.0, life.move + life.banks[turn[1]] - spent)))


def _presence(plan: Plan, table: LiveTable) -> None:
    """With no seated person connected the abandonment watch runs; with one, it stops (a
    table of bots alone lives while someone watches it)."""
    life = table.life
    if life is None or (life.correspondence and life.abandon is None):
        return   # days a move: its players come and go, the table waits for them
    people = [seat for seat in table.seats if seat.kind == "human"]
    here = any(seat.connections for seat in people) if people else bool(table.connections)
    if here or table.over:
        if life.abandon is not None:
            plan.timers.append(Watch(False))
    elif life.abandon is None:
        plan.timers.append(Watch(True))


def _start_graces(table: LiveTable) -> list[Timer]:
    """A game with a takeover bot starts: each person not here yet has the grace period
    to connect, or the bot plays for them."""
    if not (table.takeover and table.status == PLAYING) or _waits(table):
        return []
    return [Grace(seat.index, True) for seat in table.seats
            if seat.kind == "human" and seat.connections == 0]


def _waits(table: LiveTable) -> bool:
    """A table with days a move: nobody's absence hands their seat to a bot."""
    return table.life is not None and table.life.correspondence


def stop_graces(table: LiveTable) -> list[Timer]:
    return [Grace(seat.index, False) for seat in table.seats if seat.grace_task is not None]


# -- seats ---------------------------------------------------------------------------------
def _take_seat(table: LiveTable, command: cmd.TakeSeat) -> Decision:
    if table.over:
        return _refuse(Refused("this game is over: there is no seat to take", 409,
                                  "game_over"))
    free = table.free_seats()
    if not free:
        return _refuse(Refused("every seat at this table is taken; you can still watch",
                                  409, "table_full"))
    return Decision(writes=(StoreSeat(free[0].index, command.token_hash, command.name,
                                      command.player_id, command.player_kind),))


def _seat_stored(table: LiveTable, command: SeatStored) -> Decision:
    if not command.taken:
        return _refuse(Refused("that seat was just taken by someone else; try again", 409,
                                  "seat_taken"))
    store = command.store
    plan = Plan(table)
    plan.set(store.seat, token_hash=store.token_hash, name=store.name,
             player_id=store.player_id, player_kind=store.player_kind, seen=False)
    return plan.decision(then=Seated(store.seat))


def _seats_read(table: LiveTable, command: cmd.SeatsRead) -> Decision:
    plan = Plan(table)
    for row in command.rows:
        seat = table.seats[row.seat]
        anew = seat.token_hash != row.token_hash
        plan.set(row.seat, token_hash=row.token_hash, name=row.name, player_id=row.player_id,
                 player_kind=row.player_kind,
                 seen=row.seen is not None or (seat.seen and not anew))
    return plan.decision(then=Seated())


def _seated(table: LiveTable, command: Seated) -> Decision:
    """Once every seat is taken the game starts (the database started it with the last
    seat); everyone is sent the new seats, and a seat nobody connects to is held only so
    long."""
    plan = Plan(table)
    starts = table.status == WAITING and not table.free_seats()
    if starts:
        plan.set("table", status=PLAYING)
    return plan.decision(then=After(command.answer, clock=starts, graces=starts, hold=True,
                                    ratings=True))


def _unclaimed(table: LiveTable, command: cmd.Unclaimed) -> Decision:
    seat = table.seats[command.seat]
    if (seat.claim_task is not command.timer or seat.seen or seat.connections
            or seat.token_hash != command.token_hash or table.over):
        return Decision(answer=True)
    return Decision(writes=(FreeSeat(seat.index, command.token_hash),))


def _seat_freed(table: LiveTable, command: SeatFreed) -> Decision:
    plan = Plan(table)
    plan.set(command.seat, claim_task=None)
    if not command.freed:   # seen or taken anew through another process meanwhile
        return plan.decision(True)
    plan.set(command.seat, token_hash=None, name=None, player_id=None, player_kind=None)
    plan.sends.extend((Note(f"table {table.id}: seat {command.seat} was taken but never "
                            "connected to; it is free again"), Broadcast()))
    return plan.decision(True)


def _connect(table: LiveTable, command: cmd.Connect) -> Decision:
    connection = command.connection
    if connection.seat is None:   # a watcher: nothing at the table changes
        limit = command.watchers
        watching = sum(1 for other in table.connections if other.seat is None)
        if limit and watching >= limit:
            return _refuse(Refused(
                f"this table has as many watchers as it takes ({limit}); try again later",
                429, "too_many_watchers", params={"limit": limit}))
        return Decision(changes=(Join(connection),), sends=(SendState(connection),),
                        then=After(clock=False, presence=True, broadcast=False, kick=False,
                                   history=connection))
    seat = table.seats[connection.seat]
    if ((connection.token_hash is not None and seat.token_hash != connection.token_hash)
            or (connection.owner is not None and seat.player_id != connection.owner)):
        # freed (never claimed) or taken anew since the socket found it
        return _refuse(Refused("this token holds no seat at this table any more (it was "
                               "freed, never connected to): join again or watch", 403,
                               "no_seat"))
    plan = Plan(table)
    plan.changes.append(Join(connection))
    plan.set(seat.index, connections=seat.connections + 1)
    if seat.grace_task is not None:
        plan.timers.append(Grace(seat.index, False))
    if seat.claim_task is not None:
        plan.timers.append(Hold(seat.index, False))
    if seat.kind == "human" and not seat.seen:
        plan.set(seat.index, seen=True)   # its token arrived: the seat is claimed for good
        plan.writes.append(MarkSeen(seat.index))
    if (seat.kind == "human" and seat.bot is not None
            and not (table.life and table.life.gone(seat.index))):
        plan.set(seat.index, bot=None, bot_playing=None)   # the player is back
    return plan.decision(then=After(presence=True, history=connection))


def _disconnect(table: LiveTable, command: cmd.Disconnect) -> Decision:
    """A connection never added (its ``connect`` cut short) changes nothing."""
    connection = command.connection
    if connection not in table.connections:
        return Decision()
    plan = Plan(table)
    plan.changes.append(Part(connection))
    chat = table.chat
    plan.set("chat", ready=chat.ready - {connection},
             sent={other: times for other, times in chat.sent.items() if other is not connection})
    if connection.seat is not None:
        seat = table.seats[connection.seat]
        plan.set(seat.index, connections=seat.connections - 1)
        if seat.connections == 1 and table.takeover and not table.over and not _waits(table):
            plan.timers.append(Grace(seat.index, True))
    # a watcher going changes nothing anyone sees
    return plan.decision(then=After(clock=False, presence=True, kick=False, evict=True,
                                    broadcast=connection.seat is not None))


def _ratings_read(table: LiveTable, command: cmd.RatingsRead) -> Decision:
    life = table.life
    if life is None:
        return Decision()
    found = dict(command.found)
    ratings = dict(life.ratings)
    # two reads may cross (the table made, then a seat taken): keep what each found for
    # the seats that still hold the same player
    for index, player in command.wanted:
        if table.seats[index].player_id == player:
            ratings[index] = found[player]
    return Decision(changes=(Set("life", (("ratings", ratings),)),), sends=(Broadcast(),))


# -- rematch -------------------------------------------------------------------------------
def _offer_rematch(table: LiveTable, command: cmd.OfferRematch) -> Decision:
    """An offer or its acceptance: made once every person's seat has asked."""
    try:
        steps.check_rematch(table, command.seat)
    except Refused as error:
        return _refuse(error)
    if table.rematch is not None:
        return _rematch_made(table, RematchMade(table.rematch))
    asked = set(table.rematch_asked)
    if command.seat is not None:
        asked.add(command.seat)
    plan = Plan(table)
    plan.set("table", rematch_asked=asked)
    if any(s.kind == "human" and s.index not in asked for s in table.seats):
        # the offer: the others may accept or decline
        return plan.decision(then=After(clock=False, kick=False))
    plan.writes.append(MakeRematch())
    return plan.decision()


def _rematch_made(table: LiveTable, command: RematchMade) -> Decision:
    plan = Plan(table)
    plan.set("table", rematch=command.table_id)
    plan.sends.extend(SendTo(connection, protocol.RematchOffer(
        type="rematch", table=command.table_id, seat=connection.seat))
        for connection in table.connections)
    plan.sends.append(Broadcast())
    return plan.decision(command.table_id)


def _refuse_rematch(table: LiveTable, command: cmd.RefuseRematch) -> Decision:
    """No to the offer: withdrawn (a made rematch stays)."""
    try:
        steps.check_rematch(table, command.seat)
    except Refused as error:
        return _refuse(error)
    if command.seat is None or table.rematch is not None or not table.rematch_asked:
        return Decision()
    return Decision(changes=(Set("table", (("rematch_asked", set()),)),), sends=(
        SendAll(protocol.RematchDeclined(type="rematch_declined",
                                                             seat=command.seat)),
        Broadcast()))
