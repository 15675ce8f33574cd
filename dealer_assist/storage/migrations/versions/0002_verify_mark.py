"""The verified-up-to mark: the last entry the start-up verify checked, and its hash.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``verify_mark`` (one row at most, id 1; none until the first start-up verify)."""
    op.create_table(
        "verify_mark",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("hand_id", sa.BigInteger, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("verified_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("note", sa.Text, nullable=True),
    )


def downgrade() -> None:
    """Drop the mark (the next start verifies the whole chain)."""
    op.drop_table("verify_mark")
