"""Table life: the time control, the clocks' banks, timeouts, forfeits and seats left.

Revision ID: 0004_table_life
Revises: 0003_players
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_table_life"
down_revision = "0003_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("life", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("life")
