"""Journal tables: chain head, hands, pending steps.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

GENESIS_HASH = "0" * 64  # frozen copy of chain.GENESIS_HASH: migrations must not change


def upgrade() -> None:
    """Create the tables and the chain head row (no hands yet)."""
    head = op.create_table(
        "chain_head",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("last_hand_id", sa.BigInteger, nullable=False),
        sa.Column("last_hash", sa.String(64), nullable=False),
    )
    op.bulk_insert(head, [{"id": 1, "last_hand_id": 0, "last_hash": GENESIS_HASH}])
    op.create_table(
        "hands",
        sa.Column("hand_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("hand_uid", sa.String, nullable=True),
        sa.Column("table_id", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("void_reason", sa.Text, nullable=True),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("settlement", sa.Text, nullable=True),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("extra", sa.Text, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("hand_uid", name="uq_hands_hand_uid"),
    )
    op.create_index("ix_hands_table_started", "hands", ["table_id", "started_at"])
    op.create_table(
        "pending_steps",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String, nullable=False),
        sa.Column("hand_uid", sa.String, nullable=False),
        sa.Column("step_no", sa.Integer, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("written_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "hand_uid", "step_no", name="uq_pending_steps_step"),
    )


def downgrade() -> None:
    """Drop everything (loses the journal: for development only)."""
    op.drop_table("pending_steps")
    op.drop_index("ix_hands_table_started", table_name="hands")
    op.drop_table("hands")
    op.drop_table("chain_head")
