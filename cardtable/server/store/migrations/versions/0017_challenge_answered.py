"""When a challenge's acceptance began (``challenges.answered``): one left ``accepting``
by a process that stopped mid-way is told from one in progress, and settled.

Revision ID: 0017_challenge_answered
Revises: 0016_player_games_by_table
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_challenge_answered"
down_revision = "0016_player_games_by_table"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("answered", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("answered")
