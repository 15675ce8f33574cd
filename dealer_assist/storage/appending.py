"""The append transaction of the hand journal: the next hands chained and signed.

:func:`append_entries` is the inside of :meth:`dealer_assist.storage.journal.Journal.append_hands`
(the caller validates the entries and holds the write transaction): it reads the chain head,
returns an already stored ``hand_uid`` unchanged, gives each new entry its id, time, hash and
signature, and writes the rows, their search columns and the new chain head.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dealer_assist.ports import HandEntry, StoredHand
from dealer_assist.storage.chain import canonical_json, chain_hash
from dealer_assist.storage.hand_index import search_rows
from dealer_assist.storage.rows import JSON_COLUMNS, hand_values, row_to_hand
from dealer_assist.storage.schema import chain_head, hand_search, hands, pending_steps
from dealer_assist.storage.signing import Signer

_UIDS = 500  # append_hands looks up this many hand uids per statement


def append_entries(
    conn: Connection,
    entries: Sequence[HandEntry],
    signer_of: Callable[[Connection, str], Signer | None],
    clock: Callable[[], datetime],
) -> list[StoredHand]:
    """Append ``entries`` (validated) in order inside the write transaction ``conn``; returns
    them as stored (a stored ``hand_uid`` as it was). ``signer_of(conn, table_id)`` gives the
    table's signer (``None``: unsigned); ``clock()`` the UTC time each entry is recorded at.
    Raises SQLAlchemy errors (the journal translates them)."""
    out: list[StoredHand] = []
    head = conn.execute(
        sa.select(chain_head.c.last_hand_id, chain_head.c.last_hash)
        .where(chain_head.c.id == 1)
        .with_for_update()
    ).one()
    last_id, last_hash = int(head.last_hand_id), str(head.last_hash)
    new: list[StoredHand] = []
    texts: list[dict[str, str | None]] = []  # each new hand's JSON columns, as hashed
    uids = _stored_uids(conn, entries)  # then this batch's too, as they are made
    for entry in entries:
        if entry.hand_uid is not None:
            existing = uids.get(entry.hand_uid)
            if existing is not None:
                out.append(existing)
                continue
        hand, text = _new_hand(entry, last_id + 1, last_hash, clock())
        signer = signer_of(conn, entry.table_id)
        if signer is not None:
            signature = signer.sign_hash(hand.hash)
            hand = dataclasses.replace(hand, signature=signature, key_id=signer.key_id)
        last_id, last_hash = hand.hand_id, hand.hash
        if hand.hand_uid is not None:
            uids[hand.hand_uid] = hand
        new.append(hand)
        texts.append(text)
        out.append(hand)
    if new:
        conn.execute(sa.insert(hands), [hand_values(h, t) for h, t in zip(new, texts, strict=True)])
        rows = search_rows(new)
        if rows:
            conn.execute(sa.insert(hand_search), rows)
        conn.execute(
            sa.update(chain_head)
            .where(chain_head.c.id == 1)
            .values(last_hand_id=last_id, last_hash=last_hash)
        )
    return out


def _stored_uids(conn: Connection, entries: Sequence[HandEntry]) -> dict[str, StoredHand]:
    """The stored hands of the ``hand_uid`` of ``entries``, by uid; their pending steps
    deleted (a journaled hand's, or a retried one's), in pages of ``_UIDS``."""
    found: dict[str, StoredHand] = {}
    by_table: dict[str, list[str]] = {}
    for e in entries:
        if e.hand_uid is not None:
            by_table.setdefault(e.table_id, []).append(e.hand_uid)
    for table_id, uids in by_table.items():
        for i in range(0, len(uids), _UIDS):
            page = uids[i : i + _UIDS]
            rows = conn.execute(sa.select(hands).where(hands.c.hand_uid.in_(page))).all()
            found.update((str(r.hand_uid), row_to_hand(r)) for r in rows)
            conn.execute(
                sa.delete(pending_steps).where(
                    pending_steps.c.table_id == table_id, pending_steps.c.hand_uid.in_(page)
                )
            )
    return found


def _new_hand(
    entry: HandEntry, hand_id: int, prev_hash: str, now: datetime
) -> tuple[StoredHand, dict[str, str | None]]:
    """The stored hand of ``entry`` (hashed, not signed) and the canonical JSON text of each of
    its JSON columns (``None`` for a null settlement), written as they are."""
    # Round-trip the JSON parts through canonical text so the returned hand equals what
    # get_hand() will read back (tuples become lists, the caller's dicts are not shared).
    texts = {name: canonical_json(getattr(entry, name)) for name in JSON_COLUMNS}
    parts = {name: json.loads(text) for name, text in texts.items()}
    fields = {
        f.name: getattr(entry, f.name) for f in dataclasses.fields(entry) if f.name not in parts
    }
    hand = StoredHand(
        hand_id=hand_id, recorded_at=now, prev_hash=prev_hash, hash="", **fields, **parts
    )
    stored = {name: None if parts[name] is None else text for name, text in texts.items()}
    return dataclasses.replace(hand, hash=chain_hash(prev_hash, hand.content())), stored
