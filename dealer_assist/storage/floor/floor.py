"""The floor database: every table's chain as forwarded, the heads as received, the alerts.

:class:`Floor` is the API the forwarder, ``dealer-assist floor`` and the pit-boss application
use. Each method is one short transaction; every database error is translated
(:class:`~dealer_assist.storage.floor.errors.FloorUnavailableError` when the floor cannot be
reached, :class:`~dealer_assist.storage.floor.errors.FloorError` otherwise).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Any

import psycopg
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dealer_assist.errors import JournalError
from dealer_assist.events import utc_now
from dealer_assist.ports import StoredHand, VerifyResult
from dealer_assist.storage.chain import GENESIS_HASH, chain_hash
from dealer_assist.storage.floor.checkpoints import (
    Checkpoint,
    CheckpointResult,
    StoredCheckpoint,
    TableWitness,
    receive,
    table_witness,
)
from dealer_assist.storage.floor.checkpoints import stored as stored_checkpoints
from dealer_assist.storage.floor.engine import (
    CONNECT_TIMEOUT_S,
    check_schema,
    floor_url,
    make_floor_engine,
    migrate,
    translate,
    translate_driver,
)
from dealer_assist.storage.floor.errors import FloorError
from dealer_assist.storage.floor.ingest import IngestResult, ensure_table, ingest, raise_alert
from dealer_assist.storage.floor.schema import (
    KEY_CHANGED,
    floor_alerts,
    floor_heads,
    floor_records,
    floor_tables,
)

_PAGE = 1000


@dataclass(frozen=True)
class FloorTable:
    """A table as the floor knows it: ``position``/``hash`` its head (0 / genesis when empty),
    ``last_received_at`` when a record last arrived, ``open_alerts`` not yet acknowledged."""

    table_id: str
    game: str
    pit: str | None
    public_key: str | None
    position: int
    hash: str
    registered_at: datetime
    last_received_at: datetime | None
    open_alerts: int


@dataclass(frozen=True)
class Alert:
    """One alert row (``acknowledged_by``/``_at`` ``None`` while open)."""

    id: int
    kind: str
    table_id: str | None
    position: int | None
    detail: str
    raised_at: datetime
    acknowledged_by: str | None
    acknowledged_at: datetime | None

    def sentence(self) -> str:
        """``#3 chain_break UTH-01 position 12: ... (open)`` in one line."""
        where = f" {self.table_id}" if self.table_id else ""
        at = f" position {self.position}" if self.position is not None else ""
        state = f"acknowledged by {self.acknowledged_by}" if self.acknowledged_by else "open"
        return f"#{self.id} {self.kind}{where}{at}: {self.detail} ({state})"


@dataclass(frozen=True)
class ReceivedHead:
    """A table's chain head as the floor received it: ``position``, ``hash``, the head
    record's ``signature`` (``None`` unsigned) and when (``received_at``, UTC)."""

    position: int
    hash: str
    signature: str | None
    received_at: datetime


class Floor:
    """The floor database at ``url`` (``postgresql+psycopg://…``; see
    :func:`~dealer_assist.storage.floor.engine.floor_url`).

    ``open()`` connects and checks that the schema is this program's (``migrate()`` creates or
    upgrades it, and may be called before ``open``); ``close()`` releases the connections. Both
    idempotent; a context manager too.
    """

    def __init__(self, url: str, *, connect_timeout: float = CONNECT_TIMEOUT_S) -> None:
        self.url = floor_url(url)
        self.connect_timeout = connect_timeout
        self._engine: Engine | None = None

    def open(self) -> None:
        """Connect and check the schema. Raises FloorError / FloorUnavailableError."""
        if self._engine is not None:
            return
        engine = make_floor_engine(self.url, connect_timeout=self.connect_timeout)
        try:
            check_schema(engine)
        except BaseException:
            engine.dispose()
            raise
        self._engine = engine

    def close(self) -> None:
        """Release every connection; safe to call twice."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def __enter__(self) -> Floor:
        self.open()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:  # fmt: skip
        self.close()

    def migrate_schema(self) -> str:
        """Create or upgrade the floor schema (not the pit-boss application's tables: both are
        :func:`~dealer_assist.storage.floor.migration.migrate_floor`'s); returns the revision.
        Raises FloorError."""
        if self._engine is not None:
            return migrate(self._engine)
        engine = make_floor_engine(self.url, connect_timeout=self.connect_timeout)
        try:
            return migrate(engine)
        finally:
            engine.dispose()

    # -- writing ---------------------------------------------------------------------------

    def register(
        self, table_id: str, game: str, *, pit: str | None = None, public_key: str | None = None
    ) -> None:
        """Make ``table_id`` known (idempotent; ``pit`` updated when given). A table's key is
        pinned only by :meth:`enrol` (a shift manager's act): a ``public_key`` given here is
        compared with the enrolled one, and another one raises a ``key_changed`` alert."""
        with self._transaction("register a table") as conn:
            now = utc_now()
            ensure_table(conn, table_id, game, now, pit)
            if public_key is None:
                return
            known = conn.execute(
                sa.select(floor_tables.c.public_key).where(floor_tables.c.table_id == table_id)
            ).scalar()
            if known is not None and known != public_key:
                raise_alert(conn, KEY_CHANGED, table_id, None,
                            "the table presented another public key than the one enrolled on "
                            "the floor: kept the floor's", now)  # fmt: skip

    def enrol(
        self, table_id: str, game: str, public_key: str, by: str, *, pit: str | None = None
    ) -> bool:
        """Pin ``public_key`` (64 hex digits: :attr:`~dealer_assist.storage.signing.PublicKey.hex`)
        as ``table_id``'s key, enrolled ``by`` (a shift manager's badge) now; returns ``True``
        when pinned, ``False`` when that key was enrolled already. The floor witnesses the
        table's chain from its enrolment on: records recorded before it are *not witnessed*.

        Raises:
            FloorError: another key is enrolled (a ``key_changed`` alert is raised, the
                enrolled key kept), or ``by`` is empty.
        """
        if not by.strip():
            raise FloorError("enrol: the badge of who enrols is required")
        with self._transaction("enrol a table") as conn:
            now = utc_now()
            ensure_table(conn, table_id, game, now, pit)
            known = conn.execute(
                sa.select(floor_tables.c.public_key)
                .where(floor_tables.c.table_id == table_id)
                .with_for_update()
            ).scalar()
            if known == public_key:
                return False
            if known is not None:
                alert = raise_alert(conn, KEY_CHANGED, table_id, None,
                                    f"enrolment of another key refused (by {by}): the floor "
                                    "keeps the enrolled key", now)  # fmt: skip
                changed = FloorError(f"table {table_id} is enrolled with another key: refused "
                                     f"(alert #{alert} key_changed)")  # fmt: skip
            else:
                conn.execute(
                    sa.update(floor_tables)
                    .where(floor_tables.c.table_id == table_id)
                    .values(public_key=public_key, enrolled_at=now, enrolled_by=by)
                )
                return True
        raise changed  # after the commit: the alert stays

    def checkpoint(self, table_id: str, cp: Checkpoint, *, game: str = "?") -> CheckpointResult:
        """Check and keep the signer's head ``cp`` of ``table_id`` (see
        :func:`dealer_assist.storage.floor.checkpoints.receive`); a refusal and its alert are
        in the result. The table is registered first when new (``game``)."""
        with self._transaction(f"store a checkpoint of {table_id}") as conn:
            now = utc_now()
            ensure_table(conn, table_id, game, now)
            return receive(conn, table_id, cp, now)

    def checkpoints(self, table_id: str) -> list[StoredCheckpoint]:
        """The signer's checkpoints of ``table_id`` the floor kept, by position."""
        with self._transaction("read checkpoints") as conn:
            return stored_checkpoints(conn, table_id)

    def witness(self, table_id: str, start: datetime, end: datetime) -> TableWitness:
        """The latest checkpoint of ``table_id`` at or before ``end`` and how many of its
        records of ``[start, end)`` are witnessed (a shift report's line). Raises FloorError."""
        with self._transaction("read the witness of a table") as conn:
            return table_witness(conn, table_id, start, end)

    def witness_counts(self, table_id: str) -> dict[bool | None, int]:
        """How many records of ``table_id`` are witnessed (``True``), not witnessed
        (``False``: history the floor did not see happen), not decided yet (``None``)."""
        r = floor_records.c
        query = (sa.select(r.witnessed, sa.func.count()).where(r.table_id == table_id)
                 .group_by(r.witnessed))  # fmt: skip
        with self._transaction("count witnessed records") as conn:
            return {w: int(n) for w, n in conn.execute(query).all()}

    def ingest(
        self,
        table_id: str,
        hands: Sequence[StoredHand],
        *,
        game: str | None = None,
        signatures: Mapping[int, str] | None = None,
    ) -> IngestResult:
        """Check and store ``hands`` of ``table_id`` in chain order (see
        :func:`dealer_assist.storage.floor.ingest.ingest`): one transaction; a refusal and
        its alert are in the result. The table is registered first when new (``game``:
        default the first hand's)."""
        if not hands:
            position, digest = self.head(table_id) or (0, GENESIS_HASH)
            return IngestResult(table_id, 0, 0, None, None, position, digest)
        with self._transaction(f"store records of {table_id}") as conn:
            now = utc_now()
            ensure_table(conn, table_id, game or hands[0].game, now)
            return ingest(conn, table_id, hands, now, signatures)

    def raise_alert(
        self, kind: str, table_id: str | None, position: int | None, detail: str
    ) -> int:
        """Raise an alert (the same kind, table and position again returns the first one's
        id); returns its id."""
        with self._transaction("raise an alert") as conn:
            return raise_alert(conn, kind, table_id, position, detail, utc_now())

    def acknowledge(self, alert_id: int, by: str) -> Alert:
        """Record who acknowledged alert ``alert_id`` and when (the first acknowledgement
        stays). Raises FloorError for an unknown alert or an empty name."""
        if not by.strip():
            raise FloorError("acknowledge: the name of who acknowledges is required")
        with self._transaction("acknowledge an alert") as conn:
            conn.execute(
                sa.update(floor_alerts)
                .where(floor_alerts.c.id == alert_id, floor_alerts.c.acknowledged_at.is_(None))
                .values(acknowledged_by=by, acknowledged_at=utc_now())
            )
            row = conn.execute(
                sa.select(floor_alerts).where(floor_alerts.c.id == alert_id)
            ).one_or_none()
            if row is None:
                raise FloorError(f"no alert #{alert_id} on the floor")
            return Alert(**row._mapping)

    # -- reading ---------------------------------------------------------------------------

    def head(self, table_id: str) -> tuple[int, str] | None:
        """The floor's head of ``table_id`` (position, hash), ``None`` for an unknown table."""
        with self._transaction("read a table's head") as conn:
            row = conn.execute(
                sa.select(floor_tables.c.last_position, floor_tables.c.last_hash).where(
                    floor_tables.c.table_id == table_id
                )
            ).one_or_none()
        return None if row is None else (int(row.last_position), str(row.last_hash))

    def hash_at(self, table_id: str, position: int) -> str | None:
        """The hash the floor holds at ``position`` of ``table_id``, ``None`` if none."""
        with self._transaction("read a record's hash") as conn:
            found = conn.execute(
                sa.select(floor_records.c.hash).where(
                    floor_records.c.table_id == table_id, floor_records.c.position == position
                )
            ).scalar()
        return None if found is None else str(found)

    def heads(self, table_id: str) -> list[ReceivedHead]:
        """Every head of ``table_id`` as the floor received it, oldest first (one per stored
        batch): what a table's journal is compared with."""
        heads = floor_heads.c
        query = sa.select(floor_heads).where(heads.table_id == table_id).order_by(heads.id)
        with self._transaction("read a table's heads") as conn:
            return [
                ReceivedHead(int(r.position), r.hash, r.signature, r.received_at)
                for r in conn.execute(query)
            ]

    def get_record(self, table_id: str, position: int) -> StoredHand:
        """The floor's copy of one record as a :class:`StoredHand`. Raises FloorError when the
        floor holds none there or its content cannot be read."""
        with self._transaction("read a record") as conn:
            row = conn.execute(
                sa.select(floor_records).where(
                    floor_records.c.table_id == table_id, floor_records.c.position == position
                )
            ).one_or_none()
        if row is None:
            raise FloorError(f"the floor holds no position {position} of table {table_id}")
        return _stored(row._mapping)

    def iter_records(self, table_id: str, start: int = 1) -> Iterator[StoredHand]:
        """The floor's copy of ``table_id`` from ``start`` in chain order, read in pages."""
        position = start
        while True:
            with self._transaction("read records") as conn:
                rows = conn.execute(
                    sa.select(floor_records)
                    .where(
                        floor_records.c.table_id == table_id,
                        floor_records.c.position >= position,
                    )
                    .order_by(floor_records.c.position)
                    .limit(_PAGE)
                ).all()
            page = [_stored(r._mapping) for r in rows]
            yield from page
            if len(page) < _PAGE:
                return
            position = page[-1].hand_id + 1

    def verify(self, table_id: str) -> VerifyResult:
        """Walk the floor's copy of ``table_id``: positions 1, 2, ... without gaps, each
        linked to the one before and hashing to its own hash, ending at the table's head."""
        expected, prev = 1, GENESIS_HASH
        head = self.head(table_id)
        if head is None:
            raise FloorError(f"no table {table_id!r} on the floor")
        try:
            for hand in self.iter_records(table_id):
                p = hand.hand_id
                if p != expected:
                    return _fail(expected, f"missing (next stored position is {p})", prev)
                if hand.prev_hash != prev:
                    return _fail(p, "prev_hash does not link to the position before", prev)
                if chain_hash(hand.prev_hash, hand.content()) != hand.hash:
                    return _fail(p, "content does not match its hash", prev)
                expected, prev = p + 1, hand.hash
        except JournalError as e:
            return _fail(expected, f"stored content cannot be read ({e})", prev)
        last = expected - 1
        if head != (last, prev if last else GENESIS_HASH):
            return _fail(last + 1, f"the floor's head says position {head[0]}", prev)
        return VerifyResult(True, last, None, "chain verifies", prev if last else None)

    def tables(self) -> list[FloorTable]:
        """Every table on the floor, by id, with its head and open alerts."""
        open_alerts = (
            sa.select(sa.func.count())
            .where(floor_alerts.c.table_id == floor_tables.c.table_id,
                   floor_alerts.c.acknowledged_at.is_(None))
            .scalar_subquery()
        )  # fmt: skip
        query = sa.select(floor_tables, open_alerts.label("open_alerts")).order_by(
            floor_tables.c.table_id
        )
        with self._transaction("list tables") as conn:
            rows = conn.execute(query).all()
        return [
            FloorTable(
                table_id=m["table_id"], game=m["game"], pit=m["pit"], public_key=m["public_key"],
                position=int(m["last_position"]), hash=m["last_hash"],
                registered_at=m["registered_at"], last_received_at=m["last_received_at"],
                open_alerts=int(m["open_alerts"]),
            )
            for m in (r._mapping for r in rows)
        ]  # fmt: skip

    def alerts(self, *, open_only: bool = True, table_id: str | None = None) -> list[Alert]:
        """Alerts, oldest first: the open ones (default) or all; of one table if given."""
        query = sa.select(floor_alerts).order_by(floor_alerts.c.id)
        if open_only:
            query = query.where(floor_alerts.c.acknowledged_at.is_(None))
        if table_id is not None:
            query = query.where(floor_alerts.c.table_id == table_id)
        with self._transaction("list alerts") as conn:
            return [Alert(**r._mapping) for r in conn.execute(query)]

    # -- helpers ---------------------------------------------------------------------------

    @contextmanager
    def _transaction(self, action: str) -> Iterator[sa.Connection]:
        if self._engine is None:
            raise FloorError("the floor database is not open")
        try:
            with self._engine.begin() as conn:
                yield conn
        except sa.exc.SQLAlchemyError as e:
            raise translate(e, action) from e
        except psycopg.Error as e:  # the COPY of ingest runs on the driver's connection
            raise translate_driver(e, action) from e


def _stored(m: Mapping[Any, Any]) -> StoredHand:
    """A floor row as the journal entry it copies (the content's own fields, so a row whose
    content was edited in the floor fails :meth:`Floor.verify`)."""
    try:
        content = json.loads(m["content"])
        started, ended, recorded = (
            datetime.fromisoformat(content[k]) for k in ("started_at", "ended_at", "recorded_at")
        )
        return StoredHand(
            hand_id=int(content["hand_id"]), hand_uid=content["hand_uid"],
            table_id=content["table_id"], game=content["game"], status=content["status"],
            void_reason=content["void_reason"], record=content["record"],
            settlement=content["settlement"], events=content["events"], extra=content["extra"],
            prev_hash=m["prev_hash"], hash=m["hash"], started_at=started, ended_at=ended,
            recorded_at=recorded, **_signed(m),
        )  # fmt: skip
    except (ValueError, KeyError, TypeError) as e:
        raise FloorError(
            f"position {m['position']} of table {m['table_id']}: stored content unreadable ({e})"
        ) from e


def _signed(m: Mapping[Any, Any]) -> dict[str, Any]:
    """The signature fields a :class:`StoredHand` carries, from the row."""
    names = ("signature", "key_id")
    return {n: m[n] for n in names if n in getattr(StoredHand, "__dataclass_fields__", {})}


def _fail(position: int, reason: str, good_head: str) -> VerifyResult:
    good = position - 1
    return VerifyResult(False, good, position, reason, good_head if good else None)
