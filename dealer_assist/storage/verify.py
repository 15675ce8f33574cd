"""Walking the hash chain: recompute every hash from stored content, check every link and, given
the tables' public keys, every signature (:mod:`dealer_assist.storage.signing`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dealer_assist.errors import JournalError
from dealer_assist.ports import TABLE_RECORD, StoredHand, VerifyResult
from dealer_assist.storage.chain import GENESIS_HASH, chain_hash
from dealer_assist.storage.rows import row_to_hand
from dealer_assist.storage.schema import SIGNATURE_COLUMNS, chain_head, hand_columns, hands
from dealer_assist.storage.signing import KeyRing, PublicKey

_BATCH = 500
# what reading a damaged row raises: the driver's errors, and our types' decoding errors
_UNREADABLE = (sa.exc.SQLAlchemyError, JournalError, ValueError, TypeError)


def verify_chain(
    conn: Connection,
    start: int = 0,
    start_hash: str = GENESIS_HASH,
    *,
    keys: KeyRing | None = None,
    require_signed: bool = False,
    checkpoint: bool = False,
    verified: Callable[[StoredHand], None] | None = None,
) -> VerifyResult:
    """Check the journal as seen by ``conn`` (call it inside one snapshot transaction), all of
    it by default, or only the entries after ``start`` (a verified-up-to mark: hand ``start``
    must still be stored with ``start_hash``, so a rewritten chain up to it is caught there; a
    row edited before the mark without rehashing is left to the full verify).

    Signatures (see :class:`Signatures`): with ``keys``, each signed entry's signature is
    checked against its table's key, so an entry changed and re-hashed without the key fails
    at that entry; an unsigned entry after a signed one of its table fails (a signature
    removed); unsigned entries before are counted (a journal from before signing), or fail
    with ``require_signed``; with ``checkpoint`` (the audit's default policy) they are accepted
    only when the table's first signed entry is a signed legacy checkpoint
    (:data:`LEGACY_CHECKPOINT`, written by the upgrade), else the walk fails at the first of
    them.

    Hand ids must run 1, 2, 3 ... without gaps; each ``prev_hash`` must equal the previous
    hand's ``hash`` (``GENESIS_HASH`` for hand 1); each ``hash`` must equal
    ``sha256(prev_hash || canonical content)``; the chain head row must name the last hand and
    its hash, which catches a deleted last hand. A row rewritten together with every later hash
    and the head can only be caught by comparing ``head_hash`` with a copy kept elsewhere.

    ``verified``, when given, is called with each entry once its hash, link and signature
    checked, in order (the pit boss's index is built from them in the same walk); the entries it
    saw are trusted only when the result is ok (the head is checked last).

    Returns a :class:`VerifyResult`; the first failure stops the walk. Database errors raise
    (the caller translates them).
    """
    head = conn.execute(
        sa.select(chain_head.c.last_hand_id, chain_head.c.last_hash).where(chain_head.c.id == 1)
    ).one_or_none()
    if head is None:
        return VerifyResult(False, 0, None, "the chain head row is missing")
    sigs = Signatures(keys, require_signed, checkpoint)
    expected, prev = start + 1, start_hash
    if start > 0:
        try:
            at_mark = conn.execute(
                sa.select(hands.c.hash).where(hands.c.hand_id == start)
            ).scalar_one_or_none()
        except sa.exc.SQLAlchemyError as e:
            return sigs.fail(start, f"stored row cannot be read ({e})", GENESIS_HASH)
        if at_mark != start_hash:
            what = "is missing" if at_mark is None else "hash differs from the verified mark"
            return VerifyResult(False, 0, start, f"{what} (the chain up to it was rewritten)")
    rows = _rows_after(conn, start, signed_schema(conn))
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except _ReadError as e:
            return sigs.fail(e.hand_id, f"stored row cannot be read ({e.text})", prev)
        hand_id = int(row.hand_id)
        if hand_id != expected:
            return sigs.fail(expected, f"missing (next stored hand is {hand_id})", prev)
        try:
            hand = row_to_hand(row)
            digest = chain_hash(hand.prev_hash, hand.content())
        except JournalError as e:
            return sigs.fail(hand_id, f"stored content cannot be read ({e})", prev)
        if hand.prev_hash != prev:
            what = "does not start the chain" if hand_id == 1 else f"does not link to {hand_id - 1}"
            return sigs.fail(hand_id, f"prev_hash {what}", prev)
        if digest != hand.hash:
            return sigs.fail(hand_id, "content does not match its hash", prev)
        problem = sigs.check(hand)
        if problem is not None:
            at, good = sigs.bad_at or (hand_id, prev)
            return sigs.fail(at, problem, good)
        if verified is not None:
            verified(hand)
        expected, prev = expected + 1, hand.hash
    unsigned = sigs.never_signed()
    if unsigned is not None:
        return sigs.fail(unsigned[0], unsigned[2], unsigned[1])
    last = expected - 1
    if head.last_hand_id > last:
        return sigs.fail(last + 1, f"missing (the chain head records {head.last_hand_id})", prev)
    if head.last_hand_id < last:
        return sigs.fail(head.last_hand_id + 1, "not recorded in the chain head", prev)
    if head.last_hash != prev:
        return sigs.fail(last, "hash differs from the one in the chain head", prev)
    return sigs.result(True, last, None, "chain verifies", None if last == 0 else prev)


def signed_schema(conn: Connection) -> bool:
    """Whether the journal's ``hands`` have the signature columns (revision 0003 or newer)."""
    try:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("hands")}
    except sa.exc.SQLAlchemyError:
        return True  # a damaged schema: the reads that follow name the damage
    return set(SIGNATURE_COLUMNS) <= columns


class Signatures:
    """The signature part of a walk: what was checked, counted, and the first problem.

    Args:
        keys: the tables' public keys (``None``: signatures are counted, not checked).
        require_signed: an unsigned entry is a failure (a policy for journals created signed).
    """

    def __init__(
        self, keys: KeyRing | None, require_signed: bool, checkpoint: bool = False
    ) -> None:
        self.keys, self.require_signed, self.checkpoint = keys, require_signed, checkpoint
        self.bad_at: tuple[int, str] | None = None  # a failure found later than its entry
        self._first_unsigned: dict[str, tuple[int, str]] = {}
        self.checked = self.unsigned = self.unchecked = 0
        self.signed_from: int | None = None
        self._signed_tables: set[str] = set()
        self._key_of: dict[str, PublicKey | None] = {}

    def check(self, hand: StoredHand) -> str | None:
        """What is wrong with ``hand``'s signature (its hash already verified), or ``None``.

        Raises:
            JournalError: a local key file that holds no key.
        """
        table = hand.table_id
        if hand.signature is None:
            if table in self._signed_tables:
                return f"unsigned after signed entries of table {table} (a signature removed)"
            if self.require_signed:
                return "unsigned (the policy requires every entry signed)"
            self._first_unsigned.setdefault(table, (hand.hand_id, hand.prev_hash))
            self.unsigned += 1
            return None
        if self.signed_from is None:
            self.signed_from = hand.hand_id
        first_signed = table not in self._signed_tables and table in self._first_unsigned
        if self.checkpoint and first_signed and not is_legacy_checkpoint(hand):
            self.bad_at = self._first_unsigned[table]
            return (
                f"unsigned before signing began at {hand.hand_id}, and entry "
                f"{hand.hand_id} is no signed legacy checkpoint (signatures removed, or an "
                "old journal never upgraded: dealer-assist audit upgrade)"
            )
        self._signed_tables.add(table)
        if table not in self._key_of:  # once per table: a key folder's key is a file read
            self._key_of[table] = None if self.keys is None else self.keys.for_table(table)
        key = self._key_of[table]
        if key is None:
            self.unchecked += 1
            return None
        if hand.key_id != key.key_id:
            return (
                f"signed with key {hand.key_id}, not table {table}'s key {key.key_id} "
                f"({key.source}): the key was replaced"
            )
        if not key.verify_hash(hand.hash, hand.signature):
            return (
                f"signature does not match (changed and re-hashed without table {table}'s "
                f"key; checked against {key.source})"
            )
        self.checked += 1
        return None

    def never_signed(self) -> tuple[int, str, str] | None:
        """Under the ``checkpoint`` policy, after the walk: the first unsigned entry of a table
        none of whose entries is signed (its position, the hash before it, the reason)."""
        if not self.checkpoint:
            return None
        for table, (at, before) in sorted(self._first_unsigned.items(), key=lambda t: t[1][0]):
            if table not in self._signed_tables:
                return (
                    at,
                    before,
                    (
                        f"unsigned: no entry of table {table} is signed (signatures are "
                        "required; a journal from before signing needs its signed legacy "
                        "checkpoint: dealer-assist audit upgrade)"
                    ),
                )
        return None

    def result(
        self, ok: bool, good: int, bad: int | None, reason: str, head: str | None
    ) -> VerifyResult:
        """A :class:`VerifyResult` with this walk's signature counts."""
        return VerifyResult(
            ok,
            good,
            bad,
            reason,
            head,
            self.checked,
            self.unsigned,
            self.signed_from,
            self.unchecked,
        )

    def fail(self, hand_id: int, reason: str, good_head: str) -> VerifyResult:
        """The failure at ``hand_id`` (the ones before it verified; ``good_head``: the last
        good hash)."""
        good = hand_id - 1
        return self.result(False, good, hand_id, reason, good_head if good else None)


LEGACY_CHECKPOINT = "legacy_checkpoint"
"""The ``record["kind"]`` of the table record the upgrade signs at the end of a journal written
before signing: the unsigned entries before it are accepted by the default verify."""


def is_legacy_checkpoint(hand: StoredHand) -> bool:
    """Whether ``hand`` is a legacy checkpoint table record that names the entry before it."""
    return (
        hand.status == TABLE_RECORD
        and hand.record.get("kind") == LEGACY_CHECKPOINT
        and hand.record.get("covers") == hand.hand_id - 1
        and hand.record.get("hash") == hand.prev_hash
    )


class _ReadError(Exception):
    """A row that cannot be read: the id it should have (one past the last read) and why."""

    def __init__(self, hand_id: int, text: str) -> None:
        super().__init__(text)
        self.hand_id, self.text = hand_id, text


def _rows_after(conn: Connection, start: int, signed: bool) -> Iterator[sa.Row[Any]]:
    """The rows after hand ``start`` in id order, in pages; when a page cannot be read it is
    read again one row at a time, so the first unreadable row is located exactly."""
    last = start
    columns = hand_columns(signed)
    while True:
        query = sa.select(*columns).where(hands.c.hand_id > last).order_by(hands.c.hand_id)
        try:
            page = conn.execute(query.limit(_BATCH)).all()
        except _UNREADABLE:
            page = []
            for _ in range(_BATCH):
                try:
                    row = conn.execute(query.limit(1)).one_or_none()
                except _UNREADABLE as e:
                    raise _ReadError(last + 1, _driver_text(e)) from e
                if row is None:
                    break
                page.append(row)
                last = int(row.hand_id)
                query = sa.select(*columns).where(hands.c.hand_id > last).order_by(hands.c.hand_id)
        yield from page
        if len(page) < _BATCH:
            return
        last = int(page[-1].hand_id)


def _driver_text(error: Exception) -> str:
    orig = getattr(error, "orig", None)
    return str(orig if orig is not None else error).strip().splitlines()[0]


@dataclass(frozen=True)
class Salvage:
    """What a damaged journal still gives: the hand ids that read back whole, and the ones that
    do not (a damaged page, a row whose content no longer decodes, or a deleted row).

    Attributes:
        readable: inclusive ``(first, last)`` hand-id ranges read back whole, in order.
        unreadable: inclusive ranges of ids up to the chain head that did not.
        error: the first read error's text (``None`` when every row read).
    """

    readable: tuple[tuple[int, int], ...]
    unreadable: tuple[tuple[int, int], ...]
    error: str | None


def salvage(conn: Connection) -> Salvage:
    """Read every row that can still be read, around damaged ones.

    Rows are read by key ranges (SQLite: the table's own ``rowid``, so a damaged index does not
    hide rows; PostgreSQL: ``hand_id``); a range that fails is halved until the failing rows
    are isolated, so a few damaged pages cost a few dozen queries, not one per hand. Ids up to
    the chain head (or the highest id read) that were not read are the unreadable ranges.
    """
    sqlite = conn.dialect.name == "sqlite"
    key: sa.ColumnElement[Any] = sa.literal_column("rowid") if sqlite else hands.c.hand_id
    head_id = _try(conn, sa.select(chain_head.c.last_hand_id).where(chain_head.c.id == 1))
    top_key = _try(conn, sa.select(sa.func.max(key)).select_from(hands))
    top = max(int(head_id or 0), int(top_key or 0))
    found: list[int] = []
    errors: list[str] = []
    columns = hand_columns(signed_schema(conn))

    def read(lo: int, hi: int) -> None:
        try:
            # one key by equality: a range scan steps past its last row into the next page
            where = key == lo if lo == hi else key.between(lo, hi)
            rows = conn.execute(sa.select(*columns).where(where)).all()
            found.extend(row_to_hand(r).hand_id for r in rows)
        except _UNREADABLE as e:
            if not errors:
                errors.append(_driver_text(e))
            if lo < hi:
                mid = (lo + hi) // 2
                read(lo, mid)
                read(mid + 1, hi)

    for lo in range(1, top + 1, _BATCH):
        read(lo, min(top, lo + _BATCH - 1))
    ids = sorted(set(found))
    last = max([int(head_id or 0), *ids[-1:]])
    readable = _runs(ids)
    gaps, prev = [], 0
    for first, end in readable:
        if first > prev + 1:
            gaps.append((prev + 1, first - 1))
        prev = end
    if last > prev:
        gaps.append((prev + 1, last))
    return Salvage(tuple(readable), tuple(gaps), errors[0] if errors else None)


def format_ranges(ranges: tuple[tuple[int, int], ...]) -> str:
    """``((1, 119), (131, 131))`` as ``"1-119, 131"``."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


def _runs(ids: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for i in ids:
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def _try(conn: Connection, query: sa.Select[Any]) -> Any:
    try:
        return conn.execute(query).scalar()
    except sa.exc.SQLAlchemyError:
        return None
