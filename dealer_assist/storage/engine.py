"""Engines for the journal: SQLite files (WAL, synchronous=FULL) and PostgreSQL, plus migrations.

SQLite: pysqlite's own transaction handling is switched off so that we emit ``BEGIN`` ourselves
(SQLAlchemy's documented recipe); writers ask for ``BEGIN IMMEDIATE`` so two processes take the
write lock before reading the chain head and can never fork the chain.
"""

from __future__ import annotations

import errno
import functools
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError
from sqlalchemy.engine import URL, Connection, Engine

from dealer_assist.at_rest import private_sqlite_files
from dealer_assist.errors import ConfigError, JournalError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_BEGIN_OPTION = "dealer_assist_sqlite_begin"
_MIGRATE_LOCK_KEY = 0x6A6F75726E616C  # pg_advisory_xact_lock key ("journal")
SQLITE_BUSY_TIMEOUT_S = 30.0
PG_CONNECT_TIMEOUT_S = 10


def journal_url(url_or_path: str) -> URL:
    """A SQLAlchemy URL from a database URL (``postgresql+psycopg://…``, ``sqlite:///…``) or a
    plain file path (SQLite).

    Raises:
        JournalError: unparsable URL, or a backend other than SQLite / PostgreSQL.
    """
    if "://" not in url_or_path:
        return URL.create("sqlite", database=str(Path(url_or_path).expanduser().absolute()))
    try:
        url = sa.make_url(url_or_path)
    except sa.exc.ArgumentError as e:
        raise JournalError(f"not a database URL: {url_or_path!r}") from e
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise JournalError(f"unsupported journal database {url.get_backend_name()!r}")
    return url


def make_engine(url: URL, *, create: bool, group: str | None = None) -> Engine:
    """An engine for ``url``; nothing is connected yet.

    With ``create``, a SQLite journal, its ``-wal`` and ``-shm`` are created (or set) ``0600``,
    ``0640`` owned by ``group`` when one is named, before SQLite writes a card to them, and
    again before each new connection (SQLite removes the side files when the last connection
    closes and would recreate them with this process's group).

    Raises:
        JournalError: SQLite without a file (in-memory has no durability); ``create`` is
            false and the SQLite file does not exist; ``create`` is true and the file's folder
            does not exist (it is not created: a mistyped path should not grow folders); the
            file or its mode cannot be set; an unknown ``group``.
    """
    if url.get_backend_name() == "postgresql":
        # pool_pre_ping: a pooled connection the server dropped (restart, pg_terminate_backend,
        # an idle timeout) is found at checkout and replaced, not handed to the next write
        return sa.create_engine(
            url, connect_args={"connect_timeout": PG_CONNECT_TIMEOUT_S}, pool_pre_ping=True
        )
    db = url.database or ""
    if db in ("", ":memory:") or db.startswith("file:"):
        raise JournalError("the SQLite journal needs a file path")
    path = Path(db)
    if not create and not path.is_file():
        raise JournalError(f"no journal database at {db}")
    if create and not path.parent.is_dir():
        what = "is a file" if path.parent.exists() else "does not exist"
        raise JournalError(f"cannot create the journal {db}: the folder {path.parent} {what}")
    if create:
        _private_files(path, group)
    busy = busy_timeout(url)
    engine = sa.create_engine(url, connect_args={"timeout": busy})
    private = functools.partial(_private_files, path, group) if create else None
    sa.event.listen(engine, "connect", functools.partial(_sqlite_on_connect, private, busy))
    sa.event.listen(engine, "begin", _sqlite_on_begin)
    return engine


def busy_timeout(url: URL) -> float:
    """Seconds a SQLite connection waits for another connection's write lock before
    ``database is locked``: the URL's ``timeout`` (``sqlite:///PATH?timeout=5``, the pysqlite
    option), else :data:`SQLITE_BUSY_TIMEOUT_S`; 0 for PostgreSQL (it waits for row locks).

    Raises:
        JournalError: a ``timeout`` that is not a number of seconds >= 0.
    """
    if url.get_backend_name() != "sqlite":
        return 0.0
    given = url.query.get("timeout")
    if given is None:
        return SQLITE_BUSY_TIMEOUT_S
    text = given[-1] if isinstance(given, tuple) else given
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise JournalError(f"the journal URL's timeout must be seconds >= 0, got {text!r}")
    return value


def _private_files(path: Path, group: str | None) -> None:
    if path.exists() and not path.is_file():
        return  # a folder or a device: SQLite's own error names it
    try:
        private_sqlite_files(path, group=group)
    except ConfigError as e:
        raise JournalError(f"journal {path}: {e}") from e
    except OSError as e:
        raise JournalError(_unwritable(path, e)) from e


def _unwritable(path: Path, e: OSError) -> str:
    """Why the journal (or a side file) cannot be created or set private, naming what exists."""
    if e.errno == errno.EROFS:
        return (
            f"cannot write the journal {path}: it is on a read-only file system (it can be"
            " read there, e.g. audited, not played on)"
        )
    if path.is_file():
        return f"cannot write the journal {path}: {e.strerror}"
    return f"cannot create the journal {path} privately: {e.strerror}"


def _sqlite_on_connect(
    private: Callable[[], None] | None, busy: float, dbapi_connection: Any, _record: Any
) -> None:
    if private is not None:
        private()  # before SQLite opens a -wal/-shm this connection may be the first to need
    dbapi_connection.isolation_level = None  # we issue BEGIN in _sqlite_on_begin
    cursor = dbapi_connection.cursor()
    try:
        mode = _wal_mode(cursor, busy)
        if str(mode).lower() != "wal":
            raise JournalError(f"SQLite refused WAL journal mode (got {mode!r})")
        cursor.execute("PRAGMA synchronous=FULL")
    finally:
        cursor.close()


def _wal_mode(cursor: Any, busy: float) -> object:
    """Ask for WAL mode and return the mode SQLite reports. Switching a new file to WAL needs it
    to itself, and SQLite answers "database is locked" at once instead of waiting its busy
    timeout (two processes opening a new journal together): retried until that timeout."""
    deadline = time.monotonic() + busy
    while True:
        try:
            return cursor.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _sqlite_on_begin(conn: Connection) -> None:
    mode = conn.get_execution_options().get(_BEGIN_OPTION, "DEFERRED")
    conn.exec_driver_sql(f"BEGIN {mode}")


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A connection inside a transaction that holds the database's write lock on SQLite
    (``BEGIN IMMEDIATE``); on PostgreSQL callers lock rows themselves (``FOR UPDATE``).
    Commits on normal exit, rolls back on an exception."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            conn.execution_options(**{_BEGIN_OPTION: "IMMEDIATE"})
        with conn.begin():
            yield conn


@contextmanager
def snapshot_transaction(engine: Engine) -> Iterator[Connection]:
    """A read transaction that sees one consistent state (SQLite WAL read snapshot, PostgreSQL
    REPEATABLE READ); rolled back at the end."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.execution_options(isolation_level="REPEATABLE READ")
        with conn.begin() as tx:
            yield conn
            tx.rollback()


def migrate(engine: Engine, *, create: bool) -> None:
    """Bring the journal schema to the newest revision (alembic, scripts in ``migrations/``).

    Runs under the write lock (SQLite) or an advisory lock (PostgreSQL), so two processes opening
    a new journal at once do not both create it.

    Raises:
        JournalError: ``create`` is false and the database holds no journal; the journal's
            schema is newer than this program; database errors.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    try:
        with write_transaction(engine) as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATE_LOCK_KEY)))
            if not create and not sa.inspect(conn).has_table("alembic_version"):
                raise JournalError(f"no dealer-assist journal in {engine.url!r}")
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
    except CommandError as e:
        raise JournalError(f"journal schema cannot be upgraded (newer program needed?): {e}") from e
    except sa.exc.SQLAlchemyError as e:
        # a SQLite file is named (sqlite3 does not); a PostgreSQL URL may hold a password
        where = f" {engine.url.database}" if engine.dialect.name == "sqlite" else ""
        raise JournalError(f"cannot open the journal{where}: {describe(e)}") from e


def describe(error: sa.exc.SQLAlchemyError) -> str:
    """A one-line message for a SQLAlchemy error (the driver's own text when there is one)."""
    orig = getattr(error, "orig", None)
    text = str(orig if orig is not None else error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class StorageErrors:
    """``with StorageErrors("append hand"): ...``: a SQLAlchemy error, or a damaged row the driver
    cannot decode (``ValueError``: SQLite text dates), raised inside becomes a JournalError
    naming the action (``cannot append hand: ...``); other exceptions pass unchanged.

    A plain context manager (not a ``contextlib`` generator): the journal's every read and
    write goes through one, and nothing calls back into the journal on the way out.
    """

    __slots__ = ("action",)

    def __init__(self, action: str) -> None:
        self.action = action

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if isinstance(error, sa.exc.SQLAlchemyError):
            raise JournalError(f"cannot {self.action}: {describe(error)}") from error
        if isinstance(error, ValueError):
            raise JournalError(
                f"cannot {self.action}: stored data is unreadable ({error})"
            ) from error
