"""Tournaments under load, in one process: an arena of many players, and a swiss.

**Arena** (``--arena-players``, 200 by default, two-player Durak, ``--seconds`` long): the
server's own tables, storage (SQLite in a fresh folder, or ``--database-url``) and
tournament director run in this process, with the director's production step
(``play.tournaments.TICK``).  Every entrant is simulated here: at each of their tables,
the moment it is their turn they play a random legal move (through ``Tables.play``, as a
socket's move is played; ``--pace``: after that many seconds), so games end as fast as
the server plays them (``moves_per_s``).  It measures:

- ``pair_p50_ms``, ``pair_p99_ms``: from the moment a player's game ended (its last move
  played) to their next table made, for every player seated again; ``first_step_p99_ms``
  the same for those seated by the step that scored their game (``first_step_seated`` of
  them): the others were left waiting by the pairing's rules (the only players free had
  just played each other, and someone else was still playing);
- ``standings_p99_ms``: from a game's end to its points in the standings (the
  transaction that scores it committed);
- ``pairing_cpu_us``: CPU time of one arena pairing call (``core.pairing.pair_arena`` over
  every waiting player), mean, and ``decide_cpu_ms``: CPU time of a step's decision (the
  pairing and the tables dealt, in the store's thread), a table;
- ``step_p50_ms``, ``step_p99_ms``: a director's step's transaction (``store.step``: read,
  score, decide, store the tables), timed in its thread (``steps`` of them), and the
  statements it sent, a mean: ``statements_busy_step`` for a step that scored or seated,
  ``statements_quiet_step`` for one that did neither;
- ``move_p50_ms``, ``move_p99_ms``: a simulated player's move from asking to played (the
  same run's peer: how loaded the process and the machine were);
- ``games``, ``tables_made``;
- with ``--readers N``: N pages reading the tournament as the site's page does
  (``GET /api/tournaments/{id}``'s answer made as its route makes it, every
  ``--read-every`` seconds each, from a random start): ``reads``, ``read_p50_ms``,
  ``read_p99_ms`` (the answer's JSON made, from asking).

**Swiss** (``--swiss-players``, 64, tables of ``--swiss-size`` 4, ``--rounds`` 7): each
round paired by ``core.pairing.pair_swiss`` from random results (``round_ms``: its time;
``repeats``: pairs seated together again, 0 means none was), and with ``--swiss-play`` the
whole swiss played through the director like the arena (``round_paired_ms``: from a
round's last game's end to the next round's last table made, each round).

    nice python benchmarks/tournament.py --seconds 30 --json out.json
    nice python benchmarks/tournament.py --arena-players 0 --swiss-play

Every figure is a wall or CPU time on this machine under whatever else runs: read them
beside ``uptime``'s load average, which the report prints.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event, select

from cardtable.server.core import pairing
from cardtable.server.core.settings import ServerSettings
from cardtable.server.people.notices import Notices
from cardtable.server.play import tournaments as directing
from cardtable.server.play.tables import Tables
from cardtable.server.store.players import PlayerStore
from cardtable.server.store.social import SocialStore
from cardtable.server.store.stamps import stamp
from cardtable.server.store.storage import Storage, sqlite_url
from cardtable.server.store.tournaments import (
    RUNNING,
    SCORED,
    UPCOMING,
    EntrantRow,
    GameRow,
    TournamentRow,
    TournamentStore,
    new_tournament_id,
)
from cardtable.server.web import tournaments_api


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Run:
    """One run's server parts in this process, and what it measured."""

    def __init__(self, data: Path, database_url: str | None, pace: float = 0.0,
                 inbox: bool = True) -> None:
        self.pace = pace
        self.moves = 0
        self.move_ms: list[float] = []
        self.storage = Storage(database_url or sqlite_url(data))
        self.storage.migrate()
        settings = ServerSettings(data_dir=data, bot_delay=0, grace=600,
                                  abandon_after=3600)
        self.tables = Tables(self.storage, settings)
        if inbox:   # as the app has it: each player seated gets a "paired" notice
            self.tables.notices = Notices(SocialStore(self.storage))
        self.store = TournamentStore(self.storage)
        self.director = directing.Director(self.tables, self.store)
        self.ended: dict[str, float] = {}     # player: when their last game ended
        self.table_end: dict[str, float] = {}
        self.made_at: dict[str, float] = {}
        self.ended_at: dict[str, float] = {}
        self.pair_ms: list[float] = []
        self.first_ms: list[float] = []   # seated by the step that found them free
        self.passed: set[str] = set()     # found free by a step that did not seat them
        self.standings_ms: list[float] = []
        self.ends: list[float] = []        # every game's end, in order
        self.rule_ms: list[float] = []     # the waits of those the rule left waiting,
        self.gap_ms: list[float] = []      # of them until another game ended,
        self.beyond_ms: list[float] = []   # and from that end to their table
        self.pairing_cpu: list[float] = []
        self.step_ms: list[float] = []    # a step's transaction, from its thread
        self.deal_cpu: list[float] = []
        self.tables_made = 0
        self.games = 0
        self.read_ms: list[float] = []
        self.pages = (tournaments_api.Pages(self.director)
                      if hasattr(tournaments_api, "Pages") else None)
        self.busy_statements: list[int] = []    # a step's statements: one that scored
        self.quiet_statements: list[int] = []   # or seated, one that did neither
        self.rng = random.Random(7)
        self._instrument()

    def _instrument(self) -> None:
        """Time the director's parts by wrapping them (this benchmark only)."""
        run, seating = self, self.tables.seating
        beginning = seating.begin

        async def open_table(dealt: Any) -> Any:
            table = await beginning(dealt)   # a table stored starts: made
            plan = dealt.plan
            at = time.monotonic()
            run.tables_made += 1
            run.made_at[table.id] = at
            for seat in plan.seats:
                if seat.player_id in run.ended:
                    waited = 1000 * (at - run.ended.pop(seat.player_id))
                    run.pair_ms.append(waited)
                    if seat.player_id in run.passed:   # a step found them free, seated
                        run.passed.discard(seat.player_id)   # nobody: the pairing's rule
                        run.rule_wait(waited, at)
                    else:
                        run.first_ms.append(waited)
            self.tables.spawn(run.play(table, {i for i, s in enumerate(plan.seats)
                                               if s.player_id}))
            return table

        seating.begin = open_table   # type: ignore[method-assign]
        stepping = self.store.step
        counting = threading.local()

        def count(*_: Any) -> None:
            if getattr(counting, "sent", None) is not None:
                counting.sent += 1

        event.listen(self.storage.engine, "before_cursor_execute", count)

        def step(*args: Any, **kwargs: Any) -> Any:
            began = time.monotonic()
            counting.sent = 0
            try:
                found, seated = stepping(*args, **kwargs)   # the step scores what ended
            finally:
                sent, counting.sent = counting.sent, None
            at = time.monotonic()
            run.step_ms.append(1000 * (at - began))
            if found is not None and (found.scored or seated is not None):
                run.busy_statements.append(sent)
            else:
                run.quiet_statements.append(sent)
            for table_id in [] if found is None else found.scored:
                if table_id in run.table_end:
                    run.standings_ms.append(1000 * (at - run.table_end.pop(table_id)))
            return found, seated

        self.store.step = step   # type: ignore[method-assign]
        pair_arena = pairing.pair_arena

        def timed_pair(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            found = pair_arena(*args, **kwargs)
            run.pairing_cpu.append(time.thread_time() - started)
            return found

        directing.pair_arena = timed_pair   # type: ignore[assignment]
        pair_groups = self.director._pair_arena

        def noted_pair(t: Any, at: Any, apart: Any) -> Any:
            groups = pair_groups(t, at, apart)   # who was free and left waiting
            seated = {p for group in groups for p in group if p}
            run.passed.update(e.player_id for e in t.entrants if e.busy is None
                              and not e.paused and not e.withdrawn
                              and e.player_id not in seated)
            return groups

        self.director._pair_arena = noted_pair   # type: ignore[method-assign]
        decide = self.director._decide

        def timed_decide(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()   # the store's thread: pair and deal
            seated = decide(*args, **kwargs)
            if seated is not None and seated.dealt:
                self.deal_cpu.append((time.thread_time() - started) / len(seated.dealt))
            return seated

        self.director._decide = timed_decide   # type: ignore[method-assign]

    def rule_wait(self, waited: float, at: float) -> None:
        """A player the pairing's rule left waiting (only players who had just met were
        free): their wait, split at the next end of a game elsewhere (someone new free)."""
        ended = at - waited / 1000
        later = [t for t in self.ends[bisect.bisect_right(self.ends, ended):] if t <= at]
        self.rule_ms.append(waited)
        if later:
            self.gap_ms.append(1000 * (later[0] - ended))
            self.beyond_ms.append(1000 * (at - later[0]))

    async def play(self, table: Any, people: set[int]) -> None:
        """The simulated entrants at a table: each plays a random legal move the moment
        it is their turn; the bots (if any) play for themselves."""
        while True:
            version, state, _ = await self.tables.position(table)
            if state.is_over() or table.over:
                break
            seat = state.to_move
            if seat not in people:
                await asyncio.sleep(0.002)
                continue
            if self.pace:
                await asyncio.sleep(self.pace)
            move = self.rng.choice(state.legal_moves())
            started = time.monotonic()
            if not await self.tables.play(table, seat, version, str(move)):
                self.moves += 1
                self.move_ms.append(1000 * (time.monotonic() - started))
        at = time.monotonic()
        self.games += 1
        self.ends.append(at)
        self.table_end[table.id] = at
        self.ended_at[table.id] = at
        for seat in people:
            player = table.seats[seat].player_id
            if player is not None:
                self.ended[player] = at

    async def reader(self, tournament_id: str, every: float, seed: int) -> None:
        """A page reading the tournament every ``every`` seconds, as the site's does: its
        answer made as ``GET /api/tournaments/{id}`` makes it (the route's own code; its
        JSON as the app sends it)."""
        rng = random.Random(seed)
        await asyncio.sleep(rng.uniform(0, every))
        pages = self.pages   # the app's one, shared by every reader
        while True:
            started = time.monotonic()
            if pages is not None:
                body = await pages.page(tournament_id)
            else:   # the route before its pages were kept
                body = (await tournaments_api._info(self.store, tournament_id)
                        ).model_dump_json().encode()
            assert body
            self.read_ms.append(1000 * (time.monotonic() - started))
            await asyncio.sleep(every)

    async def entrants(self, count: int, prefix: str) -> list[str]:
        players = PlayerStore(self.storage)
        made = []
        for i in range(count):
            made.append((await asyncio.to_thread(
                players.register, None, f"{prefix}{i}", "x")).id)
        return made

    async def tournament(self, kind: str, players: list[str], size: int,
                         minutes: int | None = None, rounds: int | None = None,
                         history: int = 0) -> str:
        row = TournamentRow(id=new_tournament_id(), name=f"bench {kind}", organiser=players[0],
                            game="durak", preset=None, options={}, kind=kind,
                            minutes=minutes, rounds=rounds, players=size,
                            clock={"move": 600, "bank": 600}, rated=0, bots=None,
                            status=UPCOMING, created=stamp(), starts=None, round=0)
        await asyncio.to_thread(self.store.create, row, 10)
        for player in players:
            await asyncio.to_thread(self.store.join, row.id, player, player, 1500, 1000)
        if history:
            await asyncio.to_thread(self.past, row.id, players, size, history)
        await self.director.start_now(row.id, by=None)
        return row.id

    def past(self, tournament_id: str, players: list[str], size: int, games: int) -> None:
        """A long tournament's history before it starts: ``games`` tables scored, and every
        entrant having met every other (the longest ``met`` an entrant can have)."""
        with self.storage.writing() as session:
            at = stamp()
            session.add_all(GameRow(
                table_id=f"old{i}", tournament_id=tournament_id, round=0,
                players=self.rng.sample(players, size), status=SCORED, results={},
                created=at) for i in range(games))
            for entrant in session.scalars(select(EntrantRow).where(
                    EntrantRow.tournament_id == tournament_id)):
                entrant.met = sorted(p for p in players if p != entrant.player_id)


async def arena(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    run = Run(data, args.database_url, args.pace, not args.no_inbox)
    asyncio.get_running_loop().set_default_executor(run.storage.executor)   # as the app
    await run.tables.start()
    players = await run.entrants(args.arena_players, "a")
    tournament = await run.tournament("arena", players, 2, minutes=max(5, args.seconds),
                                      history=args.history)
    run.director.start()
    for i in range(args.readers):
        run.tables.spawn(run.reader(tournament, args.read_every, i))
    await asyncio.sleep(args.seconds)
    moves = run.moves
    standing = await asyncio.to_thread(run.store.load, tournament)
    await run.tables.stop()
    run.storage.close()
    assert standing is not None and standing.row.status == RUNNING
    return {"players": args.arena_players, "seconds": args.seconds, "pace": args.pace,
            "moves_per_s": round(moves / args.seconds, 1),
            "move_p50_ms": round(percentile(run.move_ms, 0.5), 1),
            "move_p99_ms": round(percentile(run.move_ms, 0.99), 1), "games": run.games,
            "tables_made": run.tables_made, "seated_again": len(run.pair_ms),
            "pair_p50_ms": round(percentile(run.pair_ms, 0.5), 1),
            "pair_p99_ms": round(percentile(run.pair_ms, 0.99), 1),
            "first_step_seated": len(run.first_ms),
            "first_step_p99_ms": round(percentile(run.first_ms, 0.99), 1),
            "rule_waited": len(run.rule_ms),
            "rule_wait_p50_ms": round(percentile(run.rule_ms, 0.5), 1),
            "rule_wait_p99_ms": round(percentile(run.rule_ms, 0.99), 1),
            "rule_next_end_p50_ms": round(percentile(run.gap_ms, 0.5), 1),
            "rule_next_end_p99_ms": round(percentile(run.gap_ms, 0.99), 1),
            "rule_after_next_end_p99_ms": round(percentile(run.beyond_ms, 0.99), 1),
            "standings_p50_ms": round(percentile(run.standings_ms, 0.5), 1),
            "standings_p99_ms": round(percentile(run.standings_ms, 0.99), 1),
            "steps": len(run.step_ms),
            "step_p50_ms": round(percentile(run.step_ms, 0.5), 1),
            "step_p99_ms": round(percentile(run.step_ms, 0.99), 1),
            "pairing_calls": len(run.pairing_cpu),
            "pairing_cpu_us": round(1e6 * statistics.fmean(run.pairing_cpu), 1)
            if run.pairing_cpu else None,
            "decide_cpu_ms": round(1e3 * statistics.fmean(run.deal_cpu), 2)
            if run.deal_cpu else None,
            "statements_busy_step": round(statistics.fmean(run.busy_statements), 2)
            if run.busy_statements else None,
            "statements_quiet_step": round(statistics.fmean(run.quiet_statements), 2)
            if run.quiet_statements else None,
            "reads": len(run.read_ms),
            "read_p50_ms": round(percentile(run.read_ms, 0.5), 1),
            "read_p99_ms": round(percentile(run.read_ms, 0.99), 1),
            "points": sum(e.points for e in standing.entrants)}


def swiss_pairing(players: int, size: int, rounds: int, seed: int) -> dict[str, Any]:
    """The swiss's pairing alone, with random results: time a round and repeats."""
    rng = random.Random(seed)
    met: dict[str, set[str]] = {f"p{i}": set() for i in range(players)}
    score = dict.fromkeys(met, 0)
    byes = dict.fromkeys(met, 0)
    times, again = [], 0
    for _ in range(rounds):
        field = [pairing.SwissPlayer(p, score[p], 1500 + rng.randrange(-200, 200),
                                     frozenset(met[p]), byes[p]) for p in met]
        started = time.perf_counter()
        paired = pairing.pair_swiss(field, size)
        times.append(time.perf_counter() - started)
        again += pairing.repeats(paired.tables, {p: frozenset(m) for p, m in met.items()})
        for table in paired.tables:
            durak = rng.choice(table)
            for p in table:
                score[p] += 0 if p == durak else 2
                met[p].update(set(table) - {p})
        for p in paired.byes:
            byes[p] += 1
            score[p] += 2
    return {"round_ms_max": round(1000 * max(times), 1),
            "round_ms_mean": round(1000 * statistics.fmean(times), 1), "repeats": again}


async def swiss_played(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    """A whole swiss through the director: rounds timed from the last game scored to the
    next round's tables made, and the repeats counted from the stored games."""
    run = Run(data, args.database_url, inbox=not args.no_inbox)
    asyncio.get_running_loop().set_default_executor(run.storage.executor)
    await run.tables.start()
    players = await run.entrants(args.swiss_players, "s")
    tournament = await run.tournament("swiss", players, args.swiss_size,
                                      rounds=args.rounds)
    run.director.start()
    started = time.monotonic()
    while time.monotonic() - started < args.swiss_timeout:
        await asyncio.sleep(0.5)
        standing = await asyncio.to_thread(run.store.load, tournament)
        if standing is not None and standing.row.status == "finished":
            break
    standing = await asyncio.to_thread(run.store.load, tournament)
    await run.tables.stop()
    run.storage.close()
    assert standing is not None
    met: dict[str, set[str]] = {}
    again = 0
    for round_ in range(1, args.rounds + 1):
        groups = [g.players for g in standing.games if g.round == round_]
        for group in groups:
            people = [p for p in group if p]
            again += sum(1 for i, x in enumerate(people) for y in people[i + 1:]
                         if y in met.get(x, set()))
        for group in groups:
            people = [p for p in group if p]
            for p in people:
                met.setdefault(p, set()).update(set(people) - {p})
    # a round is paired once its predecessor's last game ended (and was scored)
    gaps = []
    for round_ in range(2, standing.row.round + 1):
        before = [run.ended_at[g.table_id] for g in standing.games
                  if g.round == round_ - 1 and g.table_id in run.ended_at]
        after = [run.made_at[g.table_id] for g in standing.games
                 if g.round == round_ and g.table_id in run.made_at]
        if before and after:
            gaps.append(1000 * (max(after) - max(before)))
    return {"status": standing.row.status, "rounds_played": standing.row.round,
            "games": len(standing.games), "repeats": again,
            "round_paired_ms": [round(ms, 1) for ms in gaps],
            "seconds": round(time.monotonic() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arena-players", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds a simulated player waits before each move (0: none)")
    parser.add_argument("--swiss-players", type=int, default=64)
    parser.add_argument("--swiss-size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--swiss-play", action="store_true",
                        help="play the whole swiss through the director too")
    parser.add_argument("--swiss-timeout", type=float, default=900)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--history", type=int, default=0,
                        help="the arena starts as if long under way: this many games "
                             "scored, and every entrant having met every other")
    parser.add_argument("--no-inbox", action="store_true",
                        help="no inbox: the director tells nobody it seated them")
    parser.add_argument("--readers", type=int, default=0,
                        help="pages reading the arena's standings (the site polls)")
    parser.add_argument("--read-every", type=float, default=3.0,
                        help="seconds between a page's readings (the page's REFRESH_MS)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    report: dict[str, Any] = {"load_average": os.getloadavg()}
    if args.arena_players:
        with tempfile.TemporaryDirectory(prefix="cardtable-tourney-") as folder:
            report["arena"] = asyncio.run(arena(args, Path(folder)))
    report["swiss_pairing"] = [swiss_pairing(args.swiss_players, args.swiss_size,
                                             args.rounds, seed) for seed in range(3)]
    if args.swiss_play:
        with tempfile.TemporaryDirectory(prefix="cardtable-tourney-") as folder:
            report["swiss_played"] = asyncio.run(swiss_played(args, Path(folder)))
    report["load_average_after"] = os.getloadavg()
    text = json.dumps(report, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
