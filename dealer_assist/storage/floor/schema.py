"""SQLAlchemy Core tables of the floor database (PostgreSQL; ``migrations/`` creates them).

One row per table in ``floor_tables`` (its chain head as the floor last stored it), one row per
forwarded journal entry in ``floor_records`` keyed by ``(table_id, position)`` (the table's
``hand_id``: the chain position), every head as it was received in ``floor_heads``, and the
``floor_alerts`` the floor raises (chain breaks, a table's copy that differs from the floor's).

``content`` is the entry's canonical JSON text, exactly what its hash covers (as in the table
journal: JSONB would re-encode numbers). ``signature``/``key_id``: the table's Ed25519 signature
of the entry's hash and its key id, as the journal stores them (``None``
unsigned). The search columns (``wagered``, ``top_amount``, ``house_net``, ``seats``,
``flags``, ``dealer``) are read from the content at ingest
(:mod:`dealer_assist.storage.search_columns`) and are not hashed. ``floor_hourly`` sums the
hands per table and hour for the statistics (revision f0003).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg

from dealer_assist.storage.schema import UTCDateTime

metadata = sa.MetaData()

#: The alembic version table of the floor (not ``alembic_version``: a floor and a table journal
#: in one schema must not share it).
VERSION_TABLE = "floor_alembic_version"
#: The revision this program writes and reads.
SCHEMA_HEAD = "f0006"

floor_tables = sa.Table(
    "floor_tables",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("pit", sa.String(64), nullable=True),
    #: the table's Ed25519 public key as 64 hex digits
    #: (:attr:`dealer_assist.storage.signing.PublicKey.hex`), set once; another one is an alert
    sa.Column("public_key", sa.Text, nullable=True),
    sa.Column("last_position", sa.BigInteger, nullable=False),
    sa.Column("last_hash", sa.String(64), nullable=False),
    sa.Column("registered_at", UTCDateTime, nullable=False),
    sa.Column("last_received_at", UTCDateTime, nullable=True),
    #: when and by whom the public key was pinned (``floor enrol``; revision f0006)
    sa.Column("enrolled_at", UTCDateTime, nullable=True),
    sa.Column("enrolled_by", sa.String(64), nullable=True),
)

floor_records = sa.Table(
    "floor_records",
    metadata,
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("position", sa.BigInteger, nullable=False),
    sa.Column("hand_uid", sa.String, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("void_reason", sa.Text, nullable=True),
    sa.Column("started_at", UTCDateTime, nullable=False),
    sa.Column("ended_at", UTCDateTime, nullable=False),
    sa.Column("recorded_at", UTCDateTime, nullable=False),
    sa.Column("received_at", UTCDateTime, nullable=False),
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
    #: the dealer's badge id recorded with the hand (``extra["dealer"]``; revision f0003)
    sa.Column("dealer", sa.String(64), nullable=True),
    #: a verified checkpoint of the signer covers it and it was recorded after the enrolment
    #: (``False``: history the floor did not see happen; ``None``: no checkpoint yet; f0006)
    sa.Column("witnessed", sa.Boolean, nullable=True),
    sa.PrimaryKeyConstraint("table_id", "position", name="pk_floor_records"),
)

#: The hands of a table per UTC hour (revision f0003; docs/STATISTICS.md "Hourly rollup"):
#: ``hour`` the hour they were recorded in (the statistics' range), ``started_hour`` the hour
#: they started in (the hour/day/shift buckets), ``dealer`` ``''`` when not recorded.
#: ``wagered``/``house_net`` are the sums of the records' columns (drop and win); ingest adds
#: to them in the transaction that stores the records.
floor_hourly = sa.Table(
    "floor_hourly",
    metadata,
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("hour", UTCDateTime, nullable=False),
    sa.Column("started_hour", UTCDateTime, nullable=False),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("dealer", sa.String(64), nullable=False),
    sa.Column("hands", sa.BigInteger, nullable=False),
    sa.Column("wagered", sa.BigInteger, nullable=False),
    sa.Column("house_net", sa.BigInteger, nullable=False),
    sa.Column("first_started", UTCDateTime, nullable=False),
    sa.Column("last_ended", UTCDateTime, nullable=False),
    sa.PrimaryKeyConstraint(
        "table_id", "hour", "started_hour", "game", "dealer", name="pk_floor_hourly"
    ),
)

floor_heads = sa.Table(
    "floor_heads",
    metadata,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("position", sa.BigInteger, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("signature", sa.Text, nullable=True),
    sa.Column("received_at", UTCDateTime, nullable=False),
)

#: The table's signer (notary) heads as the forwarder sent them (revision f0006): one row per
#: distinct head, ``last_seen_at`` moving while it stays; ``verified`` against the enrolled key.
floor_checkpoints = sa.Table(
    "floor_checkpoints",
    metadata,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("position", sa.BigInteger, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("signature", sa.Text, nullable=True),
    sa.Column("key_id", sa.String(16), nullable=True),
    sa.Column("signed_at", sa.Text, nullable=True),
    sa.Column("verified", sa.Boolean, nullable=False),
    sa.Column("received_at", UTCDateTime, nullable=False),
    sa.Column("last_seen_at", UTCDateTime, nullable=False),
)

floor_alerts = sa.Table(
    "floor_alerts",
    metadata,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("table_id", sa.String(64), nullable=True),
    sa.Column("position", sa.BigInteger, nullable=True),
    sa.Column("detail", sa.Text, nullable=False),
    sa.Column("raised_at", UTCDateTime, nullable=False),
    sa.Column("acknowledged_by", sa.String, nullable=True),
    sa.Column("acknowledged_at", UTCDateTime, nullable=True),
)

#: Alert kinds raised by ingest (the pit-boss application adds its own).
CHAIN_BREAK = "chain_break"
TAMPERED = "tampered"
GAP = "gap"
FOREIGN_RECORD = "foreign_record"
JOURNAL_BEHIND = "journal_behind"
KEY_CHANGED = "key_changed"
#: A checkpoint whose signature does not verify against the enrolled key, or a signer's head
#: behind (or beside) one the floor received before: the signer's state was replaced.
BAD_CHECKPOINT = "bad_checkpoint"
SIGNER_REWOUND = "signer_rewound"
