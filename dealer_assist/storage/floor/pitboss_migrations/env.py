"""Alembic environment of the pit-boss application's tables in a floor database (users, access
log, docs/PITBOSS.md), driven by :func:`dealer_assist.storage.floor.access.migrate_access`.

Their own version table (``pitboss_alembic_version``): the floor's schema check wants its own
version table to hold exactly its own revision, so these tables are a chain of their own.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from dealer_assist.errors import JournalError

VERSION_TABLE = "pitboss_alembic_version"

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise JournalError("pit-boss migrations need an open connection in config.attributes")
context.configure(connection=connection, target_metadata=None, version_table=VERSION_TABLE)
with context.begin_transaction():
    context.run_migrations()
