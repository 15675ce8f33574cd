"""Supervision of the journal as critical memory: the start-up verify from the verified-up-to
mark, the alarm that stops appends after a failed verify until an operator acknowledges it, the
SQLite file's identity (device, inode) checked before every write, and the read-only open that
audits use on a copy, an archive or a read-only mount (no migrations, nothing written).
"""

from __future__ import annotations

import logging
import os
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import URL, Engine

from dealer_assist.errors import JournalError
from dealer_assist.events import utc_now
from dealer_assist.ports import VerifyResult
from dealer_assist.storage.chain import GENESIS_HASH
from dealer_assist.storage.engine import (
    PG_CONNECT_TIMEOUT_S,
    snapshot_transaction,
    write_transaction,
)
from dealer_assist.storage.schema import (
    KNOWN_REVISIONS,
    READABLE_REVISIONS,
    SCHEMA_HEAD,
    chain_head,
    hands,
    verify_mark,
)
from dealer_assist.storage.signing import KeyRing
from dealer_assist.storage.verify import verify_chain

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileIdentity:
    """The SQLite journal file as it was opened: path, device and inode."""

    path: Path
    device: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> FileIdentity:
        """The identity of ``path`` now. Raises JournalError when it cannot be read."""
        try:
            st = os.stat(path)
        except OSError as e:
            raise JournalError(f"cannot read the journal file {path}: {e.strerror}") from e
        return cls(path, st.st_dev, st.st_ino)

    def check(self) -> None:
        """Raise JournalError when the file at the path is gone or is another file (removed,
        replaced or moved while open): writes would go to a file nobody will read."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise JournalError(
                f"the journal file {self.path} was removed while open: dealing stopped"
            ) from None
        except OSError as e:
            raise JournalError(f"cannot check the journal file {self.path}: {e.strerror}") from e
        if (st.st_dev, st.st_ino) != (self.device, self.inode):
            raise JournalError(
                f"the journal file {self.path} was replaced while open (device/inode "
                f"{self.device}/{self.inode}, now {st.st_dev}/{st.st_ino}): dealing stopped"
            )
        removed = self.side_files_removed()
        if removed:
            raise SideFileRemoved(removed)

    def side_files_removed(self) -> list[str]:
        """The journal's ``-wal``/``-shm`` that this process still has open although their
        path was removed (Linux: a descriptor in ``/proc/self/fd`` naming ``… (deleted)``).

        SQLite keeps writing to an open write-ahead log after ``rm``; what it holds reaches
        the journal only at a checkpoint, so a kill before one loses hands already
        journaled. Exact, not a guess from the path's inode: SQLite itself removes the log
        only once no connection has it open. Elsewhere than Linux: always empty.
        """
        names = {f"{self.path}{suffix} (deleted)" for suffix in ("-wal", "-shm")}
        try:
            fds = os.listdir("/proc/self/fd")
        except OSError:
            return []
        found = set()
        for fd in fds:
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue  # closed meanwhile (the listing's own descriptor, say)
            if target in names:
                found.add(target.removesuffix(" (deleted)"))
        return sorted(found)


class SideFileRemoved(JournalError):
    """The journal's ``-wal`` or ``-shm`` was removed while open (:meth:`FileIdentity.check`);
    ``files`` names them. The journal checkpoints what the removed log holds, then stops."""

    def __init__(self, files: list[str]) -> None:
        self.files = files
        super().__init__(
            f"the journal's {' and '.join(files)} was removed while open: dealing stopped"
        )


def sqlite_path(engine: Engine) -> Path | None:
    """The file of a SQLite engine, ``None`` for PostgreSQL."""
    if engine.dialect.name != "sqlite" or not engine.url.database:
        return None
    return Path(engine.url.database)


def readonly_engine(url: URL) -> Engine:
    """An engine that reads ``url`` without writing anything.

    SQLite: ``mode=ro`` when a ``-wal`` file exists (its hands must be read; a live writer
    keeps one), else ``immutable=1`` so that no ``-wal``/``-shm`` file is created beside it (a
    read-only folder, an archive). PostgreSQL: read-only transactions.

    Raises:
        JournalError: no file at the path, or SQLite without a file.
    """
    if url.get_backend_name() == "postgresql":
        given = url.query.get("options", "")  # e.g. the search_path: kept, not replaced
        given = " ".join(given) if isinstance(given, tuple) else given
        options = f"{given} -c default_transaction_read_only=on".strip()
        return sa.create_engine(
            url, connect_args={"connect_timeout": PG_CONNECT_TIMEOUT_S, "options": options}
        )
    db = url.database or ""
    if db in ("", ":memory:") or db.startswith("file:"):
        raise JournalError("the SQLite journal needs a file path")
    path = Path(db)
    if not path.is_file():
        raise JournalError(f"no journal database at {db}")
    wal = path.with_name(path.name + "-wal")
    query = "mode=ro" if wal.is_file() and wal.stat().st_size > 0 else "mode=ro&immutable=1"
    uri = f"file:{urllib.parse.quote(str(path.absolute()))}?{query}"
    return sa.create_engine(
        URL.create("sqlite", database=uri, query={"uri": "true"}),
        connect_args={"timeout": 5.0},
    )


def check_readable_schema(engine: Engine) -> str:
    """The journal's schema revision, checked readable by this program without migrating.

    Raises:
        JournalError: no journal in the database; a schema older than this program can read
            as it is (open it once with write access to upgrade it); a newer one; or the
            database cannot be read.
    """
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table("alembic_version"):
                raise JournalError(f"no dealer-assist journal in {_where(engine)}")
            rows = conn.exec_driver_sql("SELECT version_num FROM alembic_version")
            versions = [r[0] for r in rows]
    except sa.exc.SQLAlchemyError as e:
        hint = ""
        where = _where(engine)
        if engine.dialect.name == "sqlite" and Path(where + "-wal").is_file():
            hint = (
                " (its -wal holds entries and SQLite cannot share it read-only here without a "
                "-shm: copy the folder somewhere writable and audit the copy)"
            )
        raise JournalError(f"cannot read the journal {where}: {_text(e)}{hint}") from e
    revision = versions[0] if len(versions) == 1 else None
    if revision in READABLE_REVISIONS:
        return str(revision)
    if revision in KNOWN_REVISIONS:
        raise JournalError(
            f"the journal schema {revision} is older than this program's {SCHEMA_HEAD} and "
            f"cannot be read read-only: open it once with write access to upgrade it"
        )
    raise JournalError(
        f"the journal schema {revision or versions!r} is not one this program knows "
        f"(newest {SCHEMA_HEAD}): written by a newer program?"
    )


def start_verify(
    engine: Engine, keys: KeyRing | None = None, *, checkpoint: bool = False
) -> VerifyResult:
    """Verify the entries after the verified-up-to mark (all of them the first time), their
    signatures against ``keys`` (``checkpoint``: unsigned entries only before a signed legacy
    checkpoint, as the audit's default), and move the mark to the head when they verify.
    Raises JournalError for database failures."""
    with snapshot_transaction(engine) as conn:
        mark = conn.execute(
            sa.select(verify_mark.c.hand_id, verify_mark.c.hash).where(verify_mark.c.id == 1)
        ).one_or_none()
        start, start_hash = (0, GENESIS_HASH) if mark is None else (int(mark[0]), mark[1])
        result = verify_chain(conn, start, start_hash, keys=keys, checkpoint=checkpoint)
    if result.ok and result.hands_checked > start:
        set_mark(engine, result.hands_checked, result.head_hash or GENESIS_HASH, None)
    return result


def acknowledge(engine: Engine, by: str, keys: KeyRing | None = None) -> VerifyResult | None:
    """An operator's acknowledgement of a failed verify: the chain head and the mark are
    re-anchored at the last stored entry, so appends continue from what is stored and the next
    start verifies only what comes after (the full ``audit verify`` still reports the break).
    Returns the failed result acknowledged, ``None`` when the journal verified (nothing done).

    Raises:
        JournalError: ``by`` is empty; database failures.
    """
    if not isinstance(by, str) or not by.strip():
        raise JournalError("acknowledge: the operator's name (by) must be given")
    with snapshot_transaction(engine) as conn:
        result = verify_chain(conn, keys=keys)  # the same check as the start-up verify's
    if result.ok:
        return None
    with write_transaction(engine) as conn:
        last = conn.execute(
            sa.select(hands.c.hand_id, hands.c.hash).order_by(hands.c.hand_id.desc()).limit(1)
        ).one_or_none()
        last_id, last_hash = (0, GENESIS_HASH) if last is None else (int(last[0]), last[1])
        conn.execute(
            sa.update(chain_head)
            .where(chain_head.c.id == 1)
            .values(last_hand_id=last_id, last_hash=last_hash)
        )
    note = (
        f"acknowledged by {by.strip()} at {utc_now().isoformat()}: hand "
        f"{result.first_bad_hand}: {result.reason}"
    )
    set_mark(engine, last_id, last_hash, note)
    return result


def set_mark(engine: Engine, hand_id: int, hash_: str, note: str | None) -> None:
    """Store the verified-up-to mark (one row, replaced)."""
    with write_transaction(engine) as conn:
        # PostgreSQL: the chain head's row lock serializes two starts (SQLite: BEGIN IMMEDIATE)
        conn.execute(sa.select(chain_head.c.id).where(chain_head.c.id == 1).with_for_update())
        conn.execute(sa.delete(verify_mark))
        conn.execute(
            sa.insert(verify_mark).values(
                id=1, hand_id=hand_id, hash=hash_, verified_at=utc_now(), note=note
            )
        )


def alarm_text(result: VerifyResult) -> str:
    """The alarm for a failed start-up verify, naming the first bad hand and the way out."""
    return (
        f"the journal failed verify at hand {result.first_bad_hand}: {result.reason}; appends "
        f"refused until an operator acknowledges it (dealer-assist audit acknowledge)"
    )


def _where(engine: Engine) -> str:
    if engine.dialect.name != "sqlite":
        return "the database"  # a PostgreSQL URL may hold a password
    db = engine.url.database or ""
    if db.startswith("file:"):  # the read-only URI: name the file, not the URI
        db = urllib.parse.unquote(db[len("file:") :].split("?", 1)[0])
    return db


def _text(error: sa.exc.SQLAlchemyError) -> str:
    orig = getattr(error, "orig", None)
    return str(orig if orig is not None else error).strip().splitlines()[0]


def acknowledgement(engine: Engine) -> str | None:
    """The operator's note stored with the verified-up-to mark by :func:`acknowledge`, or
    ``None`` (none, or a schema from before the mark). Never raises for a missing table."""
    try:
        with engine.connect() as conn:
            note = conn.execute(
                sa.select(verify_mark.c.note).where(verify_mark.c.id == 1)
            ).scalar_one_or_none()
    except sa.exc.SQLAlchemyError:
        return None
    return None if note is None else str(note)


def rescue_removed_log(engine: Engine) -> str:
    """Checkpoint a write-ahead log removed while the journal is open: SQLite still has it
    open, so what it holds (hands already journaled) is copied into the journal file before
    anything else can lose it. Returns what happened, for the alarm."""
    try:
        with engine.connect() as conn:
            row = conn.exec_driver_sql("PRAGMA wal_checkpoint(FULL)").fetchone()
    except sa.exc.SQLAlchemyError as e:
        _log.error("checkpoint of a removed write-ahead log failed: %s", e)
        return "its hands could not be copied into the journal: do not stop the program"
    if row is not None and int(row[0]) != 0:
        return "its hands could not all be copied into the journal (busy): retry"
    return "its hands were copied into the journal file"


class WriteGuard:
    """Why a journal refuses writes, latched until an operator acknowledges it: a failed
    start-up verify, a notary that disagrees, the file removed or replaced (its identity,
    checked before every write). ``where`` names the journal in the log.

    Attributes:
        alarm: the sentence that refuses writes, or None.
        identity: the SQLite file's identity taken at open (None: not a SQLite file).
        verify_pending: a notary's journal: the start-up verify waits for its tail signed.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        self.alarm: str | None = None
        self.identity: FileIdentity | None = None
        self.verify_pending = False

    def watch(self, engine: Engine) -> None:
        """Take the identity of ``engine``'s SQLite file (nothing for another database)."""
        path = sqlite_path(engine)
        self.identity = None if path is None else FileIdentity.of(path)

    def latch(self, text: str) -> None:
        """Refuse every write from now on, saying ``text`` (logged)."""
        self.alarm = text
        _log.error("journal %s: %s", self.where, text)

    def verified(self, result: VerifyResult) -> None:
        """The start-up verify's ``result``: its failure latched."""
        self.verify_pending = False
        if not result.ok:
            self.latch(alarm_text(result))

    def check(self, engine: Engine) -> None:
        """Before a write: the latched alarm, else the file's identity (a removal or a
        replacement is latched). Raises JournalError saying why."""
        if self.alarm is not None:
            raise JournalError(self.alarm)
        if self.identity is None:
            return
        try:
            self.identity.check()
        except SideFileRemoved as e:
            self.alarm = f"{e}; {rescue_removed_log(engine)}"  # latched, as below
            raise JournalError(self.alarm) from e
        except JournalError as e:
            self.alarm = str(e)  # latched: the table stays stopped
            raise
