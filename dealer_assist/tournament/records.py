"""A tournament's records in the journal's hash chain (the same chain as its hands).

Every record is a table record (:mod:`dealer_assist.table.records`) whose ``record["tournament"]``
is the tournament's part: ``{"id": ..., "event": EVENT, ...the event's fields}``. Two shapes:

- what moves no chips is of kind ``"tournament"`` (:data:`~dealer_assist.ports.TOURNAMENT_KIND`),
  on the tournament's own desk (its ``table_id`` is the tournament's id: :data:`DESK` events)
  or on the table it concerns;
- what moves chips is the table's own record (``buy_in``: a seat taken with the starting stack
  or its first half, a player moved in, a rebuy after a bust undone; ``top_up``: a rebuy, an
  add-on, Double Chance's second half; ``leave``: a player moved out, or eliminated with
  nothing) with the tournament's part added, so any chip check along the journal reads it as a
  table's.

Each part also carries ``clock``: the tournament clock's state when it was written
(:class:`~dealer_assist.tournament.clock.ClockState`), so a restart finds the clock where the
last record left it and runs the settled hands after it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_assist.events import iso_utc, utc_now
from dealer_assist.games.session import TableSession
from dealer_assist.ports import TOURNAMENT_KIND, JournalPort, StoredHand
from dealer_assist.table.records import journal_table_record, tournament_part

# -- events ---------------------------------------------------------------------------------
OPENED = "opened"  # the structure, the seed, the tables (desk)
REGISTERED = "registered"  # a player's entry and its purchase (desk)
SEAT_DRAW = "seat_draw"  # the seeded draw: player -> table and seat (desk)
STARTED = "started"  # the clock starts (desk)
SEATED = "seated"  # a buy_in record: the starting stack (or its first half)
REBUY = "rebuy"  # a top_up record with its purchase
ADDON = "addon"  # a top_up record with its purchase
SECOND_HALF = "second_half"  # a top_up record: Double Chance's second half
MOVED_OUT = "moved_out"  # a leave record: balancing or a table broken
MOVED_IN = "moved_in"  # a buy_in record at the new table
ELIMINATED = "eliminated"  # a leave record of a player with no chips left
UNDONE = "bust_undone"  # the director takes back an elimination (desk)
# the director takes back a rebuy or add-on before its chips were played: a leave record with
# the purchase (``stage`` "out"), then a buy_in record with the stack less its chips ("in"); a
# stack left with nothing is out, the leave record's ``elimination`` ranking it
PURCHASE_UNDONE = "purchase_undone"
BUTTON = "button_drawn"  # the table's record of its first button (Hold'em), seeded
SAT_OUT = "sat_out"  # tournament sit-out: dealt in, folded (table)
SAT_IN = "sat_in"  # back from the next hand (table)
BREAK = "break"  # a break ran (desk): the clock after it
LEVEL = "level"  # a new level in force from the next hand (desk): its amounts
PAUSED = "paused"  # the director's pause (desk)
RESUMED = "resumed"  # the clock runs again (desk)
FINISHED = "finished"  # the ranking and the prizes (desk)
# the heats formula: each table of the seat draw a heat, played to its qualifiers
QUALIFIED = "qualified"  # a leave record: a qualifier off their heat's table (or desk)
FINAL_DRAW = "final_draw"  # the final's seeded draw and its tables (desk)
FINAL_SEATED = "final_seated"  # a buy_in record: a finalist with the fresh starting stack
FINAL_STARTED = "final_started"  # the final's clock starts at level 1 (desk)

DESK_EVENTS = frozenset(
    {
        OPENED,
        REGISTERED,
        SEAT_DRAW,
        STARTED,
        UNDONE,
        BREAK,
        LEVEL,
        PAUSED,
        RESUMED,
        FINISHED,
        FINAL_DRAW,
        FINAL_STARTED,
    }
)


def journal_event(
    journal: JournalPort,
    table_id: str,
    part: Mapping[str, Any],
    session: TableSession,
    *,
    by: str,
    game: str,
) -> StoredHand:
    """Append a record that moves no chips (kind ``"tournament"``) with ``part`` and the table's
    ``session`` as it is.

    Raises:
        TableError: ``session`` is not ``table_id``'s. JournalError: the journal refuses it.
    """
    payload = {"tournament": dict(part), "by": by, "at": iso_utc(utc_now())}
    return journal_table_record(journal, table_id, TOURNAMENT_KIND, payload, session, game=game)


def part_of(stored: StoredHand, tournament_id: str) -> dict[str, Any] | None:
    """The tournament part of ``stored`` when it is one of ``tournament_id``'s records."""
    part = tournament_part(stored)
    if part is None or part.get("id") != tournament_id:
        return None
    return part
