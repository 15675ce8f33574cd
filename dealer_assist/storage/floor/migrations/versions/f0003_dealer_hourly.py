"""Floor dealer column and hourly rollup (the dealer search, a pit's month).

``floor_records.dealer``: the dealer's badge id the table recorded with the hand
(``extra["dealer"]``, read at ingest by :func:`dealer_assist.storage.search_columns.search_columns`:
a string of 1..64 characters, else NULL; NULL for table records), indexed with ``recorded_at``
for "this dealer's hands, newest first". Backfilled from the stored content by the same rule.

``floor_hourly``: the hands of each table summed per UTC hour, kept exact by ingest in the
transaction that stores the records (docs/STATISTICS.md "Hourly rollup"). Its key is the hour
the hands were recorded in (``hour``: the statistics' range is on ``recorded_at``), the hour
they started in (``started_hour``: the hour / day / shift buckets go by the start), the game and
the dealer (``''`` when not recorded: a primary key column cannot be NULL, and a badge id is
never empty). Table records are not hands and are not counted. Backfilled by one
INSERT ... SELECT ... GROUP BY; both backfills run in the migration's transaction (writes to
``floor_records`` wait while they run on a large floor).

Revision ID: f0003
Revises: f0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "f0003"
down_revision: str | None = "f0002"
branch_labels: str | None = None
depends_on: str | None = None

TZ = sa.DateTime(timezone=True)

#: search_columns' dealer rule in SQL: a JSON string of 1..64 characters, never a table record.
_DEALER = """
    CASE WHEN status <> 'table'
          AND jsonb_typeof(content::jsonb -> 'extra' -> 'dealer') = 'string'
          AND char_length(content::jsonb -> 'extra' ->> 'dealer') BETWEEN 1 AND 64
         THEN content::jsonb -> 'extra' ->> 'dealer' END
"""


def upgrade() -> None:
    """The dealer column, its index and backfill; the hourly rollup and its backfill."""
    op.add_column("floor_records", sa.Column("dealer", sa.String(64), nullable=True))
    # only the records that name a dealer are parsed and written
    op.execute(
        f"UPDATE floor_records SET dealer = {_DEALER}"
        f" WHERE content LIKE '%\"dealer\"%' AND ({_DEALER}) IS NOT NULL"
    )
    op.create_index("ix_floor_records_dealer_recorded", "floor_records", ["dealer", "recorded_at"])
    op.create_table(
        "floor_hourly",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("hour", TZ, nullable=False),
        sa.Column("started_hour", TZ, nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("dealer", sa.String(64), nullable=False),
        sa.Column("hands", sa.BigInteger, nullable=False),
        sa.Column("wagered", sa.BigInteger, nullable=False),
        sa.Column("house_net", sa.BigInteger, nullable=False),
        sa.Column("first_started", TZ, nullable=False),
        sa.Column("last_ended", TZ, nullable=False),
        sa.PrimaryKeyConstraint(
            "table_id", "hour", "started_hour", "game", "dealer", name="pk_floor_hourly"
        ),
    )
    # the whole floor's range (no pit or table): the hours alone
    op.create_index("ix_floor_hourly_hour", "floor_hourly", ["hour"])
    op.execute(
        "INSERT INTO floor_hourly (table_id, hour, started_hour, game, dealer, hands, wagered,"
        " house_net, first_started, last_ended)"
        " SELECT table_id, date_trunc('hour', recorded_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',"
        "  date_trunc('hour', started_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', game,"
        "  coalesce(dealer, ''), count(*), coalesce(sum(wagered), 0), coalesce(sum(house_net), 0),"
        "  min(started_at), max(ended_at)"
        " FROM floor_records WHERE status <> 'table'"
        " GROUP BY 1, 2, 3, 4, 5"
    )


def downgrade() -> None:
    """Drop the rollup, the index and the column."""
    op.drop_table("floor_hourly")
    op.drop_index("ix_floor_records_dealer_recorded", table_name="floor_records")
    op.drop_column("floor_records", "dealer")
