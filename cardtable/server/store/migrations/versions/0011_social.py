"""Players among themselves: the inbox (``notices``), challenges by name or by link,
who follows whom, who blocks whom, and each player's social settings (who may challenge
them, where each kind of notice goes).

Tables of their own: none of them changes the shape of the players' or tables' rows.

Revision ID: 0011_social
Revises: 0010_move_takeover
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_social"
down_revision = "0010_move_takeover"
branch_labels = None
depends_on = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False, index=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("at", TIME, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("read", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("from_id", sa.String(32), nullable=False, index=True),
        sa.Column("to_id", sa.String(32), nullable=True, index=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(64), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("created", TIME, nullable=False),
        sa.Column("expires", TIME, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
    )
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.String(32), primary_key=True),
        sa.Column("followed_id", sa.String(32), primary_key=True, index=True),
        sa.Column("at", TIME, nullable=False),
    )
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.String(32), primary_key=True),
        sa.Column("blocked_id", sa.String(32), primary_key=True, index=True),
        sa.Column("at", TIME, nullable=False),
    )
    op.create_table(
        "social_settings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("challenges", sa.String(16), nullable=False, server_default="everyone"),
        sa.Column("routes", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    for name in ("social_settings", "blocks", "follows", "challenges", "notices"):
        op.drop_table(name)
