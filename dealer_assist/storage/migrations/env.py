"""Alembic environment of the journal, driven by ``dealer_assist.storage.migrate``.

The caller passes an open SQLAlchemy connection, already inside the transaction that serializes
migrations, as ``config.attributes["connection"]``; there is no alembic.ini and no URL here.
New revision: ``alembic.command.revision(Config() with script_location set to this folder, ...)``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from dealer_assist.errors import JournalError

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise JournalError("journal migrations need an open connection in config.attributes")
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
