"""The pit boss's index over one table's journal, rebuilt from the journal once it verifies
(docs/PITBOSS.md "One journal: verified first").

The journal's own ``hand_search`` table is outside the hash chain: whoever can write the
journal's file can empty it or change an amount there without breaking ``audit verify``. So the
application never reads it. On open the whole chain is verified (hashes, links, head, and
signatures under the audit's default policy: unsigned entries only before a signed legacy
checkpoint), and in the same walk each entry, once its hash, link and signature are checked, has
its search columns (:func:`~dealer_assist.storage.hand_index.search_values`,
the floor's own) are written to a private in-memory SQLite index with the indexes of revision
0004 (:data:`~dealer_assist.storage.hand_index.INDEXES`, one per search flag), which
:mod:`dealer_assist.storage.search_sql` searches. Entries appended later are
verified from the last verified position (the mark must still hold its hash) before they are
indexed; a hand opened is checked against the hash verified for its position.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.pool import StaticPool

from dealer_assist.errors import JournalError
from dealer_assist.pitboss.filters import FLAGS
from dealer_assist.ports import StoredHand
from dealer_assist.storage.chain import GENESIS_HASH, chain_hash
from dealer_assist.storage.hand_index import (
    INDEXES,
    IX_VOIDS,
    flag_index,
    flag_term,
    search_values,
)
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.schema import hand_search
from dealer_assist.storage.signing import KeyRing
from dealer_assist.storage.verify import verify_chain

_BATCH = 2000


class JournalNotVerifiedError(JournalError):
    """The journal does not verify (or changed after it did): the sentence names the position
    and the reason; nothing of it is shown."""


def _private_schema() -> tuple[sa.MetaData, sa.Table, sa.Table]:
    meta = sa.MetaData()
    cols = [
        sa.Column(
            c.name, c.type, primary_key=c.primary_key, nullable=c.nullable, autoincrement=False
        )
        for c in hand_search.c
    ]
    search = sa.Table("hand_search", meta, *cols)
    for name, columns in INDEXES.items():
        sa.Index(name, *(search.c[c] for c in columns))
    sa.Index(
        IX_VOIDS, search.c.recorded_at, search.c.table_id, sqlite_where=sa.text("status = 'void'")
    )
    for flag in FLAGS:
        sa.Index(
            flag_index(flag),
            search.c.recorded_at,
            search.c.table_id,
            sqlite_where=sa.text(flag_term(flag)),
        )
    hashes = sa.Table(
        "verified_hashes",
        meta,
        sa.Column("hand_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    return meta, search, hashes


class VerifiedIndex:
    """The verified, rebuilt search index of ``journal`` (open, read-only), signatures checked
    against ``keys`` (default: the journal's own key folder, as ``audit verify`` without a
    pinned key). Not thread-safe: the application calls it from its one worker thread.

    Raises (:meth:`build`, :meth:`catch_up`, :meth:`check`): JournalNotVerifiedError;
    JournalError when the journal cannot be read.
    """

    def __init__(self, journal: Journal, keys: KeyRing | None = None) -> None:
        self.journal = journal
        self.keys = keys
        self.position = 0
        """The last verified entry (0: none)."""
        self.head_hash = GENESIS_HASH
        self.signatures = 0
        """Signatures checked so far."""
        self._engine = sa.create_engine(
            "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
        meta, self._search, self._hashes = _private_schema()
        meta.create_all(self._engine)
        self._failed: str | None = None

    def _fail(self, text: str) -> JournalNotVerifiedError:
        self._failed = (
            f"the journal {self.journal.url_or_path} does not verify ({text}): the pit-boss "
            "application shows none of it; dealer-assist audit verify --db "
            f"{self.journal.url_or_path} says more"
        )
        return JournalNotVerifiedError(self._failed)

    def build(self) -> None:
        """Verify the whole journal and index every entry (see the module doc)."""
        if self.keys is None:
            self.keys = self.journal.local_keys()
        self._walk(0, GENESIS_HASH)

    def catch_up(self) -> None:
        """Verify and index the entries appended since the last verified one (nothing to do
        when none); a journal that stopped verifying stays refused."""
        if self._failed is not None:
            raise JournalNotVerifiedError(self._failed)
        last = self.journal.last_hand()
        if last is None or last.hand_id == self.position:
            if last is None and self.position:
                raise self._fail(f"hand 1: missing (the journal held {self.position} entries)")
            return
        self._walk(self.position, self.head_hash)

    def _walk(self, start: int, start_hash: str) -> None:
        """One walk of the chain after ``start`` (verify_chain, in one read transaction): each
        entry indexed once its hash, link and signature are checked."""
        rows: list[dict[str, Any]] = []
        hashes: list[dict[str, Any]] = []

        def seen(hand: StoredHand) -> None:
            values = search_values(hand)
            if values is not None:
                rows.append(values)
            hashes.append({"hand_id": hand.hand_id, "hash": hand.hash})
            if len(hashes) >= _BATCH:
                self._write(rows, hashes)
                rows.clear()
                hashes.clear()

        # a failed walk leaves its rows in the index, which is refused from then on
        with self.journal.reading("verify the journal") as conn, conn.begin():
            result = verify_chain(
                conn, start, start_hash, keys=self.keys, checkpoint=True, verified=seen
            )
        if not result.ok:
            raise self._fail(f"hand {result.first_bad_hand}: {result.reason}")
        self._write(rows, hashes)
        self.signatures += result.signatures_checked
        self.position = result.hands_checked
        self.head_hash = result.head_hash or start_hash

    def _write(self, rows: list[dict[str, Any]], hashes: list[dict[str, Any]]) -> None:
        with self._engine.begin() as conn:
            if rows:
                conn.execute(sa.insert(self._search), rows)
            if hashes:
                conn.execute(sa.insert(self._hashes), hashes)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection to the private index (its ``hand_search`` table)."""
        with self._engine.connect() as conn:
            yield conn

    def check(self, hand: StoredHand) -> StoredHand:
        """``hand`` when it is the entry verified at its position (its content re-hashed).
        Raises JournalNotVerifiedError otherwise (changed or appended after the verify)."""
        if self._failed is not None:
            raise JournalNotVerifiedError(self._failed)
        with self._engine.connect() as conn:
            known = conn.execute(
                sa.select(self._hashes.c.hash).where(self._hashes.c.hand_id == hand.hand_id)
            ).scalar_one_or_none()
        if known is None:
            raise JournalNotVerifiedError(
                f"hand {hand.hand_id} is not verified yet: search again to read it"
            )
        if hand.hash != known or chain_hash(hand.prev_hash, hand.content()) != known:
            raise self._fail(f"hand {hand.hand_id}: changed after it was verified")
        return hand

    def close(self) -> None:
        """Drop the private index."""
        self._engine.dispose()
