"""Floor tables: tables and their heads, records, heads as received, alerts.

Revision ID: f0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql as pg

revision = "f0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create the four tables and the indexes of the pit boss's hand search
    (table, time, game, voids, amounts, flags; newest first, paged)."""
    op.create_table(
        "floor_tables",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("pit", sa.String(64), nullable=True),
        sa.Column("public_key", sa.Text, nullable=True),
        sa.Column("last_position", sa.BigInteger, nullable=False),
        sa.Column("last_hash", sa.String(64), nullable=False),
        sa.Column("registered_at", TZ, nullable=False),
        sa.Column("last_received_at", TZ, nullable=True),
    )
    op.create_table(
        "floor_records",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("position", sa.BigInteger, nullable=False),
        sa.Column("hand_uid", sa.String, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("void_reason", sa.Text, nullable=True),
        sa.Column("started_at", TZ, nullable=False),
        sa.Column("ended_at", TZ, nullable=False),
        sa.Column("recorded_at", TZ, nullable=False),
        sa.Column("received_at", TZ, nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("signature", sa.Text, nullable=True),
        sa.Column("key_id", sa.String(16), nullable=True),
        sa.Column("wagered", sa.BigInteger, nullable=True),
        sa.Column("top_amount", sa.BigInteger, nullable=True),
        sa.Column("house_net", sa.BigInteger, nullable=True),
        sa.Column("seats", pg.ARRAY(sa.SmallInteger), nullable=True),
        sa.Column("flags", pg.ARRAY(sa.String), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "position", name="pk_floor_records"),
    )
    # Search: newest first over a time range, alone or with a table / a game; the rare ones
    # (voids, a large payout or pot, a flag such as a device fault or a manual card) by their
    # own index so they do not scan the time range.
    op.create_index("ix_floor_records_recorded", "floor_records", ["recorded_at"])
    op.create_index("ix_floor_records_table_recorded", "floor_records", ["table_id", "recorded_at"])
    op.create_index("ix_floor_records_game_recorded", "floor_records", ["game", "recorded_at"])
    op.create_index(
        "ix_floor_records_void_recorded",
        "floor_records",
        ["recorded_at"],
        postgresql_where=sa.text("status = 'void'"),
    )
    op.create_index("ix_floor_records_top_amount", "floor_records", ["top_amount"])
    op.create_index("ix_floor_records_hand_uid", "floor_records", ["hand_uid"])
    op.create_index("ix_floor_records_flags", "floor_records", ["flags"], postgresql_using="gin")
    op.create_table(
        "floor_heads",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("position", sa.BigInteger, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("signature", sa.Text, nullable=True),
        sa.Column("received_at", TZ, nullable=False),
    )
    op.create_index("ix_floor_heads_table", "floor_heads", ["table_id", "position"])
    op.create_table(
        "floor_alerts",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("position", sa.BigInteger, nullable=True),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("raised_at", TZ, nullable=False),
        sa.Column("acknowledged_by", sa.String, nullable=True),
        sa.Column("acknowledged_at", TZ, nullable=True),
    )
    op.create_index("ix_floor_alerts_table_kind", "floor_alerts", ["table_id", "kind", "position"])
    op.create_index(
        "ix_floor_alerts_open",
        "floor_alerts",
        ["raised_at"],
        postgresql_where=sa.text("acknowledged_at IS NULL"),
    )


def downgrade() -> None:
    """Drop the floor's tables."""
    for name in ("floor_alerts", "floor_heads", "floor_records", "floor_tables"):
        op.drop_table(name)
