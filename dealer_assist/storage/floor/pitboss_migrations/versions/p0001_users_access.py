"""Pit-boss users (badge, role, argon2 PIN hash) and the access log.

Revision ID: p0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create ``pitboss_users`` and ``pitboss_access`` (append-only: the application inserts,
    never updates or deletes)."""
    op.create_table(
        "pitboss_users",
        sa.Column("badge", sa.String(64), primary_key=True),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("pin_hash", sa.Text, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("created_by", sa.String(64), nullable=True),
    )
    op.create_table(
        "pitboss_access",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("at", TZ, nullable=False),
        sa.Column("badge", sa.String(64), nullable=False),
        sa.Column("role", sa.String(32), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("position", sa.BigInteger, nullable=True),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("ix_pitboss_access_at", "pitboss_access", ["at"])


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("pitboss_access")
    op.drop_table("pitboss_users")
