"""The tamper-evident hand journal (SQLAlchemy Core; SQLite file by default, or PostgreSQL).

Every finished hand, and every table record (a change between hands, status ``"table"``), is one
row whose ``hash = sha256(prev_hash || canonical JSON of its content)`` chains it to the entry
before, so editing, deleting or reordering stored entries makes
:meth:`Journal.verify` fail at that hand. Each entry's hash is signed with its table's Ed25519
key (:mod:`dealer_assist.storage.signing`), so an entry changed and re-hashed by someone without
the key fails verify at that entry too. Appends are serialized (SQLite ``BEGIN IMMEDIATE``,
PostgreSQL ``SELECT … FOR UPDATE`` of the chain-head row), so concurrent writers cannot fork it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dealer_assist.errors import JournalError
from dealer_assist.events import utc_now
from dealer_assist.notary.client import NotaryClient, NotaryRefusedError, NotaryUnavailableError
from dealer_assist.ports import TABLE_RECORD, HandEntry, PendingStep, StoredHand, VerifyResult
from dealer_assist.storage import step_signing, steps
from dealer_assist.storage.appending import append_entries
from dealer_assist.storage.engine import (
    StorageErrors,
    journal_url,
    make_engine,
    migrate,
    snapshot_transaction,
    write_transaction,
)
from dealer_assist.storage.journal_keys import JournalKeys
from dealer_assist.storage.model import validate_entry
from dealer_assist.storage.notarize import NotaryMismatchError, catch_up, notary_key
from dealer_assist.storage.rows import row_to_hand
from dealer_assist.storage.schema import (
    SCHEMA_HEAD,
    UNSIGNED_REVISIONS,
    hand_columns,
    hands,
)
from dealer_assist.storage.signing import KeyRing, KeyStore, PublicKey, last_key_id
from dealer_assist.storage.supervise import (
    WriteGuard,
    acknowledge,
    acknowledgement,
    check_readable_schema,
    readonly_engine,
    start_verify,
)
from dealer_assist.storage.verify import Salvage, salvage, verify_chain

_log = logging.getLogger(__name__)

_PAGE = 500  # iter_hands reads this many rows per short transaction


class Journal:
    """The hand journal at ``url_or_path``.

    Args:
        url_or_path: a SQLite file path (the default backend), ``sqlite:///PATH`` or
            ``postgresql+psycopg://user@host:port/db`` (add ``?options=-csearch_path%3DSCHEMA``
            for a schema other than ``public``).
        create: when false, :meth:`open` refuses a missing SQLite file or a database without a
            journal instead of creating one (audit tools).
        read_only: open without writing anything (no migrations: the schema must be one this
            program reads, see :func:`~dealer_assist.storage.supervise.check_readable_schema`),
            so a read-only copy, archive or mount can be audited; writes raise JournalError.
        supervise: verify the chain at open from the verified-up-to mark (default: when
            ``create`` and not ``read_only``, i.e. a table's journal). A failed verify sets
            :attr:`alarm` and every append / step write raises JournalError naming the first bad
            hand until :meth:`acknowledge`. SQLite: the file's device and inode are checked
            before every write, so a journal removed or replaced while open stops the table.
        group: a SQLite journal (and its ``-wal``/``-shm``) is ``0600``, or ``0640`` owned by
            this group (e.g. an audit account's; the table's ``journal.group``); see
            :func:`dealer_assist.storage.engine.make_engine`.
        keys: the key folder of the tables' signing keys (default: ``keys/`` beside a SQLite
            journal; a PostgreSQL journal signs only when ``keys`` or ``key_file`` is given).
        key_file: one private key file for every table instead (config ``journal.key``).
        clock: the time each appended entry is recorded at (default :func:`utc_now`: tests
            and benchmarks give their own); UTC-aware.
        notary: the table's signer service (:class:`~dealer_assist.notary.client.NotaryClient`):
            every entry is signed by it, as the next position on its own head, and no key is
            read or made beside the journal (``keys``/``key_file`` are ignored). See
            :mod:`dealer_assist.storage.notarize`.

    Signing (docs/AUDIT.md): each appended entry's hash is signed with its table's key. A
    table's key is generated at its first entry in the journal (the installation) when the
    folder has none; a table that already has entries never gets a new key silently: with
    signed entries and no key (or another key) appends raise JournalError; with only unsigned
    entries (a journal from before signing) they stay unsigned, with a warning, until
    ``dealer-assist audit keygen`` makes the key.

    ``open()`` connects and migrates the schema to the newest revision (alembic); ``close()``
    releases connections. Both are idempotent; the journal is also a context manager. Every
    method raises :class:`JournalError` for database failures (SQLAlchemy errors translated)
    and when the journal is not open.
    """

    def __init__(
        self,
        url_or_path: str,
        *,
        create: bool = True,
        group: str | None = None,
        read_only: bool = False,
        supervise: bool | None = None,
        keys: str | Path | None = None,
        key_file: str | Path | None = None,
        clock: Callable[[], datetime] = utc_now,
        notary: NotaryClient | None = None,
    ) -> None:
        self.url_or_path = url_or_path
        self.notary = notary
        self._appended: set[int] = set()  # positions this object appended (see catch_up)
        self.create = create
        self.read_only = read_only
        self.supervise = (create and not read_only) if supervise is None else supervise
        self._guard = WriteGuard(url_or_path)
        self.group = group
        self._engine: Engine | None = None
        self._signing = JournalKeys(keys, key_file, notary)
        self._signed_schema = True  # False: a read-only journal of revision 0001/0002
        self._revision = SCHEMA_HEAD  # a read-only open reads the journal's own
        self._clock = clock

    # -- lifecycle -------------------------------------------------------------------------

    def open(self) -> None:
        """Connect and migrate. Raises JournalError (see class doc)."""
        if self._engine is not None:
            return
        url = journal_url(self.url_or_path)
        self._signing.open(url.database if url.get_backend_name() == "sqlite" else None)
        if self.read_only:
            self._engine = self._open_read_only()
            return
        engine = make_engine(url, create=self.create, group=self.group)
        try:
            migrate(engine, create=self.create)
            self._start_supervision(engine)
        except BaseException:
            engine.dispose()
            raise
        self._engine = engine

    def close(self) -> None:
        """Release every connection; safe to call twice."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    @property
    def schema_revision(self) -> str:
        """The journal's schema revision once open (:data:`SCHEMA_HEAD` unless opened
        read-only, which leaves an older journal as it is)."""
        self._require_open()
        return self._revision

    @contextmanager
    def reading(self, action: str) -> Iterator[Connection]:
        """A connection to read with (the pit boss's search reads ``hand_search``); database
        errors raised as JournalError naming ``action``. Raises JournalError when not open."""
        engine = self._require_open()
        with StorageErrors(action), engine.connect() as conn:
            yield conn

    @property
    def is_open(self) -> bool:
        """Whether :meth:`open` succeeded and :meth:`close` has not been called since."""
        return self._engine is not None

    def __enter__(self) -> Journal:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- hands -----------------------------------------------------------------------------

    def append_hand(self, entry: HandEntry) -> StoredHand:
        """Store ``entry`` as the next hand, in one transaction, and return it as stored.

        Assigns ``hand_id`` (last + 1), ``recorded_at`` (now, UTC), ``prev_hash`` and ``hash``.
        When ``entry.hand_uid`` is set, the same transaction deletes that hand's pending steps;
        if a hand with that uid is already stored, it is returned unchanged (the new entry's
        content is ignored) and nothing is appended, so a retried append never records a hand
        twice. The hand's search columns (``hand_search``) are written in the same transaction.

        Raises:
            JournalError: invalid entry (names the field), content that is not JSON, database
                errors.
        """
        return self.append_hands([entry])[0]

    def append_hands(self, entries: Sequence[HandEntry]) -> list[StoredHand]:
        """Store ``entries`` in order in one transaction: each exactly as :meth:`append_hand`
        would one after the other (ids, times, chain, signatures, steps cleared, a stored
        ``hand_uid`` returned unchanged), all or none. Returns them as stored.

        Raises:
            JournalError: an invalid entry (names its index in ``entries`` and the field;
                nothing is written), database errors (nothing is written).
        """
        for i, entry in enumerate(entries):
            try:
                validate_entry(entry)
            except JournalError as e:
                raise JournalError(f"entry {i}: {e}" if len(entries) > 1 else str(e)) from e
        engine = self._require_writable()
        if self.notary is None:
            with StorageErrors("append hand"), write_transaction(engine) as conn:
                return append_entries(conn, entries, self._signing.signer, self._clock)
        # A finished hand is journaled whatever the notary's state (signed when it is back);
        # a journal that is not the notary's chain is refused before and after.
        with contextlib.suppress(NotaryUnavailableError):
            self._notarize(engine)
        with StorageErrors("append hand"), write_transaction(engine) as conn:
            out = append_entries(conn, entries, self._signing.signer, self._clock)
        self._appended.update(h.hand_id for h in out)
        try:
            self._notarize(engine)
        except NotaryUnavailableError as e:
            _log.error("%s (entries up to %d journaled, not signed yet)", e, out[-1].hand_id)
            return out
        return [self.get_hand(h.hand_id) for h in out]

    def notarize(self) -> None:
        """Have the notary sign every entry after its head, in order (see
        :func:`~dealer_assist.storage.notarize.catch_up`); nothing without a notary.

        Raises:
            NotaryUnavailableError: the notary cannot be reached (nothing new is dealt).
            JournalError: the journal is not the chain the notary signed (latched: every
                write is refused), database errors.
        """
        if self.notary is not None:
            self._notarize(self._require_writable())

    def _notarize(self, engine: Engine, at_start: bool = False) -> None:
        notary = self.notary
        if notary is None:
            return
        try:
            with StorageErrors("sign with the notary"):
                head = catch_up(engine, notary, self._appended, at_start=at_start)
        except (NotaryMismatchError, NotaryRefusedError) as e:
            self._guard.latch(str(e))  # the table stays stopped
            raise
        if self._signing.notary_key is None:
            self._signing.notary_key = notary_key(head)
        if self._guard.verify_pending:
            self._start_verify(engine)
            if self._guard.alarm is not None:
                raise JournalError(self._guard.alarm)

    def get_hand(self, hand_id: int) -> StoredHand:
        """The hand ``hand_id``. Raises JournalError when there is no such hand."""
        engine = self._require_open()
        with StorageErrors(f"read hand {hand_id}"), engine.connect() as conn:
            row = conn.execute(
                sa.select(*self._columns()).where(hands.c.hand_id == hand_id)
            ).one_or_none()
            if row is None:
                raise JournalError(f"no hand {hand_id} in the journal")
            return row_to_hand(row)

    def iter_hands(self, start: int | None = None) -> Iterator[StoredHand]:
        """Hands in id order from ``start`` (default: the first), read in pages so no
        transaction stays open while the caller works. Hands appended meanwhile are included."""
        engine = self._require_open()
        next_id = 1 if start is None else start
        while True:
            with StorageErrors("read hands"), engine.connect() as conn:
                rows = conn.execute(
                    sa.select(*self._columns())
                    .where(hands.c.hand_id >= next_id)
                    .order_by(hands.c.hand_id)
                    .limit(_PAGE)
                ).all()
                page = [row_to_hand(r) for r in rows]
            yield from page
            if len(page) < _PAGE:
                return
            next_id = page[-1].hand_id + 1

    def last_hand(self) -> StoredHand | None:
        """The most recently appended hand, or ``None`` for an empty journal."""
        engine = self._require_open()
        with StorageErrors("read last hand"), engine.connect() as conn:
            row = conn.execute(
                sa.select(*self._columns()).order_by(hands.c.hand_id.desc()).limit(1)
            ).one_or_none()
            return None if row is None else row_to_hand(row)

    def count(self, *, hands_only: bool = False) -> int:
        """Number of stored entries, hands and table records (= the last ``hand_id``: the
        soak and the console number hands by it); ``hands_only``: the hands alone."""
        engine = self._require_open()
        query = sa.select(sa.func.count()).select_from(hands)
        if hands_only:
            query = query.where(hands.c.status != TABLE_RECORD)
        with StorageErrors("count hands"), engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def verify(
        self, keys: KeyRing | None = None, *, require_signed: bool = False, checkpoint: bool = False
    ) -> VerifyResult:
        """Recompute every hash, check every link and every signature in one consistent
        snapshot (see :func:`dealer_assist.storage.verify.verify_chain`), against ``keys``
        (default: the journal's own key folder, which proves nothing against someone who could
        replace it: give pinned keys for that); ``checkpoint``: unsigned entries only before a
        signed legacy checkpoint (the audit's default). Raises JournalError only for database
        failures and unreadable key files; a broken chain is reported in the result."""
        engine = self._require_open()
        ring = self.local_keys() if keys is None else keys
        with StorageErrors("verify"), snapshot_transaction(engine) as conn:
            return verify_chain(
                conn, keys=ring, require_signed=require_signed, checkpoint=checkpoint
            )

    # -- signing keys ----------------------------------------------------------------------

    @property
    def key_store(self) -> KeyStore | None:
        """The key folder of this journal's tables (known once open), ``None`` when it signs
        nothing (a PostgreSQL journal without ``keys``)."""
        return self._signing.store

    def table_ids(self) -> list[str]:
        """The table ids of the stored entries, sorted."""
        engine = self._require_open()
        with StorageErrors("read table ids"), engine.connect() as conn:
            return sorted(conn.execute(sa.select(hands.c.table_id).distinct()).scalars())

    def signing_key_id(self, table_id: str) -> str | None:
        """The key id of ``table_id``'s last signed entry, ``None`` when none is signed."""
        engine = self._require_open()
        if not self._signed_schema:
            return None
        with StorageErrors("read the signing key id"), engine.connect() as conn:
            return last_key_id(conn, table_id)

    def local_keys(self) -> KeyRing | None:
        """The journal's own key folder as a (not pinned) :class:`KeyRing`, the notary's key
        with a notary (once known), or ``None``."""
        return self._signing.local()

    def public_key(self, table_id: str) -> PublicKey | None:
        """``table_id``'s public key from the key folder (what the floor pins), or ``None``.
        Raises JournalError for a key file that holds no key."""
        return self._signing.public_key(table_id)

    # -- pending steps ---------------------------------------------------------------------

    def write_step(
        self, table_id: str, hand_uid: str, step_no: int, kind: str, payload: dict[str, Any]
    ) -> PendingStep:
        """Durably record step ``step_no`` of hand ``hand_uid`` at ``table_id`` before
        returning. Idempotent for an identical step; JournalError when the number is taken by
        a different one (see :func:`dealer_assist.storage.steps.write`)."""
        engine = self._require_writable()
        if step_no == 0 and self.notary is not None:
            self._notarize(engine)  # no new hand while the notary is away or disagrees
        with StorageErrors("write step"):  # signed by the notary first, when there is one
            return step_signing.write(
                engine, self.notary, table_id, hand_uid, step_no, kind, payload
            )

    def pending_steps(self, table_id: str) -> list[PendingStep]:
        """Uncleared steps of ``table_id`` in write order (the hand in progress, if any), each
        checked against the notary's signature (``forged``; NotaryUnavailableError: no key)."""
        engine = self._require_open()
        keys = self._signing
        if self.notary is not None and keys.notary_key is None:
            keys.notary_key = notary_key(self.notary.head())  # its key, once it has one
        with StorageErrors("read steps"):  # each checked against the notary's key
            return step_signing.pending(engine, table_id, self.notary, keys.notary_key)

    def clear_steps(self, table_id: str, hand_uid: str) -> int:
        """Delete the pending steps of one hand (e.g. a hand abandoned without a journal
        entry); returns how many. :meth:`append_hand` does this itself for its hand_uid."""
        engine = self._require_open()
        with StorageErrors("clear steps"), engine.begin() as conn:
            return steps.clear(conn, table_id, hand_uid)

    # -- supervision -----------------------------------------------------------------------

    @property
    def alarm(self) -> str | None:
        """Why writes are refused (a failed start-up verify, the file removed or replaced), or
        ``None``."""
        return self._guard.alarm

    def acknowledge(self, by: str) -> VerifyResult | None:
        """An operator accepts a failed verify: the chain head and the verified-up-to mark are
        re-anchored at the last stored entry and the alarm cleared (see
        :func:`dealer_assist.storage.supervise.acknowledge`). Returns the failure acknowledged,
        ``None`` when the chain verified. Raises JournalError (read-only, the file removed or
        replaced, database errors)."""
        engine = self._require_open()
        if self.read_only:
            raise JournalError(f"journal {self.url_or_path!r} is open read-only")
        if self._guard.identity is not None:
            self._guard.identity.check()  # a replaced file's alarm is not the operator's
        with StorageErrors("acknowledge"):
            result = acknowledge(engine, by, self.local_keys())
        self._guard.alarm = None
        return result

    def acknowledgement(self) -> str | None:
        """The note of the last operator acknowledgement of a failed verify (who, when, which
        hand), ``None`` when there was none."""
        return acknowledgement(self._require_open())

    def salvage(self) -> Salvage:
        """The hand ids that still read back whole and the ranges that do not (a damaged
        file); see :func:`dealer_assist.storage.verify.salvage`."""
        engine = self._require_open()
        with StorageErrors("salvage"), engine.connect() as conn:
            return salvage(conn)

    def _open_read_only(self) -> Engine:
        engine = readonly_engine(journal_url(self.url_or_path))
        try:
            revision = check_readable_schema(engine)
        except BaseException:
            engine.dispose()
            raise
        self._signed_schema = revision not in UNSIGNED_REVISIONS
        self._revision = revision
        return engine

    def _columns(self) -> list[sa.Column[Any]]:
        return hand_columns(self._signed_schema)

    def _start_supervision(self, engine: Engine) -> None:
        self._guard.watch(engine)
        if not self.supervise:
            return
        if self.notary is not None:
            # entries journaled while the notary was away are signed before the verify (which
            # would take them for removed signatures); with it away the verify waits for it
            self._guard.verify_pending = True
            try:
                self._notarize(engine, at_start=True)
            except NotaryUnavailableError as e:
                _log.error("%s: the start-up verify waits for it", e)
            except JournalError:
                pass  # the alarm says it (latched by _notarize)
            return
        self._start_verify(engine)

    def _start_verify(self, engine: Engine) -> None:
        with StorageErrors("verify the journal at start"):
            # a notary's journal is signed from its start or from its legacy checkpoint
            result = start_verify(engine, self.local_keys(), checkpoint=self.notary is not None)
        self._guard.verified(result)

    def _require_writable(self) -> Engine:
        engine = self._require_open()
        if self.read_only:
            raise JournalError(f"journal {self.url_or_path!r} is open read-only")
        self._guard.check(engine)
        return engine

    # -- helpers ---------------------------------------------------------------------------

    def _require_open(self) -> Engine:
        if self._engine is None:
            raise JournalError(f"journal {self.url_or_path!r} is not open")
        return self._engine
