"""Witnesses: the signer's checkpoints on the floor, a table's enrolment, witnessed records.

``floor_checkpoints``: the table's signer (notary) head as the forwarder sends it with every
batch and at least each minute (position, hash, signature, key id, when the signer signed it),
one row per distinct head (``last_seen_at`` moves while the head stays); ``verified`` when its
signature checks against the table's enrolled key. ``floor_tables.enrolled_at`` /
``enrolled_by``: when and by whom the table's public key was pinned (``floor enrol``).
``floor_records.witnessed``: ``true`` once a verified checkpoint covers the record and it was
recorded after the enrolment, ``false`` for history the floor did not see happen (a re-created
floor, a record older than the enrolment), ``NULL`` while no checkpoint covers it yet.

Revision ID: f0006
Revises: f0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "f0006"
down_revision: str | None = "f0005"
branch_labels: str | None = None
depends_on: str | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create ``floor_checkpoints``; add the enrolment and witnessed columns."""
    op.create_table(
        "floor_checkpoints",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("position", sa.BigInteger, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("signature", sa.Text, nullable=True),
        sa.Column("key_id", sa.String(16), nullable=True),
        sa.Column("signed_at", sa.Text, nullable=True),
        sa.Column("verified", sa.Boolean, nullable=False),
        sa.Column("received_at", TZ, nullable=False),
        sa.Column("last_seen_at", TZ, nullable=False),
    )
    op.create_index(
        "ix_floor_checkpoints_table", "floor_checkpoints", ["table_id", "position", "id"]
    )
    op.add_column("floor_tables", sa.Column("enrolled_at", TZ, nullable=True))
    op.add_column("floor_tables", sa.Column("enrolled_by", sa.String(64), nullable=True))
    op.add_column("floor_records", sa.Column("witnessed", sa.Boolean, nullable=True))
    # each checkpoint decides the records not decided yet: only those are read
    op.create_index(
        "ix_floor_records_undecided",
        "floor_records",
        ["table_id", "position"],
        postgresql_where=sa.text("witnessed IS NULL"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_floor_records_undecided", table_name="floor_records")
    op.drop_column("floor_records", "witnessed")
    op.drop_column("floor_tables", "enrolled_by")
    op.drop_column("floor_tables", "enrolled_at")
    op.drop_index("ix_floor_checkpoints_table", table_name="floor_checkpoints")
    op.drop_table("floor_checkpoints")
