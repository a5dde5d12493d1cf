"""Web Push: each browser's subscription for a player (``push_subscriptions``).

Revision ID: 0019_push_subscriptions
Revises: 0018_chat_speaker
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_push_subscriptions"
down_revision = "0018_chat_speaker"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1000), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False, index=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("push_subscriptions")
