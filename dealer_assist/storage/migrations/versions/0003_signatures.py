"""Signed entries: the table key's signature of each entry's hash, and the key's id.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the nullable ``signature`` and ``key_id`` columns to ``hands`` (entries stored
    before stay unsigned: NULL; SQLite adds a nullable column in place, no table rebuild)."""
    op.add_column("hands", sa.Column("signature", sa.String(128), nullable=True))
    op.add_column("hands", sa.Column("key_id", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop the signatures (the chain's hashes are untouched)."""
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("key_id")
        batch.drop_column("signature")
