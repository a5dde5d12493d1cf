"""Tournaments: ``tournaments`` (what one plays and how it stands),
``tournament_entrants`` (each player's points, streak, pause, table) and
``tournament_games`` (each of its tables, written before the table is made, and its
results once scored).

Revision ID: 0012_tournaments
Revises: 0011_social
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_tournaments"
down_revision = "0011_social"
branch_labels = None
depends_on = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("organiser", sa.String(32), nullable=False, index=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(64), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("clock", sa.JSON, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("bots", sa.String(200), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("created", TIME, nullable=False),
        sa.Column("starts", TIME, nullable=True),
        sa.Column("started", TIME, nullable=True),
        sa.Column("ends", TIME, nullable=True),
        sa.Column("finished", TIME, nullable=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("closed", sa.String(200), nullable=True),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True, index=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("byes", sa.Integer, nullable=False),
        sa.Column("paused", sa.Integer, nullable=False),
        sa.Column("withdrawn", sa.Integer, nullable=False),
        sa.Column("busy", sa.String(32), nullable=True),
        sa.Column("free_since", TIME, nullable=True),
        sa.Column("last", sa.JSON, nullable=False),
        sa.Column("met", sa.JSON, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
                  nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("results", sa.JSON, nullable=True),
        sa.Column("created", TIME, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
