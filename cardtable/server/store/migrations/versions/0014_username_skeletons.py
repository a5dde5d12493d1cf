"""Look-alike usernames: ``players.username_skeleton``, each account's username by its
confusable key (UTS #39's skeleton, ``core.confusables.name_key``), indexed, so a name or
username that looks like an account's is found in one lookup.  Existing accounts are
filled in here.

Revision ID: 0014_username_skeletons
Revises: 0013_origins
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardtable.server.core.confusables import name_key

revision = "0014_username_skeletons"
down_revision = "0013_origins"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("username_skeleton", sa.String(80), nullable=True))
    op.create_index("ix_players_username_skeleton", "players", ["username_skeleton"])
    players = sa.table("players", sa.column("id", sa.String), sa.column("username", sa.String),
                       sa.column("username_skeleton", sa.String))
    connection = op.get_bind()
    rows = connection.execute(sa.select(players.c.id, players.c.username)
                              .where(players.c.username.is_not(None))).all()
    for player_id, username in rows:
        connection.execute(sa.update(players).where(players.c.id == player_id)
                           .values(username_skeleton=name_key(username)))


def downgrade() -> None:
    op.drop_index("ix_players_username_skeleton", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("username_skeleton")
