"""What the endpoints are given: every service and store, built once when the app starts
(its lifespan) and reached through ``Depends`` (``deps``), never made on first use."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from itsdangerous import URLSafeTimedSerializer
from starlette.requests import HTTPConnection

from ..core.settings import ServerSettings
from ..people.digest import Digests
from ..people.mail import SALT
from ..people.notices import Notices
from ..people.push import Pushes
from ..play.analyses import Analyses
from ..play.challenges import Challenges
from ..play.guard import Limiter
from ..play.quickplay import QuickPlay
from ..play.tables import Tables
from ..store.control import ControlStore
from ..store.players import PlayerStore
from ..store.progress import ProgressStore
from ..store.ratings import RatingStore
from ..store.sanctions import ReportStore, SanctionStore
from ..store.social import SocialStore
from ..store.storage import Storage

if TYPE_CHECKING:
    from ..cluster.relay import Cluster

__all__ = ["Attempts", "Control", "Players", "Progress", "Ratings", "Sanctions", "Services",
           "Social", "services_of"]


@dataclass(eq=False)
class Services:
    """The app's one of each: the tables and their storage, the queue, the analyses, the
    stores of players, ratings, sanctions, reports, account control and lesson progress,
    the sign-in limiter, and the signers of the cookies and of the reset links."""

    settings: ServerSettings
    storage: Storage
    tables: Tables
    quickplay: QuickPlay
    analyses: Analyses
    cluster: Cluster | None
    players: PlayerStore
    ratings: RatingStore
    sanctions: SanctionStore
    reports: ReportStore
    control: ControlStore
    progress: ProgressStore
    limiter: Limiter
    cookies: dict[str, URLSafeTimedSerializer]
    """The session cookie's signer and the known-device cookie's: one key, a salt each,
    so neither cookie passes for the other."""
    reset: URLSafeTimedSerializer
    """The signer of the password-reset links."""
    social: SocialStore
    """Follows, blocks, challenges, the inbox and the social settings."""
    notices: Notices
    """The one way to tell a player something (the inbox); ``tables.notices`` too."""
    challenges: Challenges
    digests: Digests
    """The daily e-mail digest of the inbox, and its unsubscribe links."""

    @classmethod
    async def build(cls, settings: ServerSettings, storage: Storage, tables: Tables,
                    quickplay: QuickPlay, analyses: Analyses,
                    cluster: Cluster | None) -> Services:
        """Every store on ``storage``; the signers' keys read (or made, by the first
        process to start) from the database."""
        players = PlayerStore(storage)
        session_key = await asyncio.to_thread(players.secret, "session")
        reset_key = await asyncio.to_thread(players.secret, "reset")
        social = SocialStore(storage)
        private_key = settings.revealed("vapid_private_key")
        pushes = (Pushes(settings, private_key, social)
                  if settings.push_on and private_key else None)
        notices = tables.notices = Notices(social, cluster, pushes)
        limiter = Limiter(settings.limits_storage(), f"{settings.redis_prefix}:limits")
        unsubscribe_key = await asyncio.to_thread(players.secret, "unsubscribe")
        return cls(
            settings=settings, storage=storage, tables=tables, quickplay=quickplay,
            analyses=analyses, cluster=cluster, players=players,
            ratings=RatingStore(storage), sanctions=SanctionStore(storage),
            reports=ReportStore(storage), control=ControlStore(storage),
            progress=ProgressStore(storage), limiter=limiter,
            cookies={name: URLSafeTimedSerializer(session_key, salt=f"cardtable.{name}")
                     for name in ("session", "device")},
            reset=URLSafeTimedSerializer(reset_key, salt=SALT), social=social,
            notices=notices,
            challenges=Challenges(tables, social, players, notices, limiter),
            digests=Digests(social, settings, unsubscribe_key, tables.clock))


def services_of(connection: HTTPConnection) -> Services:
    """The app's services (its lifespan built them)."""
    services: Services = connection.app.state.services
    return services


def players_of(connection: HTTPConnection) -> PlayerStore:
    return services_of(connection).players


def ratings_of(connection: HTTPConnection) -> RatingStore:
    return services_of(connection).ratings


def sanctions_of(connection: HTTPConnection) -> SanctionStore:
    return services_of(connection).sanctions


def control_of(connection: HTTPConnection) -> ControlStore:
    return services_of(connection).control


def progress_of(connection: HTTPConnection) -> ProgressStore:
    return services_of(connection).progress


def social_of(connection: HTTPConnection) -> SocialStore:
    return services_of(connection).social


def attempts_of(connection: HTTPConnection) -> Limiter:
    return services_of(connection).limiter


Players = Annotated[PlayerStore, Depends(players_of)]
Ratings = Annotated[RatingStore, Depends(ratings_of)]
Sanctions = Annotated[SanctionStore, Depends(sanctions_of)]
Control = Annotated[ControlStore, Depends(control_of)]
Progress = Annotated[ProgressStore, Depends(progress_of)]
Attempts = Annotated[Limiter, Depends(attempts_of)]
Social = Annotated[SocialStore, Depends(social_of)]
"""What an endpoint declares to be given a store or the sign-in attempts' limiter."""
