"""The signer's checkpoints on the floor: the floor as a witness of each table's chain.

A table's forwarder sends its signer's (notary's) head with every batch and at least each
minute (:class:`Checkpoint`). :func:`receive` checks it in the table's row lock: its signature
against the key enrolled on the floor (``floor enrol``), its position against the heads the
floor received before (a signer's head never moves back: one that does had its state replaced),
its hash against the record the floor holds there (the signature covers the entry's hash, so a
head is taken only at a record the floor holds, which binds its position; a head past the
floor's records waits for the next round). A head the floor accepts is kept (one row
per distinct head; ``last_seen_at`` moves while it stays) and marks the records it covers
*witnessed*, or *not witnessed* when they were recorded before the table was enrolled on this
floor (history re-sent to a re-created floor: the floor did not see it happen).

What a checkpoint proves: the signer signed up to that position with that hash at that time.
A journal that later ends before it (cut, deleted and restarted) or differs at a position it
covers was rewritten; ``audit verify`` compares the journal with every checkpoint
(:func:`compare_journal`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dealer_assist.errors import JournalError
from dealer_assist.ports import StoredHand
from dealer_assist.storage.floor.ingest import raise_alert
from dealer_assist.storage.floor.schema import (
    BAD_CHECKPOINT,
    KEY_CHANGED,
    SIGNER_REWOUND,
    TAMPERED,
    floor_checkpoints,
    floor_records,
    floor_tables,
)
from dealer_assist.storage.signing import public_key_from_text

_c = floor_checkpoints.c


@dataclass(frozen=True)
class Checkpoint:
    """A signer's head as a table sends it.

    Attributes:
        position: the last entry the signer signed (its ``hand_id``), 0 before the first.
        hash: that entry's hash (64 hex digits).
        signature: the signer's signature of it (128 hex digits), ``None`` at 0 or just
            adopted (an upgrade's head: nothing signed yet).
        key_id: the signer's key id (16 hex digits), ``None`` before it has a key.
        signed_at: when the signer signed it (ISO UTC, the signer's clock), or ``None``.
    """

    position: int
    hash: str
    signature: str | None = None
    key_id: str | None = None
    signed_at: str | None = None


@dataclass(frozen=True)
class CheckpointResult:
    """What the floor did with one checkpoint.

    Attributes:
        stored: a new head was kept (``False``: the same head again, or refused).
        verified: its signature checks against the enrolled key (``False``: no key enrolled
            yet, or refused).
        witnessed, not_witnessed: records newly marked so.
        refused: the alert's sentence when the floor refused it (an alert was raised).
        deferred: not kept, no alert: the floor holds no record at its position yet (a head
            is taken only at a record the floor holds with that hash: what binds the position,
            the signature covering the entry's hash).
    """

    stored: bool
    verified: bool
    witnessed: int = 0
    not_witnessed: int = 0
    refused: str | None = None
    deferred: bool = False


@dataclass(frozen=True)
class StoredCheckpoint:
    """A checkpoint as the floor kept it (``received_at``/``last_seen_at`` UTC)."""

    position: int
    hash: str
    signature: str | None
    key_id: str | None
    signed_at: str | None
    verified: bool
    received_at: datetime
    last_seen_at: datetime


def receive(conn: Connection, table_id: str, cp: Checkpoint, now: datetime) -> CheckpointResult:
    """Check and keep ``cp`` of ``table_id`` in the open transaction of ``conn`` (the table's
    row must exist). A refusal raises its alert in the same transaction and is returned, never
    raised; database errors raise (the caller translates them)."""
    table = conn.execute(
        sa.select(floor_tables.c.public_key, floor_tables.c.enrolled_at)
        .where(floor_tables.c.table_id == table_id)
        .with_for_update()
    ).one()
    verified = False
    if table.public_key is not None and cp.position > 0:
        try:
            key = public_key_from_text(table.public_key, f"the floor's key of {table_id}")
        except JournalError as e:
            return _refuse(conn, BAD_CHECKPOINT, table_id, cp, str(e), now)
        if cp.key_id is not None and cp.key_id != key.key_id:
            return _refuse(
                conn,
                KEY_CHANGED,
                table_id,
                cp,
                f"the signer's head {cp.position} is signed with key {cp.key_id}, "
                f"not the key enrolled on the floor ({key.key_id})",
                now,
            )
        if cp.signature is None or not key.verify_hash(cp.hash, cp.signature):
            return _refuse(
                conn,
                BAD_CHECKPOINT,
                table_id,
                cp,
                f"the signer's head {cp.position} does not carry a signature of the "
                "table's enrolled key: not the table's signer",
                now,
            )
        verified = True
    latest = conn.execute(
        sa.select(_c.id, _c.position, _c.hash, _c.verified)
        .where(_c.table_id == table_id)
        .order_by(_c.position.desc(), _c.id.desc())
        .limit(1)
    ).one_or_none()
    if latest is not None:
        if cp.position < latest.position or (
            cp.position == latest.position and cp.hash != latest.hash
        ):
            return _refuse(
                conn,
                SIGNER_REWOUND,
                table_id,
                cp,
                f"the signer's head is position {cp.position} (hash {cp.hash[:12]}…) "
                f"but it was at {latest.position} (hash {latest.hash[:12]}…): the "
                "signer's state was replaced or its chain rewritten",
                now,
            )
        if cp.position == latest.position and verified <= latest.verified:
            conn.execute(
                sa.update(floor_checkpoints).where(_c.id == latest.id).values(last_seen_at=now)
            )
            if not verified:
                return CheckpointResult(False, False)
            yes, no = mark_witnessed(conn, table_id, cp.position, table.enrolled_at)
            return CheckpointResult(False, True, yes, no)
    held = conn.execute(
        sa.select(floor_records.c.hash).where(
            floor_records.c.table_id == table_id, floor_records.c.position == cp.position
        )
    ).scalar()
    if held is None:  # the signature covers the hash: the position is the record's
        return CheckpointResult(False, verified, refused=None, deferred=True)
    if held != cp.hash:
        return _refuse(
            conn,
            TAMPERED,
            table_id,
            cp,
            f"position {cp.position}: the signer signed hash {cp.hash[:12]}… but the "
            f"floor holds hash {held[:12]}…",
            now,
        )
    conn.execute(
        sa.insert(floor_checkpoints).values(
            table_id=table_id,
            position=cp.position,
            hash=cp.hash,
            signature=cp.signature,
            key_id=cp.key_id,
            signed_at=cp.signed_at,
            verified=verified,
            received_at=now,
            last_seen_at=now,
        )
    )
    if not verified:
        return CheckpointResult(True, False)
    yes, no = mark_witnessed(conn, table_id, cp.position, table.enrolled_at)
    return CheckpointResult(True, True, yes, no)


def mark_witnessed(
    conn: Connection, table_id: str, position: int, enrolled_at: datetime | None
) -> tuple[int, int]:
    """Decide the records of ``table_id`` up to ``position`` not decided yet: witnessed when
    recorded at or after ``enrolled_at``, not witnessed before it (``None``: nothing is
    decided). Returns how many of each."""
    if enrolled_at is None:
        return 0, 0
    r = floor_records.c
    pending = [r.table_id == table_id, r.position <= position, r.witnessed.is_(None)]
    yes = conn.execute(
        sa.update(floor_records)
        .where(*pending, r.recorded_at >= enrolled_at)
        .values(witnessed=True)
    ).rowcount
    no = conn.execute(
        sa.update(floor_records)
        .where(*pending, r.recorded_at < enrolled_at)
        .values(witnessed=False)
    ).rowcount
    return int(yes or 0), int(no or 0)


def _refuse(
    conn: Connection, kind: str, table_id: str, cp: Checkpoint, reason: str, now: datetime
) -> CheckpointResult:
    raise_alert(conn, kind, table_id, cp.position, reason, now)
    return CheckpointResult(False, False, refused=reason)


def stored(conn: Connection, table_id: str) -> list[StoredCheckpoint]:
    """The checkpoints of ``table_id`` the floor kept, by position."""
    rows = conn.execute(
        sa.select(floor_checkpoints).where(_c.table_id == table_id).order_by(_c.position, _c.id)
    )
    return [
        StoredCheckpoint(
            int(m.position),
            m.hash,
            m.signature,
            m.key_id,
            m.signed_at,
            bool(m.verified),
            m.received_at,
            m.last_seen_at,
        )
        for m in rows
    ]


@dataclass(frozen=True)
class CheckpointComparison:
    """A chain (the journal's, the floor's copy) against the signer's checkpoints.

    Attributes:
        ok: every checkpoint's position is in the chain with the checkpoint's hash.
        compared: checkpoints compared.
        first_bad: the first position that fails (``None`` when ok).
        reason: one sentence naming it.
        latest: the latest checkpoint's position (0 when there is none).
    """

    ok: bool
    compared: int
    first_bad: int | None
    reason: str
    latest: int = 0


def compare_chain(
    entries: Iterable[StoredHand], checkpoints: list[StoredCheckpoint], what: str
) -> CheckpointComparison:
    """Walk ``entries`` (one table's, in position order) once against ``checkpoints`` (by
    position): the chain must reach the latest checkpoint and hold each checkpoint's hash at
    its position. ``what`` names the chain in the sentences (``"the journal"``)."""
    wanted = [c for c in checkpoints if c.position > 0]
    latest = max((c.position for c in wanted), default=0)
    if not wanted:
        return CheckpointComparison(True, 0, None, "no checkpoint of the signer yet", 0)
    positions = {c.position for c in wanted}
    found: dict[int, str] = {}
    last = 0
    for entry in _upto(entries, latest):
        last = entry.hand_id
        if entry.hand_id in positions:
            found[entry.hand_id] = entry.hash
    for compared, c in enumerate(sorted(wanted, key=lambda c: c.position)):
        p = c.position
        if p > last:
            return CheckpointComparison(
                False,
                compared,
                last + 1,
                f"the signer's checkpoint on the floor is at position {latest} but {what} ends "
                f"at {last}: cut, deleted or replaced (position {last + 1} is missing)",
                latest,
            )
        if p not in found:
            return CheckpointComparison(
                False,
                compared,
                p,
                f"position {p}: the signer signed it but {what} does not hold it (removed)",
                latest,
            )
        if found[p] != c.hash:
            return CheckpointComparison(
                False,
                compared,
                p,
                f"position {p}: {what} holds hash {found[p][:16]}… but the signer signed "
                f"{c.hash[:16]}… (checkpoint received {c.received_at:%Y-%m-%d %H:%M:%S} "
                "UTC): rewritten after it was signed",
                latest,
            )
    return CheckpointComparison(
        True,
        len(wanted),
        None,
        f"{len(wanted)} checkpoint(s) of the signer match, up to position {latest}",
        latest,
    )


def _upto(entries: Iterable[StoredHand], position: int) -> Iterator[StoredHand]:
    for entry in entries:
        if entry.hand_id > position:
            return
        yield entry


@dataclass(frozen=True)
class TableWitness:
    """What the floor witnessed of one table for a report over ``[start, end)``.

    Attributes:
        checkpoint: the latest checkpoint the floor received at or before ``end`` (``None``:
            none yet).
        records: the table's records recorded in the range (hands and table records).
        witnessed: those a verified checkpoint covers, recorded after the enrolment.
    """

    checkpoint: StoredCheckpoint | None
    records: int
    witnessed: int

    @property
    def not_witnessed(self) -> int:
        """Records of the range no checkpoint witnessed (history before the enrolment, or
        not covered by a verified checkpoint yet)."""
        return self.records - self.witnessed


def table_witness(conn: Connection, table_id: str, start: datetime, end: datetime) -> TableWitness:
    """The :class:`TableWitness` of ``table_id`` over ``[start, end)`` (UTC aware)."""
    latest = conn.execute(
        sa.select(floor_checkpoints)
        .where(_c.table_id == table_id, _c.received_at <= end)
        .order_by(_c.position.desc(), _c.id.desc())
        .limit(1)
    ).one_or_none()
    r = floor_records.c
    counts = conn.execute(
        sa.select(sa.func.count(), sa.func.count().filter(r.witnessed.is_(True))).where(
            r.table_id == table_id, r.recorded_at >= start, r.recorded_at < end
        )
    ).one()
    cp = None
    if latest is not None:
        cp = StoredCheckpoint(
            int(latest.position),
            latest.hash,
            latest.signature,
            latest.key_id,
            latest.signed_at,
            bool(latest.verified),
            latest.received_at,
            latest.last_seen_at,
        )
    return TableWitness(cp, int(counts[0]), int(counts[1]))
