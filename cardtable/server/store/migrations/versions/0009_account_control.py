"""Account control and moderation: an account's e-mail (for password reset) and
role (admin), the sanctions an admin gives (mute, ban of an account or an address),
players' reports, and the audit log of every admin action; indexes for the retention
sweeps (old guests, sessions and chat lines).

Tables of their own rather than columns of ``players``: an account deleted or a role
taken back is a row gone, and the players' rows keep their shape.

Revision ID: 0009_account_control
Revises: 0008_timestamps
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_account_control"
down_revision = "0008_timestamps"
branch_labels = None
depends_on = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "player_roles",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("granted", TIME, nullable=False),
    )
    op.create_table(
        "player_emails",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("email_key", sa.String(254), nullable=False, unique=True),
    )
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.String(64), nullable=False, index=True),
        sa.Column("until", TIME, nullable=True),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("admin_id", sa.String(32), nullable=True),
        sa.Column("at", TIME, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", TIME, nullable=False),
        sa.Column("reporter_id", sa.String(32), nullable=False, index=True),
        sa.Column("player_id", sa.String(32), nullable=True, index=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("chat_id", sa.Integer, nullable=True),
        sa.Column("quoted", sa.String(800), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", TIME, nullable=False, index=True),
        sa.Column("admin", sa.String(80), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(120), nullable=False),
        sa.Column("detail", sa.JSON, nullable=True),
    )
    op.create_index("ix_sessions_created", "sessions", ["created"])
    op.create_index("ix_players_created", "players", ["created"])
    op.create_index("ix_chat_messages_at", "chat_messages", ["at"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_at", "chat_messages")
    op.drop_index("ix_players_created", "players")
    op.drop_index("ix_sessions_created", "sessions")
    for table in ("audit_log", "reports", "sanctions", "player_emails", "player_roles"):
        op.drop_table(table)
