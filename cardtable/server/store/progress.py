"""The steps of the courses a player has done, kept in SQL for the player (guest or
account), so the school resumes where they stopped on any device they sign in from.

A guest who registers keeps their id (``PlayerStore.register``), and with it their
progress.  The rows live on the storage's ``Base``; the schema is made by the migration
``0005_lesson_progress``.  (The terminal keeps its own file: ``analysis.lessons.Progress``.)
"""

from __future__ import annotations

import datetime as _dt

from sqlalchemy import ForeignKey, String, select
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Mapped, mapped_column

from .stamps import Stamp, stamp
from .storage import Base, Store, guarded

__all__ = ["LessonDoneRow", "ProgressStore"]


class LessonDoneRow(Base):
    """One step of one game's course, done by one player (once: the first time counts)."""

    __tablename__ = "lessons_done"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    step: Mapped[str] = mapped_column(String(40), primary_key=True)
    at: Mapped[_dt.datetime] = mapped_column(Stamp)


class ProgressStore(Store):
    """The rows of done steps, through the storage's engine (call it in a thread)."""

    @guarded
    def mark(self, player_id: str, game: str, step: str) -> bool:
        """Note ``step`` as done; ``False`` if it was already (the first time is kept)."""
        try:
            with self.storage.writing() as session:
                if session.get(LessonDoneRow, (player_id, game, step)) is not None:
                    return False
                session.add(LessonDoneRow(player_id=player_id, game=game, step=step, at=stamp()))
        except sa_exc.IntegrityError:   # the same step, marked at once by another request
            return False
        return True

    @guarded
    def done(self, player_id: str, game: str | None = None) -> dict[str, list[str]]:
        """The steps done, per game."""
        query = select(LessonDoneRow.game, LessonDoneRow.step).where(
            LessonDoneRow.player_id == player_id)
        if game is not None:
            query = query.where(LessonDoneRow.game == game)
        found: dict[str, list[str]] = {}
        with self.storage.sessions() as session:
            for name, step in session.execute(query):
                found.setdefault(name, []).append(step)
        return found
