"""``dealer-assist floor migrate``: the floor's schema and the pit-boss application's tables
(users, access log; docs/PITBOSS.md) created or upgraded in one call, so the application itself
never needs to create tables.

A module of its own because it joins :class:`~dealer_assist.storage.floor.floor.Floor` and
:mod:`dealer_assist.storage.floor.access`, which is built on ``Floor``: the floor never imports
its pit-boss tables.
"""

from __future__ import annotations

from dealer_assist.storage.floor.access import migrate_access
from dealer_assist.storage.floor.floor import Floor


def migrate_floor(floor: Floor) -> str:
    """Create or upgrade ``floor``'s schema (:meth:`Floor.migrate_schema
    <dealer_assist.storage.floor.floor.Floor.migrate_schema>`), then the pit-boss tables
    (:func:`~dealer_assist.storage.floor.access.migrate_access`); returns the floor schema's
    revision. Open or not, ``floor`` is left as it was.

    Raises:
        FloorUnavailableError: the floor cannot be reached. FloorError: a schema newer than
            this program, or another database error.
    """
    revision = floor.migrate_schema()
    migrate_access(floor)
    return revision
