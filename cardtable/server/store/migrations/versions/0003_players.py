"""Players: guests, accounts and bot accounts, their API tokens, ratings, games and
records against bots; each seat remembers the player who took it.

Revision ID: 0003_players
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_players"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("username", sa.String(20), nullable=True),
        sa.Column("username_key", sa.String(20), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_table(
        "api_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_index("ix_api_tokens_player_id", "api_tokens", ["player_id"])
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "app_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("pool", sa.String(120), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("pool", sa.String(120), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("change", sa.Integer(), nullable=False),
    )
    op.create_index("ix_rating_history_player_id", "rating_history", ["player_id"])
    op.create_table(
        "player_games",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("pool", sa.String(120), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("ix_player_games_at", "player_games", ["at"])
    op.create_table(
        "bot_records",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("bot", sa.String(200), primary_key=True),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
    )
    op.create_table(
        "tables_counted",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.String(800), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("ix_chat_messages_table_id", "chat_messages", ["table_id"])
    op.create_table(
        "chat_settings",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("off", sa.Integer(), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("player_kind", sa.String(16), nullable=True))
        batch.create_index("ix_seats_player_id", ["player_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_id")
        batch.drop_column("player_kind")
        batch.drop_column("player_id")
    for name in ("chat_settings", "chat_messages", "tables_counted", "bot_records",
                 "player_games", "rating_history", "ratings", "app_secrets", "api_tokens",
                 "sessions", "players"):
        op.drop_table(name)
