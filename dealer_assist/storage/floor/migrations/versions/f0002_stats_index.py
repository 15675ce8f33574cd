"""Floor statistics: a covering index for the sums of a pit's month.

``FloorStats`` sums ``wagered`` and ``house_net`` per table over a ``recorded_at`` range; with
every column it reads in the index (``INCLUDE``), PostgreSQL answers from the index alone
(an index-only scan) instead of reading each record's row, whose canonical JSON content makes
it wide (docs/STATISTICS.md, bench/floor_stats.py). Built in the migration's transaction:
writes to ``floor_records`` wait while it is built on a large floor.

Revision ID: f0002
Revises: f0001
"""

from __future__ import annotations

from alembic import op

revision = "f0002"
down_revision: str | None = "f0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """The covering index of the statistics."""
    op.create_index(
        "ix_floor_records_stats",
        "floor_records",
        ["table_id", "recorded_at"],
        postgresql_include=["started_at", "ended_at", "game", "status", "wagered", "house_net"],
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_floor_records_stats", table_name="floor_records")
