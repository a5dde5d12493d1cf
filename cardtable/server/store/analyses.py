"""Analyses of finished games kept in the database, so that every server process serves
every analysis and a game is analysed once however many processes are asked.

One row per table: the process that inserts it (or takes over a lease that ran out, or
an analysis that failed) analyses the game, renewing its lease with every move judged;
any other process asking sees ``running`` and the progress, or the result once ``done``.
The puzzles found in an analysed game are kept on its row too.  The schema is made by the
migration ``0007_analyses``; files of analyses made before it (``DATA_DIR/analysis``) are
read into the rows when the app starts (``import_folder``).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Integer, String, Text, select
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Mapped, mapped_column

from .stamps import Stamp
from .storage import Base, Store, guarded

__all__ = ["AnalysisRow", "AnalysisStore", "Claim", "Found"]

log = logging.getLogger(__name__)

RUNNING, DONE, FAILED = "running", "done", "failed"


class AnalysisRow(Base):
    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    owner: Mapped[str] = mapped_column(String(64))
    """The process analysing it (``running``), or that did."""
    lease_until: Mapped[dt.datetime] = mapped_column(Stamp)
    judged: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    puzzles: Mapped[str | None] = mapped_column(Text, nullable=True)
    why: Mapped[str | None] = mapped_column(Text, nullable=True)
    updated: Mapped[dt.datetime] = mapped_column(Stamp)


@dataclass(frozen=True)
class Found:
    """A table's analysis as stored: its status, progress, result and why it failed."""

    status: str
    owner: str
    live: bool
    """``running`` with its lease still held (its process is at work)."""
    judged: int
    total: int | None
    result: dict[str, object] | None
    why: str | None


Claim = str
"""What ``claim`` found: ``"mine"`` (analyse it now), ``"running"`` or ``"done"``."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class AnalysisStore(Store):
    """The analyses' rows, through the storage's engine (call it in a thread)."""

    @guarded
    def claim(self, table_id: str, owner: str, lease: float) -> Claim:
        """Take the analysis of ``table_id`` unless it is done or another process's lease
        on it holds: one row per table, so two processes asking at once cannot both win."""
        at = _now()
        try:
            with self.storage.writing() as session:
                row = session.get(AnalysisRow, table_id, with_for_update=True)
                if row is None:
                    session.add(AnalysisRow(
                        table_id=table_id, status=RUNNING, owner=owner, judged=0,
                        lease_until=at + dt.timedelta(seconds=lease), updated=at))
                    return "mine"
                if row.status == DONE:
                    return "done"
                if row.status == RUNNING and row.lease_until > at:
                    return "running"
                row.status, row.owner, row.judged, row.total, row.why = (
                    RUNNING, owner, 0, None, None)
                row.lease_until, row.updated = at + dt.timedelta(seconds=lease), at
                return "mine"
        except sa_exc.IntegrityError:  # inserted by another process at the same moment
            return "running"

    @guarded
    def progress(self, table_id: str, owner: str, judged: int, total: int,
                 lease: float) -> None:
        """Moves judged so far; the lease renewed."""
        at = _now()
        with self.storage.writing() as session:
            row = session.get(AnalysisRow, table_id)
            if row is not None and row.owner == owner and row.status == RUNNING:
                row.judged, row.total, row.updated = judged, total, at
                row.lease_until = at + dt.timedelta(seconds=lease)

    @guarded
    def finish(self, table_id: str, owner: str, result: dict[str, object]) -> None:
        with self.storage.writing() as session:
            row = session.get(AnalysisRow, table_id)
            if row is not None and row.owner == owner:
                row.status, row.updated = DONE, _now()
                row.result = json.dumps(result, ensure_ascii=False)

    @guarded
    def fail(self, table_id: str, owner: str, why: str) -> None:
        with self.storage.writing() as session:
            row = session.get(AnalysisRow, table_id)
            if row is not None and row.owner == owner and row.status == RUNNING:
                row.status, row.why, row.updated = FAILED, why[:2000], _now()

    @guarded
    def keep_puzzles(self, table_id: str, found: list[dict[str, object]]) -> None:
        with self.storage.writing() as session:
            row = session.get(AnalysisRow, table_id)
            if row is not None:
                row.puzzles = json.dumps(found, ensure_ascii=False)

    @guarded
    def find(self, table_id: str) -> Found | None:
        with self.storage.sessions() as session:
            row = session.get(AnalysisRow, table_id)
            if row is None:
                return None
            return Found(status=row.status, owner=row.owner,
                         live=row.status == RUNNING and row.lease_until > _now(),
                         judged=row.judged, total=row.total,
                         result=json.loads(row.result) if row.result else None, why=row.why)

    @guarded
    def all_puzzles(self) -> list[dict[str, object]]:
        """The puzzles found in every analysed game, in the order of their tables."""
        out: list[dict[str, object]] = []
        with self.storage.sessions() as session:
            for table_id, text in session.execute(
                    select(AnalysisRow.table_id, AnalysisRow.puzzles)
                    .where(AnalysisRow.puzzles.is_not(None)).order_by(AnalysisRow.table_id)):
                try:
                    out.extend(json.loads(text or "[]"))
                except ValueError as error:
                    log.warning("puzzles of %s not read: %s", table_id, error)
        return out

    def import_folder(self, folder: Path) -> int:
        """Read the files of analyses made before they were kept here into rows (once:
        a table with a row already is left as it is); how many were read."""
        if not folder.is_dir():
            return 0
        read = 0
        for path in sorted(folder.glob("*.json")):
            if path.name.endswith(".puzzles.json") or path.name.endswith(".tmp"):
                continue
            table_id = path.name[:-len(".json")]
            puzzles = path.with_name(f"{table_id}.puzzles.json")
            try:
                result = json.loads(path.read_text(encoding="utf-8"))
                found = (json.loads(puzzles.read_text(encoding="utf-8"))
                         if puzzles.exists() else None)
            except (OSError, ValueError) as error:
                log.warning("the analysis in %s not read: %s", path.name, error)
                continue
            at = _now()
            try:
                with self.storage.writing() as session:
                    if session.get(AnalysisRow, table_id) is not None:
                        continue
                    session.add(AnalysisRow(
                        table_id=table_id, status=DONE, owner="file", judged=0,
                        lease_until=at, updated=at,
                        result=json.dumps(result, ensure_ascii=False),
                        puzzles=None if found is None else json.dumps(found,
                                                                      ensure_ascii=False)))
                read += 1
            except sa_exc.IntegrityError:
                continue
        return read
