"""When a seat was first connected to (a seat taken but never seen is freed again).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-14
"""

from __future__ import annotations

import datetime as _dt

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("seen", sa.String(40), nullable=True))
    # seats taken before this column existed count as seen: their players hold their tokens
    seats = sa.table("seats", sa.column("token_hash", sa.String), sa.column("seen", sa.String))
    at = _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")
    op.execute(seats.update().where(seats.c.token_hash.is_not(None)).values(seen=at))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seen")
