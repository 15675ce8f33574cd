"""Table records: a change made to the table between hands, chained into the journal.

A buy-in, a top-up, a sit-out, a return, a player leaving, the button placed, a new dealer on
the box (kind ``dealer_change``, :mod:`dealer_assist.table.dealers`): money or table state that
must survive a crash and be auditable. Each is one journal entry in the same hash
chain as the hands (status ``"table"``, :data:`~dealer_assist.ports.TABLE_RECORD`):

- ``record``: ``{"kind": KIND, ...payload}`` (seat, amount in minor units, name, ``by``, ``at``);
- ``extra["session"]``: the table session after the change, so
  :meth:`TableSession.of_journal <dealer_assist.games.session.TableSession.of_journal>` restores
  the table from the last entry whatever its kind;
- ``started_at == ended_at``: the time of the change; no settlement, no device events;
- ``hand_uid``: ``<table>-table-<hex>``, unique: appending the same uid again (a retry after a
  crash) returns the record already stored instead of recording the change twice.

A tournament's records are table records as well (:func:`tournament_part`): ``record["kind"]``
``"tournament"`` for what moves no chips (a registration, the seat draw, a level, an
elimination), or the table's own kind (``buy_in``, ``top_up``) for a seat taken with the
starting stack or a rebuy's chips, so a chip check along the journal reads them as any table's;
either way ``record["tournament"]`` says what it was to the tournament.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from dealer_assist.errors import TableError
from dealer_assist.events import utc_now
from dealer_assist.games.session import TableSession
from dealer_assist.ports import TABLE_RECORD, TOURNAMENT_KIND, HandEntry, JournalPort, StoredHand


def is_table_record(stored: StoredHand) -> bool:
    """The journal entry is a table record, not a hand."""
    return stored.status == TABLE_RECORD


def tournament_part(stored: StoredHand) -> dict[str, Any] | None:
    """The tournament part of a journal entry (``record["tournament"]``: ``id``, ``event`` and
    the event's fields), None for a hand or a table record outside a tournament."""
    if stored.status != TABLE_RECORD:
        return None
    part = stored.record.get("tournament")
    return part if isinstance(part, dict) else None


def is_tournament_record(stored: StoredHand) -> bool:
    """A tournament record that moves no chips (kind ``"tournament"``)."""
    return stored.status == TABLE_RECORD and stored.record.get("kind") == TOURNAMENT_KIND


def journal_table_record(
    journal: JournalPort,
    table_id: str,
    kind: str,
    payload: Mapping[str, Any],
    session: TableSession,
    *,
    game: str = TABLE_RECORD,
    uid: str | None = None,
) -> StoredHand:
    """Append one table record (``kind``, ``payload``) with the ``session`` after it.

    Args:
        game: the table's game code for the entry's ``game`` column (default ``"table"``).
        uid: the record's unique id (default: a new one); pass the same uid to retry an append
            whose outcome is unknown.
    The time is ``payload["at"]`` (ISO-8601 with offset) when given, else now.

    Raises:
        TableError: ``session`` is another table's, or ``payload["at"]`` is not an ISO time.
        JournalError: the journal refuses or cannot store it (names the field).
    """
    if session.table_id != table_id:
        raise TableError(None, f"the session is table {session.table_id!r}'s, not {table_id!r}")
    at = _at(payload.get("at"))
    entry = HandEntry(
        table_id=table_id,
        game=game,
        started_at=at,
        ended_at=at,
        status=TABLE_RECORD,
        record={"kind": kind, **payload},
        extra={"session": session.to_json()},
        hand_uid=uid or f"{table_id}-table-{uuid.uuid4().hex}",
    )
    return journal.append_hand(entry)


def journal_change(
    journal: JournalPort,
    session: TableSession,
    *,
    game: str = TABLE_RECORD,
    uid: str | None = None,
) -> StoredHand:
    """Journal the change a table operation returned (``session.change``) with that session.

    Raises:
        TableError: ``session`` carries no change (it did not come from a table operation).
        JournalError: as :func:`journal_table_record`.
    """
    change = session.change
    if change is None:
        raise TableError(None, "the session carries no table change to journal")
    return journal_table_record(
        journal, session.table_id, change.kind, change.payload, session, game=game, uid=uid
    )


def _at(text: Any) -> datetime:
    if text is None:
        return utc_now()
    try:
        at = datetime.fromisoformat(str(text))
    except ValueError as e:
        raise TableError(None, f"at: not an ISO-8601 time: {text!r}") from e
    if at.tzinfo is None:
        raise TableError(None, f"at: needs a UTC offset: {text!r}")
    return at
