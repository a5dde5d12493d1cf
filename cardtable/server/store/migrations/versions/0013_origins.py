"""Where accounts sign in from: ``account_origins`` (a hash of each network and browser an
account signed in from), so that games between related accounts are not rated and an
admin sees suspected farms.

Revision ID: 0013_origins
Revises: 0012_tournaments
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_origins"
down_revision = "0012_tournaments"
branch_labels = None
depends_on = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "account_origins",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("origin", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("first", TIME, nullable=False),
        sa.Column("last", TIME, nullable=False),
    )
    op.create_index("ix_account_origins_origin", "account_origins", ["origin"])


def downgrade() -> None:
    op.drop_index("ix_account_origins_origin", table_name="account_origins")
    op.drop_table("account_origins")
