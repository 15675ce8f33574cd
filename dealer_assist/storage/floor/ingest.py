"""The floor's check of a table's chain as its records arrive, and their storing.

:func:`ingest` runs inside one transaction holding the table's row lock (``FOR UPDATE``), so two
forwarders of one table (a live one and a ``floor sync``) store each position once. Records must
arrive in chain order from the floor's head: a position the floor holds is compared with its
copy (the same hash: a harmless resend; another: the table's copy was changed after it was
forwarded), the next one must be ``head + 1``, link to the head's hash and hash to its own
(recomputed by :func:`content_hash`: :func:`dealer_assist.storage.chain.chain_hash` over the
canonical text the floor stores, serialized once). The first record that fails
raises an alert and nothing at or past it is stored; the records before it are. The hands
stored are added to the hourly rollup ``floor_hourly`` in the same transaction (a resent record
is a duplicate, not stored, so it is never counted twice).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection

from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage.chain import GENESIS_HASH, canonical_json
from dealer_assist.storage.floor.schema import (
    CHAIN_BREAK,
    FOREIGN_RECORD,
    GAP,
    TAMPERED,
    floor_alerts,
    floor_heads,
    floor_hourly,
    floor_records,
    floor_tables,
)
from dealer_assist.storage.search_columns import search_columns


@dataclass(frozen=True)
class Refusal:
    """Why the floor stopped storing a table's records.

    Attributes:
        position: the chain position refused (nothing at or past it was stored).
        kind: the alert's kind (``chain_break``, ``tampered``, ``gap``, ``foreign_record``,
            ``journal_behind``).
        reason: the sentence, naming the position.
        alert_id: the alert row raised (an existing one when the same break was seen before).
    """

    position: int
    kind: str
    reason: str
    alert_id: int


@dataclass(frozen=True)
class IngestResult:
    """What one :func:`ingest` did.

    Attributes:
        table_id: the table.
        stored: records newly stored; ``first``/``last``: their positions (``None`` if none).
        duplicates: records the floor already held, identical.
        head_position, head_hash: the floor's head of the table afterwards.
        refused: the refusal, ``None`` when every record was taken.
    """

    table_id: str
    stored: int
    duplicates: int
    first: int | None
    last: int | None
    head_position: int
    head_hash: str
    refused: Refusal | None = None


def content_hash(prev_hash: str, text: str) -> str:
    """:func:`~dealer_assist.storage.chain.chain_hash` of a content already serialized by
    :func:`~dealer_assist.storage.chain.canonical_json` (``text``): ``sha256(prev_hash ||
    text)`` as 64 hex digits, the same bytes hashed, so ingest serializes each record once
    (the JSON encoding is most of its time). tests/core/test_floor_ingest.py checks the two
    agree."""
    digest = hashlib.sha256()
    digest.update(prev_hash.encode("ascii"))
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()


def ensure_table(
    conn: Connection, table_id: str, game: str, now: datetime, pit: str | None = None
) -> None:
    """Create the table's row (head at position 0) unless it exists; ``pit`` is set when given."""
    stmt = pg_insert(floor_tables).values(
        table_id=table_id,
        game=game,
        pit=pit,
        last_position=0,
        last_hash=GENESIS_HASH,
        registered_at=now,
    )
    if pit is None:
        conn.execute(stmt.on_conflict_do_nothing(index_elements=["table_id"]))
    else:
        conn.execute(stmt.on_conflict_do_update(index_elements=["table_id"], set_={"pit": pit}))


def raise_alert(
    conn: Connection,
    kind: str,
    table_id: str | None,
    position: int | None,
    detail: str,
    now: datetime,
) -> int:
    """The id of the alert ``kind`` of ``table_id`` at ``position``: the one already raised
    (acknowledged or not: the same break seen again is not a new alert), else a new row."""
    where = [floor_alerts.c.kind == kind]
    for column, value in ((floor_alerts.c.table_id, table_id), (floor_alerts.c.position, position)):
        where.append(column.is_(None) if value is None else column == value)
    found = conn.execute(sa.select(floor_alerts.c.id).where(*where).limit(1)).scalar()
    if found is not None:
        return int(found)
    new = conn.execute(
        sa.insert(floor_alerts)
        .values(kind=kind, table_id=table_id, position=position, detail=detail, raised_at=now)
        .returning(floor_alerts.c.id)
    ).scalar_one()
    return int(new)


def ingest(
    conn: Connection,
    table_id: str,
    hands: Sequence[StoredHand],
    now: datetime,
    signatures: Mapping[int, str] | None = None,
) -> IngestResult:
    """Check and store ``hands`` (journal entries of ``table_id`` in chain order) in the open
    transaction of ``conn``; the table's row must exist (:func:`ensure_table`).

    Returns the :class:`IngestResult`; a refusal is in it (its alert row written in the same
    transaction), never raised. Database errors raise (the caller translates them).
    """
    head = conn.execute(
        sa.select(floor_tables.c.last_position, floor_tables.c.last_hash)
        .where(floor_tables.c.table_id == table_id)
        .with_for_update()
    ).one()
    held, head_hash = int(head.last_position), str(head.last_hash)
    overlap = [h.hand_id for h in hands if h.hand_id <= held]
    stored_hashes: dict[int, str] = {}
    if overlap:
        stored_hashes = {
            int(r.position): str(r.hash)
            for r in conn.execute(
                sa.select(floor_records.c.position, floor_records.c.hash).where(
                    floor_records.c.table_id == table_id, floor_records.c.position.in_(overlap)
                )
            )
        }
    rows: list[dict[str, Any]] = []
    duplicates = 0
    refusal: tuple[int, str, str] | None = None
    expected = held + 1
    for hand in hands:
        refusal = _check(hand, table_id, held, expected, head_hash, stored_hashes, bool(rows))
        if refusal is not None:
            break
        if hand.hand_id <= held and not rows:
            duplicates += 1
            continue
        text = canonical_json(hand.content())
        if content_hash(hand.prev_hash, text) != hand.hash:
            refusal = (
                hand.hand_id,
                CHAIN_BREAK,
                f"position {hand.hand_id}: its content does "
                "not match its hash (changed after it was hashed)",
            )
            break
        rows.append(_values(hand, text, now, signatures))
        expected, head_hash = hand.hand_id + 1, hand.hash
    if rows:
        _copy_rows(conn, rows)
        _roll_up(conn, rows)
        last = rows[-1]
        conn.execute(
            sa.update(floor_tables)
            .where(floor_tables.c.table_id == table_id)
            .values(last_position=last["position"], last_hash=last["hash"], last_received_at=now)
        )
        conn.execute(
            sa.insert(floor_heads).values(
                table_id=table_id,
                position=last["position"],
                hash=last["hash"],
                signature=last["signature"],
                received_at=now,
            )
        )
    refused = None
    if refusal is not None:
        position, kind, reason = refusal
        alert = raise_alert(conn, kind, table_id, position, reason, now)
        refused = Refusal(position, kind, reason, alert)
    return IngestResult(
        table_id=table_id,
        stored=len(rows),
        duplicates=duplicates,
        first=rows[0]["position"] if rows else None,
        last=rows[-1]["position"] if rows else None,
        head_position=expected - 1,
        head_hash=head_hash,
        refused=refused,
    )


def _check(
    hand: StoredHand,
    table_id: str,
    held: int,
    expected: int,
    head_hash: str,
    stored_hashes: Mapping[int, str],
    storing: bool,
) -> tuple[int, str, str] | None:
    """The refusal of ``hand`` before its hash is recomputed (position, alert kind, reason)."""
    p = hand.hand_id
    if hand.table_id != table_id:
        return (
            p,
            FOREIGN_RECORD,
            f"position {p} is a record of table {hand.table_id!r}, "
            f"not {table_id!r}: one chain per table",
        )
    if p <= held and not storing:
        ours = stored_hashes.get(p)
        if ours is None:
            return (
                p,
                GAP,
                f"position {p} is below the floor's head {held} but the floor holds no copy of it",
            )
        if ours != hand.hash:
            return (
                p,
                TAMPERED,
                f"position {p}: the table's copy (hash {hand.hash[:12]}…) "
                f"differs from the floor's (hash {ours[:12]}…): changed after it was "
                "forwarded",
            )
        return None
    if p != expected:
        return (
            p,
            GAP,
            f"position {p} arrived when the floor expects {expected}: refused "
            "(a record is never skipped)",
        )
    if hand.prev_hash != head_hash:
        what = "does not start the chain" if p == 1 else f"does not link to position {p - 1}"
        return (p, CHAIN_BREAK, f"position {p}: its prev_hash {what} as the floor holds it")
    return None


_COLUMNS = tuple(c.name for c in floor_records.columns)


def _copy_rows(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` with ``COPY`` on the transaction's own connection (several times the
    speed of a batched INSERT for records of kilobytes); a conflict on the primary key fails
    the whole transaction, as an INSERT would."""
    raw: Any = conn.connection.driver_connection
    columns = ", ".join(_COLUMNS)
    with raw.cursor() as cursor, cursor.copy(f"COPY floor_records ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([row[c] for c in _COLUMNS])


def _values(
    hand: StoredHand, content: str, now: datetime, signatures: Mapping[int, str] | None
) -> dict[str, Any]:
    return {
        "table_id": hand.table_id,
        "position": hand.hand_id,
        "hand_uid": hand.hand_uid,
        "status": hand.status,
        "game": hand.game,
        "void_reason": hand.void_reason,
        "started_at": hand.started_at,
        "ended_at": hand.ended_at,
        "recorded_at": hand.recorded_at,
        "received_at": now,
        "content": content,
        "prev_hash": hand.prev_hash,
        "hash": hand.hash,
        "signature": (
            getattr(hand, "signature", None) if signatures is None else signatures.get(hand.hand_id)
        ),
        "key_id": getattr(hand, "key_id", None),
        **search_columns(hand),
        "witnessed": None,  # decided by the checkpoint that covers it (checkpoints.py)
    }


def hour_of(when: datetime) -> datetime:
    """``when`` truncated to its UTC hour (the ``floor_hourly`` keys; SQL's
    ``date_trunc('hour', ...)`` in UTC)."""
    return when.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def _roll_up(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Add the hands among ``rows`` (records just stored; table records are not hands) to
    ``floor_hourly``: summed here per key, then one upsert that adds to a key already there,
    in the caller's transaction, so the rollup holds exactly the stored records."""
    sums: dict[tuple[Any, ...], list[Any]] = {}
    for row in rows:
        if row["status"] == TABLE_RECORD:
            continue
        key = (
            row["table_id"],
            hour_of(row["recorded_at"]),
            hour_of(row["started_at"]),
            row["game"],
            row["dealer"] or "",
        )
        acc = sums.get(key)
        wagered, net = row["wagered"] or 0, row["house_net"] or 0
        if acc is None:
            sums[key] = [1, wagered, net, row["started_at"], row["ended_at"]]
        else:
            acc[0] += 1
            acc[1] += wagered
            acc[2] += net
            acc[3] = min(acc[3], row["started_at"])
            acc[4] = max(acc[4], row["ended_at"])
    if not sums:
        return
    stmt = pg_insert(floor_hourly).values(
        [
            {
                "table_id": k[0],
                "hour": k[1],
                "started_hour": k[2],
                "game": k[3],
                "dealer": k[4],
                "hands": a[0],
                "wagered": a[1],
                "house_net": a[2],
                "first_started": a[3],
                "last_ended": a[4],
            }
            for k, a in sums.items()
        ]
    )
    old = floor_hourly.c
    conn.execute(
        stmt.on_conflict_do_update(
            constraint="pk_floor_hourly",
            set_={
                "hands": old.hands + stmt.excluded.hands,
                "wagered": old.wagered + stmt.excluded.wagered,
                "house_net": old.house_net + stmt.excluded.house_net,
                "first_started": sa.func.least(old.first_started, stmt.excluded.first_started),
                "last_ended": sa.func.greatest(old.last_ended, stmt.excluded.last_ended),
            },
        )
    )
