"""The floor's engine (PostgreSQL through psycopg, finite timeouts) and its migrations.

Every wait on the floor is bounded: connecting (``connect_timeout``), each statement
(``statement_timeout``), and a server that vanished mid-transaction (TCP keepalives and
``tcp_user_timeout``), so a forwarder thread never hangs on an unplugged floor.
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError
from sqlalchemy.engine import URL, Engine

from dealer_assist.storage.engine import describe
from dealer_assist.storage.floor.errors import FloorError, FloorUnavailableError
from dealer_assist.storage.floor.schema import SCHEMA_HEAD, VERSION_TABLE

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATE_LOCK_KEY = 0x666C6F6F72  # pg_advisory_xact_lock key ("floor")
CONNECT_TIMEOUT_S = 5
STATEMENT_TIMEOUT_MS = 30_000
# a dead server is noticed within about idle + interval x count seconds, and unacknowledged
# writes within tcp_user_timeout
_KEEPALIVE = {
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    "tcp_user_timeout": 10_000,
}


def floor_url(url: str) -> URL:
    """The SQLAlchemy URL of a floor database (``postgresql+psycopg://user@host:port/db``;
    a plain ``postgresql://`` URL gets the psycopg driver; add
    ``?options=-csearch_path%3DSCHEMA`` for a schema other than ``public``).

    Raises:
        FloorError: not a URL, or not PostgreSQL (the floor is a PostgreSQL database).
    """
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError as e:
        raise FloorError(f"not a floor database URL: {url!r}") from e
    if parsed.get_backend_name() != "postgresql":
        raise FloorError(
            f"the floor database must be PostgreSQL (postgresql+psycopg://...), got {url!r}"
        )
    if parsed.get_driver_name() != "psycopg":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_floor_engine(url: URL, *, connect_timeout: float = CONNECT_TIMEOUT_S) -> Engine:
    """An engine for the floor at ``url`` (nothing connected yet); the URL's own ``options``
    (a search_path) are kept and a statement timeout added."""
    given = url.query.get("options", "")
    given = " ".join(given) if isinstance(given, tuple) else given
    options = f"{given} -c statement_timeout={STATEMENT_TIMEOUT_MS}".strip()
    return sa.create_engine(
        url.difference_update_query(["options"]),
        pool_pre_ping=True,  # a connection killed while idle in the pool is replaced, not used
        pool_size=2,
        connect_args={
            "connect_timeout": max(1, round(connect_timeout)),
            "options": options,
            **_KEEPALIVE,
        },
    )


def migrate(engine: Engine) -> str:
    """Bring the floor schema to the newest revision; returns it. Serialized by an advisory
    lock, so two tables migrating a new floor at once do not both create it.

    Raises:
        FloorUnavailableError: the floor cannot be reached. FloorError: a schema newer than
            this program, or another database error.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    try:
        with engine.begin() as conn:
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATE_LOCK_KEY)))
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
    except CommandError as e:
        raise FloorError(f"floor schema cannot be upgraded (newer program needed?): {e}") from e
    except sa.exc.SQLAlchemyError as e:
        raise translate(e, "migrate the floor database") from e
    return SCHEMA_HEAD


def check_schema(engine: Engine) -> None:
    """Raise unless the floor's schema is the one this program writes.

    Raises:
        FloorError: no floor schema (run ``dealer-assist floor migrate``), or another revision.
        FloorUnavailableError: the floor cannot be reached.
    """
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table(VERSION_TABLE):
                raise FloorError(
                    "no floor schema in this database: run `dealer-assist floor migrate`"
                )
            rows = conn.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}")
            versions = [r[0] for r in rows]
    except sa.exc.SQLAlchemyError as e:
        raise translate(e, "open the floor database") from e
    if versions != [SCHEMA_HEAD]:
        raise FloorError(
            f"the floor schema is at {', '.join(versions) or 'no revision'}, this program "
            f"needs {SCHEMA_HEAD}: run `dealer-assist floor migrate`"
        )


def translate(error: sa.exc.SQLAlchemyError, action: str) -> FloorError:
    """A SQLAlchemy error as a FloorError sentence; connection failures (refused, timed out,
    terminated backend) as :class:`FloorUnavailableError`. The URL is never quoted (it may
    hold a password)."""
    text = f"cannot {action}: {describe(error)}"
    if isinstance(error, sa.exc.OperationalError | sa.exc.InterfaceError) or getattr(
        error, "connection_invalidated", False
    ):
        return FloorUnavailableError(text)
    return FloorError(text)


def translate_driver(error: psycopg.Error, action: str) -> FloorError:
    """A psycopg error (from a driver-level operation such as ``COPY``) as :func:`translate`
    does a SQLAlchemy one."""
    lines = str(error).strip().splitlines()
    text = f"cannot {action}: {lines[0] if lines else type(error).__name__}"
    if isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
        return FloorUnavailableError(text)
    return FloorError(text)
