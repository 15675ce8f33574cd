"""The pit boss's search columns of each hand (``hand_search``), outside the hashed content.

Revision ID: 0004
Revises: 0003

The hands stored before are read in pages of ``_BATCH`` and their columns computed by the
same function the journal uses at each append
(:func:`dealer_assist.storage.hand_index.search_values`, the floor's ``search_columns``); the
indexes are built once the table is filled (faster than growing them row by row).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from dealer_assist.storage.hand_index import search_rows
from dealer_assist.storage.rows import row_to_hand
from dealer_assist.storage.schema import hand_search, hands

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

_BATCH = 5000
#: Frozen copies (migrations must not change): the search flags, and the indexes by name.
_FLAGS = (
    "device_fault",
    "manual_card",
    "camera_card",
    "link_lost",
    "source_switched",
    "identity_changed",
    "resumed",
)
#: A sort key's index ends with ``hand_id`` (its ties) and then ``recorded_at``: walked in the
#: sort's order, a time range is checked on the index entry, not on the hand's row.
_INDEXES = {
    "ix_hand_search_recorded": ["recorded_at", "table_id"],
    "ix_hand_search_table": ["table_id", "hand_id", "recorded_at"],
    "ix_hand_search_game": ["game", "table_id", "hand_id", "recorded_at"],
    "ix_hand_search_status": ["status", "table_id", "hand_id", "recorded_at"],
    "ix_hand_search_top_amount": ["top_amount", "table_id", "hand_id", "recorded_at"],
    "ix_hand_search_wagered": ["wagered", "table_id", "hand_id", "recorded_at"],
    "ix_hand_search_dealer": ["dealer", "recorded_at", "table_id"],
}


def upgrade() -> None:
    """Create ``hand_search``, fill it from every stored hand, then index it."""
    bind = op.get_bind()
    op.create_table(
        "hand_search",
        sa.Column(
            "hand_id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),  # SQLite: the rowid
            sa.ForeignKey("hands.hand_id", ondelete="CASCADE", onupdate="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("table_id", sa.String, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wagered", sa.BigInteger, nullable=True),
        sa.Column("top_amount", sa.BigInteger, nullable=True),
        sa.Column("seats", sa.Text, nullable=True),
        sa.Column("flags", sa.Text, nullable=True),
        sa.Column("dealer", sa.String, nullable=True),
        sa.Column("void_reason", sa.Text, nullable=True),
        sa.Column("void_folded", sa.Text, nullable=True),
    )
    last = 0
    while True:
        rows = bind.execute(
            sa.select(hands).where(hands.c.hand_id > last).order_by(hands.c.hand_id).limit(_BATCH)
        ).all()
        if not rows:
            break
        batch = [row_to_hand(r) for r in rows]
        values = search_rows(batch)
        if values:
            bind.execute(sa.insert(hand_search), values)
        last = batch[-1].hand_id
    for name, columns in _INDEXES.items():
        op.create_index(name, "hand_search", columns)
    op.create_index(
        "ix_hand_search_voids",
        "hand_search",
        ["recorded_at", "table_id"],
        sqlite_where=sa.text("status = 'void'"),
        postgresql_where=sa.text("status = 'void'"),
    )
    for flag in _FLAGS:
        op.create_index(
            f"ix_hand_search_flag_{flag}",
            "hand_search",
            ["recorded_at", "table_id"],
            sqlite_where=sa.text(f"instr(flags, ',{flag},') > 0"),
            postgresql_where=sa.text(f"strpos(flags, ',{flag},') > 0"),
        )


def downgrade() -> None:
    """Drop the search columns (the hands are untouched; search falls back to memory)."""
    op.drop_table("hand_search")
