"""Analyses of finished games in the database (``analyses``): one row per table, so every
process serves every analysis and a game is analysed once (``analysis_store``).

Revision ID: 0007_analyses
Revises: 0006_tables_counted_at
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_analyses"
down_revision = "0006_tables_counted_at"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("judged", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("puzzles", sa.Text, nullable=True),
        sa.Column("why", sa.Text, nullable=True),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
