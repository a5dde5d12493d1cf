"""Who said each chat line (``chat_messages.player_id``): a block leaves the lines of the
blocked player out of the history a connection is sent, those said before it too.

Revision ID: 0018_chat_speaker
Revises: 0017_challenge_answered
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_chat_speaker"
down_revision = "0017_challenge_answered"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("player_id")
