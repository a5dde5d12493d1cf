"""A finished table's results found by the table: an index on ``player_games.table_id``.

The table is the second column of the primary key (``player_id``, ``table_id``), which
PostgreSQL cannot use to find a table's rows, so a tournament scoring a game read the
whole of ``player_games`` for it.

Revision ID: 0016_player_games_by_table
Revises: 0015_name_skeletons
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0016_player_games_by_table"
down_revision = "0015_name_skeletons"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_player_games_table_id", "player_games", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_player_games_table_id", table_name="player_games")
