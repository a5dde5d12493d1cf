"""The school's progress: the course steps each player (guest or account) has done.

Revision ID: 0005_lesson_progress
Revises: 0004_table_life
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_lesson_progress"
down_revision = "0004_table_life"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lessons_done",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("step", sa.String(40), primary_key=True),
        sa.Column("at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lessons_done")
