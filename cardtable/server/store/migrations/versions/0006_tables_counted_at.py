"""When a finished table's results were counted (``tables.counted``; ``None``: not yet).

A game's end and its count are one transaction now; a table that is over and not counted
(a crash of an older version between the two, or a count that failed) is found by this
column and counted by the next sweep.  Tables counted before this revision get the time
of their ``tables_counted`` row, and those with no player in any seat (nothing to count)
their end; the rest that are over are left for the first sweep, which counts each once.

Revision ID: 0006_tables_counted_at
Revises: 0005_lesson_progress
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_tables_counted_at"
down_revision = "0005_lesson_progress"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("counted", sa.String(40), nullable=True))
        batch.create_index("ix_tables_counted", ["counted"])
    op.execute(
        "UPDATE tables SET counted = (SELECT tables_counted.at FROM tables_counted "
        "WHERE tables_counted.table_id = tables.id) "
        "WHERE id IN (SELECT table_id FROM tables_counted)")
    op.execute(
        "UPDATE tables SET counted = finished "
        "WHERE status = 'over' AND counted IS NULL AND NOT EXISTS ("
        "SELECT 1 FROM seats WHERE seats.table_id = tables.id "
        "AND seats.player_id IS NOT NULL)")


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_counted")
        batch.drop_column("counted")
