"""Every time a timestamp with a time zone, in UTC (``stamps``): the ISO text of the older
rows (``2026-12-03T15:36:54.026+00:00``, as ``storage.now`` wrote it) becomes the moment it
names.

PostgreSQL changes each column's type to ``timestamptz``, reading the text as one.  SQLite
has no time type: its text is rewritten in the form SQLAlchemy's ``DateTime`` keeps there
(``2026-12-03 15:36:54.026000``, in UTC), then each table is made again with its columns
declared ``DATETIME`` (batch mode; ``storage.migrate`` turns the foreign keys off for it).
A text SQLite cannot read as a time stops the migration, naming it, before anything is
changed.  (``analyses`` held timestamps from the start.)

Revision ID: 0008_timestamps
Revises: 0007_analyses
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_timestamps"
down_revision = "0007_analyses"
branch_labels = None
depends_on = None

TIMES = {
    "tables": {"created": False, "finished": True, "counted": True},
    "seats": {"seen": True},
    "moves": {"at": False},
    "players": {"created": False},
    "api_tokens": {"created": False},
    "sessions": {"created": False},
    "rating_history": {"at": False},
    "player_games": {"at": False},
    "tables_counted": {"at": False},
    "chat_messages": {"at": False},
    "lessons_done": {"at": False},
}
"""The time columns of each table, and whether each may be empty."""

SQLITE_TIME = "strftime('%Y-%m-%d %H:%M:%f', \"{0}\") || '000'"
"""SQLite's reading of an ISO text (any offset: it turns it to UTC) as SQLAlchemy keeps
times there; to the millisecond, the precision every older row was written with."""


def _retype(table: str, columns: dict[str, bool], type_: sa.DateTime | sa.String) -> None:
    """Make a SQLite table again with its time columns declared as ``type_``: the columns
    are given in place of the reflected ones, so their values are copied as they are (a
    changed type would be copied through ``CAST``, which makes a number of a date)."""
    with op.batch_alter_table(table, recreate="always", reflect_args=tuple(
            sa.Column(name, type_, nullable=nullable)
            for name, nullable in columns.items())):
        pass


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.execute("SET LOCAL timezone = 'UTC'")   # a text without an offset is UTC's
        for table, columns in TIMES.items():
            for name, nullable in columns.items():
                op.alter_column(table, name, type_=sa.DateTime(timezone=True),
                                existing_type=sa.String(40), existing_nullable=nullable,
                                postgresql_using=f'"{name}"::timestamptz')
        return
    for table, columns in TIMES.items():
        for name in columns:
            unreadable = bind.execute(sa.text(
                f'SELECT "{name}" FROM "{table}" WHERE "{name}" IS NOT NULL AND '
                f'strftime(\'%s\', "{name}") IS NULL LIMIT 1')).scalar()
            if unreadable is not None:
                raise RuntimeError(f"{table}.{name} holds {unreadable!r}, which is not a "
                                   "time: put it right, then migrate again")
    for table, columns in TIMES.items():
        for name in columns:
            op.execute(f'UPDATE "{table}" SET "{name}" = {SQLITE_TIME.format(name)} '
                       f'WHERE "{name}" IS NOT NULL')
        _retype(table, columns, sa.DateTime(timezone=True))


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        for table, columns in TIMES.items():
            for name, nullable in columns.items():
                op.alter_column(
                    table, name, type_=sa.String(40), existing_nullable=nullable,
                    existing_type=sa.DateTime(timezone=True),
                    postgresql_using=(f"to_char(\"{name}\" AT TIME ZONE 'UTC', "
                                      "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"+00:00\"')"))
        return
    for table, columns in TIMES.items():
        _retype(table, columns, sa.String(40))
        for name in columns:
            op.execute(f"UPDATE \"{table}\" SET \"{name}\" = "
                       f"strftime('%Y-%m-%dT%H:%M:%f+00:00', \"{name}\") "
                       f"WHERE \"{name}\" IS NOT NULL")
