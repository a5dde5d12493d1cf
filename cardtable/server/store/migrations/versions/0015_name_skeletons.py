"""Look-alike display names: ``players.name_skeleton``, each account's display name by
its confusable key (``store.players.shown_key``), indexed, so a new username or name that
looks like an account's shown name is found in one lookup, as one like its username is.
Existing accounts are filled in here; guests keep none.

Revision ID: 0015_name_skeletons
Revises: 0014_username_skeletons
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardtable.server.core.confusables import name_key

revision = "0015_name_skeletons"
down_revision = "0014_username_skeletons"
branch_labels = None
depends_on = None

SKELETON_LENGTH = 200
"""As ``store.players.SKELETON_LENGTH`` when this was written."""


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(SKELETON_LENGTH),
                                   nullable=True))
    op.create_index("ix_players_name_skeleton", "players", ["name_skeleton"])
    players = sa.table("players", sa.column("id", sa.String), sa.column("kind", sa.String),
                       sa.column("name", sa.String), sa.column("name_skeleton", sa.String))
    connection = op.get_bind()
    rows = connection.execute(sa.select(players.c.id, players.c.name)
                              .where(players.c.kind == "account")).all()
    for player_id, name in rows:
        connection.execute(sa.update(players).where(players.c.id == player_id)
                           .values(name_skeleton=name_key(name)[:SKELETON_LENGTH]))


def downgrade() -> None:
    op.drop_index("ix_players_name_skeleton", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_skeleton")
