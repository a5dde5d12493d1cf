"""Challenges: one account asks another by name (or anyone holding a link) to a game.

A challenge names the game, its preset and rule options, the number of players, a clock
and whether it is rated; it is checked as a new table would be (``seating.plan_table``
and the server's bounds) when it is made, so an accepted challenge always makes its
table.  The challenged player finds it in their inbox (``people.notices``).  Accepting
makes the table and seats both players (the challenger first), each seat theirs by their
account: it is in ``GET /api/me``'s seats, played with ``?seat=N`` and the session.  A
table of more than two seats leaves the others free, for the table's invite link.

Refused: a challenge to oneself (``not_yourself``), to or from a player either blocks
(``player_blocked``), to a player who takes none from strangers or from anyone
(``challenges_refused``), past the open ones an account may hold
(``too_many_challenges``) or sent too fast (``rate_limited``); answering one that is not
open any more (``challenge_closed``) or not one's own (``not_your_challenge``).
Only accounts challenge and are challenged (a guest's name is not a name to find).
A challenge lives ``challenge_hours``, then expires.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as _dt
import secrets
from typing import TYPE_CHECKING

from ..core.bounds import OutOfBounds, check_rules
from ..core.errors import Refused
from ..core.ring import choose_id
from ..people.notices import Notices
from ..store.players import Player, PlayerStore
from ..store.social import ACCEPTING_FOR, ChallengeRow, SocialStore
from ..store.storage import hash_token
from .guard import Limiter
from .lifecycle import DEFAULT_TAKEOVER
from .seating import (
    ID_LETTERS,
    NewSeat,
    budget_of,
    check_rated,
    new_id,
    new_token,
    plan_table,
)

if TYPE_CHECKING:
    from .tables import Tables

__all__ = ["CHALLENGE_STATES", "Challenges", "challenge_view"]

CHALLENGE_STATES = ("open", "accepted", "declined", "cancelled", "expired")


def _new_id() -> str:
    return "".join(secrets.choice(ID_LETTERS) for _ in range(12))


def challenge_view(row: ChallengeRow, names: dict[str, str], me: str) -> dict[str, object]:
    """A challenge as its two players see it (``names``: player id to shown name)."""
    return {"id": row.id, "from": names.get(row.from_id, "?"),
            "to": None if row.to_id is None else names.get(row.to_id, "?"),
            "direction": "out" if row.from_id == me else "in",
            "game": row.game, "preset": row.preset, "options": dict(row.options or {}),
            "players": row.players, "clock": row.clock, "rated": bool(row.rated),
            "status": row.status, "created": row.created.isoformat(),
            "expires": row.expires.isoformat(), "table": row.table_id,
            "link": f"/#challenge/{row.id}"}


class Challenges:
    """Making, answering and listing challenges."""

    def __init__(self, tables: Tables, store: SocialStore, players: PlayerStore,
                 notices: Notices, limiter: Limiter) -> None:
        self.tables = tables
        self.store = store
        self.players = players
        self.notices = notices
        self.limiter = limiter

    def _now(self) -> _dt.datetime:
        """Now by the tables' clock (a test's fake clock moves it), to the millisecond."""
        moment = _dt.datetime.fromtimestamp(self.tables.clock.wall(), _dt.UTC)
        return moment.replace(microsecond=moment.microsecond // 1000 * 1000)

    # -- making ---------------------------------------------------------------------------
    async def create(self, sender: Player, to: str | None, *, game: str,
                     preset: str | None, options: dict[str, object], players: int | None,
                     clock: dict[str, object] | None, rated: bool) -> ChallengeRow:
        """A new challenge from ``sender`` to the account named ``to`` (none: an open one)."""
        settings = self.tables.settings
        _account(sender, "challenge someone")
        target = None
        if to is not None:
            target = await asyncio.to_thread(self.players.by_username, to.strip())
            if target is None or target.kind == "guest":
                raise Refused(f"there is no player named {to[:40]!r}", 404, "no_player")
            if target.id == sender.id:
                raise Refused("you cannot challenge yourself", 422, "not_yourself")
            await self._check_welcome(sender.id, target.id)
        try:
            plan = plan_table(game, preset, options, players,
                              ["human"] * players if players else None)
            if players is None:
                plan = plan_table(game, preset, options, plan.players,
                                  ["human"] * plan.players)
            check_rules(plan.rules, settings)
        except OutOfBounds as error:
            raise Refused(error.reason, 422, error.code, params=error.params) from None
        except (ValueError, KeyError) as error:
            raise Refused(str(error).strip("'\""), 422) from None
        if rated:
            check_rated(plan, sender)
        if (await asyncio.to_thread(self.store.open_sent, sender.id)
                >= settings.challenges_open):
            raise Refused(f"you already have {settings.challenges_open} open challenges: "
                          "cancel one first", 429, "too_many_challenges",
                          params={"limit": settings.challenges_open}, retry_after=60)
        await self.limiter.hit(settings.challenges_per_account, "challenge", sender.id)
        now = self._now()
        row = ChallengeRow(id=_new_id(), from_id=sender.id,
                           to_id=None if target is None else target.id, game=plan.spec.name,
                           preset=plan.preset, options=dict(options or {}),
                           players=plan.players, clock=clock, rated=rated, status="open",
                           created=now,
                           expires=now + _dt.timedelta(hours=settings.challenge_hours),
                           table_id=None)
        await asyncio.to_thread(self.store.add_challenge, row)
        if target is not None:
            await self.notices.notify(target.id, "challenge", {
                "challenge": row.id, "from": sender.name, "game": row.game,
                "preset": row.preset, "clock": clock, "rated": rated,
                "url": f"/#challenge/{row.id}"})
        return row

    async def _check_welcome(self, sender: str, target: str) -> None:
        """Refuse a challenge the target does not take: a block either way, or their
        setting (``nobody``; ``followed``: only from players they follow)."""
        if await asyncio.to_thread(self.store.blocks_between, sender, target):
            raise Refused("you cannot challenge this player", 403, "player_blocked")
        who, _ = await asyncio.to_thread(self.store.settings, target)
        if who == "nobody" or (who == "followed" and not await asyncio.to_thread(
                self.store.follows, target, sender)):
            raise Refused("this player takes no challenges from you just now", 403,
                          "challenges_refused")

    # -- answering ------------------------------------------------------------------------
    async def find(self, challenge_id: str) -> ChallengeRow:
        row = (None if len(challenge_id) > 16
               else await asyncio.to_thread(self.store.challenge, challenge_id))
        if row is None:
            raise Refused("there is no such challenge", 404, "no_challenge")
        now = self._now()
        if row.status == "open" and row.expires <= now:
            await asyncio.to_thread(self.store.settle, row.id, "expired")
            row.status = "expired"
        elif row.status == "accepting" and (   # stranded by a stopped process
                row.answered is None or row.answered <= now - ACCEPTING_FOR):
            await asyncio.to_thread(self.store.expire, now)
            found = await asyncio.to_thread(self.store.challenge, challenge_id)
            row = found if found is not None else row
        return row

    def _open(self, row: ChallengeRow) -> None:
        if row.status != "open":
            raise Refused(f"this challenge is {row.status}", 409, "challenge_closed",
                          params={"status": row.status})

    async def accept(self, player: Player, challenge_id: str,
                     address: str) -> tuple[ChallengeRow, str, int]:
        """Accept: the table is made, the challenger in seat 0 and ``player`` in seat 1;
        (the challenge, the table's id, the player's seat)."""
        _account(player, "accept a challenge")
        row = await self.find(challenge_id)
        if row.from_id == player.id:
            raise Refused("you cannot accept your own challenge", 422, "not_yourself")
        if row.to_id is not None and row.to_id != player.id:
            raise Refused("this challenge is to another player", 403, "not_your_challenge")
        self._open(row)
        if row.to_id is None:
            await self._check_welcome(row.from_id, player.id)
        sender = await asyncio.to_thread(self.players.get, row.from_id)
        if sender is None:
            raise Refused("the player who challenged you is gone", 409, "challenge_closed",
                          params={"status": "cancelled"})
        await self.tables.guard.check_table_rate(address)
        # the table's id is written with the acceptance, before the table is made: a
        # process stopped between the two leaves what ``expire`` settles (made: accepted;
        # not: open again), never a challenge nobody can answer
        tables = self.tables
        table_id = choose_id(new_id, tables.ring, tables.settings.ring_address)
        if not await asyncio.to_thread(self.store.settle, row.id, "accepting", "open",
                                       table_id, self._now()):
            self._open(await self.find(challenge_id))   # another answer came first
        try:
            await self._open_table(row, sender, player, address, table_id)
        except BaseException:
            await asyncio.to_thread(self.store.settle, row.id, "open", "accepting")
            raise
        await asyncio.to_thread(self.store.settle, row.id, "accepted", "accepting", table_id)
        row.status, row.table_id = "accepted", table_id
        await self.notices.notify(row.from_id, "challenge_answer", {
            "challenge": row.id, "status": "accepted", "by": player.name,
            "table": table_id, "seat": 0, "url": f"/table/{table_id}"})
        return row, table_id, 1

    async def _open_table(self, row: ChallengeRow, sender: Player, player: Player,
                          address: str, table_id: str) -> str:
        """The challenge's table, both players seated by their accounts (each seat marked
        as seen: it is never freed for want of a first connection)."""
        try:
            plan = plan_table(row.game, row.preset, dict(row.options or {}), row.players,
                              ["human"] * row.players)
        except (ValueError, KeyError) as error:   # the server's games changed meanwhile
            raise Refused(str(error).strip("'\""), 422) from None
        seats = list(plan.seats)
        for index, who in enumerate((sender, player)):
            seats[index] = NewSeat("human", name=who.name, token_hash=hash_token(new_token()),
                                   player_id=who.id, player_kind=who.kind, seen=True)
        takeover = None if row.clock is None else DEFAULT_TAKEOVER   # times out to a bot
        plan = dataclasses.replace(plan, seats=tuple(seats), takeover=takeover,
                                   life={"clock": row.clock, "rated": bool(row.rated)},
                                   budget=budget_of(address, player), table_id=table_id)
        table = await self.tables.seating.open(plan)
        await self.tables.guard.count_table(address)
        return table.id

    async def decline(self, player: Player, challenge_id: str) -> ChallengeRow:
        """The challenged player says no (an open challenge's link: nobody may)."""
        row = await self.find(challenge_id)
        if row.to_id != player.id:
            raise Refused("only the challenged player may decline", 403,
                          "not_your_challenge")
        return await self._settle(row, "declined", player)

    async def cancel(self, player: Player, challenge_id: str) -> ChallengeRow:
        """The challenger takes it back."""
        row = await self.find(challenge_id)
        if row.from_id != player.id:
            raise Refused("only the challenger may cancel a challenge", 403,
                          "not_your_challenge")
        return await self._settle(row, "cancelled", player)

    async def _settle(self, row: ChallengeRow, status: str, player: Player) -> ChallengeRow:
        self._open(row)
        if not await asyncio.to_thread(self.store.settle, row.id, status):
            self._open(await self.find(row.id))
        row.status = status
        if status == "declined":
            await self.notices.notify(row.from_id, "challenge_answer", {
                "challenge": row.id, "status": status, "by": player.name})
        return row

    # -- listing --------------------------------------------------------------------------
    async def of(self, player: Player) -> list[dict[str, object]]:
        """The player's challenges, in and out, newest first (expired ones marked)."""
        await asyncio.to_thread(self.store.expire, self._now())
        rows = await asyncio.to_thread(self.store.challenges_of, player.id)
        ids = sorted({i for row in rows for i in (row.from_id, row.to_id) if i})
        names = await asyncio.to_thread(self.store.names, ids)
        return [challenge_view(row, names, player.id) for row in rows]

    async def view(self, row: ChallengeRow, player: Player | None) -> dict[str, object]:
        ids = [i for i in (row.from_id, row.to_id) if i]
        names = await asyncio.to_thread(self.store.names, ids)
        return challenge_view(row, names, player.id if player else "")


def _account(player: Player, what: str) -> None:
    if player.kind == "guest":
        raise Refused(f"sign in to {what}", 401, "not_signed_in")
