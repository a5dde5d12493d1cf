"""Who chose a move: ``moves.takeover`` marks a move a takeover bot
made for a person's seat (time run out, seat forfeited or left), so a move log rebuilt
from the stored moves (after a reload or a restart) says "Bot for NAME", not "You".

Every older move was taken as the seat's own: the column is false for them.

Revision ID: 0010_move_takeover
Revises: 0009_account_control
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_move_takeover"
down_revision = "0009_account_control"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("takeover", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("takeover")
