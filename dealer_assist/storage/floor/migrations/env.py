"""Alembic environment of the floor database, driven by
:func:`dealer_assist.storage.floor.engine.migrate` (separate from the table journal's).

The caller passes an open connection, inside the transaction that serializes migrations, as
``config.attributes["connection"]``; the version table is ``floor_alembic_version``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from dealer_assist.errors import JournalError

VERSION_TABLE = "floor_alembic_version"  # frozen copy of schema.VERSION_TABLE

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise JournalError("floor migrations need an open connection in config.attributes")
context.configure(connection=connection, target_metadata=None, version_table=VERSION_TABLE)
with context.begin_transaction():
    context.run_migrations()
