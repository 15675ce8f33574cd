"""The pit-boss users and access log in the floor database (``pitboss_users``,
``pitboss_access``; their own migrations in ``pitboss_migrations/`` with their own version
table, docs/PITBOSS.md). The log is insert-only: nothing here updates or deletes a line.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError

from dealer_assist.events import utc_now
from dealer_assist.pitboss.roles import parse_role
from dealer_assist.pitboss.users import AccessEntry, User
from dealer_assist.storage.floor.engine import make_floor_engine, translate
from dealer_assist.storage.floor.errors import FloorError
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.schema import UTCDateTime

MIGRATIONS_DIR = Path(__file__).with_name("pitboss_migrations")
ACCESS_HEAD = "p0001"
#: The pit-boss tables' alembic version table (``pitboss_migrations/env.py``).
VERSION_TABLE = "pitboss_alembic_version"
_LOCK_KEY = 0x7069746273  # pg_advisory_xact_lock key ("pitbs")

_meta = sa.MetaData()
pitboss_users = sa.Table(
    "pitboss_users",
    _meta,
    sa.Column("badge", sa.String(64), primary_key=True),
    sa.Column("role", sa.String(32), nullable=False),
    sa.Column("pin_hash", sa.Text, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("created_by", sa.String(64), nullable=True),
)
pitboss_access = sa.Table(
    "pitboss_access",
    _meta,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Column("badge", sa.String(64), nullable=False),
    sa.Column("role", sa.String(32), nullable=True),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("table_id", sa.String(64), nullable=True),
    sa.Column("position", sa.BigInteger, nullable=True),
    sa.Column("detail", sa.Text, nullable=False),
)


def migrate_access(floor: Floor) -> str:
    """Create or upgrade the pit-boss tables in ``floor``'s database; returns the revision.

    Raises:
        FloorUnavailableError: the floor cannot be reached. FloorError: another error.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    engine = make_floor_engine(floor.url, connect_timeout=floor.connect_timeout)
    try:
        with engine.begin() as conn:
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_LOCK_KEY)))
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
    except CommandError as e:
        raise FloorError(f"the pit-boss tables cannot be upgraded: {e}") from e
    except sa.exc.SQLAlchemyError as e:
        raise translate(e, "create the pit-boss tables") from e
    finally:
        engine.dispose()
    return ACCESS_HEAD


def check_access(floor: Floor) -> None:
    """Raise unless the pit-boss tables are at :data:`ACCESS_HEAD` (the application reads and
    writes them but never creates them: a pit boss's database user needs no CREATE).

    Raises:
        FloorError: the tables are missing or at another revision (the message names
            ``dealer-assist floor migrate``). FloorUnavailableError: the floor cannot be reached.
    """
    engine = make_floor_engine(floor.url, connect_timeout=floor.connect_timeout)
    try:
        with engine.connect() as conn:
            versions: list[str] = []
            if sa.inspect(conn).has_table(VERSION_TABLE):
                rows = conn.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}")
                versions = [str(r[0]) for r in rows]
    except sa.exc.SQLAlchemyError as e:
        raise translate(e, "open the pit-boss tables") from e
    finally:
        engine.dispose()
    if versions != [ACCESS_HEAD]:
        at = ", ".join(versions) or "missing"
        raise FloorError(
            f"the pit-boss tables of this floor are {at} (this program needs {ACCESS_HEAD}): "
            "run `dealer-assist floor migrate --floor URL` as a user allowed to create tables"
        )


class FloorAccess:
    """Users and access log of the floor ``floor`` (open; :func:`migrate_access` run once)."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor

    def get_user(self, badge: str) -> User | None:
        """The user of ``badge``, ``None`` if none."""
        with self.floor._transaction("read a user") as conn:
            row = conn.execute(
                sa.select(pitboss_users).where(pitboss_users.c.badge == badge)
            ).one_or_none()
        return None if row is None else User(row.badge, parse_role(row.role), row.pin_hash)

    def has_users(self) -> bool:
        """Whether any user is stored (none: the first ``user add`` is the bootstrap)."""
        with self.floor._transaction("count users") as conn:
            return conn.execute(sa.select(pitboss_users.c.badge).limit(1)).first() is not None

    def put_user(self, user: User, by: str | None) -> None:
        """Add or replace ``user``."""
        values = {
            "badge": user.badge,
            "role": user.role.value,
            "pin_hash": user.pin_hash,
            "created_at": utc_now(),
            "created_by": by,
        }
        with self.floor._transaction("store a user") as conn:
            conn.execute(sa.delete(pitboss_users).where(pitboss_users.c.badge == user.badge))
            conn.execute(sa.insert(pitboss_users).values(values))

    def record(self, entry: AccessEntry) -> None:
        """Insert ``entry`` (committed before this returns)."""
        with self.floor._transaction("write the access log") as conn:
            conn.execute(
                sa.insert(pitboss_access).values(
                    at=entry.at,
                    badge=entry.badge,
                    role=entry.role,
                    action=entry.action,
                    table_id=entry.table_id,
                    position=entry.position,
                    detail=entry.detail,
                )
            )

    def entries(self) -> list[AccessEntry]:
        """Every entry, oldest first."""
        with self.floor._transaction("read the access log") as conn:
            rows = conn.execute(sa.select(pitboss_access).order_by(pitboss_access.c.id)).all()
        return [
            AccessEntry(
                r.at,
                r.badge,
                r.role,
                r.action,
                r.table_id,
                None if r.position is None else int(r.position),
                r.detail,
            )
            for r in rows
        ]
