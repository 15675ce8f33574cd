"""Floor sign-off requests: large payouts waiting for a pit boss.

A table whose payout walk stops on a seat above a ``[signoff]`` tier posts a row; the pit-boss
application confirms it (who, role, when); the table takes the confirmation or cancels the
request (signed at its console first). One row per ``(table_id, hand_uid, seat)``; the waiting
ones (few) have their own partial index, the floor view reads them every few seconds.

Revision ID: f0004
Revises: f0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql as pg

revision = "f0004"
down_revision: str | None = "f0003"
branch_labels: str | None = None
depends_on: str | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create ``floor_signoffs`` and its indexes."""
    op.create_table(
        "floor_signoffs",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("hand_uid", sa.String, nullable=False),
        sa.Column("hand_no", sa.BigInteger, nullable=False),
        sa.Column("seat", sa.SmallInteger, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("cards", pg.ARRAY(sa.String), nullable=False),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("requested_at", TZ, nullable=False),
        sa.Column("received_at", TZ, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("confirmed_by", sa.String(64), nullable=True),
        sa.Column("confirmed_role", sa.String(32), nullable=True),
        sa.Column("confirmed_at", TZ, nullable=True),
        sa.Column("cancelled_by", sa.String(64), nullable=True),
        sa.Column("cancelled_at", TZ, nullable=True),
        sa.Column("taken_at", TZ, nullable=True),
        sa.Column("detail", sa.Text, nullable=False),
        sa.UniqueConstraint("table_id", "hand_uid", "seat", name="uq_floor_signoffs_seat"),
        sa.CheckConstraint(
            "state IN ('waiting', 'confirmed', 'cancelled')", name="ck_floor_signoffs_state"
        ),
    )
    op.create_index(
        "ix_floor_signoffs_waiting",
        "floor_signoffs",
        ["id"],
        postgresql_where=sa.text("state = 'waiting'"),
    )
    op.create_index(
        "ix_floor_signoffs_confirmed",
        "floor_signoffs",
        ["table_id", "id"],
        postgresql_where=sa.text("state = 'confirmed' AND taken_at IS NULL"),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("floor_signoffs")
