"""SQLAlchemy Core tables of the journal (the migrations in ``migrations/`` create them).

JSON is kept as canonical JSON text rather than JSON/JSONB columns so that what verify hashes is
exactly what was stored, on every backend (JSONB would re-encode numbers and keys).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect

from dealer_assist.errors import JournalError


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend.

    PostgreSQL stores ``timestamptz``; SQLite has no time zones, so the UTC wall time is stored
    and UTC re-attached on reading. Microseconds survive on both.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise JournalError(f"timestamp without timezone: {value.isoformat()} (UTC required)")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime):
            raise JournalError(f"stored timestamp is not a datetime: {value!r}")
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata = sa.MetaData()

#: One row (id 1): the last hand's id and hash. Appends lock it, so the chain cannot fork.
chain_head = sa.Table(
    "chain_head",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("last_hand_id", sa.BigInteger, nullable=False),
    sa.Column("last_hash", sa.String(64), nullable=False),
)

hands = sa.Table(
    "hands",
    metadata,
    sa.Column("hand_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("hand_uid", sa.String, nullable=True),
    sa.Column("table_id", sa.String, nullable=False),
    sa.Column("game", sa.String, nullable=False),
    sa.Column("started_at", UTCDateTime, nullable=False),
    sa.Column("ended_at", UTCDateTime, nullable=False),
    sa.Column("status", sa.String, nullable=False),
    sa.Column("void_reason", sa.Text, nullable=True),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("settlement", sa.Text, nullable=True),
    sa.Column("events", sa.Text, nullable=False),
    sa.Column("extra", sa.Text, nullable=False),
    sa.Column("recorded_at", UTCDateTime, nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    # the table key's Ed25519 signature of ``hash`` and the key's id (revision 0003); NULL for
    # entries written before the table signed its chain. Outside the hashed content.
    sa.Column("signature", sa.String(128), nullable=True),
    sa.Column("key_id", sa.String(16), nullable=True),
    sa.UniqueConstraint("hand_uid", name="uq_hands_hand_uid"),
)
#: The columns of ``hands`` added by revision 0003 (absent from an older journal read as it is).
SIGNATURE_COLUMNS = ("signature", "key_id")
sa.Index("ix_hands_table_started", hands.c.table_id, hands.c.started_at)

pending_steps = sa.Table(
    "pending_steps",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String, nullable=False),
    sa.Column("hand_uid", sa.String, nullable=False),
    sa.Column("step_no", sa.Integer, nullable=False),
    sa.Column("kind", sa.String, nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("written_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("table_id", "hand_uid", "step_no", name="uq_pending_steps_step"),
)

#: The verified-up-to mark (one row, id 1): the entry the last start-up verify reached and its
#: hash, so the next start verifies only what came after (a rewritten earlier part changes the
#: hash at the mark, or is caught by the full ``audit verify``). ``note``: an operator's
#: acknowledgement of a failed verify, when the mark was set by one.
verify_mark = sa.Table(
    "verify_mark",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("hand_id", sa.BigInteger, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("verified_at", UTCDateTime, nullable=False),
    sa.Column("note", sa.Text, nullable=True),
)

#: The pit boss's search columns of each hand (revision 0004; not table records), written with
#: the hand in its transaction: :mod:`dealer_assist.storage.hand_index`. Outside the hashed
#: content and never trusted for audit (verify reads ``hands`` only); rebuilt from the content
#: by the migration. ``seats`` and ``flags`` are text lists (``",1,3,"``), SQLite having no
#: arrays; ``void_folded``: the void reason in lower case, for the case-insensitive search.
#: ``hand_id`` is SQLite's rowid, so each index ends with it (ties by position).
hand_search = sa.Table(
    "hand_search",
    metadata,
    sa.Column(
        "hand_id",
        sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
        sa.ForeignKey("hands.hand_id", ondelete="CASCADE", onupdate="CASCADE"),
        primary_key=True,
        autoincrement=False,
    ),
    sa.Column("table_id", sa.String, nullable=False),
    sa.Column("status", sa.String, nullable=False),
    sa.Column("game", sa.String, nullable=False),
    sa.Column("recorded_at", UTCDateTime, nullable=False),
    sa.Column("wagered", sa.BigInteger, nullable=True),
    sa.Column("top_amount", sa.BigInteger, nullable=True),
    sa.Column("seats", sa.Text, nullable=True),
    sa.Column("flags", sa.Text, nullable=True),
    sa.Column("dealer", sa.String, nullable=True),
    sa.Column("void_reason", sa.Text, nullable=True),
    sa.Column("void_folded", sa.Text, nullable=True),
)

#: The alembic revision this program writes.
SCHEMA_HEAD = "0004"
#: Revisions a read-only open can read as they are (hands and chain head as this program reads
#: them); an older one outside this set must be upgraded by a writable open first.
READABLE_REVISIONS = frozenset({"0001", "0002", "0003", "0004"})
#: Every revision this program knows (to tell an older schema from a newer program's).
KNOWN_REVISIONS = frozenset({"0001", "0002", "0003", "0004"})
#: Revisions whose ``hands`` have no :data:`SIGNATURE_COLUMNS` (read without them).
UNSIGNED_REVISIONS = frozenset({"0001", "0002"})
#: Revisions with the search columns (:data:`hand_search`); older ones are searched in memory.
SEARCH_REVISIONS = frozenset({"0004"})


def hand_columns(signed: bool) -> list[sa.Column[Any]]:
    """The ``hands`` columns to select: all of them, or (``signed`` false: a journal of
    revision 0001/0002 read without upgrading) all but the signature columns."""
    return [c for c in hands.c if signed or c.name not in SIGNATURE_COLUMNS]
