"""Floor search: one table's hands in the order of an amount, largest first.

The pit boss sorts a table's hands by the amount staked or by the largest payout or pot
(``Sort("wagered")``, ``Sort("top_amount")``, descending, NULLS LAST: a void has no amount). With
no index in that order PostgreSQL reads and sorts every hand of the table in the time range
(≈ 67,000 on the 10,000,000-hand floor of bench/floor_fill.py: p95 121 ms for page 11); with
``(table_id, amount DESC NULLS LAST, position DESC, recorded_at)`` it walks the table's hands in
the page's order and stops after the page; ``recorded_at`` is a key column (not ``INCLUDE``) so
that the time range is checked in the index, without reading the rows it leaves out.
Built in the migration's transaction: writes to ``floor_records`` wait while they are built (about
a minute each on that floor).

Revision ID: f0005
Revises: f0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "f0005"
down_revision: str | None = "f0004"
branch_labels: str | None = None
depends_on: str | None = None

_AMOUNTS = ("wagered", "top_amount")


def upgrade() -> None:
    """An index per amount column, in the search's descending order."""
    for column in _AMOUNTS:
        op.create_index(
            f"ix_floor_records_table_{column}_desc",
            "floor_records",
            [
                "table_id",
                sa.text(f"{column} DESC NULLS LAST"),
                sa.text("position DESC"),
                "recorded_at",
            ],
        )


def downgrade() -> None:
    """Drop them."""
    for column in _AMOUNTS:
        op.drop_index(f"ix_floor_records_table_{column}_desc", table_name="floor_records")
